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
#include "server/call_runtime.h"
#include "server/handler.h"
#include "server/instance_router.h"
#include "server/operation_store.h"

namespace lbt::server {

namespace admin = ::google::bigtable::admin::v2;

class AdminService final : public admin::BigtableTableAdmin::CallbackService {
 public:
  // `router`, `gate` and `operations` are not owned and must outlive the
  // service. Every RPC passes through `gate`; the operations its RPCs
  // return are kept in `operations`.
  AdminService(const InstanceRouter* router, CallRuntime* runtime, OperationStore* operations)
      : router_(router), runtime_(runtime), operations_(operations) {}

  grpc::ServerUnaryReactor* CreateTable(grpc::CallbackServerContext* context, const admin::CreateTableRequest* request,
                                        admin::Table* response) override;
  grpc::ServerUnaryReactor* ListTables(grpc::CallbackServerContext* context, const admin::ListTablesRequest* request,
                                       admin::ListTablesResponse* response) override;
  grpc::ServerUnaryReactor* GetTable(grpc::CallbackServerContext* context, const admin::GetTableRequest* request,
                                     admin::Table* response) override;
  grpc::ServerUnaryReactor* UpdateTable(grpc::CallbackServerContext* context, const admin::UpdateTableRequest* request,
                                        google::longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* DeleteTable(grpc::CallbackServerContext* context, const admin::DeleteTableRequest* request,
                                        google::protobuf::Empty* response) override;
  grpc::ServerUnaryReactor* ModifyColumnFamilies(grpc::CallbackServerContext* context,
                                                 const admin::ModifyColumnFamiliesRequest* request,
                                                 admin::Table* response) override;
  grpc::ServerUnaryReactor* DropRowRange(grpc::CallbackServerContext* context,
                                         const admin::DropRowRangeRequest* request,
                                         google::protobuf::Empty* response) override;
  grpc::ServerUnaryReactor* GenerateConsistencyToken(grpc::CallbackServerContext* context,
                                                     const admin::GenerateConsistencyTokenRequest* request,
                                                     admin::GenerateConsistencyTokenResponse* response) override;
  grpc::ServerUnaryReactor* CheckConsistency(grpc::CallbackServerContext* context,
                                             const admin::CheckConsistencyRequest* request,
                                             admin::CheckConsistencyResponse* response) override;

  // Backups (admin_backups.cc), over each instance's TableAdmin.
  grpc::ServerUnaryReactor* CreateBackup(grpc::CallbackServerContext* context,
                                         const admin::CreateBackupRequest* request,
                                         google::longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* GetBackup(grpc::CallbackServerContext* context, const admin::GetBackupRequest* request,
                                      admin::Backup* response) override;
  grpc::ServerUnaryReactor* ListBackups(grpc::CallbackServerContext* context, const admin::ListBackupsRequest* request,
                                        admin::ListBackupsResponse* response) override;
  grpc::ServerUnaryReactor* UpdateBackup(grpc::CallbackServerContext* context,
                                         const admin::UpdateBackupRequest* request, admin::Backup* response) override;
  grpc::ServerUnaryReactor* DeleteBackup(grpc::CallbackServerContext* context,
                                         const admin::DeleteBackupRequest* request,
                                         google::protobuf::Empty* response) override;
  grpc::ServerUnaryReactor* CopyBackup(grpc::CallbackServerContext* context, const admin::CopyBackupRequest* request,
                                       google::longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* RestoreTable(grpc::CallbackServerContext* context,
                                         const admin::RestoreTableRequest* request,
                                         google::longrunning::Operation* response) override;

  LBT_NOT_SERVED(CreateTableFromSnapshot, admin::CreateTableFromSnapshotRequest, google::longrunning::Operation,
                 "lbt has no snapshots")
  grpc::ServerUnaryReactor* UndeleteTable(grpc::CallbackServerContext* context,
                                          const admin::UndeleteTableRequest* request,
                                          google::longrunning::Operation* response) override;
  // Schema bundles (admin_schema_bundles.cc).
  grpc::ServerUnaryReactor* CreateSchemaBundle(grpc::CallbackServerContext* context,
                                               const admin::CreateSchemaBundleRequest* request,
                                               google::longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* GetSchemaBundle(grpc::CallbackServerContext* context,
                                            const admin::GetSchemaBundleRequest* request,
                                            admin::SchemaBundle* response) override;
  grpc::ServerUnaryReactor* ListSchemaBundles(grpc::CallbackServerContext* context,
                                              const admin::ListSchemaBundlesRequest* request,
                                              admin::ListSchemaBundlesResponse* response) override;
  grpc::ServerUnaryReactor* UpdateSchemaBundle(grpc::CallbackServerContext* context,
                                               const admin::UpdateSchemaBundleRequest* request,
                                               google::longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* DeleteSchemaBundle(grpc::CallbackServerContext* context,
                                               const admin::DeleteSchemaBundleRequest* request,
                                               google::protobuf::Empty* response) override;
  // Authorized views (admin_authorized_views.cc).
  grpc::ServerUnaryReactor* CreateAuthorizedView(grpc::CallbackServerContext* context,
                                                 const admin::CreateAuthorizedViewRequest* request,
                                                 google::longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* ListAuthorizedViews(grpc::CallbackServerContext* context,
                                                const admin::ListAuthorizedViewsRequest* request,
                                                admin::ListAuthorizedViewsResponse* response) override;
  grpc::ServerUnaryReactor* GetAuthorizedView(grpc::CallbackServerContext* context,
                                              const admin::GetAuthorizedViewRequest* request,
                                              admin::AuthorizedView* response) override;
  grpc::ServerUnaryReactor* UpdateAuthorizedView(grpc::CallbackServerContext* context,
                                                 const admin::UpdateAuthorizedViewRequest* request,
                                                 google::longrunning::Operation* response) override;
  grpc::ServerUnaryReactor* DeleteAuthorizedView(grpc::CallbackServerContext* context,
                                                 const admin::DeleteAuthorizedViewRequest* request,
                                                 google::protobuf::Empty* response) override;
  LBT_NOT_SERVED(SnapshotTable, admin::SnapshotTableRequest, google::longrunning::Operation, "lbt has no snapshots")
  LBT_NOT_SERVED(GetSnapshot, admin::GetSnapshotRequest, admin::Snapshot, "lbt has no snapshots")
  LBT_NOT_SERVED(ListSnapshots, admin::ListSnapshotsRequest, admin::ListSnapshotsResponse, "lbt has no snapshots")
  LBT_NOT_SERVED(DeleteSnapshot, admin::DeleteSnapshotRequest, google::protobuf::Empty, "lbt has no snapshots")
  // Tables' and backups' policies: kept with etags, never enforced.
  grpc::ServerUnaryReactor* GetIamPolicy(grpc::CallbackServerContext* context,
                                         const google::iam::v1::GetIamPolicyRequest* request,
                                         google::iam::v1::Policy* response) override;
  grpc::ServerUnaryReactor* SetIamPolicy(grpc::CallbackServerContext* context,
                                         const google::iam::v1::SetIamPolicyRequest* request,
                                         google::iam::v1::Policy* response) override;
  grpc::ServerUnaryReactor* TestIamPermissions(grpc::CallbackServerContext* context,
                                               const google::iam::v1::TestIamPermissionsRequest* request,
                                               google::iam::v1::TestIamPermissionsResponse* response) override;

 private:
  // FailedPrecondition when the Bigtable served manages no instances (a
  // database served as one): then it keeps no backups. Otherwise an
  // instance's backups are its tables' TableAdmin's.
  Status RequireBackups() const;
  // A done operation with `metadata` and `result`, kept for `parent`.
  google::longrunning::Operation Done(std::string_view parent, const google::protobuf::Message& metadata,
                                      const google::protobuf::Message& result);

  const InstanceRouter* router_;
  CallRuntime* runtime_;
  OperationStore* operations_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_ADMIN_SERVICE_H_
