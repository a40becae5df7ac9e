// The one place lbt serve turns a request's resource names into what its
// handler runs on. A data request's names (table_name, authorized_view_name,
// materialized_view_name, app_profile_id) are parsed once into a TableRef
// (api/resource.h), its instance is read at most once, its app profile is
// checked once, and the handler gets the Table the names name (through an
// authorized view, or a materialized view read as a table). The Table Admin service's requests
// name a table or an authorized view in one field; they resolve here too.
//
// Errors are production's: INVALID_ARGUMENT naming the field for a malformed
// name or two names given, NOT_FOUND for an app profile the instance does
// not have. Each entry point reports them in the order the handlers always
// have, so that a request with two bad fields hears of the same one.
//
// Threading: as InstanceRouter.

#ifndef LBT_SERVER_REQUEST_TARGET_H_
#define LBT_SERVER_REQUEST_TARGET_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "api/bigtable.h"
#include "api/instance.h"
#include "api/resource.h"
#include "api/status.h"
#include "server/instance_router.h"

namespace lbt::server {

// What a data request reads or writes, resolved.
struct RequestTarget {
  TableRef ref;  // the names the request gave, with its app profile
  InstanceTables tables;
  std::unique_ptr<Table> table;  // where the request's reads and writes go: `ref` opened in `tables`
  // The instance as the router's admin keeps it, if it was read: nullopt
  // when it was not, when the Bigtable served has no admin, or when the
  // instance does not exist yet (the emulator's: its first table makes it).
  std::optional<InstanceSpec> instance;
  // Why reading it failed, when it failed other than NOT_FOUND.
  Status instance_error;
};

// When a target reads its instance: only to check an app profile the
// request names, or always, for a handler that asks about the instance
// (CheckTransactionsAllowed, SourceCluster).
enum class InstanceRead { kForAppProfile, kAlways };

// The names of a data request, parsed: table_name, or authorized_view_name
// (then table_name must be empty), or, for requests that have it,
// materialized_view_name (then both others must be empty); app_profile_id
// as given. Change stream requests have table_name alone.
template <typename Request>
Result<TableRef> TargetNameOf(const Request& request);

// Opens `ref` for a data request: checks that its app profile is shaped as
// an id and names a profile of the instance ("" is the default, which is
// always there), picks the instance's tables through `router` and opens
// `ref` there (OpenTable: through its authorized view, if it names one).
Result<RequestTarget> OpenTarget(const InstanceRouter& router, TableRef ref,
                                 InstanceRead read = InstanceRead::kForAppProfile);

// TargetNameOf, then OpenTarget.
template <typename Request>
Result<RequestTarget> ResolveTarget(const InstanceRouter& router, const Request& request,
                                    InstanceRead read = InstanceRead::kForAppProfile) {
  LBT_ASSIGN_OR_RETURN(TableRef ref, TargetNameOf(request));
  return OpenTarget(router, std::move(ref), read);
}

// What a request on an instance as a whole does with it.
enum class InstanceUse { kAny, kQuery };

// The tables of `instance` for a request on the instance as a whole
// (PingAndWarm, PrepareQuery, ExecuteQuery), after the same app profile
// check. For kQuery, a Data Boost app profile runs SQL on an
// ENTERPRISE_PLUS instance only (FAILED_PRECONDITION otherwise), as
// production's Data Boost overview says.
Result<InstanceTables> OpenInstance(const InstanceRouter& router, const InstanceName& instance,
                                    std::string_view app_profile_id, InstanceUse use = InstanceUse::kAny);

// FAILED_PRECONDITION unless the target's app profile (the default one for
// "") allows single-row transactions (CheckAndMutateRow,
// ReadModifyWriteRow): production allows them through single-cluster
// routing with allow_transactional_writes alone. An instance that does not
// exist yet allows them, as the emulator does. REQUIRES: the target was
// opened with InstanceRead::kAlways.
Status CheckTransactionsAllowed(const RequestTarget& target);

// FAILED_PRECONDITION when the target's app profile is a Data Boost one
// (data_boost_isolation_read_only): it reads only, as production says
// ("You can't send write or delete requests with Data Boost"). The default
// profile ("") is known only when the instance was read
// (InstanceRead::kAlways); otherwise only a named profile is checked.
Status CheckWritesAllowed(const RequestTarget& target);

// The cluster a change to the target is committed in, as change stream
// records name it: the instance's first, or "lbt" without one.
// REQUIRES: the target was opened with InstanceRead::kAlways.
std::string SourceCluster(const RequestTarget& target);

// ---- the Table Admin service ----

// A table, or an authorized view of it, that an admin request names, and
// the tables of its instance. Admin requests carry no app profile.
struct AdminTarget {
  TableRef ref;
  InstanceTables tables;
};

// The tables of the instance `ref` is in.
Result<AdminTarget> OpenAdminTarget(const InstanceRouter& router, TableRef ref);
// The table `name` names ("projects/P/instances/I/tables/T"); `field` is
// the request field in errors.
Result<AdminTarget> ResolveAdminTable(const InstanceRouter& router, std::string_view name, std::string_view field);
// The authorized view `name` names (".../tables/T/authorizedViews/V").
Result<AdminTarget> ResolveAdminAuthorizedView(const InstanceRouter& router, std::string_view name,
                                               std::string_view field);
// The source table a backup in `cluster` names in `field`: INVALID_ARGUMENT
// unless it is a table of the cluster's instance.
Result<TableRef> BackupSourceOf(const ClusterName& cluster, std::string_view name, std::string_view field);

// ---- implementation ----

namespace request_target_internal {
// The rules TargetNameOf applies, on the fields as given ("" for a field
// the request does not have).
Result<TableRef> ParseTargetNames(const std::string& table_name, const std::string& authorized_view_name,
                                  const std::string& materialized_view_name);
}  // namespace request_target_internal

template <typename Request>
Result<TableRef> TargetNameOf(const Request& request) {
  static const std::string kNone;
  const std::string* authorized_view = &kNone;
  const std::string* materialized_view = &kNone;
  if constexpr (requires { request.authorized_view_name(); }) authorized_view = &request.authorized_view_name();
  if constexpr (requires { request.materialized_view_name(); }) materialized_view = &request.materialized_view_name();
  LBT_ASSIGN_OR_RETURN(TableRef ref, request_target_internal::ParseTargetNames(request.table_name(), *authorized_view,
                                                                               *materialized_view));
  ref.app_profile = request.app_profile_id();
  return ref;
}

}  // namespace lbt::server

#endif  // LBT_SERVER_REQUEST_TARGET_H_
