// TableAdmin: the admin operations of one instance's tables, as Bigtable's
// Table Admin API has them (google.bigtable.admin.v2.BigtableTableAdmin):
// tables, their families, protection, automated backup policy, change
// stream, row range drops, replication, their authorized views, and the
// backups of the instance's clusters. Tables are named by id within the
// instance, backups by cluster and id.
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
#include "api/backup.h"
#include "api/change_stream.h"
#include "api/iam.h"
#include "api/schema.h"
#include "api/status.h"

namespace lbt {

// How long a deleted table can be undeleted: 7 days. UndeleteTable's
// reference gives no window; the README's differences table says so.
inline constexpr int64_t kUndeleteRetentionMicros = int64_t{7} * 24 * 3600 * 1000000;

class TableAdmin {
 public:
  virtual ~TableAdmin() = default;

  // Creates `table` as `spec` says (api/schema.h's NewTable: families in
  // order, splits, protection, granularity, automated backups), all of it
  // or nothing. AlreadyExists if a table of that name exists.
  virtual Status CreateTable(std::string_view table, const NewTable& spec) = 0;
  // The same, with families, splits and protection alone.
  Status CreateTable(std::string_view table, const std::vector<FamilySpec>& families,
                     const std::vector<std::string>& splits, bool deletion_protection) {
    return CreateTable(table,
                       NewTable{.families = families, .splits = splits, .deletion_protection = deletion_protection});
  }
  // A deleted table can be brought back by UndeleteTable for
  // kUndeleteRetentionMicros (a local one is kept that long, hidden).
  virtual Status DeleteTable(std::string_view table) = 0;
  // Brings back table `table`, deleted within the retention, with its
  // families, cells, views and settings. NotFound if no table of that
  // name was deleted in that time; FailedPrecondition if one of that name
  // exists again.
  virtual Status UndeleteTable(std::string_view table);
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
  // Sets (nullopt: removes) the table's tiered storage rule.
  // InvalidArgument for an age under 30 days.
  virtual Status SetTieredStorage(std::string_view table, const std::optional<TieredStorage>& tiers);
  // Sets a row key schema on a table without one, or removes it (only with
  // `ignore_warnings`), as table.proto allows: InvalidArgument otherwise.
  virtual Status SetRowKeySchema(std::string_view table, const std::optional<RowKeySchema>& schema,
                                 bool ignore_warnings);
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

  // ---- schema bundles of a table (api/schema_bundle.h) ----
  // A service without them answers Unimplemented (the defaults).

  // Keeps bundle `bundle.id` of `table`, its descriptors checked, and
  // returns it as stored, with its etag. AlreadyExists if the table has a
  // bundle of that id; InvalidArgument for descriptors that do not build.
  virtual Result<SchemaBundleSpec> CreateSchemaBundle(std::string_view table, const SchemaBundleSpec& bundle);
  virtual Result<SchemaBundleSpec> GetSchemaBundle(std::string_view table, std::string_view bundle_id);
  // The table's bundles, by id.
  virtual Result<std::vector<SchemaBundleSpec>> ListSchemaBundles(std::string_view table);
  // Replaces bundle `bundle.id`'s descriptors; Aborted if `bundle.etag` is
  // set and is not the current one. `ignore_warnings` is production's
  // consent to changes that could break readers of the bundle's types.
  virtual Result<SchemaBundleSpec> UpdateSchemaBundle(std::string_view table, const SchemaBundleSpec& bundle,
                                                      bool ignore_warnings);
  // Aborted if `etag` is set and is not the current one.
  virtual Status DeleteSchemaBundle(std::string_view table, std::string_view bundle_id, std::string_view etag);

  // ---- change streams of a table (api/change_stream.h) ----

  // A service without them answers Unimplemented (the default). Turns the
  // table's change stream on with `config`'s retention
  // (validated here; enabled_micros is set when the stream was off), or
  // off with nullopt, dropping the changes it kept.
  virtual Status SetChangeStream(std::string_view table, const std::optional<ChangeStreamConfig>& config);

  // ---- backups of the instance's clusters (api/backup.h) ----
  // A service without them answers Unimplemented (the defaults).

  // Takes a consistent snapshot of `table` into a new backup of the
  // instance's cluster `cluster`; writes go on meanwhile. A failed or
  // interrupted backup leaves nothing behind that anyone sees. Returns the
  // backup as made.
  virtual Result<BackupSpec> CreateBackup(std::string_view cluster, std::string_view backup_id, std::string_view table,
                                          int64_t expire_time_micros);
  // NotFound for a backup that does not exist or has expired.
  virtual Result<BackupSpec> GetBackup(std::string_view cluster, std::string_view backup_id);
  // The backups of `cluster` ("-": of every cluster), by cluster and id;
  // expired ones are gone.
  virtual Result<std::vector<BackupSpec>> ListBackups(std::string_view cluster);
  virtual Result<BackupSpec> UpdateBackupExpireTime(std::string_view cluster, std::string_view backup_id,
                                                    int64_t expire_time_micros);
  virtual Status DeleteBackup(std::string_view cluster, std::string_view backup_id);
  // Copies `source`, a backup of any instance (another project's too),
  // into a new backup of this instance's cluster `cluster`, with its own
  // expire time.
  virtual Result<BackupSpec> CopyBackup(const BackupSpec& source, std::string_view cluster, std::string_view backup_id,
                                        int64_t expire_time_micros);
  // Makes table `table_id` of this instance from `backup` (of any
  // instance): its families and cells, and the backup as its restore
  // info. AlreadyExists if the table exists; an interrupted restore leaves
  // no table.
  virtual Status RestoreTable(const BackupSpec& backup, std::string_view table_id);

  // ---- IAM policies (api/iam.h) of the instance's resources ----
  // A service without them answers Unimplemented (the defaults).

  // `resource` is the full name of a table, an authorized view or a backup
  // of this instance (".../tables/T", ".../tables/T/authorizedViews/V",
  // ".../clusters/C/backups/B"). NotFound if it does not exist; a resource
  // without a policy has an empty one.
  virtual Result<IamPolicy> GetIamPolicy(std::string_view resource);
  // Replaces the policy. Aborted if `policy.etag` is set and is not the
  // current one. Returns the policy stored, with its new etag.
  virtual Result<IamPolicy> SetIamPolicy(std::string_view resource, const IamPolicy& policy);
};

}  // namespace lbt

#endif  // LBT_API_TABLE_ADMIN_H_
