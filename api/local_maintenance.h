// What only a local database can do, beside the Bigtable interface: garbage
// collection passes, compaction, HBase's disable/enable, bulk loads, and
// where materialized views keep their rows. A remote Bigtable collects garbage and
// compacts on its own schedule (Bigtable::local() is nullptr there).
//
// Errors are Status values, as in api/bigtable.h.

#ifndef LBT_API_LOCAL_MAINTENANCE_H_
#define LBT_API_LOCAL_MAINTENANCE_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "api/mutation.h"
#include "api/status.h"
#include "api/table.h"

namespace lbt {

// Where a materialized view's maintainer (views/) keeps its work: two
// tables no instance lists.
class MaterializedViewStorage {
 public:
  virtual ~MaterializedViewStorage() = default;
  // The view's rows, as ReadMaterializedView reads them.
  virtual Table& rows() = 0;
  // The maintainer's own state.
  virtual Table& state() = 0;
  // Empties both (before the view is built afresh).
  virtual Status Clear() = 0;
};

struct GcStats {
  int64_t cells_examined = 0;
  int64_t cells_deleted = 0;
};

struct CompactStats {
  uint64_t bytes_before = 0;
  uint64_t bytes_after = 0;
};

// How a bulk load (LocalMaintenance::NewBulkLoad) may use memory, disk
// and transactions.
struct BulkLoadOptions {
  // Memory for sorting the input: beyond it, sorted runs are spilled to a
  // temporary file and merged.
  size_t sort_memory_bytes = 32u << 20;
  // Where that file goes; "" for the database's own directory.
  std::string temp_dir;
  // One transaction holds at most this many input rows (0: no limit) and
  // about this many bytes of input; each commit is acknowledged.
  int64_t rows_per_commit = 0;
  size_t bytes_per_commit = 4u << 20;
};

struct BulkLoadStats {
  int64_t rows_added = 0;      // accepted by Add
  int64_t rows_committed = 0;  // written and committed
  int64_t rows_failed = 0;     // refused while written (on_row_error heard why)
  int64_t cells_written = 0;
  // Cells of rows new to the table that their family's GC rule collected
  // as they arrived: never written.
  int64_t cells_collected = 0;
  int64_t rows_appended = 0;  // rows new to the table (the fast path)
  int64_t rows_merged = 0;    // rows that had data already, merged with it
  int64_t commits = 0;
  int64_t runs_spilled = 0;  // sorted runs written to the temporary file
  int64_t bytes_spilled = 0;
};

// A bulk load into one table: rows in any order, written in key order.
//
//   ASSIGN load = local->NewBulkLoad("t", {});
//   for (each row) if (Status s = load->Add(row); !s.ok()) ...  // this row refused
//   Status s = load->Finish(on_commit, on_row_error);            // load->stats() says what was kept
class BulkLoad {
 public:
  virtual ~BulkLoad() = default;
  // Adds one row of SetCell mutations, checked as MutateRow checks them.
  // An InvalidArgument, NotFound or OutOfRange refuses this row alone and
  // the load goes on; another error (the temporary file failed) ends it.
  // Nothing is written before Finish.
  virtual Status Add(const RowMutation& row) = 0;
  // Writes every row added, in key order, in transactions. After each
  // commit `on_commit` (if set) hears the stats so far; an error from it
  // stops the load, keeping what was committed. `on_row_error` (if set)
  // hears each row refused while being written, with its key.
  // REQUIRES: called once.
  virtual Status Finish(const std::function<Status(const BulkLoadStats&)>& on_commit,
                        const std::function<void(std::string_view row_key, const Status&)>& on_row_error) = 0;
  // What was added and written so far; after a failed Finish, what it kept.
  virtual const BulkLoadStats& stats() const = 0;
};

class LocalMaintenance {
 public:
  virtual ~LocalMaintenance() = default;
  // The database's directory.
  virtual const std::string& dir() const = 0;
  // True when GC-eligible cells stay readable until a collection pass (lbt
  // --gc=lazy, as production); false when they vanish at once.
  virtual bool lazy_gc() const = 0;
  // With lazy GC, how often a background collection pass runs over every
  // table (0: never; only `gc <table>` collects).
  virtual std::chrono::milliseconds gc_interval() const = 0;
  // True when opened --read-only: nothing will create the database.
  virtual bool read_only() const = 0;
  // Physically removes the cells the table's GC rules make eligible.
  // `progress` hears the cells examined now and then; an error from it
  // stops and rolls back the pass.
  virtual Result<GcStats> CollectGarbage(std::string_view table,
                                         const std::function<Status(int64_t cells)>& progress) = 0;
  // Rewrites the data file without free pages. NotFound if no database
  // exists yet.
  virtual Result<CompactStats> Compact() = 0;
  // HBase's disable/enable: a disabled table refuses reads and writes.
  virtual Status SetTableEnabled(std::string_view table, bool enabled) = 0;
  // Starts a bulk load into `table` (see BulkLoad). The load must be
  // destroyed before this object.
  virtual Result<std::unique_ptr<BulkLoad>> NewBulkLoad(std::string_view table, const BulkLoadOptions& options) = 0;
  // Where materialized view `view_id` keeps what its maintainer writes. It
  // must be destroyed before this object. NotFound when there is no view.
  virtual Result<std::unique_ptr<MaterializedViewStorage>> OpenMaterializedViewStorage(std::string_view view_id) = 0;
  // Records that the view's first build is done: reads of it may begin.
  virtual Status SetMaterializedViewBackfilled(std::string_view view_id) = 0;
  // Takes the automated backups now due, in every instance of the
  // database: for each table with an automated backup policy
  // (TableSpec::automated_backup_policy) whose last one is at least its
  // frequency old, a backup "auto-<table>-<time>" in its instance's first
  // cluster, kept for the policy's retention. (A remote service takes its
  // own.)
  virtual Status RunAutomatedBackups() = 0;
  // Deletes for good the deleted tables kept for an undelete (TableAdmin::
  // DeleteTable), in every instance: those deleted more than
  // kUndeleteRetentionMicros ago, or all of them without `expired_only`,
  // reclaiming their space. Returns their names ("P/I/T", or "T" in the
  // default instance).
  virtual Result<std::vector<std::string>> PurgeDeletedTables(bool expired_only) = 0;
};

}  // namespace lbt

#endif  // LBT_API_LOCAL_MAINTENANCE_H_
