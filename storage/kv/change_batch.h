// ChangeBatch: the changes of one logged write before they reach the
// memtable (internal to storage/).
//
// A batch keeps its changes already encoded as the body of the write's
// write-ahead log record, so that logging a write copies nothing and its
// memtable entries are made from the same bytes: one pass from the row
// writer to the log and the memtable. Per store, an index in key order
// points at each key's change in effect, for the write's own reads (a row
// it wrote twice, a cell it replaced) and for the memtable, which takes
// keys in order.
//
// The body, after kRecordHeaderRoom bytes the log's record header goes into
// (db_log.cc), holds one change after another:
//   store      1 byte: StoreTag
//   op         1 byte: 0 put, 1 delete
//   key        4-byte big-endian length, bytes
//   value      4-byte big-endian length, bytes (puts only)
// WARNING: this is the write-ahead log's record format (db_log.cc); a
// change here is a change of the on-disk format.
//
// A key changed twice leaves its first change in the body, superseded; a
// record must hold each key once (replay adds every change at the record's
// sequence), so SealRecord rewrites such a body without them first.

#ifndef LBT_STORAGE_KV_CHANGE_BATCH_H_
#define LBT_STORAGE_KV_CHANGE_BATCH_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "storage/kv/key_iterator.h"
#include "storage/kv/mem_table.h"
#include "util/bytes.h"

namespace lbt {

// Orders offsets of a body's changes by their keys (and finds a key among
// them).
struct KeyAtLess {
  using is_transparent = void;
  const std::string* body;
  std::string_view KeyAt(uint32_t offset) const;
  bool operator()(uint32_t a, uint32_t b) const { return CompareBytes(KeyAt(a), KeyAt(b)) < 0; }
  bool operator()(uint32_t a, std::string_view b) const { return CompareBytes(KeyAt(a), b) < 0; }
  bool operator()(std::string_view a, uint32_t b) const { return CompareBytes(a, KeyAt(b)) < 0; }
};

class ChangeBatch {
 public:
  // Bytes at the front of the body for the log record's header.
  static constexpr size_t kRecordHeaderRoom = 9;

  ChangeBatch();
  ~ChangeBatch();
  ChangeBatch(ChangeBatch&&) noexcept;
  ChangeBatch& operator=(ChangeBatch&&) noexcept;

  // A change: the key and its new value, nullopt for a deletion. The views
  // die with the next change to the batch.
  struct Change {
    std::string_view key;
    std::optional<std::string_view> value;
  };

  void Put(StoreTag tag, std::string_view key, std::string_view value);
  void Delete(StoreTag tag, std::string_view key);
  bool empty() const;

  // The change in effect for `key` in store `tag`, or nullopt when the
  // batch has not changed it.
  std::optional<Change> Find(StoreTag tag, std::string_view key) const;

  // Calls fn(const Change&) for each key the batch changes in store `tag`,
  // in key order.
  template <typename Fn>
  void ForEach(StoreTag tag, Fn&& fn) const;

  // An iterator over store `tag`'s changes in key order (deleted() for a
  // deletion), for a merged read. It must not outlive the batch nor be
  // used across changes to it.
  std::unique_ptr<KeyIterator> NewIterator(StoreTag tag) const;

  // The write's log record: `header` (kRecordHeaderRoom bytes) and the
  // body, without superseded changes. The view dies with the next change
  // to the batch.
  std::string_view SealRecord(std::string_view header);

  // Remembers the batch as it is; RollBack restores it, dropping whatever
  // changed since (and does nothing before a first SetSavepoint).
  void SetSavepoint();
  void RollBack();

 private:
  struct State;
  class Iterator;
  // The change encoded at `offset` of the body.
  Change ChangeAt(uint32_t offset) const;
  const std::set<uint32_t, KeyAtLess>& IndexOf(StoreTag tag) const;
  void Record(StoreTag tag, std::string_view key, std::optional<std::string_view> value);

  std::unique_ptr<State> state_;
};

template <typename Fn>
void ChangeBatch::ForEach(StoreTag tag, Fn&& fn) const {
  for (uint32_t offset : IndexOf(tag)) fn(ChangeAt(offset));
}

}  // namespace lbt

#endif  // LBT_STORAGE_KV_CHANGE_BATCH_H_
