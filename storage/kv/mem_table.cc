#include "storage/kv/mem_table.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstring>
#include <functional>
#include <new>

#include "util/bytes.h"

namespace lbt {

// A node, in one allocation: this header, its links (one per level), the
// store's tag and the key, then the value. Sizes and flags are packed so
// that a node visited by a search is mostly one cache line: the header
// and the start of its key.
struct MemTable::Node {
  uint32_t key_size_and_height;    // the tagged key's bytes (low 24 bits), the height (high 8)
  uint32_t value_size_and_delete;  // the value's bytes (low 31 bits), whether a deletion (high bit)
  uint64_t seq;
  // Links, one per level; the node is allocated with room for its height.
  std::atomic<Node*> next[1];

  static constexpr uint32_t kMaxKeyBytes = (1u << 24) - 1;
  static constexpr uint32_t kMaxValueBytes = (1u << 31) - 1;

  int height() const { return static_cast<int>(key_size_and_height >> 24); }
  // The store's tag, then the key.
  std::string_view key() const {
    return {reinterpret_cast<const char*>(&next[height()]), key_size_and_height & kMaxKeyBytes};
  }
  std::string_view value() const {
    return {key().data() + (key_size_and_height & kMaxKeyBytes), value_size_and_delete & kMaxValueBytes};
  }
  bool deleted() const { return (value_size_and_delete >> 31) != 0; }
  Node* Next(int level) const { return next[level].load(std::memory_order_acquire); }
  void SetNext(int level, Node* node) { next[level].store(node, std::memory_order_release); }
  char tag() const { return key()[0]; }
};

namespace {

constexpr size_t kBlockBytes = 1 << 20;

// A node's tagged key against a tag and a key, as byte strings.
int CompareTagged(std::string_view tagged, char tag, std::string_view key) {
  if (tagged[0] != tag) return static_cast<unsigned char>(tagged[0]) < static_cast<unsigned char>(tag) ? -1 : 1;
  return CompareBytes(tagged.substr(1), key);
}

// (a.key, a.seq) against (tag + key, seq): keys ascending, then sequences
// descending, so that a key's newest entry comes first.
template <typename NodeT>
int Compare(const NodeT* a, char tag, std::string_view key, uint64_t seq) {
  if (const int c = CompareTagged(a->key(), tag, key); c != 0) return c;
  if (a->seq > seq) return -1;
  return a->seq < seq ? 1 : 0;
}

}  // namespace

MemTable::MemTable() : bloom_(new std::atomic<uint64_t>[kBloomWords]) {
  for (size_t i = 0; i < kBloomWords; ++i) bloom_[i].store(0, std::memory_order_relaxed);
  memory_bytes_.store(kBloomWords * 8, std::memory_order_relaxed);
  head_ = NewNode(0, {}, 0, false, {}, kMaxHeight);
  for (int i = 0; i < kMaxHeight; ++i) {
    head_->next[i].store(nullptr, std::memory_order_relaxed);
    finger_[i] = head_;
  }
}

MemTable::~MemTable() = default;

char* MemTable::Allocate(size_t bytes) {
  bytes = (bytes + 7) & ~size_t{7};
  if (bytes > kBlockBytes / 4) {
    // A big value gets a block of its own, wasting nothing of the current one.
    blocks_.push_back(std::unique_ptr<char[]>(new char[bytes]));
    memory_bytes_.fetch_add(bytes, std::memory_order_relaxed);
    return blocks_.back().get();
  }
  if (bytes > block_left_) {
    blocks_.push_back(std::unique_ptr<char[]>(new char[kBlockBytes]));
    block_next_ = blocks_.back().get();
    block_left_ = kBlockBytes;
    memory_bytes_.fetch_add(kBlockBytes, std::memory_order_relaxed);
  }
  char* out = block_next_;
  block_next_ += bytes;
  block_left_ -= bytes;
  return out;
}

MemTable::Node* MemTable::NewNode(char tag, std::string_view key, uint64_t seq, bool deleted, std::string_view value,
                                  int height) {
  const size_t header_bytes = offsetof(Node, next) + sizeof(std::atomic<Node*>) * height;
  const size_t key_bytes = tag == 0 ? 0 : key.size() + 1;  // the head has no key
  // Bigtable's limits keep keys (a row key, a qualifier) and values (a
  // cell, or a write's change record) far below what the sizes hold.
  assert(key_bytes <= Node::kMaxKeyBytes && value.size() <= Node::kMaxValueBytes);
  char* memory = Allocate(header_bytes + key_bytes + value.size());
  Node* node = new (memory) Node{static_cast<uint32_t>(key_bytes) | static_cast<uint32_t>(height) << 24,
                                 static_cast<uint32_t>(value.size()) | (deleted ? 1u << 31 : 0u),
                                 seq,
                                 {}};
  for (int i = 1; i < height; ++i) new (&node->next[i]) std::atomic<Node*>(nullptr);
  char* key_copy = memory + header_bytes;
  if (key_bytes > 0) {
    key_copy[0] = tag;
    if (!key.empty()) std::memcpy(key_copy + 1, key.data(), key.size());
  }
  if (!value.empty()) std::memcpy(key_copy + key_bytes, value.data(), value.size());
  return node;
}

int MemTable::RandomHeight() {
  int height = 1;
  while (height < kMaxHeight && rng_() % 4 == 0) ++height;
  return height;
}

MemTable::Node* MemTable::FindGreaterOrEqual(char tag, std::string_view key, uint64_t seq, Node** prev) const {
  Node* x = head_;
  int level = height_.load(std::memory_order_relaxed) - 1;
  while (true) {
    Node* next = x->Next(level);
    if (next != nullptr && Compare(next, tag, key, seq) < 0) {
      x = next;
      continue;
    }
    if (prev != nullptr) prev[level] = x;
    if (level == 0) return next;
    --level;
  }
}

void MemTable::FindFromFinger(char tag, std::string_view key, uint64_t seq, Node** prev) const {
  // Climb from the finger while the key lies past the next node a level
  // up, then search down from there: the cost grows with the distance
  // from the last key added, not with the table.
  const int top = height_.load(std::memory_order_relaxed) - 1;
  int level = 0;
  while (level < top) {
    const Node* up = finger_[level + 1]->Next(level + 1);
    if (up == nullptr || Compare(up, tag, key, seq) >= 0) break;
    ++level;
  }
  // Above it, each level's next node after the finger lies past the key.
  for (int l = top; l > level; --l) prev[l] = finger_[l];
  Node* x = finger_[level];
  bool moved = false;  // past the finger: then at or past the last key added
  while (true) {
    if (!moved) x = finger_[level];
    Node* next = x->Next(level);
    while (next != nullptr && Compare(next, tag, key, seq) < 0) {
      x = next;
      next = x->Next(level);
      moved = true;
    }
    prev[level] = x;
    if (level == 0) return;
    --level;
  }
}

MemTable::Node* MemTable::FindLessThan(std::string_view key) const {
  Node* x = head_;
  int level = height_.load(std::memory_order_relaxed) - 1;
  while (true) {
    Node* next = x->Next(level);
    if (next != nullptr && CompareBytes(next->key(), key) < 0) {
      x = next;
      continue;
    }
    if (level == 0) return x;
    --level;
  }
}

MemTable::Node* MemTable::FindLast() const {
  Node* x = head_;
  int level = height_.load(std::memory_order_relaxed) - 1;
  while (true) {
    Node* next = x->Next(level);
    if (next != nullptr) {
      x = next;
      continue;
    }
    if (level == 0) return x;
    --level;
  }
}

namespace {

// Two bit positions of the Bloom filter for a key, from one hash.
std::pair<uint64_t, uint64_t> BloomBits(char tag, std::string_view key, size_t bits) {
  const uint64_t h = std::hash<std::string_view>()(key) ^
                     (static_cast<uint64_t>(static_cast<unsigned char>(tag)) * 0x9e3779b97f4a7c15ull);
  return {h % bits, (h >> 32 | h << 32) % bits};
}

}  // namespace

void MemTable::AddToBloom(char tag, std::string_view key) {
  const auto [a, b] = BloomBits(tag, key, kBloomWords * 64);
  bloom_[a / 64].fetch_or(uint64_t{1} << (a % 64), std::memory_order_relaxed);
  bloom_[b / 64].fetch_or(uint64_t{1} << (b % 64), std::memory_order_relaxed);
}

bool MemTable::MayContain(char tag, std::string_view key) const {
  // A reader sees every bit its entries set: they were set before the
  // entries were published, which happened before the read began.
  const auto [a, b] = BloomBits(tag, key, kBloomWords * 64);
  return (bloom_[a / 64].load(std::memory_order_relaxed) >> (a % 64) & 1) != 0 &&
         (bloom_[b / 64].load(std::memory_order_relaxed) >> (b % 64) & 1) != 0;
}

void MemTable::Add(StoreTag store, std::string_view key, uint64_t seq, bool deleted, std::string_view value) {
  AddToBloom(static_cast<char>(store), key);
  const int height = RandomHeight();
  // The node is built first: its copy of the tagged key is what the search
  // compares, with no string of its own.
  Node* node = NewNode(static_cast<char>(store), key, seq, deleted, value, height);
  Node* prev[kMaxHeight];
  const std::string_view bare = node->key().substr(1);
  if (last_added_ != nullptr && Compare(last_added_, node->tag(), bare, seq) < 0) {
    // Writes add their keys in order: start from where the last one went.
    FindFromFinger(node->tag(), bare, seq, prev);
  } else {
    FindGreaterOrEqual(node->tag(), bare, seq, prev);
  }
  const int current = height_.load(std::memory_order_relaxed);
  if (height > current) {
    for (int i = current; i < height; ++i) prev[i] = head_;
    // A reader that sees the new height before the node's links finds
    // head_'s null links there and drops down a level: harmless.
    height_.store(height, std::memory_order_relaxed);
  }
  for (int i = 0; i < height; ++i) {
    node->next[i].store(prev[i]->Next(i), std::memory_order_relaxed);
    prev[i]->SetNext(i, node);  // publishes the node, whole, at this level
  }
  // The finger: at each level, the last node before any key after this one.
  const int levels = std::max(height, current);
  for (int i = 0; i < levels; ++i) finger_[i] = i < height ? node : prev[i];
  last_added_ = node;
  entries_.fetch_add(1, std::memory_order_relaxed);
  if (seq > max_seq_.load(std::memory_order_relaxed)) max_seq_.store(seq, std::memory_order_release);
}

MemTable::Found MemTable::Get(StoreTag store, std::string_view key, uint64_t seq, std::string_view* value) const {
  const char tag = static_cast<char>(store);
  if (!MayContain(tag, key)) return Found::kAbsent;
  const Node* node = FindGreaterOrEqual(tag, key, seq, nullptr);
  if (node == nullptr || CompareTagged(node->key(), tag, key) != 0) return Found::kAbsent;
  if (node->deleted()) return Found::kDeleted;
  *value = node->value();
  return Found::kValue;
}

// Iterates one store's keys, each at its newest entry numbered seq_ or
// less.
class MemTable::Iter final : public KeyIterator {
 public:
  Iter(const MemTable* table, StoreTag store, uint64_t seq)
      : table_(table), tag_(static_cast<char>(store)), seq_(seq) {}

