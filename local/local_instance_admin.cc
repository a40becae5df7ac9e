#include "local/local_instance_admin.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "api/bigtable.h"
#include "api/logical_view.h"
#include "api/materialized_view.h"
#include "local/instance_records.h"
#include "local/lazy_database.h"

namespace lbt {

namespace {

Status NoInstance(const InstanceName& name) {
  return Status::NotFound(fmt::format("instance {} does not exist", name.Full()));
}

bool InProject(const InstanceName& name, std::string_view project) {
  return project.empty() || project == "-" || name.project == project;
}

// Production's default app profile: single-cluster routing with
// transactional writes for an instance made with one cluster, multi-cluster
// routing for one made with more.
AppProfileSpec DefaultAppProfile(const InstanceSpec& instance) {
  AppProfileSpec profile;
  profile.id = kDefaultAppProfile;
  if (instance.clusters.size() == 1) {
    profile.routing = AppProfileSpec::Routing::kSingleCluster;
    profile.cluster_id = instance.clusters.front().id;
    profile.allow_transactional_writes = true;
  }
  return profile;
}

// What lbt shows for an instance that has tables but no record.
InstanceSpec ImpliedInstance(const InstanceName& name) {
  InstanceSpec spec;
  spec.name = name;
  spec.display_name = name.instance;
  ClusterSpec cluster;
  cluster.id = name.instance + "-c1";
  cluster.location = fmt::format("projects/{}/locations/local", name.project);
  cluster.serve_nodes = 3;  // what `hotspots` assumes without nodes=
  spec.clusters.push_back(cluster);
  spec.app_profiles.push_back(DefaultAppProfile(spec));
  spec.app_profiles.back().etag = spec.NextEtag();
  return spec;
}

}  // namespace

int64_t LocalInstanceAdmin::NowMicros() const { return db_->NowMicros(); }

Result<std::vector<InstanceSpec>> LocalInstanceAdmin::ListInstances(std::string_view project) {
  std::map<InstanceName, InstanceSpec> found;
  if (InProject(DefaultInstanceName(), project))
    found.emplace(DefaultInstanceName(), ImpliedInstance(DefaultInstanceName()));
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(false));
  if (db != nullptr) {
    LBT_ASSIGN_OR_RETURN(std::vector<std::string> tables, db->ListTables());
    for (const std::string& table : tables) {
      if (IsHiddenTable(table)) continue;  // a backup's or a restore's cells
      InstanceName name = InstanceOfTable(table);
      if (InProject(name, project)) found.emplace(name, ImpliedInstance(name));
    }
    LBT_ASSIGN_OR_RETURN(std::vector<InstanceSpec> records, ReadInstances(db));
    for (InstanceSpec& spec : records) {
      if (InProject(spec.name, project)) found[spec.name] = std::move(spec);
    }
  }
  std::vector<InstanceSpec> list;
  for (auto& [name, spec] : found) list.push_back(std::move(spec));
  return list;
}

Result<InstanceSpec> LocalInstanceAdmin::GetInstance(const InstanceName& name) {
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(false));
  bool has_tables = false;
  std::optional<InstanceSpec> record;
  if (db != nullptr) {
    LBT_ASSIGN_OR_RETURN(record, ReadInstance(db, name, &has_tables));
  }
  if (record.has_value()) return std::move(*record);
  if (has_tables || name == DefaultInstanceName()) return ImpliedInstance(name);
  return NoInstance(name);
}

