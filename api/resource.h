// Typed names of Bigtable's resources. Commands, the server and remote mode
// pass these, never strings with conventions; how a local database keys a
// resource in its catalog is the local implementation's private detail.
//
// This is also the one parser and printer of their full names
// ("projects/P/instances/I/tables/T", ...), as requests and responses carry
// them. A parse names the request field it read in its errors
// ("table_name: 'x' is not a table name of the form ..."), as production's
// service does, and echoes the name cut short (util/bytes.h's Abbreviated).

#ifndef LBT_API_RESOURCE_H_
#define LBT_API_RESOURCE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/status.h"

namespace lbt {

// "projects/<project>/instances/<instance>", in parts.
struct InstanceName {
  std::string project;
  std::string instance;

  // "projects/P/instances/I".
  std::string Full() const { return "projects/" + project + "/instances/" + instance; }
  // "projects/P/instances/I/<collection>/<id>" (collection "clusters",
  // "appProfiles", "logicalViews", ...).
  std::string Child(std::string_view collection, std::string_view id) const {
    return Full() + "/" + std::string(collection) + "/" + std::string(id);
  }
  friend bool operator==(const InstanceName& a, const InstanceName& b) {
    return a.project == b.project && a.instance == b.instance;
  }
  friend bool operator<(const InstanceName& a, const InstanceName& b) {
    return a.project != b.project ? a.project < b.project : a.instance < b.instance;
  }
};

// The instance a local database's tables live in when no instance is
// named: the shell's, and that of every table a release without instances
// made. lbt serve shows it as projects/lbt/instances/local.
inline constexpr char kDefaultProject[] = "lbt";
inline constexpr char kDefaultInstance[] = "local";
inline InstanceName DefaultInstanceName() { return {kDefaultProject, kDefaultInstance}; }

// What a data request reads or writes: a table, a table through one of its
// authorized views, or a materialized view read as a table. Exactly one of
// `table` and `materialized_view` is set; `authorized_view` only beside
// `table`. An empty `instance` means the instance of whatever the reference
// is opened in (a session's, a client's).
struct TableRef {
  InstanceName instance;
  std::string table;
  std::string authorized_view;
  std::string materialized_view;
  // The app profile a request names; "" for the instance's default.
  std::string app_profile;

  static TableRef Table(std::string table) {
    TableRef ref;
    ref.table = std::move(table);
    return ref;
  }
  static TableRef AuthorizedView(std::string table, std::string view) {
    TableRef ref = Table(std::move(table));
    ref.authorized_view = std::move(view);
    return ref;
  }
  static TableRef MaterializedView(std::string view) {
    TableRef ref;
    ref.materialized_view = std::move(view);
    return ref;
  }

  bool is_authorized_view() const { return !authorized_view.empty(); }
  bool is_materialized_view() const { return !materialized_view.empty(); }

  // How errors name it, relative to its instance: "tables/T",
  // "tables/T/authorizedViews/V" or "materializedViews/V".
  std::string RelativeName() const {
    if (is_materialized_view()) return "materializedViews/" + materialized_view;
    if (is_authorized_view()) return "tables/" + table + "/authorizedViews/" + authorized_view;
    return "tables/" + table;
  }
  // The full resource name: "projects/P/instances/I/" + RelativeName().
  // REQUIRES: `instance` is set.
  std::string FullName() const { return instance.Full() + "/" + RelativeName(); }

  friend bool operator==(const TableRef& a, const TableRef& b) {
    return a.instance == b.instance && a.table == b.table && a.authorized_view == b.authorized_view &&
           a.materialized_view == b.materialized_view && a.app_profile == b.app_profile;
  }
};

// ---- full names: parsing and printing ----

// The longest resource name lbt serve reads. Production's longest, an
// authorized view's with ids at their limits, is about 200 bytes; a longer
// one is INVALID_ARGUMENT naming `field` before anything looks it up.
inline constexpr size_t kMaxResourceNameBytes = 512;
Status CheckResourceNameLength(std::string_view name, std::string_view field);

// "a/b/c" as {"a", "b", "c"}; "" as {""}. The views point into `name`.
std::vector<std::string_view> SplitResourceName(std::string_view name);
// The id a full name ends with, its last segment: "c" of "a/b/c"; a name
// without a slash is its own id. For names a service returned, which are
// not checked again.
std::string_view ResourceId(std::string_view name);

// "projects/P".
std::string ProjectName(std::string_view project);
// Parses "projects/P"; returns P ("-" for every project).
Result<std::string> ParseProjectName(std::string_view name, std::string_view field);

// Parses "projects/P/instances/I".
Status ValidateInstanceName(std::string_view name, std::string_view field);
Result<InstanceName> ParseInstanceName(std::string_view name, std::string_view field);

// "projects/P/instances/I/<collection>/<id>", in parts.
struct ChildName {
  InstanceName instance;
  std::string id;
};
// Parses a name of that form for `collection` ("clusters", "appProfiles",
// "logicalViews", "materializedViews", ...).
Result<ChildName> ParseChildName(std::string_view name, std::string_view collection, std::string_view field);

// "projects/P/instances/I/tables/T".
std::string FullTableName(const InstanceName& instance, std::string_view table);
// Parses "projects/P/instances/I/tables/T" into TableRef::Table(T) of
// instance I (no app profile).
Result<TableRef> ParseTableName(std::string_view name, std::string_view field);
// Parses "projects/P/instances/I/tables/T/authorizedViews/V" into
// TableRef::AuthorizedView(T, V) of instance I.
Result<TableRef> ParseAuthorizedViewName(std::string_view name, std::string_view field);
// Parses "projects/P/instances/I/materializedViews/V" into
// TableRef::MaterializedView(V) of instance I.
Result<TableRef> ParseMaterializedViewName(std::string_view name, std::string_view field);

// "projects/P/instances/I/tables/T/schemaBundles/B", in parts: the table
// (TableRef::Table(T) of instance I) and the bundle's id.
struct SchemaBundleName {
  TableRef table;
  std::string id;

  std::string Full() const { return table.FullName() + "/schemaBundles/" + id; }
};
Result<SchemaBundleName> ParseSchemaBundleName(std::string_view name, std::string_view field);

// "projects/P/instances/I/clusters/C", in parts.
struct ClusterName {
  InstanceName instance;
  std::string cluster;  // "-": every cluster, where a request allows it

  std::string Full() const { return instance.Child("clusters", cluster); }
};
Result<ClusterName> ParseClusterName(std::string_view name, std::string_view field);

// "projects/P/instances/I/clusters/C/backups/B", in parts.
struct BackupName {
  InstanceName instance;
  std::string cluster;
  std::string id;

  std::string Full() const { return ClusterName{instance, cluster}.Full() + "/backups/" + id; }
};
Result<BackupName> ParseBackupName(std::string_view name, std::string_view field);

// Whether an IAM policy's resource names one of the Table Admin service's
// resources (a table, an authorized view, a backup) rather than an
// instance. It looks at the
// name's collections, by position, only; a parse checks the rest.
bool NamesTableAdminResource(std::string_view resource);

}  // namespace lbt

#endif  // LBT_API_RESOURCE_H_
