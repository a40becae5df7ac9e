// BulkLoader: loads many rows into one table, in whatever order they
// arrive, at close to the storage's own speed.
//
//   ASSIGN loader = db->NewBulkLoad("t", options);
//   for (each row) {
//     Status s = loader->Add(row);   // checks the row; writes nothing yet
//     if (!s.ok()) ...               // this row refused (see Add)
//   }
//   Status s = loader->Finish(on_commit, on_row_error);
//
// How: Add encodes each row into a sort buffer of
// options.sort_memory_bytes; a full buffer is sorted and spilled to a
// temporary file as a run (storage/load/run_sorter.h). Finish merges the runs
// and writes the rows in key order, several per transaction. A row new to
// the table has its cells written in key order with LMDB's append mode
// wherever nothing sorts after them, so pages fill completely and no page
// is written twice; a row that already has data is merged with it by the
// same code as MutateRow, inside a nested transaction of its own.
//
// What holds, as if each row had been written with MutateRow in the order
// added:
//  - A row's cells are written all or none. All the input rows of one row
//    key go into the same transaction, in the order they were added, so a
//    later cell replaces an earlier one at the same timestamp.
//  - Garbage collection on write: a cell its family's GC rule collects
//    (older than maxage, beyond maxversions) is never written, or is
//    removed as MutateRow removes it.
//  - Acknowledged commits: when on_commit returns, that transaction is
//    committed (on disk, unless the database was opened with sync off).
//    A load that stops (an error, or on_commit asking to stop) keeps every
//    transaction committed before; stats() counts what was kept.
//  - "Server time" (kServerTime) is the time the loader was made.
// What differs: nothing is visible before Finish, and rows commit in key
// order, not in the order added.
//
// Memory: about sort_memory_bytes, plus one transaction's rows
// (bytes_per_commit of input, and LMDB's dirty pages for them), plus the
// largest row.
//
// Threading: one thread at a time. Other writers may use the database
// meanwhile: each transaction sees the table as it is then. The loader
// must be destroyed before its Database.

#ifndef LBT_STORAGE_LOAD_BULK_LOADER_H_
#define LBT_STORAGE_LOAD_BULK_LOADER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/local_maintenance.h"
#include "api/mutation.h"
#include "api/schema.h"
#include "api/status.h"

namespace lbt {

class RunSorter;
class SortedStream;
struct Stores;
class Txn;

// What a load writes through: its database's write transactions and the
// writers' catalog. Database provides it.
class BulkLoadTarget {
 public:
  virtual ~BulkLoadTarget() = default;
  // Runs `fn` in a write transaction of its own (outside any log).
  virtual Status Update(const std::function<Status(Txn*)>& fn) = 0;
  // The database's stores.
  virtual const Stores* stores() const = 0;
  // The spec of an enabled table, as the writers' catalog has it.
  // REQUIRES: inside Update's fn.
  virtual Result<const TableSpec*> RequireEnabled(std::string_view table) = 0;
  // The database's clock.
  virtual int64_t NowMicros() const = 0;
};

class BulkLoader final : public BulkLoad {
 public:
  ~BulkLoader() override;
  BulkLoader(const BulkLoader&) = delete;
  BulkLoader& operator=(const BulkLoader&) = delete;

  // Adds one row. Its mutations must all be SetCell; they are checked as
  // MutateRow checks them (families, limits, timestamps), against the
  // table as it was when the loader was made. InvalidArgument, NotFound or
  // OutOfRange refuse this row alone, adding nothing of it; IOError (the
  // temporary file) ends the load. REQUIRES: Finish has not been called.
  Status Add(const RowMutation& row) override;

  // Writes every row added (see the file comment). Returns the first
  // error that stopped the load, or OK; rows refused while being written
  // (a row over 256 MiB with what the table held, a family deleted since)
  // go to on_row_error and do not stop it. REQUIRES: called once.
  Status Finish(const std::function<Status(const BulkLoadStats&)>& on_commit,
                const std::function<void(std::string_view row_key, const Status&)>& on_row_error) override;

  const BulkLoadStats& stats() const override { return stats_; }

 private:
  friend class Database;
  struct Batch;
  struct Attempt;
  BulkLoader(std::unique_ptr<BulkLoadTarget> target, TableSpec spec, const BulkLoadOptions& options,
             std::string temp_dir, int64_t now);

  // Copies the next transaction's rows from the sorted stream.
  Status FillBatch(SortedStream* stream, bool* more, Batch* batch);
  // Writes a batch in `txn`; re-runnable from scratch (the map may fill).
  Status WriteBatch(Txn* txn, const Batch& batch, Attempt* attempt);

  std::unique_ptr<BulkLoadTarget> target_;
  TableSpec spec_;                     // as of NewBulkLoader: what Add checks rows against
  std::vector<std::string> families_;  // spec_'s family names, by index
  BulkLoadOptions options_;
  int64_t now_;
  std::unique_ptr<RunSorter> sorter_;
  BulkLoadStats stats_;
  bool finished_ = false;
  std::string key_buffer_, payload_buffer_;
};

}  // namespace lbt

#endif  // LBT_STORAGE_LOAD_BULK_LOADER_H_
