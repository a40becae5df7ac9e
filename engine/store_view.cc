#include "engine/store_view.h"

#include "engine/merging_iterator.h"

namespace lbt {

// ---- ChangeBatch ----

void ChangeBatch::Remember(StoreTag tag, std::string_view key) {
  if (!saving_) return;
  const Changes& c = changes(tag);
  auto it = c.find(key);
  Undo undo{tag, std::string(key), it != c.end(), std::nullopt};
  if (undo.existed) undo.previous = it->second;
  undo_.push_back(std::move(undo));
}

void ChangeBatch::Put(StoreTag tag, std::string_view key, std::string_view value) {
  Remember(tag, key);
  changes(tag).insert_or_assign(std::string(key), std::optional<std::string>(value));
}

void ChangeBatch::Delete(StoreTag tag, std::string_view key) {
  Remember(tag, key);
  changes(tag).insert_or_assign(std::string(key), std::nullopt);
}

void ChangeBatch::SetSavepoint() {
  saving_ = true;
  undo_.clear();
}

void ChangeBatch::RollBack() {
  for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) {
    Changes& c = changes(it->tag);
    if (it->existed) {
      c.insert_or_assign(it->key, it->previous);
    } else {
      c.erase(it->key);
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

Result<bool> StoreView::Get(std::string_view key, std::string_view* value) const {
  if (batch_ != nullptr) {
    const ChangeBatch::Changes& c = batch_->changes(tag_);
    auto it = c.find(key);
    if (it != c.end()) {
      if (!it->second) return false;
      *value = *it->second;
      return true;
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
  std::vector<std::unique_ptr<KeyIterator>> layers;
  if (batch_ != nullptr) layers.push_back(std::make_unique<BatchIterator>(&batch_->changes(tag_)));
  if (layers_ != nullptr) {
    for (const auto& table : layers_->tables) layers.push_back(table->NewIterator(tag_, seq_));
  }
  layers.push_back(std::move(base));
  return NewMergingIterator(std::move(layers));
}

}  // namespace lbt
