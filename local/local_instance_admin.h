// LocalInstanceAdmin: the instances of one database directory
// (InstanceAdmin over local/instance_records.h). Each instance's tables
// are a LocalBigtable scoped to it.
//
// An instance exists once created, or once it has a table (a client named
// it, as the emulator allows): that one is shown with made-up metadata (a
// display name equal to its id, one cluster "<id>-c1" of three nodes) until a
// change to it stores a record. The default instance always exists and
// cannot be deleted.
//
// Threading: as Database. Each change is one write transaction.

#ifndef LBT_LOCAL_LOCAL_INSTANCE_ADMIN_H_
#define LBT_LOCAL_LOCAL_INSTANCE_ADMIN_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/backup.h"
#include "api/instance_admin.h"

namespace lbt {

class Database;
class LazyDatabase;
class Bigtable;

class LocalInstanceAdmin final : public InstanceAdmin {
 public:
  // Opens the tables of an instance of the same database (OpenTables).
  using TablesOpener = std::function<std::unique_ptr<Bigtable>(const InstanceName& name)>;

  // `open_tables` gives each instance's tables, as local_bigtable.h makes
  // them.
  LocalInstanceAdmin(std::shared_ptr<LazyDatabase> db, TablesOpener open_tables)
      : db_(std::move(db)), open_tables_(std::move(open_tables)) {}

  Result<std::vector<InstanceSpec>> ListInstances(std::string_view project) override;
  Result<InstanceSpec> GetInstance(const InstanceName& name) override;
  Status CreateInstance(const InstanceSpec& spec) override;
  Status UpdateInstance(const InstanceSpec& spec) override;
  Status DeleteInstance(const InstanceName& name) override;
  Status CreateCluster(const InstanceName& instance, const ClusterSpec& cluster) override;
  Status UpdateCluster(const InstanceName& instance, const ClusterSpec& cluster) override;
  Status DeleteCluster(const InstanceName& instance, std::string_view cluster_id) override;
  Result<AppProfileSpec> CreateAppProfile(const InstanceName& instance, const AppProfileSpec& profile,
                                          bool ignore_warnings) override;
  Result<AppProfileSpec> UpdateAppProfile(const InstanceName& instance, const AppProfileSpec& profile,
                                          bool ignore_warnings) override;
  Status DeleteAppProfile(const InstanceName& instance, std::string_view profile_id) override;
  // The instance's views, catalog records (local_logical_views.cc,
  // local_materialized_views.cc). A materialized view's hidden tables are
  // read and written through its instance's LocalBigtable.
  Result<LogicalViewSpec> CreateLogicalView(const InstanceName& instance, const LogicalViewSpec& view) override;
  Result<LogicalViewSpec> GetLogicalView(const InstanceName& instance, std::string_view view_id) override;
  Result<std::vector<LogicalViewSpec>> ListLogicalViews(const InstanceName& instance) override;
  Result<LogicalViewSpec> UpdateLogicalView(const InstanceName& instance, const LogicalViewSpec& view,
                                            const LogicalViewUpdate& update) override;
  Status DeleteLogicalView(const InstanceName& instance, std::string_view view_id, std::string_view etag) override;
  Result<MaterializedViewSpec> CreateMaterializedView(const InstanceName& instance,
                                                      const MaterializedViewSpec& view) override;
  Result<MaterializedViewSpec> GetMaterializedView(const InstanceName& instance, std::string_view view_id) override;
  Result<std::vector<MaterializedViewSpec>> ListMaterializedViews(const InstanceName& instance) override;
  Result<MaterializedViewSpec> UpdateMaterializedView(const InstanceName& instance, const MaterializedViewSpec& view,
                                                      const MaterializedViewUpdate& update) override;
  Status DeleteMaterializedView(const InstanceName& instance, std::string_view view_id, std::string_view etag) override;
  // Records that the view's first build is done: reads of it may begin.
  Status SetMaterializedViewBackfilled(const InstanceName& instance, std::string_view view_id);

  // Backups of `instance`'s clusters (local_backups.cc), for its
  // LocalBigtable's TableAdmin.
  Result<BackupSpec> CreateBackup(const InstanceName& instance, std::string_view cluster, std::string_view backup_id,
                                  std::string_view table, int64_t expire_time_micros);
  Result<BackupSpec> GetBackup(const InstanceName& instance, std::string_view cluster, std::string_view backup_id);
  Result<std::vector<BackupSpec>> ListBackups(const InstanceName& instance, std::string_view cluster);
  Result<BackupSpec> UpdateBackupExpireTime(const InstanceName& instance, std::string_view cluster,
                                            std::string_view backup_id, int64_t expire_time_micros);
  Status DeleteBackup(const InstanceName& instance, std::string_view cluster, std::string_view backup_id);
  Result<BackupSpec> CopyBackup(const BackupSpec& source, const InstanceName& to_instance, std::string_view to_cluster,
                                std::string_view backup_id, int64_t expire_time_micros);
  Status RestoreTable(const BackupSpec& backup, const InstanceName& to_instance, std::string_view table_id);

  // LocalMaintenance::RunAutomatedBackups, for every instance.
  Status RunAutomatedBackups();
  // IAM policies (local_backups.cc), under "iam:<resource>": an
  // instance's, and for LocalBigtable those of tables, authorized views
  // and backups.
  Result<IamPolicy> GetIamPolicy(std::string_view resource) override;
  Result<IamPolicy> SetIamPolicy(std::string_view resource, const IamPolicy& policy) override;

  Result<std::unique_ptr<Bigtable>> OpenTables(const InstanceName& name) override;

 private:
  // NotFound unless `resource` names an instance, table or backup that exists.
  Status RequireResource(std::string_view resource);
  // The database, with the backups whose expire time has passed deleted;
  // nullptr if it does not exist and `create` is false.
  Result<Database*> OpenForBackups(bool create);
  Status DropExpiredBackups(Database* db);
  // Copies catalogued table `from` into `backup`'s hidden table from one
  // snapshot, then stores its record; on failure leaves neither.
  Result<BackupSpec> Snapshot(Database* db, BackupSpec backup, std::string_view from);
  // A new backup's id, expire time and cluster, and that it is new.
  Status CheckNewBackup(Database* db, const InstanceName& instance, std::string_view cluster,
                        std::string_view backup_id, int64_t expire_time_micros);
  // Runs `change` on the instance as it stands (stored or made up) and
  // stores what it leaves. NotFound if the instance does not exist.
  Status Change(const InstanceName& name, const std::function<Status(InstanceSpec* spec)>& change);
  int64_t NowMicros() const;

  std::shared_ptr<LazyDatabase> db_;
  TablesOpener open_tables_;
};

}  // namespace lbt

#endif  // LBT_LOCAL_LOCAL_INSTANCE_ADMIN_H_
