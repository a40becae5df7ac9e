// InstanceAdmin: Bigtable's Instance Admin API (BigtableInstanceAdmin):
// instances, clusters, app profiles, an instance's logical and
// materialized views, and IAM policies; and the tables of each instance
// (OpenTables), through which their Table Admin and data are reached.
//
// Errors are Status values with Bigtable's codes, as in api/bigtable.h.
// Threading: an implementation may be used from several threads at once.

#ifndef LBT_API_INSTANCE_ADMIN_H_
#define LBT_API_INSTANCE_ADMIN_H_

#include <memory>
#include <string_view>
#include <vector>

#include "api/instance.h"
#include "api/logical_view.h"
#include "api/materialized_view.h"
#include "api/resource.h"
#include "api/status.h"

namespace lbt {

class Bigtable;  // api/bigtable.h

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

  // ---- logical views (api/logical_view.h) ----
  // A service without them answers Unimplemented (the defaults). Queries
  // read them (sql/query.h); these keep them.

  // Creates view `view.id` in `instance`; returns it as stored, with its
  // etag. AlreadyExists if the instance has a view of that id. The query is
  // kept as given: whoever accepts it from a user checks that it prepares.
  virtual Result<LogicalViewSpec> CreateLogicalView(const InstanceName& instance, const LogicalViewSpec& view);
  virtual Result<LogicalViewSpec> GetLogicalView(const InstanceName& instance, std::string_view view_id);
  // The instance's views, by id.
  virtual Result<std::vector<LogicalViewSpec>> ListLogicalViews(const InstanceName& instance);
  // Replaces what `update` names; Aborted if `view.etag` is set and is not
  // the current one. Returns the view as stored.
  virtual Result<LogicalViewSpec> UpdateLogicalView(const InstanceName& instance, const LogicalViewSpec& view,
                                                    const LogicalViewUpdate& update);
  // FailedPrecondition while its deletion protection is on; Aborted if
  // `etag` is set and is not the current one.
  virtual Status DeleteLogicalView(const InstanceName& instance, std::string_view view_id, std::string_view etag);

  // ---- materialized views (api/materialized_view.h) ----
  // A service without them answers Unimplemented (the defaults). Locally,
  // a maintainer (views/materialized_view_maintainer.h) keeps their rows;
  // a TableRef naming one reads them (Bigtable::OpenTable).

  // Creates view `view.id` over `view.source_table`, turning that table's
  // change stream on if it is off; returns the view as stored. The query
  // is kept as given: whoever accepts it from a user checks it first
  // (sql::CheckMaterializedViewQuery). AlreadyExists if the instance has a
  // view, logical view or table of that id.
  virtual Result<MaterializedViewSpec> CreateMaterializedView(const InstanceName& instance,
                                                              const MaterializedViewSpec& view);
  virtual Result<MaterializedViewSpec> GetMaterializedView(const InstanceName& instance, std::string_view view_id);
  // The instance's views, by id.
  virtual Result<std::vector<MaterializedViewSpec>> ListMaterializedViews(const InstanceName& instance);
  // Sets what `update` names; Aborted if `view.etag` is set and is not the
  // current one. Returns the view as stored.
  virtual Result<MaterializedViewSpec> UpdateMaterializedView(const InstanceName& instance,
                                                              const MaterializedViewSpec& view,
                                                              const MaterializedViewUpdate& update);
  // Drops the view and its rows. FailedPrecondition while its deletion
  // protection is on; Aborted if `etag` is set and is not the current one.
  virtual Status DeleteMaterializedView(const InstanceName& instance, std::string_view view_id, std::string_view etag);

  // ---- IAM policies ----

  // An instance's: `resource` is its full name, "projects/P/instances/I"
  // (a table's, an authorized view's and a backup's are TableAdmin's).
  // NotFound if it does not exist; a resource without a policy has an
  // empty one.
  virtual Result<IamPolicy> GetIamPolicy(std::string_view resource) = 0;
  // Replaces the policy. Aborted if `policy.etag` is set and is not the
  // current one. Returns the policy stored, with its new etag.
  virtual Result<IamPolicy> SetIamPolicy(std::string_view resource, const IamPolicy& policy) = 0;

  // The tables of `name`, as a Bigtable that must be destroyed before this
  // object. Naming an instance never created is allowed, as against the
  // emulator: its first table brings it into being.
  virtual Result<std::unique_ptr<Bigtable>> OpenTables(const InstanceName& name) = 0;
};

// The instance admin of the service `bigtable` belongs to, or
// Unimplemented, naming `what` ("logical views"), where it has none (a
// database served as one instance).
Result<InstanceAdmin*> InstanceAdminOf(Bigtable* bigtable, std::string_view what);
// View `view_id` of `bigtable`'s instance, from its instance admin (as
// InstanceAdminOf fails where there is none).
Result<LogicalViewSpec> GetLogicalViewOf(Bigtable* bigtable, std::string_view view_id);
Result<MaterializedViewSpec> GetMaterializedViewOf(Bigtable* bigtable, std::string_view view_id);

}  // namespace lbt

#endif  // LBT_API_INSTANCE_ADMIN_H_
