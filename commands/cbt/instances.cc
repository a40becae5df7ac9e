// cbt's instance, cluster and app-profile commands, over InstanceAdmin
// (api/instance.h): createinstance, deleteinstance, listinstances,
// createcluster, deletecluster, updatecluster, listclusters, and the app
// profile commands. They work in the session's project and instance, as
// cbt's -project and -instance choose them.

#include <fmt/format.h>

#include "api/instance_admin.h"
#include "commands/cbt/args.h"
#include "commands/command_sets.h"
#include "commands/core/command_table.h"

namespace lbt {

namespace {

const InstanceName& Here(const CommandContext& ctx) { return ctx.session->options().instance; }
InstanceName InProject(const CommandContext& ctx, const std::string& instance) { return {Here(ctx).project, instance}; }

Result<int32_t> NodeCount(CommandContext& ctx, const std::string& text) {
  int64_t nodes = 0;
  if (!ParseInt64(text, &nodes) || nodes < 0 || nodes > INT32_MAX) {
    return ctx.Usage(fmt::format("bad num-nodes '{}': expected a number of nodes", text));
  }
  return static_cast<int32_t>(nodes);
}

Result<StorageType> Storage(CommandContext& ctx, const std::string& text) {
  if (text == "SSD") return StorageType::kSsd;
  if (text == "HDD") return StorageType::kHdd;
  return ctx.Usage(fmt::format("bad storage-type '{}': expected SSD or HDD", text));
}

// <cluster-id> <zone> <num-nodes> <storage-type>, from args[first].
Result<ClusterSpec> ClusterFromArgs(CommandContext& ctx, const std::vector<std::string>& args, size_t first) {
  ClusterSpec cluster;
  cluster.id = args[first];
  cluster.location = fmt::format("projects/{}/locations/{}", Here(ctx).project, args[first + 1]);
  LBT_ASSIGN_OR_RETURN(cluster.serve_nodes, NodeCount(ctx, args[first + 2]));
  LBT_ASSIGN_OR_RETURN(cluster.storage_type, Storage(ctx, args[first + 3]));
  return cluster;
}

Status CreateInstance(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  InstanceSpec spec;
  spec.name = InProject(ctx, args[0]);
  spec.display_name = args[1];
  LBT_ASSIGN_OR_RETURN(ClusterSpec cluster, ClusterFromArgs(ctx, args, 2));
  spec.clusters.push_back(std::move(cluster));
  return admin->CreateInstance(spec);
}

Status DeleteInstance(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  return admin->DeleteInstance(InProject(ctx, args[0]));
}

Status ListInstances(CommandContext& ctx, const std::vector<std::string>&) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  LBT_ASSIGN_OR_RETURN(std::vector<InstanceSpec> instances, admin->ListInstances(Here(ctx).project));
  ctx.renderer->Instances(instances);
  return Status::OK();
}

Status CreateCluster(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  LBT_ASSIGN_OR_RETURN(ClusterSpec cluster, ClusterFromArgs(ctx, args, 0));
  return admin->CreateCluster(Here(ctx), cluster);
}

Status DeleteCluster(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  return admin->DeleteCluster(Here(ctx), args[0]);
}

Status UpdateCluster(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 1));
  const std::string* nodes = parsed.Find("num-nodes");
  if (nodes == nullptr) return Status::OK();  // as cbt: nothing to change
  LBT_ASSIGN_OR_RETURN(InstanceSpec instance, admin->GetInstance(Here(ctx)));
  const ClusterSpec* current = instance.FindCluster(args[0]);
  if (current == nullptr) {
    return Status::NotFound(fmt::format("cluster {}/clusters/{} does not exist", Here(ctx).Full(), args[0]));
  }
  ClusterSpec updated = *current;
  LBT_ASSIGN_OR_RETURN(updated.serve_nodes, NodeCount(ctx, *nodes));
  updated.autoscaling.reset();
  return admin->UpdateCluster(Here(ctx), updated);
}

Status ListClusters(CommandContext& ctx, const std::vector<std::string>&) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  LBT_ASSIGN_OR_RETURN(InstanceSpec instance, admin->GetInstance(Here(ctx)));
  ctx.renderer->Clusters(instance);
  return Status::OK();
}

// <instance-id> <profile-id> <description> (route-any | route-to=<cluster>)
// [transactional-writes=true] [force=true], as cbt reads them.
struct ProfileArgs {
  InstanceName instance;
  AppProfileSpec profile;
  bool force = false;
};

