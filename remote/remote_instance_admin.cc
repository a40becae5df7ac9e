#include "remote/remote_instance_admin.h"

#include <fmt/format.h>
#include <google/protobuf/util/time_util.h>

#include <chrono>
#include <map>
#include <thread>

#include "api/resource.h"
#include "proto/convert.h"
#include "proto/grpc_status.h"
#include "proto/instance_convert.h"

namespace lbt::remote {

namespace {

namespace admin = ::google::bigtable::admin::v2;
namespace longrunning = ::google::longrunning;
using InstanceStub = RemoteCalls::InstanceAdminStub;
using OperationsStub = RemoteCalls::OperationsStub;

// Every cluster of `parent` ("projects/P/instances/I" or ".../instances/-"),
// by instance.
Result<std::map<InstanceName, std::vector<ClusterSpec>>> ClustersOf(RemoteCalls* calls, const std::string& parent) {
  std::map<InstanceName, std::vector<ClusterSpec>> clusters;
  admin::ListClustersRequest request;
  request.set_parent(parent);
  do {
    admin::ListClustersResponse response;
    LBT_RETURN_IF_ERROR(
        calls->Unary(calls->instance_admin(), &InstanceStub::ListClusters, "parent", parent, request, &response));
    for (const admin::Cluster& cluster : response.clusters()) {
      LBT_ASSIGN_OR_RETURN(ChildName name, ParseChildName(cluster.name(), "clusters", "cluster.name"));
      LBT_ASSIGN_OR_RETURN(ClusterSpec spec, proto::FromProto(name.id, cluster, "cluster"));
      spec.serve_nodes = cluster.serve_nodes();  // as the service reports it now
      clusters[name.instance].push_back(std::move(spec));
    }
    request.set_page_token(response.next_page_token());
  } while (!request.page_token().empty());
  return clusters;
}

Result<std::vector<AppProfileSpec>> AppProfilesOf(RemoteCalls* calls, const InstanceName& instance) {
  std::vector<AppProfileSpec> profiles;
  admin::ListAppProfilesRequest request;
  request.set_parent(instance.Full());
  do {
    admin::ListAppProfilesResponse response;
    LBT_RETURN_IF_ERROR(calls->Unary(calls->instance_admin(), &InstanceStub::ListAppProfiles, "parent",
                                     request.parent(), request, &response));
    for (const admin::AppProfile& profile : response.app_profiles()) {
      LBT_ASSIGN_OR_RETURN(ChildName name, ParseChildName(profile.name(), "appProfiles", "app_profile.name"));
      LBT_ASSIGN_OR_RETURN(AppProfileSpec spec, proto::FromProto(name.id, profile, "app_profile"));
      profiles.push_back(std::move(spec));
    }
    request.set_page_token(response.next_page_token());
  } while (!request.page_token().empty());
  return profiles;
}

using TableStub = RemoteCalls::AdminStub;

void SetTime(int64_t micros, google::protobuf::Timestamp* out) {
  *out = google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(micros);
}

// The routing field a profile sets, for an update mask.
const char* RoutingPath(const AppProfileSpec& profile) {
  return profile.routing == AppProfileSpec::Routing::kSingleCluster ? "single_cluster_routing"
                                                                    : "multi_cluster_routing_use_any";
}

}  // namespace

Result<std::vector<InstanceSpec>> RemoteInstanceAdmin::ListInstances(std::string_view project) {
  const std::string parent = ProjectName(project.empty() ? "-" : project);
  std::vector<InstanceSpec> instances;
  admin::ListInstancesRequest request;
  request.set_parent(parent);
  do {
    admin::ListInstancesResponse response;
    LBT_RETURN_IF_ERROR(
        calls_->Unary(calls_->instance_admin(), &InstanceStub::ListInstances, "parent", parent, request, &response));
    for (const admin::Instance& instance : response.instances()) {
      LBT_ASSIGN_OR_RETURN(InstanceName name, ParseInstanceName(instance.name(), "instance.name"));
      LBT_ASSIGN_OR_RETURN(InstanceSpec spec, proto::FromProto(name, instance, "instance"));
      instances.push_back(std::move(spec));
    }
    request.set_page_token(response.next_page_token());
  } while (!request.page_token().empty());
  LBT_ASSIGN_OR_RETURN(auto clusters,
                       ClustersOf(calls_, InstanceName{std::string(project.empty() ? "-" : project), "-"}.Full()));
  for (InstanceSpec& spec : instances) spec.clusters = clusters[spec.name];
  return instances;
}

Result<InstanceSpec> RemoteInstanceAdmin::GetInstance(const InstanceName& name) {
  admin::GetInstanceRequest request;
  request.set_name(name.Full());
  admin::Instance response;
  LBT_RETURN_IF_ERROR(
      calls_->Unary(calls_->instance_admin(), &InstanceStub::GetInstance, "name", request.name(), request, &response));
  LBT_ASSIGN_OR_RETURN(InstanceSpec spec, proto::FromProto(name, response, "instance"));
  LBT_ASSIGN_OR_RETURN(auto clusters, ClustersOf(calls_, name.Full()));
  spec.clusters = clusters[name];
  LBT_ASSIGN_OR_RETURN(spec.app_profiles, AppProfilesOf(calls_, name));
  return spec;
}

Status RemoteInstanceAdmin::CreateInstance(const InstanceSpec& spec) {
  admin::CreateInstanceRequest request;
  request.set_parent(ProjectName(spec.name.project));
  request.set_instance_id(spec.name.instance);
  *request.mutable_instance() = proto::ToProto(spec);
  request.mutable_instance()->clear_name();
  request.mutable_instance()->clear_state();
  request.mutable_instance()->clear_create_time();
  for (const ClusterSpec& cluster : spec.clusters) {
    admin::Cluster c = proto::ToProto(spec.name, cluster);
    c.clear_name();
    c.clear_state();
    (*request.mutable_clusters())[cluster.id] = std::move(c);
  }
  longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(calls_->Unary(calls_->instance_admin(), &InstanceStub::CreateInstance, "parent", request.parent(),
                                    request, &operation));
  return AwaitOperation(calls_, std::move(operation));
}

Status RemoteInstanceAdmin::UpdateInstance(const InstanceSpec& spec) {
  admin::PartialUpdateInstanceRequest request;
  *request.mutable_instance() = proto::ToProto(spec);
  for (const char* path : {"display_name", "labels", "type"}) request.mutable_update_mask()->add_paths(path);
  longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(calls_->Unary(calls_->instance_admin(), &InstanceStub::PartialUpdateInstance, "instance.name",
                                    request.instance().name(), request, &operation));
  return AwaitOperation(calls_, std::move(operation));
}

Status RemoteInstanceAdmin::DeleteInstance(const InstanceName& name) {
  admin::DeleteInstanceRequest request;
  request.set_name(name.Full());
  google::protobuf::Empty response;
  return calls_->Unary(calls_->instance_admin(), &InstanceStub::DeleteInstance, "name", request.name(), request,
                       &response);
}

Status RemoteInstanceAdmin::CreateCluster(const InstanceName& instance, const ClusterSpec& cluster) {
  admin::CreateClusterRequest request;
  request.set_parent(instance.Full());
  request.set_cluster_id(cluster.id);
  *request.mutable_cluster() = proto::ToProto(instance, cluster);
  request.mutable_cluster()->clear_name();
  request.mutable_cluster()->clear_state();
  longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(calls_->Unary(calls_->instance_admin(), &InstanceStub::CreateCluster, "parent", request.parent(),
                                    request, &operation));
  return AwaitOperation(calls_, std::move(operation));
}

Status RemoteInstanceAdmin::UpdateCluster(const InstanceName& instance, const ClusterSpec& cluster) {
  admin::PartialUpdateClusterRequest request;
  *request.mutable_cluster() = proto::ToProto(instance, cluster);
  request.mutable_update_mask()->add_paths(cluster.autoscaling ? "cluster_config.cluster_autoscaling_config"
                                                               : "serve_nodes");
  longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(calls_->Unary(calls_->instance_admin(), &InstanceStub::PartialUpdateCluster, "cluster.name",
                                    request.cluster().name(), request, &operation));
  return AwaitOperation(calls_, std::move(operation));
}

Status RemoteInstanceAdmin::DeleteCluster(const InstanceName& instance, std::string_view cluster_id) {
  admin::DeleteClusterRequest request;
  request.set_name(instance.Child("clusters", cluster_id));
  google::protobuf::Empty response;
  return calls_->Unary(calls_->instance_admin(), &InstanceStub::DeleteCluster, "name", request.name(), request,
                       &response);
}

Result<AppProfileSpec> RemoteInstanceAdmin::CreateAppProfile(const InstanceName& instance,
                                                             const AppProfileSpec& profile, bool ignore_warnings) {
  admin::CreateAppProfileRequest request;
  request.set_parent(instance.Full());
  request.set_app_profile_id(profile.id);
  *request.mutable_app_profile() = proto::ToProto(instance, profile);
  request.mutable_app_profile()->clear_name();
  request.set_ignore_warnings(ignore_warnings);
  admin::AppProfile response;
  LBT_RETURN_IF_ERROR(calls_->Unary(calls_->instance_admin(), &InstanceStub::CreateAppProfile, "parent",
                                    request.parent(), request, &response));
  return proto::FromProto(profile.id, response, "app_profile");
}

Result<AppProfileSpec> RemoteInstanceAdmin::UpdateAppProfile(const InstanceName& instance,
                                                             const AppProfileSpec& profile, bool ignore_warnings) {
  admin::UpdateAppProfileRequest request;
  *request.mutable_app_profile() = proto::ToProto(instance, profile);
  request.mutable_update_mask()->add_paths("description");
  request.mutable_update_mask()->add_paths(RoutingPath(profile));
  request.set_ignore_warnings(ignore_warnings);
  longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(calls_->Unary(calls_->instance_admin(), &InstanceStub::UpdateAppProfile, "app_profile.name",
                                    request.app_profile().name(), request, &operation));
  admin::AppProfile updated;
  LBT_RETURN_IF_ERROR(AwaitOperation(calls_, std::move(operation), &updated));
  return proto::FromProto(profile.id, updated, "app_profile");
}

Status RemoteInstanceAdmin::DeleteAppProfile(const InstanceName& instance, std::string_view profile_id) {
  admin::DeleteAppProfileRequest request;
  request.set_name(instance.Child("appProfiles", profile_id));
  request.set_ignore_warnings(true);  // as cbt deletes
  google::protobuf::Empty response;
  return calls_->Unary(calls_->instance_admin(), &InstanceStub::DeleteAppProfile, "name", request.name(), request,
                       &response);
}

// ---- backups, through the Table Admin API ----

Result<BackupSpec> RemoteInstanceAdmin::CreateBackup(const InstanceName& instance, std::string_view cluster,
                                                     std::string_view backup_id, std::string_view table,
                                                     int64_t expire_time_micros) {
  admin::CreateBackupRequest request;
  request.set_parent(ClusterName{instance, std::string(cluster)}.Full());
  request.set_backup_id(std::string(backup_id));
  request.mutable_backup()->set_source_table(FullTableName(instance, table));
  SetTime(expire_time_micros, request.mutable_backup()->mutable_expire_time());
  longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(
      calls_->Unary(calls_->admin(), &TableStub::CreateBackup, "parent", request.parent(), request, &operation));
  admin::Backup made;
  LBT_RETURN_IF_ERROR(AwaitOperation(calls_, std::move(operation), &made));
  return proto::FromProto(made, "backup");
}

Result<BackupSpec> RemoteInstanceAdmin::GetBackup(const InstanceName& instance, std::string_view cluster,
                                                  std::string_view backup_id) {
  admin::GetBackupRequest request;
  request.set_name(BackupName{instance, std::string(cluster), std::string(backup_id)}.Full());
  admin::Backup response;
  LBT_RETURN_IF_ERROR(
      calls_->Unary(calls_->admin(), &TableStub::GetBackup, "name", request.name(), request, &response));
  return proto::FromProto(response, "backup");
}

Result<std::vector<BackupSpec>> RemoteInstanceAdmin::ListBackups(const InstanceName& instance,
                                                                 std::string_view cluster) {
  std::vector<BackupSpec> backups;
  admin::ListBackupsRequest request;
  request.set_parent(ClusterName{instance, std::string(cluster)}.Full());
  do {
    admin::ListBackupsResponse response;
    LBT_RETURN_IF_ERROR(
        calls_->Unary(calls_->admin(), &TableStub::ListBackups, "parent", request.parent(), request, &response));
    for (const admin::Backup& backup : response.backups()) {
      LBT_ASSIGN_OR_RETURN(BackupSpec spec, proto::FromProto(backup, "backup"));
      backups.push_back(std::move(spec));
    }
    request.set_page_token(response.next_page_token());
  } while (!request.page_token().empty());
  return backups;
}

Result<BackupSpec> RemoteInstanceAdmin::UpdateBackupExpireTime(const InstanceName& instance, std::string_view cluster,
                                                               std::string_view backup_id, int64_t expire_time_micros) {
  admin::UpdateBackupRequest request;
  request.mutable_backup()->set_name(BackupName{instance, std::string(cluster), std::string(backup_id)}.Full());
  SetTime(expire_time_micros, request.mutable_backup()->mutable_expire_time());
  request.mutable_update_mask()->add_paths("expire_time");
  admin::Backup response;
  LBT_RETURN_IF_ERROR(calls_->Unary(calls_->admin(), &TableStub::UpdateBackup, "backup.name", request.backup().name(),
                                    request, &response));
  return proto::FromProto(response, "backup");
}

Status RemoteInstanceAdmin::DeleteBackup(const InstanceName& instance, std::string_view cluster,
                                         std::string_view backup_id) {
  admin::DeleteBackupRequest request;
  request.set_name(BackupName{instance, std::string(cluster), std::string(backup_id)}.Full());
  google::protobuf::Empty response;
  return calls_->Unary(calls_->admin(), &TableStub::DeleteBackup, "name", request.name(), request, &response);
}

Result<BackupSpec> RemoteInstanceAdmin::CopyBackup(const BackupSpec& source, const InstanceName& to_instance,
                                                   std::string_view to_cluster, std::string_view backup_id,
                                                   int64_t expire_time_micros) {
  admin::CopyBackupRequest request;
  request.set_parent(ClusterName{to_instance, std::string(to_cluster)}.Full());
  request.set_backup_id(std::string(backup_id));
  request.set_source_backup(source.Full());
  SetTime(expire_time_micros, request.mutable_expire_time());
  longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(
      calls_->Unary(calls_->admin(), &TableStub::CopyBackup, "parent", request.parent(), request, &operation));
  admin::Backup made;
  LBT_RETURN_IF_ERROR(AwaitOperation(calls_, std::move(operation), &made));
  return proto::FromProto(made, "backup");
}

Status RemoteInstanceAdmin::RestoreTable(const BackupSpec& backup, const InstanceName& to_instance,
                                         std::string_view table_id) {
  admin::RestoreTableRequest request;
  request.set_parent(to_instance.Full());
  request.set_table_id(std::string(table_id));
  request.set_backup(backup.Full());
  longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(
      calls_->Unary(calls_->admin(), &TableStub::RestoreTable, "parent", request.parent(), request, &operation));
  return AwaitOperation(calls_, std::move(operation));
}

// ---- IAM policies ----

Result<IamPolicy> RemoteInstanceAdmin::GetIamPolicy(std::string_view resource) {
  google::iam::v1::GetIamPolicyRequest request;
  request.set_resource(std::string(resource));
  google::iam::v1::Policy response;
  if (NamesTableOrBackup(resource)) {
    LBT_RETURN_IF_ERROR(
        calls_->Unary(calls_->admin(), &TableStub::GetIamPolicy, "resource", request.resource(), request, &response));
  } else {
    LBT_RETURN_IF_ERROR(calls_->Unary(calls_->instance_admin(), &InstanceStub::GetIamPolicy, "resource",
                                      request.resource(), request, &response));
  }
  return proto::FromProto(response);
}

Result<IamPolicy> RemoteInstanceAdmin::SetIamPolicy(std::string_view resource, const IamPolicy& policy) {
  google::iam::v1::SetIamPolicyRequest request;
  request.set_resource(std::string(resource));
  *request.mutable_policy() = proto::ToProto(policy);
  google::iam::v1::Policy response;
  if (NamesTableOrBackup(resource)) {
    LBT_RETURN_IF_ERROR(
        calls_->Unary(calls_->admin(), &TableStub::SetIamPolicy, "resource", request.resource(), request, &response));
  } else {
    LBT_RETURN_IF_ERROR(calls_->Unary(calls_->instance_admin(), &InstanceStub::SetIamPolicy, "resource",
                                      request.resource(), request, &response));
  }
  return proto::FromProto(response);
}

}  // namespace lbt::remote
