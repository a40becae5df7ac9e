#include "proto/instance_convert.h"

#include <fmt/format.h>
#include <google/protobuf/util/time_util.h>

#include <vector>

#include "api/backup.h"
#include "proto/convert.h"

namespace lbt::proto {

using google::protobuf::util::TimeUtil;

namespace {

admin::StorageType ToProto(StorageType type) {
  switch (type) {
    case StorageType::kSsd: return admin::SSD;
    case StorageType::kHdd: return admin::HDD;
    case StorageType::kUnspecified: break;
  }
  return admin::STORAGE_TYPE_UNSPECIFIED;
}

admin::AppProfile::Priority ToProto(AppProfileSpec::Priority priority) {
  switch (priority) {
    case AppProfileSpec::Priority::kLow: return admin::AppProfile::PRIORITY_LOW;
    case AppProfileSpec::Priority::kMedium: return admin::AppProfile::PRIORITY_MEDIUM;
    case AppProfileSpec::Priority::kHigh: return admin::AppProfile::PRIORITY_HIGH;
    case AppProfileSpec::Priority::kUnspecified: break;
  }
  return admin::AppProfile::PRIORITY_UNSPECIFIED;
}

AppProfileSpec::Priority PriorityFromProto(admin::AppProfile::Priority priority) {
  switch (priority) {
    case admin::AppProfile::PRIORITY_LOW: return AppProfileSpec::Priority::kLow;
    case admin::AppProfile::PRIORITY_MEDIUM: return AppProfileSpec::Priority::kMedium;
    case admin::AppProfile::PRIORITY_HIGH: return AppProfileSpec::Priority::kHigh;
    default: break;
  }
  return AppProfileSpec::Priority::kUnspecified;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
// The isolation oneof, whose `priority` case is deprecated and still sent
// by older clients.
void IsolationFromProto(const admin::AppProfile& in, AppProfileSpec* out) {
  switch (in.isolation_case()) {
    case admin::AppProfile::kPriority:
      out->isolation = AppProfileSpec::Isolation::kStandard;
      out->priority = PriorityFromProto(in.priority());
      break;
    case admin::AppProfile::kStandardIsolation:
      out->isolation = AppProfileSpec::Isolation::kStandard;
      out->priority = PriorityFromProto(in.standard_isolation().priority());
      break;
    case admin::AppProfile::kDataBoostIsolationReadOnly:
      out->isolation = AppProfileSpec::Isolation::kDataBoost;
      out->data_boost_host_pays = in.data_boost_isolation_read_only().compute_billing_owner() ==
                                  admin::AppProfile::DataBoostIsolationReadOnly::HOST_PAYS;
      break;
    case admin::AppProfile::ISOLATION_NOT_SET: break;
  }
}
#pragma GCC diagnostic pop

}  // namespace

admin::Backup ToProto(const BackupSpec& backup) {
  admin::Backup out;
  out.set_name(backup.Full());
  out.set_source_table(backup.SourceTableFull());
  out.set_source_backup(backup.source_backup);
  *out.mutable_expire_time() = TimeUtil::MicrosecondsToTimestamp(backup.expire_time_micros);
  *out.mutable_start_time() = TimeUtil::MicrosecondsToTimestamp(backup.start_time_micros);
  *out.mutable_end_time() = TimeUtil::MicrosecondsToTimestamp(backup.end_time_micros);
  out.set_size_bytes(backup.size_bytes);
  out.set_state(admin::Backup::READY);
  out.mutable_encryption_info()->set_encryption_type(admin::EncryptionInfo::GOOGLE_DEFAULT_ENCRYPTION);
  out.set_backup_type(backup.hot ? admin::Backup::HOT : admin::Backup::STANDARD);
  if (backup.hot)
    *out.mutable_hot_to_standard_time() = TimeUtil::MicrosecondsToTimestamp(backup.hot_to_standard_time_micros);
  return out;
}

Result<BackupSpec> FromProto(const admin::Backup& backup, std::string_view field) {
  LBT_ASSIGN_OR_RETURN(BackupName name, ParseBackupName(backup.name(), std::string(field) + ".name"));
  BackupSpec out;
  out.instance = name.instance;
  out.cluster = name.cluster;
  out.id = name.id;
  // The service names the source in full; anything else keeps its last segment.
  if (Result<TableRef> source = ParseTableName(backup.source_table(), "source_table"); source.ok()) {
    out.source_instance = source->instance;
    out.source_table = source->table;
  } else {
    out.source_table = std::string(ResourceId(backup.source_table()));
  }
  out.source_backup = backup.source_backup();
  out.expire_time_micros = TimeUtil::TimestampToMicroseconds(backup.expire_time());
  out.start_time_micros = TimeUtil::TimestampToMicroseconds(backup.start_time());
  out.end_time_micros = TimeUtil::TimestampToMicroseconds(backup.end_time());
  out.size_bytes = backup.size_bytes();
  out.hot = backup.backup_type() == admin::Backup::HOT;
  out.hot_to_standard_time_micros = TimeUtil::TimestampToMicroseconds(backup.hot_to_standard_time());
  return out;
}

google::iam::v1::Policy ToProto(const IamPolicy& policy) {
  google::iam::v1::Policy out;
  out.set_version(policy.version);
  out.set_etag(policy.etag);
  for (const IamBinding& b : policy.bindings) {
    auto* binding = out.add_bindings();
    binding->set_role(b.role);
    for (const std::string& m : b.members) binding->add_members(m);
    if (!b.condition_expression.empty()) {
      binding->mutable_condition()->set_expression(b.condition_expression);
      binding->mutable_condition()->set_title(b.condition_title);
      binding->mutable_condition()->set_description(b.condition_description);
    }
  }
  return out;
}

IamPolicy FromProto(const google::iam::v1::Policy& policy) {
  IamPolicy out;
  out.version = policy.version();
  out.etag = policy.etag();
  for (const auto& b : policy.bindings()) {
    IamBinding binding;
    binding.role = b.role();
    binding.members.assign(b.members().begin(), b.members().end());
    binding.condition_expression = b.condition().expression();
    binding.condition_title = b.condition().title();
    binding.condition_description = b.condition().description();
    out.bindings.push_back(std::move(binding));
  }
  return out;
}

admin::Instance ToProto(const InstanceSpec& spec) {
  admin::Instance out;
  out.set_name(spec.name.Full());
  out.set_display_name(spec.display_name);
  out.set_state(admin::Instance::READY);
  out.set_type(spec.type == InstanceType::kDevelopment ? admin::Instance::DEVELOPMENT : admin::Instance::PRODUCTION);
  out.set_edition(spec.edition == InstanceEdition::kEnterprisePlus ? admin::Instance::ENTERPRISE_PLUS
                                                                   : admin::Instance::ENTERPRISE);
  for (const auto& [key, value] : spec.labels) (*out.mutable_labels())[key] = value;
  // Production gives instances made before the field existed 0 s 1 ns.
  if (spec.create_time_micros > 0) {
    *out.mutable_create_time() = TimeUtil::MicrosecondsToTimestamp(spec.create_time_micros);
  } else {
    out.mutable_create_time()->set_nanos(1);
  }
  return out;
}

Result<InstanceSpec> FromProto(const InstanceName& name, const admin::Instance& instance, std::string_view) {
  InstanceSpec spec;
  spec.name = name;
  spec.display_name = instance.display_name();
  spec.type = instance.type() == admin::Instance::DEVELOPMENT ? InstanceType::kDevelopment : InstanceType::kProduction;
  for (const auto& [key, value] : instance.labels()) spec.labels[key] = value;
  spec.edition = instance.edition() == admin::Instance::ENTERPRISE_PLUS ? InstanceEdition::kEnterprisePlus
                                                                        : InstanceEdition::kEnterprise;
  for (const auto& [key, value] : instance.tags()) spec.tags[key] = value;
  return spec;
}

admin::Cluster ToProto(const InstanceName& instance, const ClusterSpec& cluster) {
  admin::Cluster out;
  out.set_name(instance.Child("clusters", cluster.id));
  out.set_location(cluster.location);
  out.set_state(admin::Cluster::READY);
  out.set_serve_nodes(cluster.serve_nodes);
  out.set_node_scaling_factor(cluster.node_scaling_factor == 2 ? admin::Cluster::NODE_SCALING_FACTOR_2X
                                                               : admin::Cluster::NODE_SCALING_FACTOR_1X);
  out.set_default_storage_type(ToProto(cluster.storage_type));
  if (!cluster.kms_key_name.empty()) out.mutable_encryption_config()->set_kms_key_name(cluster.kms_key_name);
  if (cluster.autoscaling) {
    auto* config = out.mutable_cluster_config()->mutable_cluster_autoscaling_config();
    config->mutable_autoscaling_limits()->set_min_serve_nodes(cluster.autoscaling->min_nodes);
    config->mutable_autoscaling_limits()->set_max_serve_nodes(cluster.autoscaling->max_nodes);
    config->mutable_autoscaling_targets()->set_cpu_utilization_percent(cluster.autoscaling->cpu_target_percent);
    config->mutable_autoscaling_targets()->set_storage_utilization_gib_per_node(
        cluster.autoscaling->storage_gib_per_node);
  }
  return out;
}

Result<ClusterSpec> FromProto(std::string_view id, const admin::Cluster& cluster, std::string_view field) {
  ClusterSpec out;
  out.id = std::string(id);
  out.location = cluster.location();
  out.serve_nodes = cluster.serve_nodes();
  out.storage_type = cluster.default_storage_type() == admin::HDD ? StorageType::kHdd : StorageType::kSsd;
  out.node_scaling_factor = cluster.node_scaling_factor() == admin::Cluster::NODE_SCALING_FACTOR_2X ? 2 : 1;
  out.kms_key_name = cluster.encryption_config().kms_key_name();
  if (cluster.has_cluster_config() && cluster.cluster_config().has_cluster_autoscaling_config()) {
    const auto& config = cluster.cluster_config().cluster_autoscaling_config();
    out.autoscaling =
        ClusterAutoscaling{config.autoscaling_limits().min_serve_nodes(), config.autoscaling_limits().max_serve_nodes(),
                           config.autoscaling_targets().cpu_utilization_percent(),
                           config.autoscaling_targets().storage_utilization_gib_per_node()};
    // The autoscaler starts at the minimum; with no nodes to watch it stays there.
    out.serve_nodes = out.autoscaling->min_nodes;
  }
  if (out.serve_nodes < 0) {
    return Status::InvalidArgument(fmt::format("{}.serve_nodes: must not be negative", field));
  }
  return out;
}

admin::AppProfile ToProto(const InstanceName& instance, const AppProfileSpec& profile) {
  admin::AppProfile out;
  out.set_name(instance.Child("appProfiles", profile.id));
  out.set_etag(profile.etag);
  out.set_description(profile.description);
  if (profile.routing == AppProfileSpec::Routing::kSingleCluster) {
    out.mutable_single_cluster_routing()->set_cluster_id(profile.cluster_id);
    out.mutable_single_cluster_routing()->set_allow_transactional_writes(profile.allow_transactional_writes);
  } else {
    auto* multi = out.mutable_multi_cluster_routing_use_any();
    for (const std::string& id : profile.cluster_ids) multi->add_cluster_ids(id);
    if (profile.row_affinity) multi->mutable_row_affinity();
  }
  if (profile.isolation == AppProfileSpec::Isolation::kStandard) {
    out.mutable_standard_isolation()->set_priority(ToProto(profile.priority));
  } else if (profile.isolation == AppProfileSpec::Isolation::kDataBoost) {
    auto* boost = out.mutable_data_boost_isolation_read_only();
    if (profile.data_boost_host_pays) {
      boost->set_compute_billing_owner(admin::AppProfile::DataBoostIsolationReadOnly::HOST_PAYS);
    }
  }
  return out;
}

Result<AppProfileSpec> FromProto(std::string_view id, const admin::AppProfile& profile, std::string_view field) {
  AppProfileSpec out;
  out.id = std::string(id);
  out.description = profile.description();
  out.etag = profile.etag();
  switch (profile.routing_policy_case()) {
    case admin::AppProfile::kSingleClusterRouting:
      out.routing = AppProfileSpec::Routing::kSingleCluster;
      out.cluster_id = profile.single_cluster_routing().cluster_id();
      out.allow_transactional_writes = profile.single_cluster_routing().allow_transactional_writes();
      break;
    case admin::AppProfile::kMultiClusterRoutingUseAny:
      out.routing = AppProfileSpec::Routing::kMultiCluster;
      for (const std::string& c : profile.multi_cluster_routing_use_any().cluster_ids()) out.cluster_ids.push_back(c);
      out.row_affinity = profile.multi_cluster_routing_use_any().has_row_affinity();
      break;
    case admin::AppProfile::ROUTING_POLICY_NOT_SET:
      return Status::InvalidArgument(
          fmt::format("{}: set a routing policy, multi_cluster_routing_use_any or single_cluster_routing", field));
  }
  IsolationFromProto(profile, &out);
  return out;
}

}  // namespace lbt::proto
