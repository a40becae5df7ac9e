// OrderedStore: an ordered map from byte strings of any length to values,
// kept in LMDB, whose keys are limited to 511 bytes.
//
// Keys of up to kMaxDirectKeyBytes are stored as they are in the `main`
// database, so LMDB's own byte order is the map's order and tools such as
// mdb_dump show them plainly. A longer key K is split into chunks:
//
//   main:      K[0, 510) + 0x00            -> node id of K's group
//   overflow:  node(8) + chunk(<=502) + 0x00 -> value           (last chunk)
//              node(8) + chunk(502)   + 0x01 -> node id of next group
//
// Every key that shares a group's prefix lives under that group's node, so
// iteration is a depth-first walk with one cursor per level: ordering is
// exact, seeks are direct, and memory stays bounded by the key's length.
// Node ids come from a counter kept under the 8 zero bytes in `overflow`,
// which several stores may share.
//
// WARNING: the chunk sizes and markers are part of the on-disk format.

#ifndef LBT_STORAGE_KV_ORDERED_STORE_H_
#define LBT_STORAGE_KV_ORDERED_STORE_H_

#include <lmdb.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"
#include "storage/kv/key_iterator.h"
#include "storage/kv/lmdb_env.h"

namespace lbt {

inline constexpr size_t kMaxDirectKeyBytes = 510;
inline constexpr size_t kMaxChunkBytes = 502;

class OrderedStore {
 public:
  OrderedStore() = default;
  OrderedStore(MDB_dbi main, MDB_dbi overflow) : main_(main), overflow_(overflow) {}

  // Looks `key` up; on success *value points into the map (see lmdb_env.h).
  // Returns false if absent. REQUIRES: !key.empty()
  Result<bool> Get(Txn* txn, std::string_view key, std::string_view* value) const;

  // Inserts or replaces. REQUIRES: txn->is_write(), !key.empty()
  Status Put(Txn* txn, std::string_view key, std::string_view value) const;

  // Like Put for a key known to be absent: appends when it sorts after
  // every key (a load in key order), and otherwise puts it normally.
  // REQUIRES: txn->is_write(), `key` is not in the store
  Status PutNew(Txn* txn, std::string_view key, std::string_view value) const;

  // Writes keys known to be absent that arrive in increasing order (a bulk
  // load): each is appended through a kept cursor while it sorts after
  // every key already there, and put normally otherwise. Destroy it before
  // `txn` ends, and do not use it while a transaction nested in `txn` is
  // open. REQUIRES: txn->is_write()
  class Appender;
  Result<std::unique_ptr<Appender>> NewAppender(Txn* txn) const;

  // Writes keys that arrive in increasing order (a memtable's fold)
  // through a kept cursor, so that a key landing on the page of the one
  // before it is put without a search from the tree's root. Destroy it
  // before `txn` ends, and do not use it while a transaction nested in
  // `txn` is open. REQUIRES: txn->is_write()
  class SortedWriter;
  Result<std::unique_ptr<SortedWriter>> NewSortedWriter(Txn* txn) const;

  // Removes `key`; returns false if it was absent. REQUIRES: txn->is_write()
  Result<bool> Delete(Txn* txn, std::string_view key) const;

  class Iterator;
  // The iterator must be destroyed before `txn` ends. It starts unpositioned.
  Result<std::unique_ptr<Iterator>> NewIterator(Txn* txn) const;

 private:
  class CursorWriter;
  Result<uint64_t> AllocateNode(Txn* txn) const;
  Result<bool> NodeIsEmpty(Txn* txn, uint64_t node) const;

  MDB_dbi main_ = 0;
  MDB_dbi overflow_ = 0;
};

// What a writer through a kept cursor holds (SortedWriter, Appender).
class OrderedStore::CursorWriter {
 protected:
  CursorWriter(Txn* txn, const OrderedStore* store, std::unique_ptr<Cursor> cursor)
      : txn_(txn), store_(store), cursor_(std::move(cursor)) {}
  Txn* txn_;
  const OrderedStore* store_;
  std::unique_ptr<Cursor> cursor_;
};

class OrderedStore::SortedWriter : public CursorWriter {
 public:
  // As OrderedStore's Put and Delete. Keys in increasing order are
  // fastest; any order is correct.
  Status Put(std::string_view key, std::string_view value);
  Result<bool> Delete(std::string_view key) { return store_->Delete(txn_, key); }

 private:
  friend class OrderedStore;
  using CursorWriter::CursorWriter;
};

class OrderedStore::Appender : public CursorWriter {
 public:
  // Like PutNew. REQUIRES: `key` is not in the store, and sorts after
  // every key this appender wrote before.
  Status PutNew(std::string_view key, std::string_view value);

 private:
  friend class OrderedStore;
  using CursorWriter::CursorWriter;
  // After an append was refused: the store's last key then. Keys up to it
  // are put normally without trying to append first.
  bool blocked_ = false;
  std::string blocked_until_;
};

class OrderedStore::Iterator final : public KeyIterator {
 public:
  ~Iterator() override;

  void Seek(std::string_view target) override;
  void SeekForPrev(std::string_view target) override;
  void SeekToFirst() override;
  void SeekToLast() override;
  void Next() override;
  void Prev() override;

  bool Valid() const override { return valid_; }
  const Status& status() const override { return status_; }
  // The full key and the value under the iterator; both die with the next
  // move, a write, or the transaction. REQUIRES: Valid()
  std::string_view key() const override { return key_; }
  std::string_view value() const override { return value_; }

 private:
  friend class OrderedStore;
  struct Level {
    std::unique_ptr<Cursor> cursor;
    uint64_t node = 0;  // 0 for the main database
  };
  Iterator(Txn* txn, const OrderedStore* store) : txn_(txn), store_(store) {}

  Result<Cursor*> CursorAt(size_t level);
  bool InNode(size_t level, std::string_view key) const;
  bool IsPointer(size_t level, std::string_view key) const;
  Result<bool> PositionInNode(size_t level, uint64_t node, bool forward);
  Status Settle(size_t level, bool forward);
  Status StepAt(size_t level, bool forward);
  Result<bool> SeekIn(size_t level, std::string_view target);
  void BuildKey(size_t leaf_level);
  void SeekToEdge(bool first);

  Txn* txn_;
  const OrderedStore* store_;
  std::vector<Level> levels_;
  // Records the outcome of a move.
  void Finish(Status s);

  bool valid_ = false;
  Status status_;
  size_t leaf_level_ = 0;  // the level whose cursor holds the current leaf
  std::string key_buffer_;
  std::string_view key_;
  std::string_view value_;
};

}  // namespace lbt

#endif  // LBT_STORAGE_KV_ORDERED_STORE_H_
