// google.bigtable.admin.v2.BigtableInstanceAdmin and google.longrunning.Operations.
// Each `projects/<project>/instances/<instance>` a request names is the one
// database `lbt serve` serves, so there are no instances, clusters, app
// profiles, logical or materialized views to manage, and no operation is
// kept: every operation lbt serve returns is done already. Every RPC of
// these two services answers UNIMPLEMENTED, naming itself and saying why,
// rather than gRPC's empty UNIMPLEMENTED for a service nobody registered.
//
// Threading: as DataService.

#ifndef LBT_SERVER_INSTANCE_ADMIN_SERVICE_H_
#define LBT_SERVER_INSTANCE_ADMIN_SERVICE_H_

#include "google/bigtable/admin/v2/bigtable_instance_admin.grpc.pb.h"
#include "google/longrunning/operations.grpc.pb.h"
#include "server/handler.h"
#include "server/rpc_gate.h"

namespace lbt::server {

namespace admin = ::google::bigtable::admin::v2;

inline constexpr char kNoInstances[] =
    "every projects/<project>/instances/<instance> is the one database lbt serve serves, which has no instances "
    "or clusters to manage";
inline constexpr char kNoAppProfiles[] =
    "lbt keeps no app profiles; data requests may name any app profile, and every one reads and writes the same "
    "database";
inline constexpr char kNoAccessControl[] = "lbt has no access control";
inline constexpr char kNoLogicalViews[] = "lbt has no logical views; run the query itself with ExecuteQuery";
inline constexpr char kNoMaterializedViews[] = "lbt has no materialized views";

class InstanceAdminService final : public admin::BigtableInstanceAdmin::Service {
 public:
  // `gate` is not owned and must outlive the service. Every RPC passes
  // through it.
  explicit InstanceAdminService(RpcGate* gate) : gate_(gate) {}