Result<ProfileArgs> ProfileFromArgs(CommandContext& ctx, const std::vector<std::string>& args) {
  ProfileArgs out;
  out.instance = InProject(ctx, args[0]);
  out.profile.id = args[1];
  out.profile.description = args[2];
  const std::string& routing = args[3];
  if (routing == "route-any") {
    out.profile.routing = AppProfileSpec::Routing::kMultiCluster;
  } else if (routing.rfind("route-to=", 0) == 0 && routing.size() > 9) {
    out.profile.routing = AppProfileSpec::Routing::kSingleCluster;
    out.profile.cluster_id = routing.substr(9);
  } else {
    return ctx.Usage(fmt::format("bad routing policy '{}': expected route-any or route-to=<cluster-id>", routing));
  }
  for (size_t i = 4; i < args.size(); ++i) {
    if (args[i] == "transactional-writes=true" && out.profile.routing == AppProfileSpec::Routing::kSingleCluster) {
      out.profile.allow_transactional_writes = true;
    } else if (args[i] == "force=true") {
      out.force = true;
    } else {
      return ctx.Usage(fmt::format(
          "optional flags can be specified as (force=<true>|transactional-writes=<true>), got '{}'", args[i]));
    }
  }
  return out;
}

Status CreateAppProfile(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  LBT_ASSIGN_OR_RETURN(ProfileArgs parsed, ProfileFromArgs(ctx, args));
  LBT_ASSIGN_OR_RETURN(AppProfileSpec created, admin->CreateAppProfile(parsed.instance, parsed.profile, parsed.force));
  ctx.renderer->AppProfile(parsed.instance, created, /*created=*/true);
  return Status::OK();
}

Status UpdateAppProfile(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  LBT_ASSIGN_OR_RETURN(ProfileArgs parsed, ProfileFromArgs(ctx, args));
  LBT_ASSIGN_OR_RETURN(InstanceSpec instance, admin->GetInstance(parsed.instance));
  const AppProfileSpec* current = instance.FindAppProfile(parsed.profile.id);
  if (current == nullptr) {
    return Status::NotFound(
        fmt::format("app profile {}/appProfiles/{} does not exist", parsed.instance.Full(), parsed.profile.id));
  }
  AppProfileSpec updated = *current;  // the isolation stays as it was
  updated.description = parsed.profile.description;
  updated.routing = parsed.profile.routing;
  updated.cluster_id = parsed.profile.cluster_id;
  updated.cluster_ids.clear();
  updated.row_affinity = false;
  updated.allow_transactional_writes = parsed.profile.allow_transactional_writes;
  updated.etag.clear();
  return admin->UpdateAppProfile(parsed.instance, updated, parsed.force).status();
}

Result<AppProfileSpec> FindProfile(InstanceAdmin* admin, const InstanceName& instance, const std::string& id) {
  LBT_ASSIGN_OR_RETURN(InstanceSpec spec, admin->GetInstance(instance));
  const AppProfileSpec* profile = spec.FindAppProfile(id);
  if (profile == nullptr) {
    return Status::NotFound(fmt::format("app profile {}/appProfiles/{} does not exist", instance.Full(), id));
  }
  return *profile;
}

Status GetAppProfile(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  const InstanceName instance = InProject(ctx, args[0]);
  LBT_ASSIGN_OR_RETURN(AppProfileSpec profile, FindProfile(admin, instance, args[1]));
  ctx.renderer->AppProfile(instance, profile, /*created=*/false);
  return Status::OK();
}

Status ListAppProfiles(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  LBT_ASSIGN_OR_RETURN(InstanceSpec instance, admin->GetInstance(InProject(ctx, args[0])));
  ctx.renderer->AppProfiles(instance);
  return Status::OK();
}

Status DeleteAppProfile(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  return admin->DeleteAppProfile(InProject(ctx, args[0]), args[1]);
}

// useinstance <instance-id> [project=<project-id>]: what follows runs in
// that instance of the same database (or service), as dump's scripts need
// to rebuild every instance.
Status UseInstance(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 1));
  const std::string* project = parsed.Find("project");
  if (args[0].empty() || (project != nullptr && project->empty())) {
    return ctx.Usage("useinstance needs an instance id, and a project id with project=");
  }
  return ctx.session->UseInstance({project != nullptr ? *project : Here(ctx).project, args[0]});
}

