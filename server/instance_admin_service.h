// google.bigtable.admin.v2.BigtableInstanceAdmin and google.longrunning.Operations
// over InstanceAdmin (api/instance.h): instances, clusters and app profiles,
// kept as metadata in the database served. Each change is made before its
// RPC returns, so every long-running operation comes back done, with
// production's metadata type, and stays in an OperationStore for
// GetOperation and its kin. Logical views are kept with the instance's
// tables (admin_logical_views.cc); hot tablets come from the schema lab's
// write replay (admin_hot_tablets.cc). IAM policies are kept, not enforced.
// Materialized views answer UNIMPLEMENTED, naming the
// RPC and saying why.
//
// Threading: as DataService.

#ifndef LBT_SERVER_INSTANCE_ADMIN_SERVICE_H_
#define LBT_SERVER_INSTANCE_ADMIN_SERVICE_H_

#include <fmt/format.h>

#include "api/instance_admin.h"
#include "google/bigtable/admin/v2/bigtable_instance_admin.grpc.pb.h"
#include "google/longrunning/operations.grpc.pb.h"
#include "server/handler.h"
#include "server/instance_router.h"
#include "server/operation_store.h"
#include "server/rpc_gate.h"

namespace lbt::server {

namespace admin = ::google::bigtable::admin::v2;
namespace longrunning = ::google::longrunning;

class InstanceAdminService final : public admin::BigtableInstanceAdmin::Service {
 public:
  // `router`, `operations` and `gate` are not owned and must outlive the
  // service. Every RPC passes through `gate`.
  InstanceAdminService(const InstanceRouter* router, OperationStore* operations, RpcGate* gate)
      : router_(router), operations_(operations), gate_(gate) {}

  grpc::Status CreateInstance(grpc::ServerContext*, const admin::CreateInstanceRequest* request,
                              longrunning::Operation* response) override;
  grpc::Status GetInstance(grpc::ServerContext*, const admin::GetInstanceRequest* request,
                           admin::Instance* response) override;
  grpc::Status ListInstances(grpc::ServerContext*, const admin::ListInstancesRequest* request,
                             admin::ListInstancesResponse* response) override;
  grpc::Status UpdateInstance(grpc::ServerContext*, const admin::Instance* request, admin::Instance* response) override;
  grpc::Status PartialUpdateInstance(grpc::ServerContext*, const admin::PartialUpdateInstanceRequest* request,
                                     longrunning::Operation* response) override;
  grpc::Status DeleteInstance(grpc::ServerContext*, const admin::DeleteInstanceRequest* request,
                              google::protobuf::Empty* response) override;
  grpc::Status CreateCluster(grpc::ServerContext*, const admin::CreateClusterRequest* request,
                             longrunning::Operation* response) override;
  grpc::Status GetCluster(grpc::ServerContext*, const admin::GetClusterRequest* request,
                          admin::Cluster* response) override;
  grpc::Status ListClusters(grpc::ServerContext*, const admin::ListClustersRequest* request,
                            admin::ListClustersResponse* response) override;
  grpc::Status UpdateCluster(grpc::ServerContext*, const admin::Cluster* request,
                             longrunning::Operation* response) override;
  grpc::Status PartialUpdateCluster(grpc::ServerContext*, const admin::PartialUpdateClusterRequest* request,
                                    longrunning::Operation* response) override;
  grpc::Status DeleteCluster(grpc::ServerContext*, const admin::DeleteClusterRequest* request,
                             google::protobuf::Empty* response) override;
  grpc::Status CreateAppProfile(grpc::ServerContext*, const admin::CreateAppProfileRequest* request,
                                admin::AppProfile* response) override;
  grpc::Status GetAppProfile(grpc::ServerContext*, const admin::GetAppProfileRequest* request,
                             admin::AppProfile* response) override;
  grpc::Status ListAppProfiles(grpc::ServerContext*, const admin::ListAppProfilesRequest* request,
                               admin::ListAppProfilesResponse* response) override;
  grpc::Status UpdateAppProfile(grpc::ServerContext*, const admin::UpdateAppProfileRequest* request,
                                longrunning::Operation* response) override;
  grpc::Status DeleteAppProfile(grpc::ServerContext*, const admin::DeleteAppProfileRequest* request,
                                google::protobuf::Empty* response) override;

