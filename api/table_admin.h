// TableAdmin: the admin operations of one instance's tables, as Bigtable's
// Table Admin API has them (google.bigtable.admin.v2.BigtableTableAdmin):
// tables, their families, protection, automated backup policy, change
// stream, row range drops, replication, and their authorized views. Tables
// are named by id within the instance. (Backups are still on InstanceAdmin.)
//
// Errors are Status values with Bigtable's codes; a failed call changes
// nothing. Threading: an implementation may be used from several threads.

#ifndef LBT_API_TABLE_ADMIN_H_
#define LBT_API_TABLE_ADMIN_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/authorized_view.h"
#include "api/change_stream.h"
#include "api/schema.h"
#include "api/status.h"

namespace lbt {

class TableAdmin {
 public:
  virtual ~TableAdmin() = default;

  // `splits`: row keys to split the new table's tablets at, for a service
  // that has tablets (a local database has none, and ignores them). The
  // families are created in the order given (their cells come in that
  // order); with `deletion_protection` the table is protected from the
  // start.
  virtual Status CreateTable(std::string_view table, const std::vector<FamilySpec>& families,
                             const std::vector<std::string>& splits, bool deletion_protection) = 0;
  virtual Status DeleteTable(std::string_view table) = 0;
  // Table names in byte order.
  virtual Result<std::vector<std::string>> ListTables() = 0;
  virtual Result<TableSpec> GetTable(std::string_view table) = 0;
  // Applies `changes` in order, all of them or none (ModifyColumnFamilies).
  virtual Status ModifyFamilies(std::string_view table, const std::vector<FamilyChange>& changes) = 0;
  // One change through ModifyFamilies. Changing a family's value type:
  // Bigtable refuses changes to or from an aggregate type (the emulator
  // allows some).
  Status CreateFamily(std::string_view table, const FamilySpec& family);
  Status DeleteFamily(std::string_view table, std::string_view family);
  Status SetGcRule(std::string_view table, std::string_view family, const GcRule& rule);
  Status SetValueType(std::string_view table, std::string_view family, ValueType type);
  virtual Status SetDeletionProtection(std::string_view table, bool enabled) = 0;
  // Turns automated backups on with `policy` (validated here), or off with
  // nullopt. A service without them answers Unimplemented (the default).
  virtual Status SetAutomatedBackupPolicy(std::string_view table, const std::optional<AutomatedBackupPolicy>& policy);
  // Deletes every row whose key starts with `prefix` ("" = every row).
  virtual Status DropRowRange(std::string_view table, std::string_view prefix) = 0;
  // Returns once every write to `table` made before the call has reached
  // all of its replicas. One local copy is always caught up.
  virtual Status WaitForReplication(std::string_view table) = 0;

  // ---- authorized views of a table (api/authorized_view.h) ----
  // A service without them answers Unimplemented (the defaults).

  // Creates view `view.id` of `table` and returns it as stored, with its
  // etag. AlreadyExists if the table has a view of that id.
  virtual Result<AuthorizedViewSpec> CreateAuthorizedView(std::string_view table, const AuthorizedViewSpec& view);
  virtual Result<AuthorizedViewSpec> GetAuthorizedView(std::string_view table, std::string_view view_id);
  // The table's views, by id.
  virtual Result<std::vector<AuthorizedViewSpec>> ListAuthorizedViews(std::string_view table);
  // Replaces what `update` names of view `view.id`; Aborted if `view.etag`
  // is set and is not the current one. Returns the view as stored.
  virtual Result<AuthorizedViewSpec> UpdateAuthorizedView(std::string_view table, const AuthorizedViewSpec& view,
                                                          const AuthorizedViewUpdate& update);
  // FailedPrecondition while the view's deletion protection is on; Aborted
  // if `etag` is set and is not the current one.
  virtual Status DeleteAuthorizedView(std::string_view table, std::string_view view_id, std::string_view etag);

  // ---- change streams of a table (api/change_stream.h) ----

  // A service without them answers Unimplemented (the default). Turns the
  // table's change stream on with `config`'s retention
  // (validated here; enabled_micros is set when the stream was off), or
  // off with nullopt, dropping the changes it kept.
  virtual Status SetChangeStream(std::string_view table, const std::optional<ChangeStreamConfig>& config);
};

}  // namespace lbt

#endif  // LBT_API_TABLE_ADMIN_H_