  void Seek(std::string_view target) override {
    SettleForward(table_->FindGreaterOrEqual(tag_, target, seq_, nullptr));
  }
  void SeekForPrev(std::string_view target) override {
    std::string after = Tagged(target);
    after.push_back('\0');  // the first string after target: keys <= target sort before it
    SettleBackward(table_->FindLessThan(after));
  }
  void SeekToFirst() override { Seek({}); }
  void SeekToLast() override {
    const std::string after(1, static_cast<char>(tag_ + 1));
    SettleBackward(table_->FindLessThan(after));
  }
  void Next() override {
    const Node* n = node_->Next(0);
    while (n != nullptr && n->key() == node_->key()) n = n->Next(0);
    SettleForward(n);
  }
  void Prev() override { SettleBackward(table_->FindLessThan(node_->key())); }

  bool Valid() const override { return node_ != nullptr; }
  const Status& status() const override { return status_; }
  std::string_view key() const override { return node_->key().substr(1); }
  std::string_view value() const override { return node_->value(); }
  bool deleted() const override { return node_->deleted(); }
  bool value_in_map() const override { return false; }

 private:
  std::string Tagged(std::string_view key) const {
    std::string tagged(1, tag_);
    tagged.append(key);
    return tagged;
  }
  // From `n` on, the first entry this reader may see: a key's first entry
  // numbered seq_ or less is its newest visible one.
  void SettleForward(const Node* n) {
    while (n != nullptr && n->tag() == tag_ && n->seq > seq_) n = n->Next(0);
    node_ = n != nullptr && n->tag() == tag_ ? n : nullptr;
  }
  // From `n` (some entry of the last key to consider) back, the newest
  // visible entry of the last key that has one.
  void SettleBackward(const Node* n) {
    while (n != table_->head_ && n->tag() == tag_) {
      const Node* visible = table_->FindGreaterOrEqual(n->tag(), n->key().substr(1), seq_, nullptr);
      if (visible != nullptr && visible->key() == n->key()) {
        node_ = visible;
        return;
      }
      n = table_->FindLessThan(n->key());
    }
    node_ = nullptr;
  }

  const MemTable* table_;
  char tag_;
  uint64_t seq_;
  const Node* node_ = nullptr;
  Status status_;
};

std::unique_ptr<KeyIterator> MemTable::NewIterator(StoreTag store, uint64_t seq) const {
  return std::make_unique<Iter>(this, store, seq);
}

MemTable::Walker::Walker(const MemTable* table) : table_(table), node_(table->head_) {}

bool MemTable::Walker::Next(MemEntry* entry) {
  const Node* n = node_->Next(0);
  if (node_ != table_->head_) {
    while (n != nullptr && n->key() == node_->key()) n = n->Next(0);
  }
  if (n == nullptr) return false;
  node_ = n;
  *entry = MemEntry{static_cast<StoreTag>(n->tag()), n->key().substr(1), n->seq, n->deleted(), n->value()};
  return true;
}

}  // namespace lbt
