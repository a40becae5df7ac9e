// google.bigtable.admin.v2.BigtableTableAdmin over the Bigtable interface: tables,
// column families, deletion protection, dropping row ranges, consistency,
// backups and restores (admin_backups.cc), authorized views
// (admin_authorized_views.cc). Long-running operations come back already
// done; IAM policies are kept, not enforced. Snapshots and schema bundles
// answer UNIMPLEMENTED.
//
// Threading: as DataService.

#ifndef LBT_SERVER_ADMIN_SERVICE_H_
#define LBT_SERVER_ADMIN_SERVICE_H_

#include "api/bigtable.h"
#include "api/instance_admin.h"
#include "google/bigtable/admin/v2/bigtable_table_admin.grpc.pb.h"
#include "server/handler.h"
#include "server/instance_router.h"
#include "server/operation_store.h"
#include "server/rpc_gate.h"

namespace lbt::server {

namespace admin = ::google::bigtable::admin::v2;

class AdminService final : public admin::BigtableTableAdmin::Service {
 public:
  // `router`, `gate` and `operations` are not owned and must outlive the
  // service. Every RPC passes through `gate`; the operations its RPCs
  // return are kept in `operations`.
  AdminService(const InstanceRouter* router, RpcGate* gate, OperationStore* operations)
      : router_(router), gate_(gate), operations_(operations) {}

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

  // Backups (admin_backups.cc), over each instance's TableAdmin.
  grpc::Status CreateBackup(grpc::ServerContext*, const admin::CreateBackupRequest* request,
                            google::longrunning::Operation* response) override;
  grpc::Status GetBackup(grpc::ServerContext*, const admin::GetBackupRequest* request,
                         admin::Backup* response) override;
  grpc::Status ListBackups(grpc::ServerContext*, const admin::ListBackupsRequest* request,
                           admin::ListBackupsResponse* response) override;
  grpc::Status UpdateBackup(grpc::ServerContext*, const admin::UpdateBackupRequest* request,
                            admin::Backup* response) override;
  grpc::Status DeleteBackup(grpc::ServerContext*, const admin::DeleteBackupRequest* request,
                            google::protobuf::Empty* response) override;
  grpc::Status CopyBackup(grpc::ServerContext*, const admin::CopyBackupRequest* request,
                          google::longrunning::Operation* response) override;
  grpc::Status RestoreTable(grpc::ServerContext*, const admin::RestoreTableRequest* request,
                            google::longrunning::Operation* response) override;

  LBT_NOT_SERVED(CreateTableFromSnapshot, admin::CreateTableFromSnapshotRequest, google::longrunning::Operation,
                 "lbt has no snapshots")
  LBT_NOT_SERVED(UndeleteTable, admin::UndeleteTableRequest, google::longrunning::Operation, "a deleted table is gone")
  // Authorized views (admin_authorized_views.cc).
  grpc::Status CreateAuthorizedView(grpc::ServerContext*, const admin::CreateAuthorizedViewRequest* request,
                                    google::longrunning::Operation* response) override;
  grpc::Status ListAuthorizedViews(grpc::ServerContext*, const admin::ListAuthorizedViewsRequest* request,
                                   admin::ListAuthorizedViewsResponse* response) override;
  grpc::Status GetAuthorizedView(grpc::ServerContext*, const admin::GetAuthorizedViewRequest* request,
                                 admin::AuthorizedView* response) override;
  grpc::Status UpdateAuthorizedView(grpc::ServerContext*, const admin::UpdateAuthorizedViewRequest* request,
                                    google::longrunning::Operation* response) override;
  grpc::Status DeleteAuthorizedView(grpc::ServerContext*, const admin::DeleteAuthorizedViewRequest* request,
                                    google::protobuf::Empty* response) override;
  LBT_NOT_SERVED(SnapshotTable, admin::SnapshotTableRequest, google::longrunning::Operation, "lbt has no snapshots")
  LBT_NOT_SERVED(GetSnapshot, admin::GetSnapshotRequest, admin::Snapshot, "lbt has no snapshots")
  LBT_NOT_SERVED(ListSnapshots, admin::ListSnapshotsRequest, admin::ListSnapshotsResponse, "lbt has no snapshots")
  LBT_NOT_SERVED(DeleteSnapshot, admin::DeleteSnapshotRequest, google::protobuf::Empty, "lbt has no snapshots")
  // Tables' and backups' policies: kept with etags, never enforced.
  grpc::Status GetIamPolicy(grpc::ServerContext*, const google::iam::v1::GetIamPolicyRequest* request,
                            google::iam::v1::Policy* response) override;
  grpc::Status SetIamPolicy(grpc::ServerContext*, const google::iam::v1::SetIamPolicyRequest* request,
                            google::iam::v1::Policy* response) override;
  grpc::Status TestIamPermissions(grpc::ServerContext*, const google::iam::v1::TestIamPermissionsRequest* request,
                                  google::iam::v1::TestIamPermissionsResponse* response) override;
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
  // FailedPrecondition when the Bigtable served manages no instances (a
  // database served as one): then it keeps no backups. Otherwise an
  // instance's backups are its tables' TableAdmin's.
  Status RequireBackups() const;
  // A done operation with `metadata` and `result`, kept for `parent`.
  google::longrunning::Operation Done(std::string_view parent, const google::protobuf::Message& metadata,
                                      const google::protobuf::Message& result);

  const InstanceRouter* router_;
  RpcGate* gate_;
  OperationStore* operations_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_ADMIN_SERVICE_H_
