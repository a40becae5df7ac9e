// Instances, clusters, app profiles and IAM policies: Bigtable's Instance
// Admin model (api/instance_admin.h manages them).
//
// An instance is a namespace: its tables are not seen from another
// instance. Locally an instance has no nodes; its clusters' node counts,
// autoscaling limits, locations and storage types are kept as metadata,
// shown as given and validated as production validates them.

#ifndef LBT_API_INSTANCE_H_
#define LBT_API_INSTANCE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/iam.h"
#include "api/resource.h"
#include "api/schema.h"
#include "api/status.h"

namespace lbt {

enum class InstanceType { kProduction, kDevelopment };
// Instance.edition: a local instance keeps and shows it; it decides only
// whether SQL runs through a Data Boost app profile (ENTERPRISE_PLUS).
enum class InstanceEdition { kEnterprise, kEnterprisePlus };
enum class StorageType { kUnspecified, kSsd, kHdd };

struct ClusterAutoscaling {
  int32_t min_nodes = 0;
  int32_t max_nodes = 0;
  int32_t cpu_target_percent = 0;
  int32_t storage_gib_per_node = 0;  // 0: the storage type's default
};

struct ClusterSpec {
  std::string id;
  // "projects/<project>/locations/<zone>".
  std::string location;
  // Nodes; with autoscaling, what the autoscaler chose (its minimum here).
  int32_t serve_nodes = 0;
  std::optional<ClusterAutoscaling> autoscaling;
  StorageType storage_type = StorageType::kSsd;
  int32_t node_scaling_factor = 1;  // 1 or 2
  std::string kms_key_name;
};

struct AppProfileSpec {
  enum class Routing { kMultiCluster, kSingleCluster };
  enum class Priority { kUnspecified, kLow, kMedium, kHigh };
  enum class Isolation { kNone, kStandard, kDataBoost };

  std::string id;
  std::string description;
  // Changes with every update; an update or delete naming another etag
  // fails.
  std::string etag;
  Routing routing = Routing::kMultiCluster;
  std::vector<std::string> cluster_ids;  // multi-cluster: which (empty: all)
  bool row_affinity = false;             // multi-cluster
  std::string cluster_id;                // single-cluster
  bool allow_transactional_writes = false;
  Isolation isolation = Isolation::kNone;
  Priority priority = Priority::kUnspecified;  // with kStandard
  bool data_boost_host_pays = false;           // with kDataBoost
};

struct InstanceSpec {
  InstanceName name;
  std::string display_name;
  InstanceType type = InstanceType::kProduction;
  std::map<std::string, std::string> labels;
  InstanceEdition edition = InstanceEdition::kEnterprise;
  // Instance.tags: given at creation only, kept, never shown (the proto's
  // INPUT_ONLY, IMMUTABLE), "<parent>/<key>" to a value.
  std::map<std::string, std::string> tags;
  int64_t create_time_micros = 0;
  std::vector<ClusterSpec> clusters;
  std::vector<AppProfileSpec> app_profiles;
  // App profile etags given so far: each change to a profile gives it the
  // next one, so that an etag names one version of one profile.
  int64_t etags_issued = 0;

  // The next etag, counted in etags_issued.
  std::string NextEtag() { return std::to_string(++etags_issued); }
  const ClusterSpec* FindCluster(std::string_view id) const;
  const AppProfileSpec* FindAppProfile(std::string_view id) const;
};

// The app profile every instance has, which requests that name none use.
inline constexpr char kDefaultAppProfile[] = "default";

// App profile ids follow the pattern of instance.proto's AppProfile.name,
// [_a-zA-Z0-9][-_.a-zA-Z0-9]*; their length is lbt's choice (production
// documents none): as long as a table id (README, differences).
inline constexpr size_t kMaxAppProfileIdLength = 50;

// Production's rules for ids and fields, each an InvalidArgument naming
// `field` when broken.
Status ValidateInstanceId(std::string_view id, std::string_view field);
Status ValidateClusterId(std::string_view id, std::string_view field);
Status ValidateAppProfileId(std::string_view id, std::string_view field);
Status ValidateDisplayName(std::string_view name, std::string_view field);
Status ValidateLabels(const std::map<std::string, std::string>& labels, std::string_view field);
// Tags bind a tag key, "<parent id>/<short name>", to a value: both parts
// and the value non-empty.
Status ValidateTags(const std::map<std::string, std::string>& tags, std::string_view field);
// A cluster as a create or an update gives it: location (a zone named as
// production's are, "<region>-<letter>", or a name without '-', its own
// region), nodes, autoscaling limits and targets, scaling factor.
Status ValidateCluster(const ClusterSpec& cluster, std::string_view field);
// An instance's clusters together, as production places them: at most one
// in a zone, in at most kMaxClusterRegions regions (a zone's region is its
// name without the last "-<letter>": us-central1-b is in us-central1).
inline constexpr size_t kMaxClusterRegions = 8;
Status ValidateClusterPlacement(const std::vector<ClusterSpec>& clusters, std::string_view field);
// An app profile against the instance it is for: its routing names
// clusters the instance has, and Data Boost reads through one cluster.
Status ValidateAppProfile(const AppProfileSpec& profile, const InstanceSpec& instance, std::string_view field);

}  // namespace lbt

#endif  // LBT_API_INSTANCE_H_
