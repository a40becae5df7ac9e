// LocalBigtable: the Bigtable interface over the tables of one instance in
// an lbt database directory, opened lazily: each call goes to the Database
// under the table's catalog name once it is open. The one made from a
// directory is the default instance's (DefaultInstanceName in
// api/resource.h); its instance_admin() manages the others and opens their
// tables.
//
// The database is opened on first use and created by the first write, so
// that a read of a place where nothing was written yet changes nothing on
// disk: reads of tables there answer NotFound, and ListTables an empty
// list (Exists() tells the two apart).
//
// Threading: as Database; the lazy open is guarded.

#ifndef LBT_LOCAL_LOCAL_BIGTABLE_H_
#define LBT_LOCAL_LOCAL_BIGTABLE_H_

#include <functional>
#include <memory>
#include <string>

#include "api/bigtable.h"
#include "api/instance_admin.h"
#include "storage/database.h"

namespace lbt {

class LazyDatabase;
class LocalInstanceAdmin;

class LocalBigtable final : public Bigtable, private LocalMaintenance {
 public:
  // The tables of `instance` in the database in `dir`; its instance_admin()
  // manages every instance there.
  LocalBigtable(std::string dir, DatabaseOptions options, InstanceName instance = DefaultInstanceName());
  // The default instance of `opened`, a database opened with `options`
  // (a server opens it first, to report at once why it cannot).
  LocalBigtable(std::unique_ptr<Database> opened, DatabaseOptions options);
  // The tables of `instance` in `db` (LocalInstanceAdmin::OpenTables).
  // `admin` is not owned and must outlive this object.
  LocalBigtable(std::shared_ptr<LazyDatabase> db, InstanceName instance, LocalInstanceAdmin* admin);
  // `db`, opened with `options` and owned by the caller (it must outlive
  // the result), as one instance that every instance name means: no
  // instance_admin(). For tests that serve a database they also use
  // directly.
  static std::unique_ptr<LocalBigtable> OneInstanceOf(Database* db, DatabaseOptions options);
  ~LocalBigtable() override;

  std::string Describe() const override;
  std::string PromptName() const override;
  InstanceName instance() override { return instance_; }

  using TableAdmin::CreateTable;
  Status CreateTable(std::string_view table, const NewTable& spec) override;
  Status DeleteTable(std::string_view table) override;
  Status UndeleteTable(std::string_view table) override;
  Result<std::vector<std::string>> ListTables() override;
  Result<TableSpec> GetTable(std::string_view table) override;
  Status ModifyFamilies(std::string_view table, const std::vector<FamilyChange>& changes) override;
  Status SetDeletionProtection(std::string_view table, bool enabled) override;
  Status SetAutomatedBackupPolicy(std::string_view table, const std::optional<AutomatedBackupPolicy>& policy) override;
  Status SetTieredStorage(std::string_view table, const std::optional<TieredStorage>& tiers) override;
  Status SetRowKeySchema(std::string_view table, const std::optional<RowKeySchema>& schema,
                         bool ignore_warnings) override;
  Status SetChangeStream(std::string_view table, const std::optional<ChangeStreamConfig>& config) override;
  Status DropRowRange(std::string_view table, std::string_view prefix) override;
  Status WaitForReplication(std::string_view table) override { return GetTable(table).status(); }

  Result<SchemaBundleSpec> CreateSchemaBundle(std::string_view table, const SchemaBundleSpec& bundle) override;
  Result<SchemaBundleSpec> GetSchemaBundle(std::string_view table, std::string_view bundle_id) override;
  Result<std::vector<SchemaBundleSpec>> ListSchemaBundles(std::string_view table) override;
  Result<SchemaBundleSpec> UpdateSchemaBundle(std::string_view table, const SchemaBundleSpec& bundle,
                                              bool ignore_warnings) override;
  Status DeleteSchemaBundle(std::string_view table, std::string_view bundle_id, std::string_view etag) override;

  Result<AuthorizedViewSpec> CreateAuthorizedView(std::string_view table, const AuthorizedViewSpec& view) override;
  Result<AuthorizedViewSpec> GetAuthorizedView(std::string_view table, std::string_view view_id) override;
  Result<std::vector<AuthorizedViewSpec>> ListAuthorizedViews(std::string_view table) override;
  Result<AuthorizedViewSpec> UpdateAuthorizedView(std::string_view table, const AuthorizedViewSpec& view,
                                                  const AuthorizedViewUpdate& update) override;
  Status DeleteAuthorizedView(std::string_view table, std::string_view view_id, std::string_view etag) override;
  // A LocalTable (local_table.h) of this instance, through its authorized
  // view when `ref` names one, which errors name in full
  // (projects/P/instances/I/tables/T/authorizedViews/V).
  Result<std::unique_ptr<Table>> OpenTable(const TableRef& ref) override;

