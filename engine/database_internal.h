// Definitions the files of Database share (internal to the engine).

#ifndef LBT_ENGINE_DATABASE_INTERNAL_H_
#define LBT_ENGINE_DATABASE_INTERNAL_H_

#include <condition_variable>

#include "engine/database.h"
#include "engine/row_writer.h"
#include "engine/store_view.h"

namespace lbt {

struct Database::WriteScope {
  Txn* txn;  // the write transaction; with log_writes, the group's read
  StoreView cells;
  StoreView rows;
  StoreView changes;   // the change log (engine/change_log.h)
  ChangeBatch* batch;  // with log_writes, this step's changes; else nullptr
  bool lazy_gc;

  RowWriter Writer(const TableSpec* spec, int64_t now) const {
    return RowWriter(cells, rows, changes, lazy_gc, spec, now);
  }
};

// A group's logged writes: each one's changes and log record, in order.
struct Database::LoggedGroup {
  std::vector<ChangeBatch> batches;
  std::vector<std::string> records;
  std::vector<PendingWrite*> writes;
};

// Deletes up to `limit` keys of `store` in [from, to) (`to` empty: no end);
// returns how many. REQUIRES: txn->is_write()
Result<size_t> DeleteKeys(Txn* txn, const OrderedStore& store, std::string_view from, std::string_view to,
                          size_t limit);

// Marks a write in flight for ChangeHorizon while it lives.
struct Database::InFlight {
  explicit InFlight(Database* db) : db_(db) { db_->in_flight_since_.store(db_->NowMicros()); }
  ~InFlight() { db_->in_flight_since_.store(INT64_MAX); }
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;
  Database* db_;
};

struct Database::PendingWrite {
  const WriteStep* step;
  Status status;
  bool left_out = false;  // failed: not run again in the group's transaction
  bool done = false;
  std::condition_variable cv;  // wakes the write when done or when it leads
};

}  // namespace lbt

#endif  // LBT_ENGINE_DATABASE_INTERNAL_H_
