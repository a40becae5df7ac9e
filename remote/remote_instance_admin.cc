#include "remote/remote_instance_admin.h"

#include <fmt/format.h>
#include <google/protobuf/util/time_util.h>

#include <chrono>
#include <map>
#include <thread>

#include "api/logical_view.h"
#include "api/materialized_view.h"
#include "api/resource.h"
#include "proto/convert.h"
#include "proto/grpc_status.h"
#include "proto/instance_convert.h"
#include "remote/remote_logical_views.h"
#include "remote/remote_materialized_views.h"

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

// ---- views (remote_logical_views.h, remote_materialized_views.h) ----

Result<LogicalViewSpec> RemoteInstanceAdmin::CreateLogicalView(const InstanceName& instance,
                                                               const LogicalViewSpec& view) {
  return remote::CreateLogicalView(calls_, instance, view);
}
Result<LogicalViewSpec> RemoteInstanceAdmin::GetLogicalView(const InstanceName& instance, std::string_view view_id) {
  return remote::GetLogicalView(calls_, instance, view_id);
}
Result<std::vector<LogicalViewSpec>> RemoteInstanceAdmin::ListLogicalViews(const InstanceName& instance) {
  return remote::ListLogicalViews(calls_, instance);
}
Result<LogicalViewSpec> RemoteInstanceAdmin::UpdateLogicalView(const InstanceName& instance,
                                                               const LogicalViewSpec& view,
                                                               const LogicalViewUpdate& update) {
  return remote::UpdateLogicalView(calls_, instance, view, update);
}
Status RemoteInstanceAdmin::DeleteLogicalView(const InstanceName& instance, std::string_view view_id,
                                              std::string_view etag) {
  return remote::DeleteLogicalView(calls_, instance, view_id, etag);
}
Result<MaterializedViewSpec> RemoteInstanceAdmin::CreateMaterializedView(const InstanceName& instance,
                                                                         const MaterializedViewSpec& view) {
  return remote::CreateMaterializedView(calls_, instance, view);
}
Result<MaterializedViewSpec> RemoteInstanceAdmin::GetMaterializedView(const InstanceName& instance,
                                                                      std::string_view view_id) {
  return remote::GetMaterializedView(calls_, instance, view_id);
}
Result<std::vector<MaterializedViewSpec>> RemoteInstanceAdmin::ListMaterializedViews(const InstanceName& instance) {
  return remote::ListMaterializedViews(calls_, instance);
}
Result<MaterializedViewSpec> RemoteInstanceAdmin::UpdateMaterializedView(const InstanceName& instance,
                                                                         const MaterializedViewSpec& view,
                                                                         const MaterializedViewUpdate& update) {
  return remote::UpdateMaterializedView(calls_, instance, view, update);
}
Status RemoteInstanceAdmin::DeleteMaterializedView(const InstanceName& instance, std::string_view view_id,
                                                   std::string_view etag) {
  return remote::DeleteMaterializedView(calls_, instance, view_id, etag);
}

// ---- IAM policies ----

Result<IamPolicy> RemoteInstanceAdmin::GetIamPolicy(std::string_view resource) {
  google::iam::v1::GetIamPolicyRequest request;
  request.set_resource(std::string(resource));
  google::iam::v1::Policy response;
  LBT_RETURN_IF_ERROR(calls_->Unary(calls_->instance_admin(), &InstanceStub::GetIamPolicy, "resource",
                                    request.resource(), request, &response));
  return proto::FromProto(response);
}

Result<IamPolicy> RemoteInstanceAdmin::SetIamPolicy(std::string_view resource, const IamPolicy& policy) {
  google::iam::v1::SetIamPolicyRequest request;
  request.set_resource(std::string(resource));
  *request.mutable_policy() = proto::ToProto(policy);
  google::iam::v1::Policy response;
  LBT_RETURN_IF_ERROR(calls_->Unary(calls_->instance_admin(), &InstanceStub::SetIamPolicy, "resource",
                                    request.resource(), request, &response));
  return proto::FromProto(response);
}

}  // namespace lbt::remote
