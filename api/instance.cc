#include "api/instance.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "util/bytes.h"

namespace lbt {

namespace {

bool IsLower(char c) { return c >= 'a' && c <= 'z'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Production's instance and cluster ids: a lowercase letter, then
// lowercase letters, digits and hyphens, not ending with a hyphen.
Status ValidateLowercaseId(std::string_view id, size_t min, size_t max, std::string_view what, std::string_view field) {
  const bool shaped = !id.empty() && IsLower(id.front()) && id.back() != '-' &&
                      std::all_of(id.begin(), id.end(), [](char c) { return IsLower(c) || IsDigit(c) || c == '-'; });
  if (shaped && id.size() >= min && id.size() <= max) return Status::OK();
  return Status::InvalidArgument(
      fmt::format("{}: {} id '{}' must be {} to {} characters of lowercase letters, digits and hyphens, starting "
                  "with a letter and not ending with a hyphen",
                  field, what, Abbreviated(id), min, max));
}

// Characters in UTF-8 text.
size_t CodePoints(std::string_view text) {
  return std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
}

// A label's characters: lowercase letters (any script; a non-ASCII
// character is taken as one), digits, '_' and '-'.
bool IsLabelChar(char c) { return IsLower(c) || IsDigit(c) || c == '_' || c == '-' || (c & 0x80) != 0; }

Status ValidateAutoscaling(const ClusterSpec& cluster, std::string_view field) {
  const ClusterAutoscaling& a = *cluster.autoscaling;
  if (a.min_nodes < 1 || a.max_nodes < a.min_nodes) {
    return Status::InvalidArgument(
        fmt::format("{}.cluster_config.cluster_autoscaling_config.autoscaling_limits: min_serve_nodes ({}) must be at "
                    "least 1 and max_serve_nodes ({}) at least min_serve_nodes",
                    field, a.min_nodes, a.max_nodes));
  }
  if (a.cpu_target_percent < 10 || a.cpu_target_percent > 80) {
    return Status::InvalidArgument(fmt::format(
        "{}.cluster_config.cluster_autoscaling_config.autoscaling_targets.cpu_utilization_percent: {} is not "
        "between 10 and 80",
        field, a.cpu_target_percent));
  }
  const bool hdd = cluster.storage_type == StorageType::kHdd;
  const int32_t low = hdd ? 8192 : 2560;
  const int32_t high = hdd ? 16384 : 5120;
  if (a.storage_gib_per_node != 0 && (a.storage_gib_per_node < low || a.storage_gib_per_node > high)) {
    return Status::InvalidArgument(fmt::format(
        "{}.cluster_config.cluster_autoscaling_config.autoscaling_targets.storage_utilization_gib_per_node: {} is not "
        "between {} and {} for an {} cluster",
        field, a.storage_gib_per_node, low, high, hdd ? "HDD" : "SSD"));
  }
  return Status::OK();
}

}  // namespace

const ClusterSpec* InstanceSpec::FindCluster(std::string_view id) const {
  for (const ClusterSpec& c : clusters) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

const AppProfileSpec* InstanceSpec::FindAppProfile(std::string_view id) const {
  for (const AppProfileSpec& p : app_profiles) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

Status ValidateInstanceId(std::string_view id, std::string_view field) {
  return ValidateLowercaseId(id, 6, 33, "instance", field);
}

Status ValidateClusterId(std::string_view id, std::string_view field) {
  return ValidateLowercaseId(id, 6, 30, "cluster", field);
}

Status ValidateAppProfileId(std::string_view id, std::string_view field) {
  auto ok_char = [](char c) { return IsLower(c) || IsDigit(c) || (c >= 'A' && c <= 'Z') || c == '_'; };
  const bool shaped = !id.empty() && ok_char(id.front()) &&
                      std::all_of(id.begin(), id.end(), [&](char c) { return ok_char(c) || c == '-' || c == '.'; });
  if (shaped && id.size() <= kMaxAppProfileIdLength) return Status::OK();
  return Status::InvalidArgument(
      fmt::format("{}: app profile id '{}' must match [_a-zA-Z0-9][-_.a-zA-Z0-9]* and be at most {} characters", field,
                  Abbreviated(id), kMaxAppProfileIdLength));
}

Status ValidateDisplayName(std::string_view name, std::string_view field) {
  const size_t n = CodePoints(name);
  if (n >= 4 && n <= 30) return Status::OK();
  return Status::InvalidArgument(fmt::format("{}: the display name must be 4 to 30 characters, got {}", field, n));
}

Status ValidateLabels(const std::map<std::string, std::string>& labels, std::string_view field) {
  if (labels.size() > 64) {
    return Status::InvalidArgument(fmt::format("{}: {} labels; at most 64 are allowed", field, labels.size()));
  }
  for (const auto& [key, value] : labels) {
    const bool key_ok = !key.empty() && CodePoints(key) <= 63 && key.size() < 128 &&
                        (IsLower(key.front()) || (key.front() & 0x80) != 0) &&
                        std::all_of(key.begin(), key.end(), IsLabelChar);
    if (!key_ok) {
      return Status::InvalidArgument(fmt::format(
          "{}: label key '{}' must be 1 to 63 lowercase letters, digits, '_' or '-', starting with a letter", field,
          key));
    }
    if (CodePoints(value) > 63 || value.size() >= 128 || !std::all_of(value.begin(), value.end(), IsLabelChar)) {
      return Status::InvalidArgument(fmt::format(
          "{}: the value of label '{}' must be at most 63 lowercase letters, digits, '_' or '-'", field, key));
    }
  }
  return Status::OK();
}

Status ValidateTags(const std::map<std::string, std::string>& tags, std::string_view field) {
  for (const auto& [key, value] : tags) {
    const size_t slash = key.find('/');
    if (slash == 0 || slash == std::string::npos || slash + 1 == key.size() || value.empty()) {
      return Status::InvalidArgument(
          fmt::format("{}[{}]: a tag binds a key \"<parent id>/<short name>\" (such as \"123/environment\") to a value",
                      field, key));
    }
  }
  return Status::OK();
}

Status ValidateCluster(const ClusterSpec& cluster, std::string_view field) {
  const std::string_view location = cluster.location;
  const size_t slash = location.find("/locations/");
  if (location.substr(0, 9) != "projects/" || slash == std::string_view::npos || slash == 9 ||
      slash + 11 >= location.size() || location.find('/', slash + 11) != std::string_view::npos) {
    return Status::InvalidArgument(
        fmt::format("{}.location: '{}' is not of the form projects/<project>/locations/<zone>", field, location));
  }
  // Production's zones are a region and a letter (us-east1-b): a region
  // has a few, and an instance's clusters stay few however they are named.
  const std::string_view zone = location.substr(slash + 11);
  const size_t dash = zone.rfind('-');
  if (dash != std::string_view::npos && (dash + 2 != zone.size() || !IsLower(zone.back()))) {
    return Status::InvalidArgument(fmt::format(
        "{}.location: '{}' is not a zone: a zone is its region and a letter, such as us-east1-b", field, zone));
  }
  if (cluster.node_scaling_factor != 1 && cluster.node_scaling_factor != 2) {
    return Status::InvalidArgument(fmt::format("{}.node_scaling_factor: must be 1X or 2X", field));
  }
  if (cluster.autoscaling.has_value()) {
    LBT_RETURN_IF_ERROR(ValidateAutoscaling(cluster, field));
  } else if (cluster.serve_nodes < 1) {
    return Status::InvalidArgument(
        fmt::format("{}.serve_nodes: must be at least 1 without autoscaling, got {}", field, cluster.serve_nodes));
  }
  const int32_t nodes = cluster.autoscaling ? cluster.autoscaling->min_nodes : cluster.serve_nodes;
  const int32_t most = cluster.autoscaling ? cluster.autoscaling->max_nodes : cluster.serve_nodes;
  if (cluster.node_scaling_factor == 2 && (nodes % 2 != 0 || most % 2 != 0)) {
    return Status::InvalidArgument(fmt::format("{}: node counts must be even with node scaling factor 2X", field));
  }
  return Status::OK();
}

namespace {

// "projects/p/locations/us-central1-b" -> "us-central1-b".
std::string_view ZoneOf(const ClusterSpec& cluster) {
  const std::string_view location = cluster.location;
  const size_t slash = location.rfind('/');
  return slash == std::string_view::npos ? location : location.substr(slash + 1);
}

// "us-central1-b" -> "us-central1"; a zone with no suffix is its own region.
std::string_view RegionOf(std::string_view zone) {
  const size_t dash = zone.rfind('-');
  return dash == std::string_view::npos ? zone : zone.substr(0, dash);
}

}  // namespace

Status ValidateClusterPlacement(const std::vector<ClusterSpec>& clusters, std::string_view field) {
  std::map<std::string_view, std::string_view> zones;  // zone -> the cluster in it
  std::set<std::string_view> regions;
  for (const ClusterSpec& cluster : clusters) {
    const std::string_view zone = ZoneOf(cluster);
    auto [at, fresh] = zones.emplace(zone, cluster.id);
    if (!fresh) {
      return Status::InvalidArgument(
          fmt::format("{}: clusters '{}' and '{}' are both in zone {}; an instance has at most one cluster in a zone",
                      field, at->second, cluster.id, zone));
    }
    regions.insert(RegionOf(zone));
  }
  if (regions.size() > kMaxClusterRegions) {
    return Status::InvalidArgument(fmt::format("{}: the clusters are in {} regions; an instance's are in at most {}",
                                               field, regions.size(), kMaxClusterRegions));
  }
  return Status::OK();
}

Status ValidateAppProfile(const AppProfileSpec& profile, const InstanceSpec& instance, std::string_view field) {
  LBT_RETURN_IF_ERROR(ValidateAppProfileId(profile.id, field));
  auto known = [&](const std::string& id, std::string_view where) -> Status {
    if (instance.FindCluster(id) != nullptr) return Status::OK();
    return Status::InvalidArgument(
        fmt::format("{}.{}: instance {} has no cluster '{}'", field, where, instance.name.Full(), id));
  };
  if (profile.routing == AppProfileSpec::Routing::kSingleCluster) {
    LBT_RETURN_IF_ERROR(known(profile.cluster_id, "single_cluster_routing.cluster_id"));
  } else {
    for (const std::string& id : profile.cluster_ids) {
      LBT_RETURN_IF_ERROR(known(id, "multi_cluster_routing_use_any.cluster_ids"));
    }
  }
  if (profile.isolation == AppProfileSpec::Isolation::kDataBoost &&
      profile.routing != AppProfileSpec::Routing::kSingleCluster) {
    return Status::InvalidArgument(
        fmt::format("{}.data_boost_isolation_read_only: Data Boost needs single-cluster routing", field));
  }
  return Status::OK();
}

}  // namespace lbt