  // Backups of the instance's clusters, which LocalInstanceAdmin keeps
  // (local_backups.cc).
  Result<BackupSpec> CreateBackup(std::string_view cluster, std::string_view backup_id, std::string_view table,
                                  int64_t expire_time_micros) override;
  Result<BackupSpec> GetBackup(std::string_view cluster, std::string_view backup_id) override;
  Result<std::vector<BackupSpec>> ListBackups(std::string_view cluster) override;
  Result<BackupSpec> UpdateBackupExpireTime(std::string_view cluster, std::string_view backup_id,
                                            int64_t expire_time_micros) override;
  Status DeleteBackup(std::string_view cluster, std::string_view backup_id) override;
  Result<BackupSpec> CopyBackup(const BackupSpec& source, std::string_view cluster, std::string_view backup_id,
                                int64_t expire_time_micros) override;
  Status RestoreTable(const BackupSpec& backup, std::string_view table_id) override;
  // IAM policies of the instance's tables, authorized views and backups,
  // which LocalInstanceAdmin keeps with the instances' (local_backups.cc).
  Result<IamPolicy> GetIamPolicy(std::string_view resource) override;
  Result<IamPolicy> SetIamPolicy(std::string_view resource, const IamPolicy& policy) override;

  // In local_materialized_view_tables.cc: a built view's rows, once `hook`
  // (SetBeforeMaterializedViewRead) ran: what a TableRef naming the view
  // reads (OpenTable).
  Result<std::unique_ptr<RowStream>> ReadMaterializedView(std::string_view view_id, const ReadRequest& request);
  // Runs `hook` before every read of a built materialized view, of this
  // instance and of every other one of the database: lbt serve brings its
  // views up to date there, so that a client reads what it wrote. Call
  // before the object is shared between threads.
  void SetBeforeMaterializedViewRead(std::function<void()> hook);

  bool Exists() override;
  Status Flush() override;
  int64_t NowMicros() const override;
  LocalMaintenance* local() override { return this; }
  InstanceAdmin* instance_admin() override { return admin_; }

 private:
  // OK if each family of a schema bundle's proto or enum type names a
  // bundle of `table` that defines that type (local_schema_bundles.cc).
  static Status CheckBundleTypes(const TableSpec& table, const std::vector<FamilySpec>& families);
  // LocalMaintenance
  bool lazy_gc() const override;
  std::chrono::milliseconds gc_interval() const override;
  bool read_only() const override;
  const std::string& dir() const override;
  Result<GcStats> CollectGarbage(std::string_view table, const std::function<Status(int64_t cells)>& progress) override;
  Result<CompactStats> Compact() override;
  Status SetTableEnabled(std::string_view table, bool enabled) override;
  Result<std::unique_ptr<BulkLoad>> NewBulkLoad(std::string_view table, const BulkLoadOptions& options) override;
  Result<std::unique_ptr<MaterializedViewStorage>> OpenMaterializedViewStorage(std::string_view view_id) override;
  Status SetMaterializedViewBackfilled(std::string_view view_id) override;
  Status RunAutomatedBackups() override;
  Result<std::vector<std::string>> PurgeDeletedTables(bool expired_only) override;

  // Makes the admin this object owns; `shown`: instance_admin() is it.
  void OwnAdmin(bool shown);
  // The database for an operation on `table`: created if `write`; for a
  // read where no database exists yet, NotFound for the table. A name
  // with a '/' is no table of any instance.
  Result<Database*> For(std::string_view table, bool write);
  // AlreadyExists when the instance has a logical or materialized view
  // named `table`.
  Status CheckNoViewNamed(std::string_view table);
  // FailedPrecondition, as production words it, when a materialized view
  // reads `table`: `what` it would stop ("delete", "disable the change
  // stream of").
  Status CheckNoMaterializedViewReads(std::string_view table, std::string_view what);
  // The same for deleting family `family` of `table`: refused when a view's
  // query names it (a word of its text), since the view could no longer
  // be kept.
  Status CheckNoMaterializedViewReadsFamily(std::string_view table, std::string_view family);
  // The views of this instance that read `table` (and, with `family`, name
  // it), as "P/I/materializedViews/V, ...": "" for none.
  Result<std::string> MaterializedViewsReading(std::string_view table, std::optional<std::string_view> family);
  // Materialized view `ref.materialized_view` read as a table: ReadRows,
  // LookupRows, CountRows and SampleRowKeys read the view; writes are
  // refused, as views are read-only.
  std::unique_ptr<Table> OpenMaterializedViewAsTable(TableRef ref);
  // The catalog's name of this instance's `table`.
  std::string Qualified(std::string_view table) const { return prefix_ + std::string(table); }

  std::shared_ptr<LazyDatabase> db_;
  const InstanceName instance_;
  const std::string prefix_;  // "P/I/", "" for the default instance
  // The default instance's LocalBigtable owns the admin, which keeps the
  // instance's backups and views; the others borrow it. One made by
  // OneInstanceOf has an admin of its own, which instance_admin() does not
  // show.
  std::unique_ptr<LocalInstanceAdmin> owned_admin_;
  LocalInstanceAdmin* local_admin_ = nullptr;
  InstanceAdmin* admin_ = nullptr;
};

}  // namespace lbt

#endif  // LBT_LOCAL_LOCAL_BIGTABLE_H_
