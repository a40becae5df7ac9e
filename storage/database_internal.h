// Definitions the files of Database share (internal to storage/).

#ifndef LBT_STORAGE_DATABASE_INTERNAL_H_
#define LBT_STORAGE_DATABASE_INTERNAL_H_

#include <atomic>
#include <memory>
#include <optional>
#include <string_view>

#include "storage/database.h"
#include "storage/kv/store_view.h"
#include "storage/rows/read_options.h"
#include "storage/write_group.h"

namespace lbt {

class OrderedStore;

// How many keys one transaction of a table's or a row range's deletion
// deletes, so that dropping a huge table never needs one huge transaction.
inline constexpr size_t kDropChunkKeys = 20000;

// Deletes up to `limit` keys of `store` in [from, to) (`to` empty: no end);
// returns how many. REQUIRES: txn->is_write()
Result<size_t> DeleteKeys(Txn* txn, const OrderedStore& store, std::string_view from, std::string_view to,
                          size_t limit);

// HBase's disable: a disabled table refuses reads and writes of its data.
Status RequireEnabledSpec(const TableSpec& spec);

// Reads one row's visible cells through `cells` (a transaction's view).
Result<std::optional<Row>> ReadRowIn(const StoreView& cells, bool lazy_gc, std::shared_ptr<const TableSpec> spec,
                                     std::string_view row_key, ReadOptions options, int64_t now);

// Marks a write in flight for ChangeHorizon while it lives.
struct Database::InFlight {
  explicit InFlight(Database* db) : db_(db) { db_->in_flight_since_.store(db_->NowMicros()); }
  ~InFlight() { db_->in_flight_since_.store(INT64_MAX); }
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;
  Database* db_;
};

}  // namespace lbt

#endif  // LBT_STORAGE_DATABASE_INTERNAL_H_
