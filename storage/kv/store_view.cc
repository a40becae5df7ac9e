#include "storage/kv/store_view.h"

#include "storage/kv/merging_iterator.h"

namespace lbt {

// ---- StoreView ----

namespace {

// Looks `key` up in a batch: nullopt when the batch has not changed it.
std::optional<bool> FindIn(const ChangeBatch& batch, StoreTag tag, std::string_view key, std::string_view* value) {
  std::optional<ChangeBatch::Change> change = batch.Find(tag, key);
  if (!change) return std::nullopt;
  if (!change->value) return false;
  *value = *change->value;
  return true;
}

}  // namespace

Result<bool> StoreView::Get(std::string_view key, std::string_view* value) const {
  if (batch_ != nullptr) {
    if (std::optional<bool> found = FindIn(*batch_, tag_, key, value)) return *found;
  }
  if (earlier_ != nullptr) {
    for (auto it = earlier_->rbegin(); it != earlier_->rend(); ++it) {
      if (std::optional<bool> found = FindIn(*it, tag_, key, value)) return *found;
    }
  }
  if (layers_ != nullptr) {
    for (const auto& table : layers_->tables) {
      switch (table->Get(tag_, key, seq_, value)) {
        case MemTable::Found::kValue: return true;
        case MemTable::Found::kDeleted: return false;
        case MemTable::Found::kAbsent: break;
      }
    }
  }
  return store_->Get(txn_, key, value);
}

Status StoreView::Put(std::string_view key, std::string_view value) const {
  if (batch_ == nullptr) return store_->Put(txn_, key, value);
  batch_->Put(tag_, key, value);
  return Status::OK();
}

Status StoreView::PutNew(std::string_view key, std::string_view value) const {
  if (batch_ == nullptr) return store_->PutNew(txn_, key, value);
  batch_->Put(tag_, key, value);
  return Status::OK();
}

Result<bool> StoreView::Delete(std::string_view key) const {
  if (batch_ == nullptr) return store_->Delete(txn_, key);
  std::string_view existing;
  LBT_ASSIGN_OR_RETURN(bool found, Get(key, &existing));
  if (found) batch_->Delete(tag_, key);
  return found;
}

Result<std::unique_ptr<KeyIterator>> StoreView::NewIterator() const {
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<OrderedStore::Iterator> base, store_->NewIterator(txn_));
  if (direct()) return std::unique_ptr<KeyIterator>(std::move(base));
  // An empty memtable is left out: what is added to it later comes from a
  // later group of writes, numbered past what a read sees, and after a
  // write's own view is done with (its group's earlier writes are in
  // `earlier_`).
  std::vector<std::unique_ptr<KeyIterator>> layers;
  if (batch_ != nullptr) layers.push_back(batch_->NewIterator(tag_));
  if (earlier_ != nullptr) {
    for (auto it = earlier_->rbegin(); it != earlier_->rend(); ++it) {
      layers.push_back(it->NewIterator(tag_));
    }
  }
  if (layers_ != nullptr) {
    for (const auto& table : layers_->tables) {
      if (table->entries() > 0) layers.push_back(table->NewIterator(tag_, seq_));
    }
  }
  layers.push_back(std::move(base));
  return NewMergingIterator(std::move(layers));
}

}  // namespace lbt
