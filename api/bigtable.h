// Bigtable: what every command runs against. Its operations are Bigtable's
// data and admin operations; the local engine (local/local_bigtable.h)
// and a gRPC client of a remote Bigtable (remote/remote_bigtable.h)
// implement it, and only the shell's composition root picks which.
//
// Errors are Status values with Bigtable's codes: NotFound for a missing
// table, InvalidArgument for a bad request, and so on. A failed call
// changes nothing, except where a method says otherwise (MutateRows).
//
// Threading: an implementation may be used from several threads at once
// (import sends batches from workers). A RowStream belongs to one thread.

#ifndef LBT_API_BIGTABLE_H_
#define LBT_API_BIGTABLE_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/authorized_view.h"
#include "api/cell.h"
#include "api/change_stream.h"
#include "api/filter.h"
#include "api/logical_view.h"
#include "api/materialized_view.h"
#include "api/mutation.h"
#include "api/row_set.h"
#include "api/schema.h"
#include "api/status.h"
#include "api/table.h"
#include "api/table_admin.h"

namespace lbt {

class InstanceAdmin;  // api/instance.h

namespace sql {
class QueryService;  // sql/query.h, which depends on this interface
}  // namespace sql

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

// What only a local database can do. A remote Bigtable collects garbage
// and compacts on its own schedule.
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
  // Where materialized view `view_id` keeps what its maintainer writes, as
  // a Bigtable of two tables no instance lists: "rows" (what
  // ReadMaterializedView reads) and "state" (the maintainer's own). It
  // must be destroyed before this object. NotFound when there is no view.
  virtual Result<std::unique_ptr<Bigtable>> OpenMaterializedViewStorage(std::string_view view_id) = 0;
  // Records that the view's first build is done: reads of it may begin.
  virtual Status SetMaterializedViewBackfilled(std::string_view view_id) = 0;
};

// One instance's (or one database's) tables as a client sees them: their
// data through Table handles (OpenTable), their admin (TableAdmin), the
// instance's logical and materialized views, and the place itself.
class Bigtable : public TableAdmin {
 public:
  virtual ~Bigtable() = default;

  // Where commands run, for banners and notes: "database 'lbt-data'",
  // "instance p/i at localhost:8086".
  virtual std::string Describe() const = 0;
  // The prompt's name for it: "lbt" locally, "p/i" for an instance.
  virtual std::string PromptName() const = 0;

  // ---- data ----

  // The data operations of `ref` as a Table (api/table.h) that must be
  // destroyed before this object. `ref.instance` is unset or this one's.
  // Opening reads nothing but an authorized view's definition (NotFound
  // when there is none): a missing table is NotFound at the first call.
  // An implementation overrides this, or the per-table calls below (the
  // default then binds a Table to them); a local one enforces an
  // authorized view itself (RestrictToView), naming it
  // "tables/T/authorizedViews/V" in errors, or in full when `ref.instance`
  // is set; a remote one names the view in each request instead.
  virtual Result<std::unique_ptr<Table>> OpenTable(const TableRef& ref);

  // Table's operations on the table named `table`, for callers with a
  // table name at hand (and for implementations that keep tables by name,
  // which override them). The defaults open the table with OpenTable.
  virtual Result<std::unique_ptr<RowStream>> ReadRows(std::string_view table, const ReadRequest& request);
  virtual Result<int64_t> CountRows(std::string_view table, const RowRange& range);
  virtual Status MutateRow(std::string_view table, std::string_view row_key, const std::vector<Mutation>& mutations);
  virtual Result<std::vector<Status>> MutateRows(std::string_view table, const std::vector<RowMutation>& rows);
  virtual Result<bool> CheckAndMutateRow(std::string_view table, std::string_view row_key,
                                         const std::optional<Filter>& predicate,
                                         const std::vector<Mutation>& true_mutations,
                                         const std::vector<Mutation>& false_mutations);
  virtual Result<Row> ReadModifyWriteRow(std::string_view table, std::string_view row_key,
                                         const std::vector<ReadModifyWriteRule>& rules);
  virtual Result<std::vector<KeySample>> SampleRowKeys(std::string_view table, const RowRange& range);
  virtual Result<std::vector<std::optional<Row>>> LookupRows(std::string_view table,
                                                             const std::vector<std::string>& keys,
                                                             const ReadRequest& request);
  virtual Result<std::vector<RowRange>> ChangeStreamPartitions(std::string_view table);
  virtual Result<std::unique_ptr<ChangeStream>> ReadChangeStream(std::string_view table,
                                                                 const ChangeStreamRequest& request);
  Result<std::optional<Row>> ReadRow(std::string_view table, std::string_view row_key,
                                     std::optional<Filter> filter = std::nullopt);

