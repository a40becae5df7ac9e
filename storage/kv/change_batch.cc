#include "storage/kv/change_batch.h"

#include <cstring>

#include "util/bytes.h"

namespace lbt {

namespace {

constexpr char kOpPut = 0;
constexpr char kOpDelete = 1;
// Store tag, op and the key's length.
constexpr size_t kChangeHeadBytes = 6;

}  // namespace

std::string_view KeyAtLess::KeyAt(uint32_t offset) const {
  const char* change = body->data() + offset;
  return {change + kChangeHeadBytes, static_cast<uint32_t>(DecodeBigEndian({change + 2, 4}))};
}

struct ChangeBatch::State {
  State()
      : index{std::set<uint32_t, KeyAtLess>(KeyAtLess{&body}), std::set<uint32_t, KeyAtLess>(KeyAtLess{&body}),
              std::set<uint32_t, KeyAtLess>(KeyAtLess{&body})} {
    body.assign(kRecordHeaderRoom, '\0');
  }

  std::string body;
  // Per store (StoreIndex), the offset of each key's change in effect.
  std::set<uint32_t, KeyAtLess> index[3];
  size_t superseded = 0;  // changes in the body no longer in effect

  // How to take one change back: the key's change in effect before it,
  // if any.
  struct Undo {
    int slot;
    uint32_t offset;
    std::optional<uint32_t> previous;
  };
  bool saving = false;
  size_t saved_size = 0;
  std::vector<Undo> undo;
};

ChangeBatch::ChangeBatch() : state_(std::make_unique<State>()) {}
ChangeBatch::~ChangeBatch() = default;
ChangeBatch::ChangeBatch(ChangeBatch&&) noexcept = default;
ChangeBatch& ChangeBatch::operator=(ChangeBatch&&) noexcept = default;

bool ChangeBatch::empty() const { return state_->body.size() == kRecordHeaderRoom; }

const std::set<uint32_t, KeyAtLess>& ChangeBatch::IndexOf(StoreTag tag) const { return state_->index[StoreIndex(tag)]; }

ChangeBatch::Change ChangeBatch::ChangeAt(uint32_t offset) const {
  const char* change = state_->body.data() + offset;
  const uint32_t key_size = static_cast<uint32_t>(DecodeBigEndian({change + 2, 4}));
  Change out{{change + kChangeHeadBytes, key_size}, std::nullopt};
  if (change[1] == kOpPut) {
    const char* value = change + kChangeHeadBytes + key_size;
    out.value = std::string_view(value + 4, static_cast<uint32_t>(DecodeBigEndian({value, 4})));
  }
  return out;
}

void ChangeBatch::Record(StoreTag tag, std::string_view key, std::optional<std::string_view> value) {
  State& s = *state_;
  const uint32_t offset = static_cast<uint32_t>(s.body.size());
  s.body.push_back(static_cast<char>(tag));
  s.body.push_back(value ? kOpPut : kOpDelete);
  AppendBigEndian(&s.body, key.size(), 4);
  s.body.append(key);
  if (value) {
    AppendBigEndian(&s.body, value->size(), 4);
    s.body.append(*value);
  }
  const int slot = StoreIndex(tag);
  auto& index = s.index[slot];
  // Writes mostly change keys in increasing order (a row's cells sorted,
  // a request's rows): past the last key, no search.
  auto it = index.empty() || CompareBytes(index.key_comp().KeyAt(*index.rbegin()), key) < 0 ? index.end()
                                                                                            : index.lower_bound(key);
  std::optional<uint32_t> previous;
  if (it != index.end() && index.key_comp().KeyAt(*it) == key) {
    previous = *it;
    it = index.erase(it);
    ++s.superseded;
  }
  index.insert(it, offset);
  if (s.saving) s.undo.push_back({slot, offset, previous});
}

void ChangeBatch::Put(StoreTag tag, std::string_view key, std::string_view value) { Record(tag, key, value); }

void ChangeBatch::Delete(StoreTag tag, std::string_view key) { Record(tag, key, std::nullopt); }

std::optional<ChangeBatch::Change> ChangeBatch::Find(StoreTag tag, std::string_view key) const {
  const auto& index = IndexOf(tag);
  // Outside the batch's first and last keys (the usual miss: another
  // write's rows), no search.
  if (index.empty() || CompareBytes(key, index.key_comp().KeyAt(*index.begin())) < 0 ||
      CompareBytes(key, index.key_comp().KeyAt(*index.rbegin())) > 0) {
    return std::nullopt;
  }
  auto it = index.find(key);
  if (it == index.end()) return std::nullopt;
  return ChangeAt(*it);
}

void ChangeBatch::SetSavepoint() {
  State& s = *state_;
  s.saving = true;
  s.saved_size = s.body.size();
  s.undo.clear();
}

void ChangeBatch::RollBack() {
  State& s = *state_;
  if (!s.saving) return;
  for (auto it = s.undo.rbegin(); it != s.undo.rend(); ++it) {
    auto& index = s.index[it->slot];
    index.erase(index.find(index.key_comp().KeyAt(it->offset)));
    if (it->previous) {
      index.insert(*it->previous);
      --s.superseded;
    }
  }
  s.undo.clear();
  s.body.resize(s.saved_size);
}

std::string_view ChangeBatch::SealRecord(std::string_view header) {
  if (state_->superseded > 0) {
    // Rewritten from the indexes: each key once, as the record needs.
    ChangeBatch compact;
    for (StoreTag tag : kAllStoreTags) {
      ForEach(tag, [&](const Change& c) { compact.Record(tag, c.key, c.value); });
    }
    *this = std::move(compact);
  }
  std::memcpy(state_->body.data(), header.data(), kRecordHeaderRoom);
  return state_->body;
}

// A batch's changes to one store as a layer of a merged read.
class ChangeBatch::Iterator final : public KeyIterator {
 public:
  Iterator(const ChangeBatch* batch, const std::set<uint32_t, KeyAtLess>* index)
      : batch_(batch), index_(index), it_(index->end()) {}

  void Seek(std::string_view target) override { it_ = index_->lower_bound(target); }
  void SeekForPrev(std::string_view target) override {
    it_ = index_->upper_bound(target);
    Back();
  }
  void SeekToFirst() override { it_ = index_->begin(); }
  void SeekToLast() override {
    it_ = index_->end();
    Back();
  }
  void Next() override { ++it_; }
  void Prev() override { Back(); }

  bool Valid() const override { return it_ != index_->end(); }
  const Status& status() const override { return status_; }
  std::string_view key() const override { return index_->key_comp().KeyAt(*it_); }
  std::string_view value() const override { return batch_->ChangeAt(*it_).value.value_or(std::string_view()); }
  bool deleted() const override { return !batch_->ChangeAt(*it_).value.has_value(); }
  bool value_in_map() const override { return false; }

 private:
  // One step back from it_, or invalid when it_ is the first.
  void Back() { it_ = it_ == index_->begin() ? index_->end() : std::prev(it_); }

  const ChangeBatch* batch_;
  const std::set<uint32_t, KeyAtLess>* index_;
  std::set<uint32_t, KeyAtLess>::const_iterator it_;
  Status status_;
};

std::unique_ptr<KeyIterator> ChangeBatch::NewIterator(StoreTag tag) const {
  return std::make_unique<Iterator>(this, &IndexOf(tag));
}

}  // namespace lbt
