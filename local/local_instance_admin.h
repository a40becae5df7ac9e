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

#include "api/instance.h"

namespace lbt {

class Database;
class LazyDatabase;

class LocalInstanceAdmin final : public InstanceAdmin {
 public:
  explicit LocalInstanceAdmin(std::shared_ptr<LazyDatabase> db) : db_(std::move(db)) {}

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
  // Backups (local_backups.cc).
  Result<BackupSpec> CreateBackup(const InstanceName& instance, std::string_view cluster, std::string_view backup_id,
                                  std::string_view table, int64_t expire_time_micros) override;
  Result<BackupSpec> GetBackup(const InstanceName& instance, std::string_view cluster,
                               std::string_view backup_id) override;
  Result<std::vector<BackupSpec>> ListBackups(const InstanceName& instance, std::string_view cluster) override;
  Result<BackupSpec> UpdateBackupExpireTime(const InstanceName& instance, std::string_view cluster,
                                            std::string_view backup_id, int64_t expire_time_micros) override;
  Status DeleteBackup(const InstanceName& instance, std::string_view cluster, std::string_view backup_id) override;
  Result<BackupSpec> CopyBackup(const BackupSpec& source, const InstanceName& to_instance, std::string_view to_cluster,
                                std::string_view backup_id, int64_t expire_time_micros) override;
  Status RestoreTable(const BackupSpec& backup, const InstanceName& to_instance, std::string_view table_id) override;

  // IAM policies (local_backups.cc), under "iam:<resource>".
  Status RunAutomatedBackups() override;
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
};

}  // namespace lbt

#endif  // LBT_LOCAL_LOCAL_INSTANCE_ADMIN_H_
