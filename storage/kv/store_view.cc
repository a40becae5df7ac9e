#include "storage/kv/store_view.h"

#include "storage/kv/merging_iterator.h"

namespace lbt {

// ---- ChangeBatch ----

void ChangeBatch::Change(StoreTag tag, std::string_view key, std::optional<std::string_view> value) {
  Changes& c = changes(tag);
  auto it = c.lower_bound(key);
  const bool existed = it != c.end() && it->first == key;
  if (existed) {
    if (saving_) undo_.push_back({tag, it, true, std::move(it->second)});
    it->second = value ? std::optional<std::string>(*value) : std::nullopt;
    return;
  }
  it = c.emplace_hint(it, std::string(key), value ? std::optional<std::string>(*value) : std::nullopt);
  if (saving_) undo_.push_back({tag, it, false, std::nullopt});
}

void ChangeBatch::Put(StoreTag tag, std::string_view key, std::string_view value) { Change(tag, key, value); }

void ChangeBatch::Delete(StoreTag tag, std::string_view key) { Change(tag, key, std::nullopt); }

void ChangeBatch::SetSavepoint() {
  saving_ = true;
  undo_.clear();
}

void ChangeBatch::RollBack() {
  for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) {
    if (it->existed) {
      it->entry->second = std::move(it->previous);
    } else {
      changes(it->tag).erase(it->entry);
    }
  }
  undo_.clear();
}

namespace {

// A batch's changes to one store as a layer of a merged read.
class BatchIterator final : public KeyIterator {
 public:
  explicit BatchIterator(const ChangeBatch::Changes* changes) : changes_(changes), it_(changes->end()) {}

  void Seek(std::string_view target) override { it_ = changes_->lower_bound(target); }
  void SeekForPrev(std::string_view target) override {
    it_ = changes_->upper_bound(target);
    Back();
  }
  void SeekToFirst() override { it_ = changes_->begin(); }
  void SeekToLast() override {
    it_ = changes_->end();
    Back();
  }
  void Next() override { ++it_; }
  void Prev() override { Back(); }

  bool Valid() const override { return it_ != changes_->end(); }
  const Status& status() const override { return status_; }
  std::string_view key() const override { return it_->first; }
  std::string_view value() const override { return it_->second ? std::string_view(*it_->second) : ""; }
  bool deleted() const override { return !it_->second.has_value(); }
  bool value_in_map() const override { return false; }

 private:
  // One step back from it_, or invalid when it_ is the first.
  void Back() { it_ = it_ == changes_->begin() ? changes_->end() : std::prev(it_); }

  const ChangeBatch::Changes* changes_;
  ChangeBatch::Changes::const_iterator it_;
  Status status_;
};

}  // namespace

// ---- StoreView ----

namespace {

// Looks `key` up in a batch: nullopt when the batch has not changed it.
std::optional<bool> FindIn(const ChangeBatch& batch, StoreTag tag, std::string_view key, std::string_view* value) {
  const ChangeBatch::Changes& c = batch.changes(tag);
  auto it = c.find(key);
  if (it == c.end()) return std::nullopt;
  if (!it->second) return false;
  *value = *it->second;
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
  if (batch_ != nullptr) layers.push_back(std::make_unique<BatchIterator>(&batch_->changes(tag_)));
  if (earlier_ != nullptr) {
    for (auto it = earlier_->rbegin(); it != earlier_->rend(); ++it) {
      layers.push_back(std::make_unique<BatchIterator>(&it->changes(tag_)));
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
