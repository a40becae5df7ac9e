// Instances, clusters and app profiles: Bigtable's Instance Admin model, and
// InstanceAdmin, the interface that manages them.
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

#include "api/resource.h"
#include "api/schema.h"
#include "api/status.h"

namespace lbt {

class Bigtable;

enum class InstanceType { kProduction, kDevelopment };
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

// A backup: a table's schema and cells as they were at one moment, kept
// in a cluster of the table's instance, until it expires.
struct BackupSpec {
  InstanceName instance;
  std::string cluster;
  std::string id;
  std::string source_table;  // a table id of source_instance
  // The source table's instance: `instance`, or another for a copy made
  // in another instance (empty: `instance`).
  InstanceName source_instance;
  std::string source_backup;  // "projects/P/instances/I/clusters/C/backups/B" if copied
  // The cells are those the table held at start_time (the snapshot is
  // taken then); end_time is when the copy was done.
  int64_t start_time_micros = 0;
  int64_t end_time_micros = 0;
  int64_t expire_time_micros = 0;
  int64_t size_bytes = 0;
  bool hot = false;
  int64_t hot_to_standard_time_micros = 0;  // hot backups only
  // The table's families in creation order, with their GC rules and types.
  std::vector<FamilySpec> families;

  // "projects/P/instances/I/clusters/C/backups/B".
  std::string Full() const { return BackupName{instance, cluster, id}.Full(); }
  const InstanceName& SourceInstance() const { return source_instance.project.empty() ? instance : source_instance; }
  // "projects/P/instances/I/tables/T" of the source table.
  std::string SourceTableFull() const { return FullTableName(SourceInstance(), source_table); }
};

// Production's window for a backup's expire time, from its creation.
inline constexpr int64_t kMinBackupLifeMicros = int64_t{6} * 3600 * 1000000;
inline constexpr int64_t kMaxBackupLifeMicros = int64_t{90} * 24 * 3600 * 1000000;

// A backup id (the rule of table ids, at most 50 characters) and an
// expire time within [created + 6 h, created + 90 d].
Status ValidateBackupId(std::string_view id, std::string_view field);
Status ValidateExpireTime(int64_t expire_micros, int64_t created_micros, std::string_view field);

// An IAM policy on an instance, table, backup or authorized view: kept and
// returned, never enforced (lbt has no identities).
struct IamBinding {
  std::string role;
  std::vector<std::string> members;
  std::string condition_expression;  // "" when the binding has no condition
  std::string condition_title;
  std::string condition_description;
};

struct IamPolicy {
  int32_t version = 0;
  std::vector<IamBinding> bindings;
  // Changes with every SetIamPolicy; a set naming another etag fails.
  std::string etag;
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

// Everything about instances. Threading: as Bigtable.
class InstanceAdmin {
 public:
  virtual ~InstanceAdmin() = default;

  // Instances of `project` ("" or "-": every project), by name. An
  // instance that was never created but has tables (one a client named,
  // as the emulator lets it) is listed with what lbt makes up for it.
  virtual Result<std::vector<InstanceSpec>> ListInstances(std::string_view project) = 0;
  // NotFound for an instance never created that has no tables.
  virtual Result<InstanceSpec> GetInstance(const InstanceName& name) = 0;
  // Creates the instance with its clusters (at least one) and the default
  // app profile. AlreadyExists if it was created before or has tables.
  virtual Status CreateInstance(const InstanceSpec& spec) = 0;
  // Replaces the display name, type and labels; clusters and app profiles
  // are left as they are.
  virtual Status UpdateInstance(const InstanceSpec& spec) = 0;
  // Deletes the instance with its tables, clusters and app profiles.
  virtual Status DeleteInstance(const InstanceName& name) = 0;

