// Internal to remote/: InstanceAdmin as a client of the service's Instance
// Admin API. A change that returns a long-running operation waits for it,
// asking about it once a second, within -timeout.
//
// Threading: as RemoteCalls.

#ifndef LBT_REMOTE_REMOTE_INSTANCE_ADMIN_H_
#define LBT_REMOTE_REMOTE_INSTANCE_ADMIN_H_

#include <functional>
#include <memory>
#include <vector>

#include "api/bigtable.h"
#include "api/instance.h"
#include "remote/remote_calls.h"

namespace lbt::remote {

class RemoteInstanceAdmin final : public InstanceAdmin {
 public:
  // Opens the tables of another instance, for OpenTables.
  using Connector = std::function<Result<std::unique_ptr<Bigtable>>(const InstanceName& instance)>;

  // `calls` is not owned and must outlive this object.
  RemoteInstanceAdmin(RemoteCalls* calls, Connector connect) : calls_(calls), connect_(std::move(connect)) {}

  // With each instance's clusters; app profiles only from GetInstance.
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

  // An instance's through the Instance Admin API, a table's or a backup's
  // through the Table Admin API.
  Result<IamPolicy> GetIamPolicy(std::string_view resource) override;
  Result<IamPolicy> SetIamPolicy(std::string_view resource, const IamPolicy& policy) override;

  Result<std::unique_ptr<Bigtable>> OpenTables(const InstanceName& name) override { return connect_(name); }

 private:
  RemoteCalls* calls_;
  Connector connect_;
};

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_INSTANCE_ADMIN_H_
