#include "remote/remote_backups.h"

#include <google/protobuf/util/time_util.h>

#include "proto/convert.h"
#include "proto/instance_convert.h"

namespace lbt::remote {

namespace {

namespace admin = ::google::bigtable::admin::v2;
namespace longrunning = ::google::longrunning;
using TableStub = RemoteCalls::AdminStub;

void SetTime(int64_t micros, google::protobuf::Timestamp* out) {
  *out = google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(micros);
}

}  // namespace

Result<BackupSpec> CreateBackup(RemoteCalls* calls, const InstanceName& instance, std::string_view cluster,
                                std::string_view backup_id, std::string_view table, int64_t expire_time_micros) {
  admin::CreateBackupRequest request;
  request.set_parent(ClusterName{instance, std::string(cluster)}.Full());
  request.set_backup_id(std::string(backup_id));
  request.mutable_backup()->set_source_table(FullTableName(instance, table));
  SetTime(expire_time_micros, request.mutable_backup()->mutable_expire_time());
  longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(
      calls->Unary(calls->admin(), &TableStub::CreateBackup, "parent", request.parent(), request, &operation));
  admin::Backup made;
  LBT_RETURN_IF_ERROR(AwaitOperation(calls, std::move(operation), &made));
  return proto::FromProto(made, "backup");
}

Result<BackupSpec> GetBackup(RemoteCalls* calls, const InstanceName& instance, std::string_view cluster,
                             std::string_view backup_id) {
  admin::GetBackupRequest request;
  request.set_name(BackupName{instance, std::string(cluster), std::string(backup_id)}.Full());
  admin::Backup response;
  LBT_RETURN_IF_ERROR(calls->Unary(calls->admin(), &TableStub::GetBackup, "name", request.name(), request, &response));
  return proto::FromProto(response, "backup");
}

Result<std::vector<BackupSpec>> ListBackups(RemoteCalls* calls, const InstanceName& instance,
                                            std::string_view cluster) {
  std::vector<BackupSpec> backups;
  admin::ListBackupsRequest request;
  request.set_parent(ClusterName{instance, std::string(cluster)}.Full());
  do {
    admin::ListBackupsResponse response;
    LBT_RETURN_IF_ERROR(
        calls->Unary(calls->admin(), &TableStub::ListBackups, "parent", request.parent(), request, &response));
    for (const admin::Backup& backup : response.backups()) {
      LBT_ASSIGN_OR_RETURN(BackupSpec spec, proto::FromProto(backup, "backup"));
      backups.push_back(std::move(spec));
    }
    request.set_page_token(response.next_page_token());
  } while (!request.page_token().empty());
  return backups;
}

Result<BackupSpec> UpdateBackupExpireTime(RemoteCalls* calls, const InstanceName& instance, std::string_view cluster,
                                          std::string_view backup_id, int64_t expire_time_micros) {
  admin::UpdateBackupRequest request;
  request.mutable_backup()->set_name(BackupName{instance, std::string(cluster), std::string(backup_id)}.Full());
  SetTime(expire_time_micros, request.mutable_backup()->mutable_expire_time());
  request.mutable_update_mask()->add_paths("expire_time");
  admin::Backup response;
  LBT_RETURN_IF_ERROR(calls->Unary(calls->admin(), &TableStub::UpdateBackup, "backup.name", request.backup().name(),
                                   request, &response));
  return proto::FromProto(response, "backup");
}

Status DeleteBackup(RemoteCalls* calls, const InstanceName& instance, std::string_view cluster,
                    std::string_view backup_id) {
  admin::DeleteBackupRequest request;
  request.set_name(BackupName{instance, std::string(cluster), std::string(backup_id)}.Full());
  google::protobuf::Empty response;
  return calls->Unary(calls->admin(), &TableStub::DeleteBackup, "name", request.name(), request, &response);
}

Result<BackupSpec> CopyBackup(RemoteCalls* calls, const BackupSpec& source, const InstanceName& to_instance,
                              std::string_view to_cluster, std::string_view backup_id, int64_t expire_time_micros) {
  admin::CopyBackupRequest request;
  request.set_parent(ClusterName{to_instance, std::string(to_cluster)}.Full());
  request.set_backup_id(std::string(backup_id));
  request.set_source_backup(source.Full());
  SetTime(expire_time_micros, request.mutable_expire_time());
  longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(
      calls->Unary(calls->admin(), &TableStub::CopyBackup, "parent", request.parent(), request, &operation));
  admin::Backup made;
  LBT_RETURN_IF_ERROR(AwaitOperation(calls, std::move(operation), &made));
  return proto::FromProto(made, "backup");
}

Status RestoreTable(RemoteCalls* calls, const BackupSpec& backup, const InstanceName& to_instance,
                    std::string_view table_id) {
  admin::RestoreTableRequest request;
  request.set_parent(to_instance.Full());
  request.set_table_id(std::string(table_id));
  request.set_backup(backup.Full());
  longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(
      calls->Unary(calls->admin(), &TableStub::RestoreTable, "parent", request.parent(), request, &operation));
  return AwaitOperation(calls, std::move(operation));
}

Result<IamPolicy> GetIamPolicy(RemoteCalls* calls, std::string_view resource) {
  google::iam::v1::GetIamPolicyRequest request;
  request.set_resource(std::string(resource));
  google::iam::v1::Policy response;
  LBT_RETURN_IF_ERROR(
      calls->Unary(calls->admin(), &TableStub::GetIamPolicy, "resource", request.resource(), request, &response));
  return proto::FromProto(response);
}

Result<IamPolicy> SetIamPolicy(RemoteCalls* calls, std::string_view resource, const IamPolicy& policy) {
  google::iam::v1::SetIamPolicyRequest request;
  request.set_resource(std::string(resource));
  *request.mutable_policy() = proto::ToProto(policy);
  google::iam::v1::Policy response;
  LBT_RETURN_IF_ERROR(
      calls->Unary(calls->admin(), &TableStub::SetIamPolicy, "resource", request.resource(), request, &response));
  return proto::FromProto(response);
}

}  // namespace lbt::remote
