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
#include "api/instance_admin.h"
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

  // An instance's, through the Instance Admin API.
  Result<IamPolicy> GetIamPolicy(std::string_view resource) override;
  Result<IamPolicy> SetIamPolicy(std::string_view resource, const IamPolicy& policy) override;

  Result<std::unique_ptr<Bigtable>> OpenTables(const InstanceName& name) override { return connect_(name); }

 private:
  RemoteCalls* calls_;
  Connector connect_;
};

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_INSTANCE_ADMIN_H_
