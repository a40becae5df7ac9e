// google.bigtable.admin.v2.BigtableTableAdmin over the Bigtable interface: tables,
// column families, deletion protection, dropping row ranges, consistency.
// Long-running operations come back already done. Backups, snapshots,
// authorized views, schema bundles and IAM answer UNIMPLEMENTED.
//
// Threading: as DataService.

#ifndef LBT_SERVER_ADMIN_SERVICE_H_
#define LBT_SERVER_ADMIN_SERVICE_H_

#include "api/bigtable.h"
#include "google/bigtable/admin/v2/bigtable_table_admin.grpc.pb.h"
#include "server/handler.h"
#include "server/instance_router.h"
#include "server/rpc_gate.h"

namespace lbt::server {

namespace admin = ::google::bigtable::admin::v2;

class AdminService final : public admin::BigtableTableAdmin::Service {
 public:
  // `router` and `gate` are not owned and must outlive the service.
  // Every RPC passes through `gate`.
  AdminService(const InstanceRouter* router, RpcGate* gate) : router_(router), gate_(gate) {}

  grpc::Status CreateTable(grpc::ServerContext*, const admin::CreateTableRequest* request,
                           admin::Table* response) override;
  grpc::Status ListTables(grpc::ServerContext*, const admin::ListTablesRequest* request,
                          admin::ListTablesResponse* response) override;
  grpc::Status GetTable(grpc::ServerContext*, const admin::GetTableRequest* request, admin::Table* response) override;
  grpc::Status UpdateTable(grpc::ServerContext*, const admin::UpdateTableRequest* request,
                           google::longrunning::Operation* response) override;
  grpc::Status DeleteTable(grpc::ServerContext*, const admin::DeleteTableRequest* request,
                           google::protobuf::Empty* response) override;
  grpc::Status ModifyColumnFamilies(grpc::ServerContext*, const admin::ModifyColumnFamiliesRequest* request,
                                    admin::Table* response) override;
  grpc::Status DropRowRange(grpc::ServerContext*, const admin::DropRowRangeRequest* request,
                            google::protobuf::Empty* response) override;
  grpc::Status GenerateConsistencyToken(grpc::ServerContext*, const admin::GenerateConsistencyTokenRequest* request,
                                        admin::GenerateConsistencyTokenResponse* response) override;
  grpc::Status CheckConsistency(grpc::ServerContext*, const admin::CheckConsistencyRequest* request,
                                admin::CheckConsistencyResponse* response) override;

  LBT_NOT_SERVED(CreateTableFromSnapshot, admin::CreateTableFromSnapshotRequest, google::longrunning::Operation,
                 "lbt has no snapshots")
  LBT_NOT_SERVED(UndeleteTable, admin::UndeleteTableRequest, google::longrunning::Operation, "a deleted table is gone")
  LBT_NOT_SERVED(CreateAuthorizedView, admin::CreateAuthorizedViewRequest, google::longrunning::Operation,
                 "lbt has no authorized views")
  LBT_NOT_SERVED(ListAuthorizedViews, admin::ListAuthorizedViewsRequest, admin::ListAuthorizedViewsResponse,
                 "lbt has no authorized views")
  LBT_NOT_SERVED(GetAuthorizedView, admin::GetAuthorizedViewRequest, admin::AuthorizedView,
                 "lbt has no authorized views")
  LBT_NOT_SERVED(UpdateAuthorizedView, admin::UpdateAuthorizedViewRequest, google::longrunning::Operation,
                 "lbt has no authorized views")
  LBT_NOT_SERVED(DeleteAuthorizedView, admin::DeleteAuthorizedViewRequest, google::protobuf::Empty,
                 "lbt has no authorized views")
  LBT_NOT_SERVED(SnapshotTable, admin::SnapshotTableRequest, google::longrunning::Operation, "lbt has no snapshots")
  LBT_NOT_SERVED(GetSnapshot, admin::GetSnapshotRequest, admin::Snapshot, "lbt has no snapshots")
  LBT_NOT_SERVED(ListSnapshots, admin::ListSnapshotsRequest, admin::ListSnapshotsResponse, "lbt has no snapshots")
  LBT_NOT_SERVED(DeleteSnapshot, admin::DeleteSnapshotRequest, google::protobuf::Empty, "lbt has no snapshots")
  LBT_NOT_SERVED(CreateBackup, admin::CreateBackupRequest, google::longrunning::Operation,
                 "lbt has no backups; copy the database directory")
  LBT_NOT_SERVED(GetBackup, admin::GetBackupRequest, admin::Backup, "lbt has no backups")
  LBT_NOT_SERVED(UpdateBackup, admin::UpdateBackupRequest, admin::Backup, "lbt has no backups")
  LBT_NOT_SERVED(DeleteBackup, admin::DeleteBackupRequest, google::protobuf::Empty, "lbt has no backups")
  LBT_NOT_SERVED(ListBackups, admin::ListBackupsRequest, admin::ListBackupsResponse, "lbt has no backups")
  LBT_NOT_SERVED(RestoreTable, admin::RestoreTableRequest, google::longrunning::Operation, "lbt has no backups")
  LBT_NOT_SERVED(CopyBackup, admin::CopyBackupRequest, google::longrunning::Operation, "lbt has no backups")
  LBT_NOT_SERVED(GetIamPolicy, google::iam::v1::GetIamPolicyRequest, google::iam::v1::Policy,
                 "lbt has no access control")
  LBT_NOT_SERVED(SetIamPolicy, google::iam::v1::SetIamPolicyRequest, google::iam::v1::Policy,
                 "lbt has no access control")
  LBT_NOT_SERVED(TestIamPermissions, google::iam::v1::TestIamPermissionsRequest,
                 google::iam::v1::TestIamPermissionsResponse, "lbt has no access control")
  LBT_NOT_SERVED(CreateSchemaBundle, admin::CreateSchemaBundleRequest, google::longrunning::Operation,
                 "lbt has no schema bundles")
  LBT_NOT_SERVED(UpdateSchemaBundle, admin::UpdateSchemaBundleRequest, google::longrunning::Operation,
                 "lbt has no schema bundles")
  LBT_NOT_SERVED(GetSchemaBundle, admin::GetSchemaBundleRequest, admin::SchemaBundle, "lbt has no schema bundles")
  LBT_NOT_SERVED(ListSchemaBundles, admin::ListSchemaBundlesRequest, admin::ListSchemaBundlesResponse,
                 "lbt has no schema bundles")
  LBT_NOT_SERVED(DeleteSchemaBundle, admin::DeleteSchemaBundleRequest, google::protobuf::Empty,
                 "lbt has no schema bundles")

 private:
  const InstanceRouter* router_;
  RpcGate* gate_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_ADMIN_SERVICE_H_