  // Kept with etags, never enforced (server/iam_policies.h).
  grpc::Status GetIamPolicy(grpc::ServerContext*, const google::iam::v1::GetIamPolicyRequest* request,
                            google::iam::v1::Policy* response) override;
  grpc::Status SetIamPolicy(grpc::ServerContext*, const google::iam::v1::SetIamPolicyRequest* request,
                            google::iam::v1::Policy* response) override;
  grpc::Status TestIamPermissions(grpc::ServerContext*, const google::iam::v1::TestIamPermissionsRequest* request,
                                  google::iam::v1::TestIamPermissionsResponse* response) override;
  // From the schema lab's write replay (admin_hot_tablets.cc).
  grpc::Status ListHotTablets(grpc::ServerContext*, const admin::ListHotTabletsRequest* request,
                              admin::ListHotTabletsResponse* response) override;
  // Logical views (admin_logical_views.cc), kept with the instance's tables.
  grpc::Status CreateLogicalView(grpc::ServerContext*, const admin::CreateLogicalViewRequest* request,
                                 longrunning::Operation* response) override;
  grpc::Status GetLogicalView(grpc::ServerContext*, const admin::GetLogicalViewRequest* request,
                              admin::LogicalView* response) override;
  grpc::Status ListLogicalViews(grpc::ServerContext*, const admin::ListLogicalViewsRequest* request,
                                admin::ListLogicalViewsResponse* response) override;
  grpc::Status UpdateLogicalView(grpc::ServerContext*, const admin::UpdateLogicalViewRequest* request,
                                 longrunning::Operation* response) override;
  grpc::Status DeleteLogicalView(grpc::ServerContext*, const admin::DeleteLogicalViewRequest* request,
                                 google::protobuf::Empty* response) override;
  // Materialized views (admin_materialized_views.cc), kept with the
  // instance's tables and maintained beside the server.
  grpc::Status CreateMaterializedView(grpc::ServerContext*, const admin::CreateMaterializedViewRequest* request,
                                      longrunning::Operation* response) override;
  grpc::Status GetMaterializedView(grpc::ServerContext*, const admin::GetMaterializedViewRequest* request,
                                   admin::MaterializedView* response) override;
  grpc::Status ListMaterializedViews(grpc::ServerContext*, const admin::ListMaterializedViewsRequest* request,
                                     admin::ListMaterializedViewsResponse* response) override;
  grpc::Status UpdateMaterializedView(grpc::ServerContext*, const admin::UpdateMaterializedViewRequest* request,
                                      longrunning::Operation* response) override;
  grpc::Status DeleteMaterializedView(grpc::ServerContext*, const admin::DeleteMaterializedViewRequest* request,
                                      google::protobuf::Empty* response) override;

 private:
  // The admin, or FailedPrecondition when the Bigtable served has none.
  Result<InstanceAdmin*> Admin() const;
  // Keeps a done operation for `parent` with `metadata` and `result`.
  template <typename Metadata, typename Response>
  longrunning::Operation Done(std::string_view parent, const Metadata& metadata, const Response& result);

  const InstanceRouter* router_;
  OperationStore* operations_;
  RpcGate* gate_;
};

template <typename Metadata, typename Response>
longrunning::Operation InstanceAdminService::Done(std::string_view parent, const Metadata& metadata,
                                                  const Response& result) {
  longrunning::Operation operation;
  operation.set_done(true);
  operation.mutable_metadata()->PackFrom(metadata);
  operation.mutable_response()->PackFrom(result);
  return operations_->Add(fmt::format("operations/{}", parent), std::move(operation));
}

class OperationsService final : public longrunning::Operations::Service {
 public:
  // As InstanceAdminService's.
  OperationsService(OperationStore* operations, RpcGate* gate) : operations_(operations), gate_(gate) {}

  grpc::Status ListOperations(grpc::ServerContext*, const longrunning::ListOperationsRequest* request,
                              longrunning::ListOperationsResponse* response) override;
  grpc::Status GetOperation(grpc::ServerContext*, const longrunning::GetOperationRequest* request,
                            longrunning::Operation* response) override;
  grpc::Status DeleteOperation(grpc::ServerContext*, const longrunning::DeleteOperationRequest* request,
                               google::protobuf::Empty* response) override;
  // Every operation is done: there is nothing left to cancel.
  grpc::Status CancelOperation(grpc::ServerContext*, const longrunning::CancelOperationRequest* request,
                               google::protobuf::Empty* response) override;
  grpc::Status WaitOperation(grpc::ServerContext*, const longrunning::WaitOperationRequest* request,
                             longrunning::Operation* response) override;

 private:
  OperationStore* operations_;
  RpcGate* gate_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_INSTANCE_ADMIN_SERVICE_H_