  virtual Status CreateCluster(const InstanceName& instance, const ClusterSpec& cluster) = 0;
  // Replaces the nodes and autoscaling; the location and storage type
  // cannot change.
  virtual Status UpdateCluster(const InstanceName& instance, const ClusterSpec& cluster) = 0;
  // FailedPrecondition for an instance's last cluster, or one an app
  // profile routes to.
  virtual Status DeleteCluster(const InstanceName& instance, std::string_view cluster_id) = 0;

  // Returns the profile as stored, with its etag.
  virtual Result<AppProfileSpec> CreateAppProfile(const InstanceName& instance, const AppProfileSpec& profile,
                                                  bool ignore_warnings) = 0;
  virtual Result<AppProfileSpec> UpdateAppProfile(const InstanceName& instance, const AppProfileSpec& profile,
                                                  bool ignore_warnings) = 0;
  virtual Status DeleteAppProfile(const InstanceName& instance, std::string_view profile_id) = 0;

  // ---- backups ----

  // Takes a consistent snapshot of `table` of `instance` into a new backup
  // of the instance's cluster `cluster`; writes go on meanwhile. A failed
  // or interrupted backup leaves nothing behind that anyone sees. Returns
  // the backup as made.
  virtual Result<BackupSpec> CreateBackup(const InstanceName& instance, std::string_view cluster,
                                          std::string_view backup_id, std::string_view table,
                                          int64_t expire_time_micros) = 0;
  // NotFound for a backup that does not exist or has expired.
  virtual Result<BackupSpec> GetBackup(const InstanceName& instance, std::string_view cluster,
                                       std::string_view backup_id) = 0;
  // The backups of `cluster` ("-": of every cluster) of `instance`, by
  // cluster and id; expired ones are gone.
  virtual Result<std::vector<BackupSpec>> ListBackups(const InstanceName& instance, std::string_view cluster) = 0;
  virtual Result<BackupSpec> UpdateBackupExpireTime(const InstanceName& instance, std::string_view cluster,
                                                    std::string_view backup_id, int64_t expire_time_micros) = 0;
  virtual Status DeleteBackup(const InstanceName& instance, std::string_view cluster, std::string_view backup_id) = 0;
  // Copies `source` into a new backup of `to_cluster` of `to_instance`
  // (another project's too), with its own expire time.
  virtual Result<BackupSpec> CopyBackup(const BackupSpec& source, const InstanceName& to_instance,
                                        std::string_view to_cluster, std::string_view backup_id,
                                        int64_t expire_time_micros) = 0;
  // Makes table `table_id` of `to_instance` from `backup`: its families
  // and cells, and the backup as its restore info. AlreadyExists if the
  // table exists; an interrupted restore leaves no table.
  virtual Status RestoreTable(const BackupSpec& backup, const InstanceName& to_instance, std::string_view table_id) = 0;

  // Takes the automated backups now due: for each table with an automated
  // backup policy (TableSpec::automated_backup_policy) whose last one is at
  // least its frequency old, a backup "auto-<table>-<time>" in its
  // instance's first cluster, kept for the policy's retention. lbt serve
  // calls it at start and every minute. Nothing where backups are the
  // service's own to take (the default).
  virtual Status RunAutomatedBackups() { return Status::OK(); }

  // ---- IAM policies ----

  // `resource` is a full name: "projects/P/instances/I", ".../tables/T",
  // ".../clusters/C/backups/B". NotFound if it does not exist; a resource
  // without a policy has an empty one.
  virtual Result<IamPolicy> GetIamPolicy(std::string_view resource) = 0;
  // Replaces the policy. Aborted if `policy.etag` is set and is not the
  // current one. Returns the policy stored, with its new etag.
  virtual Result<IamPolicy> SetIamPolicy(std::string_view resource, const IamPolicy& policy) = 0;

  // The tables of `name`, as a Bigtable that must be destroyed before this
  // object. Naming an instance never created is allowed, as against the
  // emulator: its first table brings it into being.
  virtual Result<std::unique_ptr<Bigtable>> OpenTables(const InstanceName& name) = 0;
};

}  // namespace lbt

#endif  // LBT_API_INSTANCE_H_