  LBT_NOT_SERVED(CreateInstance, admin::CreateInstanceRequest, google::longrunning::Operation, kNoInstances)
  LBT_NOT_SERVED(GetInstance, admin::GetInstanceRequest, admin::Instance, kNoInstances)
  LBT_NOT_SERVED(ListInstances, admin::ListInstancesRequest, admin::ListInstancesResponse, kNoInstances)
  LBT_NOT_SERVED(UpdateInstance, admin::Instance, admin::Instance, kNoInstances)
  LBT_NOT_SERVED(PartialUpdateInstance, admin::PartialUpdateInstanceRequest, google::longrunning::Operation,
                 kNoInstances)
  LBT_NOT_SERVED(DeleteInstance, admin::DeleteInstanceRequest, google::protobuf::Empty, kNoInstances)
  LBT_NOT_SERVED(CreateCluster, admin::CreateClusterRequest, google::longrunning::Operation, kNoInstances)
  LBT_NOT_SERVED(GetCluster, admin::GetClusterRequest, admin::Cluster, kNoInstances)
  LBT_NOT_SERVED(ListClusters, admin::ListClustersRequest, admin::ListClustersResponse, kNoInstances)
  LBT_NOT_SERVED(UpdateCluster, admin::Cluster, google::longrunning::Operation, kNoInstances)
  LBT_NOT_SERVED(PartialUpdateCluster, admin::PartialUpdateClusterRequest, google::longrunning::Operation, kNoInstances)
  LBT_NOT_SERVED(DeleteCluster, admin::DeleteClusterRequest, google::protobuf::Empty, kNoInstances)
  LBT_NOT_SERVED(CreateAppProfile, admin::CreateAppProfileRequest, admin::AppProfile, kNoAppProfiles)
  LBT_NOT_SERVED(GetAppProfile, admin::GetAppProfileRequest, admin::AppProfile, kNoAppProfiles)
  LBT_NOT_SERVED(ListAppProfiles, admin::ListAppProfilesRequest, admin::ListAppProfilesResponse, kNoAppProfiles)
  LBT_NOT_SERVED(UpdateAppProfile, admin::UpdateAppProfileRequest, google::longrunning::Operation, kNoAppProfiles)
  LBT_NOT_SERVED(DeleteAppProfile, admin::DeleteAppProfileRequest, google::protobuf::Empty, kNoAppProfiles)
  LBT_NOT_SERVED(GetIamPolicy, google::iam::v1::GetIamPolicyRequest, google::iam::v1::Policy, kNoAccessControl)
  LBT_NOT_SERVED(SetIamPolicy, google::iam::v1::SetIamPolicyRequest, google::iam::v1::Policy, kNoAccessControl)
  LBT_NOT_SERVED(TestIamPermissions, google::iam::v1::TestIamPermissionsRequest,
                 google::iam::v1::TestIamPermissionsResponse, kNoAccessControl)
  LBT_NOT_SERVED(ListHotTablets, admin::ListHotTabletsRequest, admin::ListHotTabletsResponse,
                 "lbt has no tablets; the shell's `hotspots` command shows where a table's writes land")
  LBT_NOT_SERVED(CreateLogicalView, admin::CreateLogicalViewRequest, google::longrunning::Operation, kNoLogicalViews)
  LBT_NOT_SERVED(GetLogicalView, admin::GetLogicalViewRequest, admin::LogicalView, kNoLogicalViews)
  LBT_NOT_SERVED(ListLogicalViews, admin::ListLogicalViewsRequest, admin::ListLogicalViewsResponse, kNoLogicalViews)
  LBT_NOT_SERVED(UpdateLogicalView, admin::UpdateLogicalViewRequest, google::longrunning::Operation, kNoLogicalViews)
  LBT_NOT_SERVED(DeleteLogicalView, admin::DeleteLogicalViewRequest, google::protobuf::Empty, kNoLogicalViews)
  LBT_NOT_SERVED(CreateMaterializedView, admin::CreateMaterializedViewRequest, google::longrunning::Operation,
                 kNoMaterializedViews)
  LBT_NOT_SERVED(GetMaterializedView, admin::GetMaterializedViewRequest, admin::MaterializedView, kNoMaterializedViews)
  LBT_NOT_SERVED(ListMaterializedViews, admin::ListMaterializedViewsRequest, admin::ListMaterializedViewsResponse,
                 kNoMaterializedViews)
  LBT_NOT_SERVED(UpdateMaterializedView, admin::UpdateMaterializedViewRequest, google::longrunning::Operation,
                 kNoMaterializedViews)
  LBT_NOT_SERVED(DeleteMaterializedView, admin::DeleteMaterializedViewRequest, google::protobuf::Empty,
                 kNoMaterializedViews)

 private:
  RpcGate* gate_;
};

inline constexpr char kNoOperations[] =
    "every operation lbt serve returns is done when it is returned, and none is kept to look up";

class OperationsService final : public google::longrunning::Operations::Service {
 public:
  // As InstanceAdminService's.
  explicit OperationsService(RpcGate* gate) : gate_(gate) {}

  LBT_NOT_SERVED(ListOperations, google::longrunning::ListOperationsRequest,
                 google::longrunning::ListOperationsResponse, kNoOperations)
  LBT_NOT_SERVED(GetOperation, google::longrunning::GetOperationRequest, google::longrunning::Operation, kNoOperations)
  LBT_NOT_SERVED(DeleteOperation, google::longrunning::DeleteOperationRequest, google::protobuf::Empty, kNoOperations)
  LBT_NOT_SERVED(CancelOperation, google::longrunning::CancelOperationRequest, google::protobuf::Empty, kNoOperations)
  LBT_NOT_SERVED(WaitOperation, google::longrunning::WaitOperationRequest, google::longrunning::Operation,
                 kNoOperations)

 private:
  RpcGate* gate_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_INSTANCE_ADMIN_SERVICE_H_
