#include "storage/kv/merging_iterator.h"

#include <string>

namespace lbt {

namespace {

class MergingIterator final : public KeyIterator {
 public:
  explicit MergingIterator(std::vector<std::unique_ptr<KeyIterator>> layers) : layers_(std::move(layers)) {}

  void Seek(std::string_view target) override {
    for (auto& l : layers_) l->Seek(target);
    forward_ = true;
    Settle();
  }
  void SeekForPrev(std::string_view target) override {
    for (auto& l : layers_) l->SeekForPrev(target);
    forward_ = false;
    Settle();
  }
  void SeekToFirst() override {
    for (auto& l : layers_) l->SeekToFirst();
    forward_ = true;
    Settle();
  }
  void SeekToLast() override {
    for (auto& l : layers_) l->SeekToLast();
    forward_ = false;
    Settle();
  }
  void Next() override {
    if (!forward_) TurnForward();
    StepPast();
    Settle();
  }
  void Prev() override {
    if (forward_) TurnBackward();
    StepPast();
    Settle();
  }

  bool Valid() const override { return current_ != nullptr; }
  const Status& status() const override { return status_; }
  std::string_view key() const override { return current_->key(); }
  std::string_view value() const override { return current_->value(); }
  bool value_in_map() const override { return current_->value_in_map(); }

 private:
  // The layer whose key comes first in the direction of travel, the newest
  // such on a tie; nullptr when every layer is exhausted or failed.
  KeyIterator* Front() {
    KeyIterator* best = nullptr;
    for (auto& l : layers_) {
      if (!l->Valid()) continue;
      if (best == nullptr) {
        best = l.get();
        continue;
      }
      const int c = l->key().compare(best->key());
      if (forward_ ? c < 0 : c > 0) best = l.get();
    }
    return best;
  }
  // Moves every layer standing on the current key one step on.
  void StepPast() {
    key_.assign(current_->key());
    for (auto& l : layers_) {
      if (!l->Valid() || l->key() != key_) continue;
      if (forward_) {
        l->Next();
      } else {
        l->Prev();
      }
    }
  }
  // Stops on the front key unless its newest entry is a deletion, which
  // hides the key: then steps past it and looks again.
  void Settle() {
    while (true) {
      if (!CheckLayers()) return;
      current_ = Front();
      if (current_ == nullptr || !current_->deleted()) return;
      StepPast();
    }
  }
  // After a backward walk: every layer onto the first key after the
  // current one, so that Next moves on from it.
  void TurnForward() {
    key_.assign(current_->key());
    for (auto& l : layers_) l->Seek(key_);  // those on the key, StepPast moves on
    forward_ = true;
    current_ = Front();
  }
  void TurnBackward() {
    key_.assign(current_->key());
    for (auto& l : layers_) l->SeekForPrev(key_);
    forward_ = false;
    current_ = Front();
  }
  // False, with the first layer's error as the iterator's, when one failed.
  bool CheckLayers() {
    for (auto& l : layers_) {
      if (!l->status().ok()) {
        status_ = l->status();
        current_ = nullptr;
        return false;
      }
    }
    return true;
  }

  std::vector<std::unique_ptr<KeyIterator>> layers_;
  KeyIterator* current_ = nullptr;
  bool forward_ = true;
  std::string key_;  // a copy of the current key while layers move
  Status status_;
};

}  // namespace

std::unique_ptr<KeyIterator> NewMergingIterator(std::vector<std::unique_ptr<KeyIterator>> layers) {
  if (layers.size() == 1) return std::move(layers[0]);
  return std::make_unique<MergingIterator>(std::move(layers));
}

}  // namespace lbt
