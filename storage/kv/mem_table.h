// MemTable: writes a Database has logged and acknowledged but not yet
// folded into LMDB, held in memory in key order (internal to storage/).
//
// It holds the keys of the cells and rows stores (stores.h), each tagged
// with its store. An entry is a value or a deletion, stamped with the
// sequence number of the write that made it; a key's entries sort newest
// first. A reader at sequence s sees, for each key, its newest entry
// numbered s or less: writes numbered later are invisible to it, so a
// read stays a snapshot while writes go on.
//
// Entries are never changed or removed; the memory goes when the table
// does, once folded and no reader holds it.
//
// Threading: one writer at a time (callers serialize Add), and any number
// of readers at once, without locks: an entry is visible to readers only
// once whole (a skip list whose links are published with release stores).

#ifndef LBT_STORAGE_KV_MEM_TABLE_H_
#define LBT_STORAGE_KV_MEM_TABLE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "storage/kv/key_iterator.h"

namespace lbt {

// Which store of stores.h an entry belongs to. WARNING: written into log
// records (db_log.cc).
enum class StoreTag : char { kCells = 'c', kRows = 'r', kChanges = 'h' };
inline constexpr StoreTag kAllStoreTags[] = {StoreTag::kCells, StoreTag::kRows, StoreTag::kChanges};
// A store's place in kAllStoreTags, for what is kept per store.
inline int StoreIndex(StoreTag tag) { return tag == StoreTag::kCells ? 0 : tag == StoreTag::kRows ? 1 : 2; }

class MemTable {
 public:
  MemTable();
  ~MemTable();
  MemTable(const MemTable&) = delete;
  MemTable& operator=(const MemTable&) = delete;

  // Adds an entry. REQUIRES: no other Add runs at the same time; `seq` is
  // above every sequence already added for this key.
  void Add(StoreTag store, std::string_view key, uint64_t seq, bool deleted, std::string_view value);

  enum class Found { kAbsent, kValue, kDeleted };
  // The newest entry of `key` numbered `seq` or less. *value stays valid as
  // long as the table.
  Found Get(StoreTag store, std::string_view key, uint64_t seq, std::string_view* value) const;

  // Bytes of memory the entries take, overhead included.
  size_t memory_bytes() const { return memory_bytes_.load(std::memory_order_relaxed); }
  uint64_t entries() const { return entries_.load(std::memory_order_relaxed); }
  // The highest sequence added (0: none).
  uint64_t max_seq() const { return max_seq_.load(std::memory_order_acquire); }

  // Walks one store's keys as of `seq`, stopping on deletions too
  // (deleted() tells): a merged read needs them to hide LMDB's entries.
  // The iterator must not outlive the table.
  std::unique_ptr<KeyIterator> NewIterator(StoreTag store, uint64_t seq) const;

  // Every entry of the table, each key's newest first, in key order: what
  // folding reads.
  class Walker;

 private:
  struct Node;
  class Iter;
  static constexpr int kMaxHeight = 12;

  // Bytes from the table's blocks, which live as long as it.
  char* Allocate(size_t bytes);
  // A node for `key` in the store tagged `tag` (0: the head, keyless).
  Node* NewNode(char tag, std::string_view key, uint64_t seq, bool deleted, std::string_view value, int height);
  int RandomHeight();
  // The first node at or after (tag + key, seq), newest first within a
  // key; fills prev[] with each level's node before it when prev != nullptr.
  Node* FindGreaterOrEqual(char tag, std::string_view key, uint64_t seq, Node** prev) const;
  // The last node whose key sorts before `key` (head_ if none).
  // As FindGreaterOrEqual, from finger_. REQUIRES: (tag + key, seq) sorts
  // after last_added_; the writer only.
  void FindFromFinger(char tag, std::string_view key, uint64_t seq, Node** prev) const;
  Node* FindLessThan(std::string_view key) const;
  Node* FindLast() const;

  // A Bloom filter of the table's keys, so that a lookup of a key it does
  // not hold (a new row's size entry, say) seldom walks the list.
  static constexpr size_t kBloomWords = (1 << 20) / 64;
  void AddToBloom(char tag, std::string_view key);
  bool MayContain(char tag, std::string_view key) const;

  Node* head_;
  std::atomic<int> height_{1};
  std::unique_ptr<std::atomic<uint64_t>[]> bloom_;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* block_next_ = nullptr;
  size_t block_left_ = 0;
  std::atomic<size_t> memory_bytes_{0};
  std::atomic<uint64_t> entries_{0};
  std::atomic<uint64_t> max_seq_{0};
  std::minstd_rand rng_{0x5eed};
  // The writer's: the last node added, and at each level the last node
  // before any key after it.
  Node* last_added_ = nullptr;
  Node* finger_[kMaxHeight];
};

// An entry as folding sees it.
struct MemEntry {
  StoreTag store;
  std::string_view key;  // without the tag
  uint64_t seq;
  bool deleted;
  std::string_view value;
};

class MemTable::Walker {
 public:
  explicit Walker(const MemTable* table);
  // Moves to the next key's newest entry; false at the end.
  bool Next(MemEntry* entry);

 private:
  const MemTable* table_;
  const Node* node_;
};

}  // namespace lbt

#endif  // LBT_STORAGE_KV_MEM_TABLE_H_
