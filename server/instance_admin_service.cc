#include "server/instance_admin_service.h"

#include <fmt/format.h>
#include <google/protobuf/util/time_util.h>

#include <algorithm>

#include "api/instance_admin.h"
#include "api/resource.h"
#include "proto/convert.h"
#include "proto/instance_convert.h"
#include "server/fault_injection.h"
#include "server/iam_policies.h"

namespace lbt::server {

namespace {

void SetNow(google::protobuf::Timestamp* out) { *out = google::protobuf::util::TimeUtil::GetCurrentTime(); }

// Metadata whose request_time and finish_time are both now: the change was
// made within the call.
template <typename Metadata>
void StampTimes(Metadata* metadata) {
  SetNow(metadata->mutable_request_time());
  *metadata->mutable_finish_time() = metadata->request_time();
}

Status EmptyMask(std::string_view field) {
  return Status::InvalidArgument(fmt::format("{}: name at least one field to update", field));
}

Status UnknownPath(std::string_view field, std::string_view path, std::string_view allowed) {
  return Status::InvalidArgument(fmt::format("{}: '{}' cannot be updated; {} can", field, path, allowed));
}

bool StartsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// ---- instances ----

Result<InstanceSpec> InstanceToCreate(const admin::CreateInstanceRequest& request) {
  LBT_ASSIGN_OR_RETURN(std::string project, ParseProjectName(request.parent(), "parent"));
  if (request.instance_id().empty()) return Status::InvalidArgument("instance_id: must not be empty");
  LBT_ASSIGN_OR_RETURN(InstanceSpec spec,
                       proto::FromProto({project, request.instance_id()}, request.instance(), "instance"));
  for (const auto& [id, cluster] : request.clusters()) {
    LBT_ASSIGN_OR_RETURN(ClusterSpec spec_cluster, proto::FromProto(id, cluster, fmt::format("clusters[{}]", id)));
    spec.clusters.push_back(std::move(spec_cluster));
  }
  // A proto map carries no order: clusters are kept in id order.
  std::sort(spec.clusters.begin(), spec.clusters.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return spec;
}

// The instance as `mask` changes it from `current`.
Result<InstanceSpec> MaskedInstance(InstanceSpec current, const admin::Instance& update,
                                    const google::protobuf::FieldMask& mask) {
  if (mask.paths().empty()) return EmptyMask("update_mask");
  for (const std::string& path : mask.paths()) {
    if (path == "display_name") {
      current.display_name = update.display_name();
    } else if (path == "type") {
      if (update.type() != admin::Instance::TYPE_UNSPECIFIED) {
        current.type =
            update.type() == admin::Instance::DEVELOPMENT ? InstanceType::kDevelopment : InstanceType::kProduction;
      }
    } else if (path == "labels") {
      current.labels.clear();
      for (const auto& [key, value] : update.labels()) current.labels[key] = value;
    } else if (path == "edition") {
      current.edition = update.edition() == admin::Instance::ENTERPRISE_PLUS ? InstanceEdition::kEnterprisePlus
                                                                             : InstanceEdition::kEnterprise;
    } else if (path == "tags") {
      return Status::InvalidArgument("update_mask: tags are immutable: an instance keeps those it was created with");
    } else {
      return UnknownPath("update_mask", path, "display_name, type, labels and edition");
    }
  }
  return current;
}

// ---- clusters ----

Result<ClusterSpec> FindCluster(InstanceAdmin* admin, const ChildName& name) {
  LBT_ASSIGN_OR_RETURN(InstanceSpec instance, admin->GetInstance(name.instance));
  const ClusterSpec* cluster = instance.FindCluster(name.id);
  if (cluster == nullptr) {
    return Status::NotFound("cluster " + name.instance.Child("clusters", name.id) + " does not exist");
  }
  return *cluster;
}

// The nodes and autoscaling of `update`, which replaces them whole. With
// autoscaling, the nodes stay as they were: production's autoscaler picks
// them later, and until then the cluster reports the nodes it had
// (nodejs-bigtable's system-test/cluster.ts, "should change cluster to
// autoscaling").
ClusterSpec Resized(ClusterSpec current, const ClusterSpec& update) {
  if (!update.autoscaling) current.serve_nodes = update.serve_nodes;
  current.autoscaling = update.autoscaling;
  return current;
}

Result<ClusterSpec> MaskedCluster(ClusterSpec current, const ClusterSpec& update,
                                  const google::protobuf::FieldMask& mask) {
  if (mask.paths().empty()) return EmptyMask("update_mask");
  for (const std::string& path : mask.paths()) {
    if (path == "serve_nodes") {
      current.serve_nodes = update.serve_nodes;
      if (!update.autoscaling) current.autoscaling.reset();  // fixed nodes end autoscaling
    } else if (StartsWith(path, "cluster_config.cluster_autoscaling_config")) {
      // The nodes stay as they were, as in Resized.
      current.autoscaling = update.autoscaling;
    } else {
      return UnknownPath("update_mask", path, "serve_nodes and cluster_config.cluster_autoscaling_config");
    }
  }
  return current;
}

// ---- app profiles ----

Result<AppProfileSpec> FindAppProfile(InstanceAdmin* admin, const ChildName& name) {
  LBT_ASSIGN_OR_RETURN(InstanceSpec instance, admin->GetInstance(name.instance));
  const AppProfileSpec* profile = instance.FindAppProfile(name.id);
  if (profile == nullptr) {
    return Status::NotFound("app profile " + name.instance.Child("appProfiles", name.id) + " does not exist");
  }
  return *profile;
}

Result<AppProfileSpec> MaskedAppProfile(AppProfileSpec current, const admin::AppProfile& update,
                                        const google::protobuf::FieldMask& mask) {
  if (mask.paths().empty()) return EmptyMask("update_mask");
  // The request's routing and isolation as a whole profile, so that a
  // path takes its part.
  admin::AppProfile routed = update;
  const bool has_routing = update.routing_policy_case() != admin::AppProfile::ROUTING_POLICY_NOT_SET;
  if (!has_routing) routed.mutable_multi_cluster_routing_use_any();
  LBT_ASSIGN_OR_RETURN(AppProfileSpec given, proto::FromProto(current.id, routed, "app_profile"));
  current.etag = update.etag();
  for (const std::string& path : mask.paths()) {
    if (path == "description") {
      current.description = update.description();
    } else if (StartsWith(path, "multi_cluster_routing_use_any") || StartsWith(path, "single_cluster_routing")) {
      current.routing = given.routing;
      current.cluster_ids = given.cluster_ids;
      current.row_affinity = given.row_affinity;
      current.cluster_id = given.cluster_id;
      current.allow_transactional_writes = given.allow_transactional_writes;
    } else if (path == "priority" || StartsWith(path, "standard_isolation") ||
               StartsWith(path, "data_boost_isolation_read_only")) {
      current.isolation = given.isolation;
      current.priority = given.priority;
      current.data_boost_host_pays = given.data_boost_host_pays;
    } else {
      return UnknownPath("update_mask", path,
                         "description, the routing policy (multi_cluster_routing_use_any, single_cluster_routing) "
                         "and the isolation (standard_isolation, data_boost_isolation_read_only, priority)");
    }
  }
  return current;
}

// The instances a parent names: one, or every instance of the project for
// "projects/P/instances/-".
Result<std::vector<InstanceSpec>> InstancesOf(InstanceAdmin* admin, const std::string& parent) {
  LBT_ASSIGN_OR_RETURN(InstanceName name, ParseInstanceName(parent, "parent"));
  if (name.instance == "-") return admin->ListInstances(name.project);
  LBT_ASSIGN_OR_RETURN(InstanceSpec one, admin->GetInstance(name));
  return std::vector<InstanceSpec>{std::move(one)};
}

}  // namespace

Result<InstanceAdmin*> InstanceAdminService::Admin() const {
  if (router_->admin() == nullptr) {
    return Status::FailedPrecondition("the Bigtable served has no instances to manage");
  }
  return router_->admin();
}

grpc::ServerUnaryReactor* InstanceAdminService::CreateInstance(grpc::CallbackServerContext* context,
                                                               const admin::CreateInstanceRequest* request,
                                                               longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(InstanceSpec spec, InstanceToCreate(*request));
    admin::CreateInstanceMetadata metadata;
    *metadata.mutable_original_request() = *request;
    SetNow(metadata.mutable_request_time());
    LBT_RETURN_IF_ERROR(admin->CreateInstance(spec));
    LBT_ASSIGN_OR_RETURN(InstanceSpec created, admin->GetInstance(spec.name));
    SetNow(metadata.mutable_finish_time());
    *response = Done(spec.name.Full(), metadata, proto::ToProto(created));
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::GetInstance(grpc::CallbackServerContext* context,
                                                            const admin::GetInstanceRequest* request,
                                                            admin::Instance* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(InstanceName name, ParseInstanceName(request->name(), "name"));
    LBT_ASSIGN_OR_RETURN(InstanceSpec spec, admin->GetInstance(name));
    *response = proto::ToProto(spec);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::ListInstances(grpc::CallbackServerContext* context,
                                                              const admin::ListInstancesRequest* request,
                                                              admin::ListInstancesResponse* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(std::string project, ParseProjectName(request->parent(), "parent"));
    LBT_ASSIGN_OR_RETURN(std::vector<InstanceSpec> instances, admin->ListInstances(project));
    for (const InstanceSpec& spec : instances) *response->add_instances() = proto::ToProto(spec);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::UpdateInstance(grpc::CallbackServerContext* context,
                                                               const admin::Instance* request,
                                                               admin::Instance* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(InstanceName name, ParseInstanceName(request->name(), "name"));
    LBT_ASSIGN_OR_RETURN(InstanceSpec current, admin->GetInstance(name));
    google::protobuf::FieldMask mask;
    mask.add_paths("display_name");
    mask.add_paths("labels");
    if (request->type() != admin::Instance::TYPE_UNSPECIFIED) mask.add_paths("type");
    LBT_ASSIGN_OR_RETURN(InstanceSpec updated, MaskedInstance(current, *request, mask));
    LBT_RETURN_IF_ERROR(admin->UpdateInstance(updated));
    LBT_ASSIGN_OR_RETURN(InstanceSpec stored, admin->GetInstance(name));
    *response = proto::ToProto(stored);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::PartialUpdateInstance(
    grpc::CallbackServerContext* context, const admin::PartialUpdateInstanceRequest* request,
    longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(InstanceName name, ParseInstanceName(request->instance().name(), "instance.name"));
    LBT_ASSIGN_OR_RETURN(InstanceSpec current, admin->GetInstance(name));
    LBT_ASSIGN_OR_RETURN(InstanceSpec updated, MaskedInstance(current, request->instance(), request->update_mask()));
    LBT_RETURN_IF_ERROR(admin->UpdateInstance(updated));
    LBT_ASSIGN_OR_RETURN(InstanceSpec stored, admin->GetInstance(name));
    admin::UpdateInstanceMetadata metadata;
    *metadata.mutable_original_request() = *request;
    StampTimes(&metadata);
    *response = Done(name.Full(), metadata, proto::ToProto(stored));
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::DeleteInstance(grpc::CallbackServerContext* context,
                                                               const admin::DeleteInstanceRequest* request,
                                                               google::protobuf::Empty*) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(InstanceName name, ParseInstanceName(request->name(), "name"));
    return admin->DeleteInstance(name);
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::CreateCluster(grpc::CallbackServerContext* context,
                                                              const admin::CreateClusterRequest* request,
                                                              longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(InstanceName instance, ParseInstanceName(request->parent(), "parent"));
    LBT_ASSIGN_OR_RETURN(ClusterSpec cluster, proto::FromProto(request->cluster_id(), request->cluster(), "cluster"));
    LBT_RETURN_IF_ERROR(admin->CreateCluster(instance, cluster));
    LBT_ASSIGN_OR_RETURN(ClusterSpec stored, FindCluster(admin, {instance, cluster.id}));
    admin::CreateClusterMetadata metadata;
    *metadata.mutable_original_request() = *request;
    StampTimes(&metadata);
    admin::Cluster result = proto::ToProto(instance, stored);
    *response = Done(result.name(), metadata, result);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::GetCluster(grpc::CallbackServerContext* context,
                                                           const admin::GetClusterRequest* request,
                                                           admin::Cluster* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(ChildName name, ParseChildName(request->name(), "clusters", "name"));
    LBT_ASSIGN_OR_RETURN(ClusterSpec cluster, FindCluster(admin, name));
    *response = proto::ToProto(name.instance, cluster);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::ListClusters(grpc::CallbackServerContext* context,
                                                             const admin::ListClustersRequest* request,
                                                             admin::ListClustersResponse* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(std::vector<InstanceSpec> instances, InstancesOf(admin, request->parent()));
    for (const InstanceSpec& instance : instances) {
      for (const ClusterSpec& cluster : instance.clusters) {
        *response->add_clusters() = proto::ToProto(instance.name, cluster);
      }
    }
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::UpdateCluster(grpc::CallbackServerContext* context,
                                                              const admin::Cluster* request,
                                                              longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(ChildName name, ParseChildName(request->name(), "clusters", "name"));
    LBT_ASSIGN_OR_RETURN(ClusterSpec current, FindCluster(admin, name));
    LBT_ASSIGN_OR_RETURN(ClusterSpec update, proto::FromProto(name.id, *request, "cluster"));
    LBT_RETURN_IF_ERROR(admin->UpdateCluster(name.instance, Resized(current, update)));
    LBT_ASSIGN_OR_RETURN(ClusterSpec stored, FindCluster(admin, name));
    admin::UpdateClusterMetadata metadata;
    *metadata.mutable_original_request() = *request;
    StampTimes(&metadata);
    *response = Done(request->name(), metadata, proto::ToProto(name.instance, stored));
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::PartialUpdateCluster(grpc::CallbackServerContext* context,
                                                                     const admin::PartialUpdateClusterRequest* request,
                                                                     longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(ChildName name, ParseChildName(request->cluster().name(), "clusters", "cluster.name"));
    LBT_ASSIGN_OR_RETURN(ClusterSpec current, FindCluster(admin, name));
    LBT_ASSIGN_OR_RETURN(ClusterSpec update, proto::FromProto(name.id, request->cluster(), "cluster"));
    LBT_ASSIGN_OR_RETURN(ClusterSpec updated, MaskedCluster(current, update, request->update_mask()));
    LBT_RETURN_IF_ERROR(admin->UpdateCluster(name.instance, updated));
    LBT_ASSIGN_OR_RETURN(ClusterSpec stored, FindCluster(admin, name));
    admin::PartialUpdateClusterMetadata metadata;
    *metadata.mutable_original_request() = *request;
    StampTimes(&metadata);
    *response = Done(request->cluster().name(), metadata, proto::ToProto(name.instance, stored));
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::DeleteCluster(grpc::CallbackServerContext* context,
                                                              const admin::DeleteClusterRequest* request,
                                                              google::protobuf::Empty*) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(ChildName name, ParseChildName(request->name(), "clusters", "name"));
    return admin->DeleteCluster(name.instance, name.id);
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::CreateAppProfile(grpc::CallbackServerContext* context,
                                                                 const admin::CreateAppProfileRequest* request,
                                                                 admin::AppProfile* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(InstanceName instance, ParseInstanceName(request->parent(), "parent"));
    LBT_RETURN_IF_ERROR(ValidateAppProfileId(request->app_profile_id(), "app_profile_id"));
    LBT_ASSIGN_OR_RETURN(AppProfileSpec profile,
                         proto::FromProto(request->app_profile_id(), request->app_profile(), "app_profile"));
    LBT_ASSIGN_OR_RETURN(AppProfileSpec stored, admin->CreateAppProfile(instance, profile, request->ignore_warnings()));
    *response = proto::ToProto(instance, stored);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::GetAppProfile(grpc::CallbackServerContext* context,
                                                              const admin::GetAppProfileRequest* request,
                                                              admin::AppProfile* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(ChildName name, ParseChildName(request->name(), "appProfiles", "name"));
    LBT_ASSIGN_OR_RETURN(AppProfileSpec profile, FindAppProfile(admin, name));
    *response = proto::ToProto(name.instance, profile);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::ListAppProfiles(grpc::CallbackServerContext* context,
                                                                const admin::ListAppProfilesRequest* request,
                                                                admin::ListAppProfilesResponse* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(std::vector<InstanceSpec> instances, InstancesOf(admin, request->parent()));
    if (request->page_size() < 0) return Status::InvalidArgument("page_size: must not be negative");
    // In the order the instances keep them; a page token is the full name
    // (ids repeat across instances with "instances/-") of the last one given.
    std::vector<admin::AppProfile> profiles;
    for (const InstanceSpec& instance : instances) {
      for (const AppProfileSpec& profile : instance.app_profiles) {
        profiles.push_back(proto::ToProto(instance.name, profile));
      }
    }
    auto it = profiles.begin();
    if (!request->page_token().empty()) {
      it = std::find_if(profiles.begin(), profiles.end(),
                        [&](const admin::AppProfile& p) { return p.name() == request->page_token(); });
      if (it == profiles.end()) return Status::InvalidArgument("page_token: not a token this server gave");
      ++it;
    }
    const size_t size = request->page_size() > 0 ? static_cast<size_t>(request->page_size()) : profiles.size();
    for (size_t n = 0; it != profiles.end() && n < size; ++it, ++n) *response->add_app_profiles() = *it;
    const std::string next = it == profiles.end() ? std::string() : std::prev(it)->name();
    response->set_next_page_token(next);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::UpdateAppProfile(grpc::CallbackServerContext* context,
                                                                 const admin::UpdateAppProfileRequest* request,
                                                                 longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(ChildName name,
                         ParseChildName(request->app_profile().name(), "appProfiles", "app_profile.name"));
    LBT_ASSIGN_OR_RETURN(AppProfileSpec current, FindAppProfile(admin, name));
    LBT_ASSIGN_OR_RETURN(AppProfileSpec updated,
                         MaskedAppProfile(current, request->app_profile(), request->update_mask()));
    LBT_ASSIGN_OR_RETURN(AppProfileSpec stored,
                         admin->UpdateAppProfile(name.instance, updated, request->ignore_warnings()));
    *response =
        Done(request->app_profile().name(), admin::UpdateAppProfileMetadata(), proto::ToProto(name.instance, stored));
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::DeleteAppProfile(grpc::CallbackServerContext* context,
                                                                 const admin::DeleteAppProfileRequest* request,
                                                                 google::protobuf::Empty*) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, Admin());
    LBT_ASSIGN_OR_RETURN(ChildName name, ParseChildName(request->name(), "appProfiles", "name"));
    return admin->DeleteAppProfile(name.instance, name.id);
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::GetIamPolicy(grpc::CallbackServerContext* context,
                                                             const google::iam::v1::GetIamPolicyRequest* request,
                                                             google::iam::v1::Policy* response) {
  return HandleAdmin(context, runtime_, __func__, *request,
                     [=, this] { return server::GetIamPolicy(router_, IamResources::kInstances, *request, response); });
}

grpc::ServerUnaryReactor* InstanceAdminService::SetIamPolicy(grpc::CallbackServerContext* context,
                                                             const google::iam::v1::SetIamPolicyRequest* request,
                                                             google::iam::v1::Policy* response) {
  return HandleAdmin(context, runtime_, __func__, *request,
                     [=, this] { return server::SetIamPolicy(router_, IamResources::kInstances, *request, response); });
}

grpc::ServerUnaryReactor* InstanceAdminService::TestIamPermissions(
    grpc::CallbackServerContext* context, const google::iam::v1::TestIamPermissionsRequest* request,
    google::iam::v1::TestIamPermissionsResponse* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this] {
    return server::TestIamPermissions(router_, IamResources::kInstances, *request, response);
  });
}

// ---- google.longrunning.Operations ----

grpc::ServerUnaryReactor* OperationsService::ListOperations(grpc::CallbackServerContext* context,
                                                            const longrunning::ListOperationsRequest* request,
                                                            longrunning::ListOperationsResponse* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(OperationStore::Page page,
                         operations_->List(request->name(), request->page_size(), request->page_token()));
    for (auto& operation : page.operations) *response->add_operations() = std::move(operation);
    response->set_next_page_token(std::move(page.next_page_token));
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* OperationsService::GetOperation(grpc::CallbackServerContext* context,
                                                          const longrunning::GetOperationRequest* request,
                                                          longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(*response, operations_->Get(request->name()));
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* OperationsService::DeleteOperation(grpc::CallbackServerContext* context,
                                                             const longrunning::DeleteOperationRequest* request,
                                                             google::protobuf::Empty*) {
  return HandleAdmin(context, runtime_, __func__, *request,
                     [=, this]() -> Status { return operations_->Delete(request->name()); });
}

grpc::ServerUnaryReactor* OperationsService::CancelOperation(grpc::CallbackServerContext* context,
                                                             const longrunning::CancelOperationRequest* request,
                                                             google::protobuf::Empty*) {
  return HandleAdmin(context, runtime_, __func__, *request,
                     [=, this]() -> Status { return operations_->Get(request->name()).status(); });
}

grpc::ServerUnaryReactor* OperationsService::WaitOperation(grpc::CallbackServerContext* context,
                                                           const longrunning::WaitOperationRequest* request,
                                                           longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(*response, operations_->Get(request->name()));
    return Status::OK();
  });
}

}  // namespace lbt::server
