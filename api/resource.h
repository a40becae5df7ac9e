// Typed names of Bigtable's resources. Commands, the server and remote mode
// pass these, never strings with conventions; how a local database keys a
// resource in its catalog is the local implementation's private detail.

#ifndef LBT_API_RESOURCE_H_
#define LBT_API_RESOURCE_H_

#include <string>
#include <utility>

namespace lbt {

// "projects/<project>/instances/<instance>", in parts.
struct InstanceName {
  std::string project;
  std::string instance;

  // "projects/P/instances/I".
  std::string Full() const { return "projects/" + project + "/instances/" + instance; }
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

}  // namespace lbt

#endif  // LBT_API_RESOURCE_H_
