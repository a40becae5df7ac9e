// StoreView: one store of stores.h (cells or rows) as a read or a write
// sees it (internal to storage/): LMDB, under the memtables not yet
// folded into it (newest first, as of a sequence), under a write's own
// pending changes (a ChangeBatch).
//
// Without memtables and batch, a view is LMDB itself: reads and writes go
// straight to the transaction (a write transaction for writes). With a
// batch, writes go to the batch and LMDB is only read.

#ifndef LBT_STORAGE_KV_STORE_VIEW_H_
#define LBT_STORAGE_KV_STORE_VIEW_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"
#include "storage/kv/change_batch.h"
#include "storage/kv/key_iterator.h"
#include "storage/kv/lmdb_env.h"
#include "storage/kv/mem_table.h"
#include "storage/kv/ordered_store.h"

namespace lbt {

// The memtables a read sees, newest first.
struct MemLayers {
  std::vector<std::shared_ptr<MemTable>> tables;
};

class StoreView {
 public:
  // LMDB alone, through `txn` (a write transaction for writes).
  StoreView(Txn* txn, const OrderedStore* store, StoreTag tag) : txn_(txn), store_(store), tag_(tag) {}
  // LMDB under `layers` at `seq`, under `earlier` (the changes of writes
  // before this one not yet in a memtable, oldest first; may be nullptr),
  // under `batch` (nullptr: read-only).
  // REQUIRES: everything given outlives the view and its iterators.
  StoreView(Txn* txn, const OrderedStore* store, StoreTag tag, const MemLayers* layers, uint64_t seq,
            ChangeBatch* batch, const std::vector<ChangeBatch>* earlier = nullptr)
      : txn_(txn), store_(store), tag_(tag), layers_(layers), seq_(seq), batch_(batch), earlier_(earlier) {}

  // As OrderedStore's. *value dies with the next write through the view.
  Result<bool> Get(std::string_view key, std::string_view* value) const;
  Status Put(std::string_view key, std::string_view value) const;
  // REQUIRES: `key` is absent.
  Status PutNew(std::string_view key, std::string_view value) const;
  Result<bool> Delete(std::string_view key) const;
  // Merges the layers; the iterator dies with the transaction and must not
  // be used across writes through the view.
  Result<std::unique_ptr<KeyIterator>> NewIterator() const;

  Txn* txn() const { return txn_; }
  // True when the view is LMDB alone.
  bool direct() const {
    return (layers_ == nullptr || layers_->tables.empty()) && batch_ == nullptr &&
           (earlier_ == nullptr || earlier_->empty());
  }

 private:
  Txn* txn_;
  const OrderedStore* store_;
  StoreTag tag_;
  const MemLayers* layers_ = nullptr;
  uint64_t seq_ = 0;
  ChangeBatch* batch_ = nullptr;
  const std::vector<ChangeBatch>* earlier_ = nullptr;
};

// What one read sees: an LMDB snapshot and, when writes are logged, the
// memtables over it, as of a sequence.
struct ReadView {
  std::unique_ptr<Txn> txn;
  std::shared_ptr<const MemLayers> layers;  // nullptr: writes go straight to LMDB
  uint64_t seq = 0;

  StoreView cells(const OrderedStore& store) const {
    return StoreView(txn.get(), &store, StoreTag::kCells, layers.get(), seq, nullptr);
  }
  StoreView rows(const OrderedStore& store) const {
    return StoreView(txn.get(), &store, StoreTag::kRows, layers.get(), seq, nullptr);
  }
  StoreView changes(const OrderedStore& store) const {
    return StoreView(txn.get(), &store, StoreTag::kChanges, layers.get(), seq, nullptr);
  }
};

}  // namespace lbt

#endif  // LBT_STORAGE_KV_STORE_VIEW_H_
