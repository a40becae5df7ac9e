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
#include "server/call_runtime.h"
#include "server/handler.h"
#include "server/instance_router.h"
#include "server/operation_store.h"

namespace lbt::server {

namespace admin = ::google::bigtable::admin::v2;
namespace longrunning = ::google::longrunning;

class InstanceAdminService final : public admin::BigtableInstanceAdmin::CallbackService {
 public:
  // `router`, `operations` and `gate` are not owned and must outlive the
  // service. Every RPC passes through `gate`.
  InstanceAdminService(const InstanceRouter* router, OperationStore* operations, CallRuntime* runtime)
      : router_(router), operations_(operations), runtime_(runtime) {}

  grpc::ServerUnaryReactor* CreateInstance(grpc::CallbackServerContext* context,
                                           const admin::CreateInstanceRequest* request,
                                           longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* GetInstance(grpc::CallbackServerContext* context, const admin::GetInstanceRequest* request,
                                        admin::Instance* response) override;
  grpc::ServerUnaryReactor* ListInstances(grpc::CallbackServerContext* context,
                                          const admin::ListInstancesRequest* request,
                                          admin::ListInstancesResponse* response) override;
  grpc::ServerUnaryReactor* UpdateInstance(grpc::CallbackServerContext* context, const admin::Instance* request,
                                           admin::Instance* response) override;
  grpc::ServerUnaryReactor* PartialUpdateInstance(grpc::CallbackServerContext* context,
                                                  const admin::PartialUpdateInstanceRequest* request,
                                                  longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* DeleteInstance(grpc::CallbackServerContext* context,
                                           const admin::DeleteInstanceRequest* request,
                                           google::protobuf::Empty* response) override;
  grpc::ServerUnaryReactor* CreateCluster(grpc::CallbackServerContext* context,
                                          const admin::CreateClusterRequest* request,
                                          longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* GetCluster(grpc::CallbackServerContext* context, const admin::GetClusterRequest* request,
                                       admin::Cluster* response) override;
  grpc::ServerUnaryReactor* ListClusters(grpc::CallbackServerContext* context,
                                         const admin::ListClustersRequest* request,
                                         admin::ListClustersResponse* response) override;
  grpc::ServerUnaryReactor* UpdateCluster(grpc::CallbackServerContext* context, const admin::Cluster* request,
                                          longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* PartialUpdateCluster(grpc::CallbackServerContext* context,
                                                 const admin::PartialUpdateClusterRequest* request,
                                                 longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* DeleteCluster(grpc::CallbackServerContext* context,
                                          const admin::DeleteClusterRequest* request,
                                          google::protobuf::Empty* response) override;
  grpc::ServerUnaryReactor* CreateAppProfile(grpc::CallbackServerContext* context,
                                             const admin::CreateAppProfileRequest* request,
                                             admin::AppProfile* response) override;
  grpc::ServerUnaryReactor* GetAppProfile(grpc::CallbackServerContext* context,
                                          const admin::GetAppProfileRequest* request,
                                          admin::AppProfile* response) override;
  grpc::ServerUnaryReactor* ListAppProfiles(grpc::CallbackServerContext* context,
                                            const admin::ListAppProfilesRequest* request,
                                            admin::ListAppProfilesResponse* response) override;
  grpc::ServerUnaryReactor* UpdateAppProfile(grpc::CallbackServerContext* context,
                                             const admin::UpdateAppProfileRequest* request,
                                             longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* DeleteAppProfile(grpc::CallbackServerContext* context,
                                             const admin::DeleteAppProfileRequest* request,
                                             google::protobuf::Empty* response) override;

  // Kept with etags, never enforced (server/iam_policies.h).
  grpc::ServerUnaryReactor* GetIamPolicy(grpc::CallbackServerContext* context,
                                         const google::iam::v1::GetIamPolicyRequest* request,
                                         google::iam::v1::Policy* response) override;
  grpc::ServerUnaryReactor* SetIamPolicy(grpc::CallbackServerContext* context,
                                         const google::iam::v1::SetIamPolicyRequest* request,
                                         google::iam::v1::Policy* response) override;
  grpc::ServerUnaryReactor* TestIamPermissions(grpc::CallbackServerContext* context,
                                               const google::iam::v1::TestIamPermissionsRequest* request,
                                               google::iam::v1::TestIamPermissionsResponse* response) override;
  // From the schema lab's write replay (admin_hot_tablets.cc).
  grpc::ServerUnaryReactor* ListHotTablets(grpc::CallbackServerContext* context,
                                           const admin::ListHotTabletsRequest* request,
                                           admin::ListHotTabletsResponse* response) override;
  // Logical views (admin_logical_views.cc), kept with the instance's tables.
  grpc::ServerUnaryReactor* CreateLogicalView(grpc::CallbackServerContext* context,
                                              const admin::CreateLogicalViewRequest* request,
                                              longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* GetLogicalView(grpc::CallbackServerContext* context,
                                           const admin::GetLogicalViewRequest* request,
                                           admin::LogicalView* response) override;
  grpc::ServerUnaryReactor* ListLogicalViews(grpc::CallbackServerContext* context,
                                             const admin::ListLogicalViewsRequest* request,
                                             admin::ListLogicalViewsResponse* response) override;
  grpc::ServerUnaryReactor* UpdateLogicalView(grpc::CallbackServerContext* context,
                                              const admin::UpdateLogicalViewRequest* request,
                                              longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* DeleteLogicalView(grpc::CallbackServerContext* context,
                                              const admin::DeleteLogicalViewRequest* request,
                                              google::protobuf::Empty* response) override;
  // Materialized views (admin_materialized_views.cc), kept with the
  // instance's tables and maintained beside the server.
  grpc::ServerUnaryReactor* CreateMaterializedView(grpc::CallbackServerContext* context,
                                                   const admin::CreateMaterializedViewRequest* request,
                                                   longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* GetMaterializedView(grpc::CallbackServerContext* context,
                                                const admin::GetMaterializedViewRequest* request,
                                                admin::MaterializedView* response) override;
  grpc::ServerUnaryReactor* ListMaterializedViews(grpc::CallbackServerContext* context,
                                                  const admin::ListMaterializedViewsRequest* request,
                                                  admin::ListMaterializedViewsResponse* response) override;
  grpc::ServerUnaryReactor* UpdateMaterializedView(grpc::CallbackServerContext* context,
                                                   const admin::UpdateMaterializedViewRequest* request,
                                                   longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* DeleteMaterializedView(grpc::CallbackServerContext* context,
                                                   const admin::DeleteMaterializedViewRequest* request,
                                                   google::protobuf::Empty* response) override;

 private:
  // The admin, or FailedPrecondition when the Bigtable served has none.
  Result<InstanceAdmin*> Admin() const;
  // Keeps a done operation for `parent` with `metadata` and `result`.
  template <typename Metadata, typename Response>
  longrunning::Operation Done(std::string_view parent, const Metadata& metadata, const Response& result);

  const InstanceRouter* router_;
  OperationStore* operations_;
  CallRuntime* runtime_;
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

class OperationsService final : public longrunning::Operations::CallbackService {
 public:
  // As InstanceAdminService's.
  OperationsService(OperationStore* operations, CallRuntime* runtime) : operations_(operations), runtime_(runtime) {}

  grpc::ServerUnaryReactor* ListOperations(grpc::CallbackServerContext* context,
                                           const longrunning::ListOperationsRequest* request,
                                           longrunning::ListOperationsResponse* response) override;
  grpc::ServerUnaryReactor* GetOperation(grpc::CallbackServerContext* context,
                                         const longrunning::GetOperationRequest* request,
                                         longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* DeleteOperation(grpc::CallbackServerContext* context,
                                            const longrunning::DeleteOperationRequest* request,
                                            google::protobuf::Empty* response) override;
  // Every operation is done: there is nothing left to cancel.
  grpc::ServerUnaryReactor* CancelOperation(grpc::CallbackServerContext* context,
                                            const longrunning::CancelOperationRequest* request,
                                            google::protobuf::Empty* response) override;
  grpc::ServerUnaryReactor* WaitOperation(grpc::CallbackServerContext* context,
                                          const longrunning::WaitOperationRequest* request,
                                          longrunning::Operation* response) override;

 private:
  OperationStore* operations_;
  CallRuntime* runtime_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_INSTANCE_ADMIN_SERVICE_H_