  // ---- logical views of the instance (api/logical_view.h) ----
  // A service without them answers Unimplemented (the defaults). Queries
  // read them (sql/query.h); these keep them.

  // Creates view `view.id`; returns it as stored, with its etag.
  // AlreadyExists if the instance has a view of that id. The query is kept
  // as given: whoever accepts it from a user checks that it prepares.
  virtual Result<LogicalViewSpec> CreateLogicalView(const LogicalViewSpec& view);
  virtual Result<LogicalViewSpec> GetLogicalView(std::string_view view_id);
  // The instance's views, by id.
  virtual Result<std::vector<LogicalViewSpec>> ListLogicalViews();
  // Replaces what `update` names; Aborted if `view.etag` is set and is not
  // the current one. Returns the view as stored.
  virtual Result<LogicalViewSpec> UpdateLogicalView(const LogicalViewSpec& view, const LogicalViewUpdate& update);
  // FailedPrecondition while its deletion protection is on; Aborted if
  // `etag` is set and is not the current one.
  virtual Status DeleteLogicalView(std::string_view view_id, std::string_view etag);

  // ---- materialized views of the instance (api/materialized_view.h) ----
  // A service without them answers Unimplemented (the defaults). Locally,
  // a maintainer (views/materialized_view_maintainer.h) keeps their rows.

  // Creates view `view.id` over `view.source_table`, turning that table's
  // change stream on if it is off; returns the view as stored. The query
  // is kept as given: whoever accepts it from a user checks it first
  // (sql::CheckMaterializedViewQuery). AlreadyExists if the instance has a
  // view, logical view or table of that id.
  virtual Result<MaterializedViewSpec> CreateMaterializedView(const MaterializedViewSpec& view);
  virtual Result<MaterializedViewSpec> GetMaterializedView(std::string_view view_id);
  // The instance's views, by id.
  virtual Result<std::vector<MaterializedViewSpec>> ListMaterializedViews();
  // Sets what `update` names; Aborted if `view.etag` is set and is not the
  // current one. Returns the view as stored.
  virtual Result<MaterializedViewSpec> UpdateMaterializedView(const MaterializedViewSpec& view,
                                                              const MaterializedViewUpdate& update);
  // Drops the view and its rows. FailedPrecondition while its deletion
  // protection is on; Aborted if `etag` is set and is not the current one.
  virtual Status DeleteMaterializedView(std::string_view view_id, std::string_view etag);
  // Reads the view's rows: keys from its GROUP BY or ORDER BY columns (or
  // its `_key`), one cell per other column in family "default", qualified
  // by the column's name. FailedPrecondition until its backfill is done.
  virtual Result<std::unique_ptr<RowStream>> ReadMaterializedView(std::string_view view_id, const ReadRequest& request);

  // ---- the place itself ----

  // False when a local database does not exist yet: listing commands then
  // say so rather than show an empty list. A remote instance always exists.
  virtual bool Exists() = 0;
  // Makes the writes so far durable (after a bulk load with sync off).
  virtual Status Flush() { return Status::OK(); }
  // The current time in microseconds, as writes without a timestamp get it.
  virtual int64_t NowMicros() const = 0;
  // Local-only operations, or nullptr for a remote Bigtable.
  virtual LocalMaintenance* local() { return nullptr; }
  // Ends the calls in flight to a remote Bigtable (they fail with
  // Cancelled): what Ctrl-C does in the shell. Safe from any thread. A
  // local read stops at its next row instead, where the command checks.
  virtual void CancelCalls() {}
  // The service's own GoogleSQL engine (a remote Bigtable's PrepareQuery
  // and ExecuteQuery), or nullptr: queries then run on this side, over
  // this interface (sql::LocalQueryService).
  virtual sql::QueryService* query_service() { return nullptr; }
  // The instances beside this one (api/instance.h), or nullptr where they
  // cannot be managed: then every instance name means this one.
  virtual InstanceAdmin* instance_admin() { return nullptr; }
};

// `table`, a handle on a table itself, as OpenTable returns it for
// `table->ref()`: through that ref's authorized view, whose definition
// `bigtable` gives, enforced here (RestrictToView); unchanged when the ref
// names none.
Result<std::unique_ptr<Table>> ThroughAuthorizedView(Bigtable* bigtable, std::unique_ptr<Table> table);

}  // namespace lbt

#endif  // LBT_API_BIGTABLE_H_
