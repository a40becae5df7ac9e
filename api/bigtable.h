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

#include "api/cell.h"
#include "api/change_stream.h"
#include "api/filter.h"
#include "api/local_maintenance.h"
#include "api/mutation.h"
#include "api/row_set.h"
#include "api/status.h"
#include "api/table.h"
#include "api/table_admin.h"

namespace lbt {

class InstanceAdmin;  // api/instance_admin.h
class ServerFaults;   // api/server_faults.h

namespace sql {
class QueryService;  // sql/query.h, which depends on this interface
}  // namespace sql

// One instance's tables as a client sees them: their data through Table
// handles (OpenTable), their admin and backups (TableAdmin), and the place
// itself. The instance's own admin (its views, its clusters, the other
// instances) is instance_admin()'s.
class Bigtable : public TableAdmin {
 public:
  virtual ~Bigtable() = default;

  // Where commands run, for banners and notes: "database 'lbt-data'",
  // "instance p/i at localhost:8086".
  virtual std::string Describe() const = 0;
  // The prompt's name for it: "lbt" locally, "p/i" for an instance.
  virtual std::string PromptName() const = 0;
  // The instance whose tables these are.
  virtual InstanceName instance() = 0;

  // ---- data ----

  // The data operations of `ref` as a Table (api/table.h) that must be
  // destroyed before this object. `ref.instance` is unset or this one's.
  // Opening reads nothing but an authorized view's definition (NotFound
  // when there is none): a missing table is NotFound at the first call. A
  // local implementation enforces an authorized view itself
  // (ThroughAuthorizedView), naming it "tables/T/authorizedViews/V" in
  // errors, or in full when `ref.instance` is set; a remote one names the
  // view in each request instead.
  virtual Result<std::unique_ptr<Table>> OpenTable(const TableRef& ref) = 0;

  // Table's operations on the table named `table`, for callers with a
  // table name at hand: each opens the table with OpenTable.
  Result<std::unique_ptr<RowStream>> ReadRows(std::string_view table, const ReadRequest& request);
  Result<int64_t> CountRows(std::string_view table, const RowRange& range);
  Status MutateRow(std::string_view table, std::string_view row_key, const std::vector<Mutation>& mutations);
  Result<std::vector<Status>> MutateRows(std::string_view table, const std::vector<RowMutation>& rows);
  Result<bool> CheckAndMutateRow(std::string_view table, std::string_view row_key,
                                 const std::optional<Filter>& predicate, const std::vector<Mutation>& true_mutations,
                                 const std::vector<Mutation>& false_mutations);
  Result<Row> ReadModifyWriteRow(std::string_view table, std::string_view row_key,
                                 const std::vector<ReadModifyWriteRule>& rules);
  Result<std::vector<KeySample>> SampleRowKeys(std::string_view table, const RowRange& range);
  Result<std::vector<std::optional<Row>>> LookupRows(std::string_view table, const std::vector<std::string>& keys,
                                                     const ReadRequest& request);
  Result<std::vector<RowRange>> ChangeStreamPartitions(std::string_view table);
  Result<std::unique_ptr<ChangeStream>> ReadChangeStream(std::string_view table, const ChangeStreamRequest& request);
  Result<std::optional<Row>> ReadRow(std::string_view table, std::string_view row_key,
                                     std::optional<Filter> filter = std::nullopt);

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
  // The Instance Admin API of the service (api/instance_admin.h): this
  // instance's views, the instances beside it. nullptr where there is
  // none (a database served as one instance): then every instance name
  // means this one.
  virtual InstanceAdmin* instance_admin() { return nullptr; }
  // The fault rules of the lbt serve this reaches (api/server_faults.h),
  // or nullptr where no server is reached (a local database).
  virtual ServerFaults* server_faults() { return nullptr; }
};

// `table`, a handle on a table itself, as OpenTable returns it for
// `table->ref()`: through that ref's authorized view, whose definition
// `bigtable` gives, enforced here (RestrictToView); unchanged when the ref
// names none.
Result<std::unique_ptr<Table>> ThroughAuthorizedView(Bigtable* bigtable, std::unique_ptr<Table> table);

}  // namespace lbt

#endif  // LBT_API_BIGTABLE_H_