Status LocalInstanceAdmin::CreateInstance(const InstanceSpec& spec) {
  LBT_RETURN_IF_ERROR(ValidateInstanceId(spec.name.instance, "instance_id"));
  LBT_RETURN_IF_ERROR(ValidateDisplayName(spec.display_name, "instance.display_name"));
  LBT_RETURN_IF_ERROR(ValidateLabels(spec.labels, "instance.labels"));
  LBT_RETURN_IF_ERROR(ValidateTags(spec.tags, "instance.tags"));
  if (spec.clusters.empty()) return Status::InvalidArgument("clusters: at least one cluster must be given");
  for (const ClusterSpec& cluster : spec.clusters) {
    const std::string field = fmt::format("clusters[{}]", cluster.id);
    LBT_RETURN_IF_ERROR(ValidateClusterId(cluster.id, field));
    LBT_RETURN_IF_ERROR(ValidateCluster(cluster, field));
  }
  LBT_RETURN_IF_ERROR(ValidateClusterPlacement(spec.clusters, "clusters"));
  if (spec.name == DefaultInstanceName()) return Status::AlreadyExists("instance " + spec.name.Full() + " exists");
  InstanceSpec stored = spec;
  stored.create_time_micros = NowMicros();
  stored.app_profiles = {DefaultAppProfile(stored)};
  stored.app_profiles.front().etag = stored.NextEtag();
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(true));
  return ChangeInstance(db, spec.name, [&](std::optional<InstanceSpec>* record, bool has_tables) -> Status {
    if (record->has_value() || has_tables) {
      return Status::AlreadyExists(fmt::format("instance {} already exists", spec.name.Full()));
    }
    *record = stored;
    return Status::OK();
  });
}

Status LocalInstanceAdmin::Change(const InstanceName& name, const std::function<Status(InstanceSpec* spec)>& change) {
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(true));
  return ChangeInstance(db, name, [&](std::optional<InstanceSpec>* record, bool has_tables) -> Status {
    if (!record->has_value()) {
      if (!has_tables && !(name == DefaultInstanceName())) return NoInstance(name);
      *record = ImpliedInstance(name);
    }
    return change(&**record);
  });
}

Status LocalInstanceAdmin::UpdateInstance(const InstanceSpec& spec) {
  LBT_RETURN_IF_ERROR(ValidateDisplayName(spec.display_name, "instance.display_name"));
  LBT_RETURN_IF_ERROR(ValidateLabels(spec.labels, "instance.labels"));
  return Change(spec.name, [&](InstanceSpec* stored) {
    stored->display_name = spec.display_name;
    stored->type = spec.type;
    stored->labels = spec.labels;
    stored->edition = spec.edition;
    return Status::OK();
  });
}

Status LocalInstanceAdmin::DeleteInstance(const InstanceName& name) {
  if (name == DefaultInstanceName()) {
    return Status::FailedPrecondition(fmt::format(
        "instance {} is where the database keeps the tables no instance was named for; it cannot be deleted",
        name.Full()));
  }
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(false));
  if (db == nullptr) return NoInstance(name);
  // All or nothing, in one transaction: its record, tables, backups,
  // logical and materialized views (protected or not: a view's protection
  // guards it from being deleted alone) and IAM policies, so that a new
  // instance of the same name starts empty whatever a crash cut short.
  const InstanceBelongings belongings = BelongingsOf(name);
  return ChangeInstance(
      db, name,
      [&](std::optional<InstanceSpec>* record, bool has_tables) -> Status {
        if (!record->has_value() && !has_tables) return NoInstance(name);
        record->reset();
        return Status::OK();
      },
      &belongings);
}

Status LocalInstanceAdmin::CreateCluster(const InstanceName& instance, const ClusterSpec& cluster) {
  LBT_RETURN_IF_ERROR(ValidateClusterId(cluster.id, "cluster_id"));
  LBT_RETURN_IF_ERROR(ValidateCluster(cluster, "cluster"));
  return Change(instance, [&](InstanceSpec* spec) -> Status {
    if (spec->FindCluster(cluster.id) != nullptr) {
      return Status::AlreadyExists(fmt::format("cluster {}/clusters/{} already exists", instance.Full(), cluster.id));
    }
    spec->clusters.push_back(cluster);
    return ValidateClusterPlacement(spec->clusters, "cluster.location");
  });
}

Status LocalInstanceAdmin::UpdateCluster(const InstanceName& instance, const ClusterSpec& cluster) {
  return Change(instance, [&](InstanceSpec* spec) -> Status {
    auto it = std::find_if(spec->clusters.begin(), spec->clusters.end(),
                           [&](const ClusterSpec& c) { return c.id == cluster.id; });
    if (it == spec->clusters.end()) {
      return Status::NotFound(fmt::format("cluster {}/clusters/{} does not exist", instance.Full(), cluster.id));
    }
    ClusterSpec updated = *it;  // location, storage type and scaling factor are immutable
    updated.serve_nodes = cluster.serve_nodes;
    updated.autoscaling = cluster.autoscaling;
    LBT_RETURN_IF_ERROR(ValidateCluster(updated, "cluster"));
    *it = std::move(updated);
    return Status::OK();
  });
}