constexpr Arg kInstanceIdArg{.text = "<instance-id>", .noun = "an instance id"};
constexpr Arg kClusterIdArg{.text = "<cluster-id>", .noun = "a cluster id"};
constexpr Arg kProfileIdArg{.text = "<app-profile-id>", .noun = "an app profile id"};
constexpr Arg kZoneArg{.text = "<zone>", .noun = "a zone"};
constexpr Arg kNodesArg{.text = "<num-nodes>", .noun = "a number of nodes"};
constexpr Arg kStorageArg{.text = "<storage-type>", .noun = "a storage type (SSD or HDD)"};
constexpr Arg kRoutingArg{.text = "(route-any | route-to=<cluster-id>) [transactional-writes=true] [force=true]",
                          .noun = "a routing policy",
                          .arity = Arity::kRest};

constexpr char kMetadataNote[] =
    "  A local instance has no nodes: node counts, zones and storage types are kept\n"
    "  and shown as given.";

}  // namespace

std::vector<CommandSpec> CbtInstanceCommands() {
  return {
      {.name = "createinstance",
       .summary = "Create an instance with one cluster",
       .args = {kInstanceIdArg,
                {.text = "<display-name>", .noun = "a display name"},
                kClusterIdArg,
                kZoneArg,
                kNodesArg,
                kStorageArg},
       .details = "  The instance is created in the project of -project. Its tables are apart\n"
                  "  from every other instance's.\n\n"
                  "  Example: createinstance my-instance \"My instance\" my-instance-c1 us-central1-b 3 SSD",
       .cbt = CreateInstance},
      {.name = "deleteinstance",
       .summary = "Delete an instance with its tables",
       .args = {kInstanceIdArg},
       .details = "  Example: deleteinstance my-instance",
       .cbt = DeleteInstance},
      {.name = "listinstances", .summary = "List the instances of the project", .cbt = ListInstances},
      {.name = "useinstance",
       .summary = "Run the commands that follow in another instance (lbt)",
       .args = {kInstanceIdArg},
       .options = {{.key = "project", .value = "<project-id>"}},
       .details = "  project  The instance's project (default: the one commands run in now)\n\n"
                  "  The instance is one of the same database or service; one never created\n"
                  "  may be named, and its first table brings it into being. The shell's own\n"
                  "  tables are those of instance local of project lbt. dump's scripts use it\n"
                  "  to rebuild every instance.\n\n"
                  "  Example: useinstance my-instance project=my-project",
       .cbt = UseInstance},
      {.name = "createcluster",
       .summary = "Create a cluster in the instance",
       .args = {kClusterIdArg, kZoneArg, kNodesArg, kStorageArg},
       .details = "  Example: createcluster local-c2 europe-west1-b 3 SSD",
       .cbt = CreateCluster},
      {.name = "deletecluster",
       .summary = "Delete a cluster of the instance",
       .args = {kClusterIdArg},
       .details = "  Example: deletecluster local-c2",
       .cbt = DeleteCluster},
      {.name = "updatecluster",
       .summary = "Change a cluster's number of nodes",
       .args = {kClusterIdArg},
       .options = {{.key = "num-nodes", .value = "<num-nodes>"}},
       .details = "  Example: updatecluster local-c1 num-nodes=5",
       .cbt = UpdateCluster},
      {.name = "listclusters",
       .summary = "List the clusters of the instance",
       .details = kMetadataNote,
       .cbt = ListClusters},
      {.name = "createappprofile",
       .summary = "Create an app profile",
       .args = {kInstanceIdArg, kProfileIdArg, {.text = "<description>", .noun = "a description"}, kRoutingArg},
       .details = "  Example: createappprofile my-instance analytics \"Batch reads\" route-to=my-instance-c1",
       .cbt = CreateAppProfile},
      {.name = "getappprofile",
       .summary = "Show an app profile",
       .args = {kInstanceIdArg, kProfileIdArg},
       .cbt = GetAppProfile},
      {.name = "listappprofile",
       .summary = "List the app profiles of an instance",
       .args = {kInstanceIdArg},
       .cbt = ListAppProfiles},
      {.name = "updateappprofile",
       .summary = "Change an app profile's description and routing",
       .args = {kInstanceIdArg, kProfileIdArg, {.text = "<description>", .noun = "a description"}, kRoutingArg},
       .details = "  Example: updateappprofile my-instance analytics \"Any cluster\" route-any",
       .cbt = UpdateAppProfile},
      {.name = "deleteappprofile",
       .summary = "Delete an app profile",
       .args = {kInstanceIdArg, kProfileIdArg},
       .cbt = DeleteAppProfile},
  };
}

}  // namespace lbt