Status LocalInstanceAdmin::DeleteCluster(const InstanceName& instance, std::string_view cluster_id) {
  return Change(instance, [&](InstanceSpec* spec) -> Status {
    const std::string name = fmt::format("{}/clusters/{}", instance.Full(), cluster_id);
    if (spec->FindCluster(cluster_id) == nullptr)
      return Status::NotFound(fmt::format("cluster {} does not exist", name));
    if (spec->clusters.size() == 1) {
      return Status::FailedPrecondition(
          fmt::format("cluster {} is the instance's last; delete the instance instead", name));
    }
    for (const AppProfileSpec& p : spec->app_profiles) {
      const bool routes = p.routing == AppProfileSpec::Routing::kSingleCluster
                              ? p.cluster_id == cluster_id
                              : std::count(p.cluster_ids.begin(), p.cluster_ids.end(), cluster_id) > 0;
      if (routes) {
        return Status::FailedPrecondition(
            fmt::format("cluster {} is routed to by app profile '{}'; change the profile first", name, p.id));
      }
    }
    spec->clusters.erase(std::find_if(spec->clusters.begin(), spec->clusters.end(),
                                      [&](const ClusterSpec& c) { return c.id == cluster_id; }));
    return Status::OK();
  });
}

Result<AppProfileSpec> LocalInstanceAdmin::CreateAppProfile(const InstanceName& instance, const AppProfileSpec& profile,
                                                            bool) {
  AppProfileSpec stored = profile;
  LBT_RETURN_IF_ERROR(Change(instance, [&](InstanceSpec* spec) -> Status {
    LBT_RETURN_IF_ERROR(ValidateAppProfile(stored, *spec, "app_profile"));
    stored.etag = spec->NextEtag();
    if (spec->FindAppProfile(profile.id) != nullptr) {
      return Status::AlreadyExists(
          fmt::format("app profile {}/appProfiles/{} already exists", instance.Full(), profile.id));
    }
    spec->app_profiles.push_back(stored);
    return Status::OK();
  }));
  return stored;
}

Result<AppProfileSpec> LocalInstanceAdmin::UpdateAppProfile(const InstanceName& instance, const AppProfileSpec& profile,
                                                            bool) {
  AppProfileSpec stored = profile;
  LBT_RETURN_IF_ERROR(Change(instance, [&](InstanceSpec* spec) -> Status {
    auto it = std::find_if(spec->app_profiles.begin(), spec->app_profiles.end(),
                           [&](const AppProfileSpec& p) { return p.id == profile.id; });
    if (it == spec->app_profiles.end()) {
      return Status::NotFound(fmt::format("app profile {}/appProfiles/{} does not exist", instance.Full(), profile.id));
    }
    if (!profile.etag.empty() && profile.etag != it->etag) {
      return Status::Aborted(
          fmt::format("app profile '{}' changed since etag '{}' was read; read it again", profile.id, profile.etag));
    }
    LBT_RETURN_IF_ERROR(ValidateAppProfile(stored, *spec, "app_profile"));
    stored.etag = spec->NextEtag();
    *it = stored;
    return Status::OK();
  }));
  return stored;
}

Status LocalInstanceAdmin::DeleteAppProfile(const InstanceName& instance, std::string_view profile_id) {
  return Change(instance, [&](InstanceSpec* spec) -> Status {
    auto it = std::find_if(spec->app_profiles.begin(), spec->app_profiles.end(),
                           [&](const AppProfileSpec& p) { return p.id == profile_id; });
    if (it == spec->app_profiles.end()) {
      return Status::NotFound(fmt::format("app profile {}/appProfiles/{} does not exist", instance.Full(), profile_id));
    }
    spec->app_profiles.erase(it);
    return Status::OK();
  });
}

Result<std::unique_ptr<Bigtable>> LocalInstanceAdmin::OpenTables(const InstanceName& name) {
  return open_tables_(name);
}

}  // namespace lbt
