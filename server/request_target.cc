#include "server/request_target.h"

#include <fmt/format.h>

namespace lbt::server {

namespace request_target_internal {

Result<TableRef> ParseTargetNames(const std::string& table_name, const std::string& authorized_view_name,
                                  const std::string& materialized_view_name) {
  if (!materialized_view_name.empty()) {
    if (!table_name.empty() || !authorized_view_name.empty()) {
      return Status::InvalidArgument(
          "materialized_view_name: name a table, an authorized view or a materialized view, not two of them");
    }
    return ParseMaterializedViewName(materialized_view_name, "materialized_view_name");
  }
  if (authorized_view_name.empty()) return ParseTableName(table_name, "table_name");
  if (!table_name.empty()) {
    return Status::InvalidArgument(
        "table_name: name the table or an authorized view of it (authorized_view_name), "
        "not both");
  }
  return ParseAuthorizedViewName(authorized_view_name, "authorized_view_name");
}

}  // namespace request_target_internal

namespace {

// The instance, read from the router's admin into `target`; a NOT_FOUND
// leaves it unset, as an instance that does not exist yet has no record.
void ReadInstance(const InstanceRouter& router, const InstanceName& instance, RequestTarget* target) {
  if (router.admin() == nullptr) return;
  Result<InstanceSpec> spec = router.admin()->GetInstance(instance);
  if (spec.ok()) {
    target->instance = std::move(spec).value();
  } else if (!spec.status().IsNotFound()) {
    target->instance_error = spec.status();
  }
}

// InvalidArgument unless `app_profile_id` is "" or shaped as an id; NotFound
// unless the instance has it, as production answers. An instance that does
// not exist yet is the emulator's: it takes the default profile alone.
Status CheckAppProfile(const InstanceRouter& router, const RequestTarget& target) {
  const std::string& id = target.ref.app_profile;
  if (id.empty() || router.admin() == nullptr) return Status::OK();
  LBT_RETURN_IF_ERROR(target.instance_error);
  const bool known = target.instance ? target.instance->FindAppProfile(id) != nullptr : id == kDefaultAppProfile;
  if (known) return Status::OK();
  return Status::NotFound(
      fmt::format("app_profile_id: app profile {} does not exist", target.ref.instance.Child("appProfiles", id)));
}

}  // namespace

Result<RequestTarget> OpenTarget(const InstanceRouter& router, TableRef ref, InstanceRead read) {
  if (!ref.app_profile.empty()) LBT_RETURN_IF_ERROR(ValidateAppProfileId(ref.app_profile, "app_profile_id"));
  RequestTarget target{std::move(ref), InstanceTables(static_cast<Bigtable*>(nullptr)), nullptr, std::nullopt,
                       Status::OK()};
  if (!target.ref.app_profile.empty() || read == InstanceRead::kAlways) {
    ReadInstance(router, target.ref.instance, &target);
  }
  LBT_RETURN_IF_ERROR(CheckAppProfile(router, target));
  LBT_ASSIGN_OR_RETURN(target.tables, router.Tables(target.ref.instance));
  LBT_ASSIGN_OR_RETURN(target.table, target.tables->OpenTable(target.ref));
  return target;
}

namespace {
Status CheckQueriesAllowed(const RequestTarget& target);
}  // namespace

Result<InstanceTables> OpenInstance(const InstanceRouter& router, const InstanceName& instance,
                                    std::string_view app_profile_id, InstanceUse use) {
  if (!app_profile_id.empty()) LBT_RETURN_IF_ERROR(ValidateAppProfileId(app_profile_id, "app_profile_id"));
  RequestTarget target{TableRef(), InstanceTables(static_cast<Bigtable*>(nullptr)), nullptr, std::nullopt,
                       Status::OK()};
  target.ref.instance = instance;
  target.ref.app_profile = std::string(app_profile_id);
  if (!app_profile_id.empty()) ReadInstance(router, instance, &target);
  LBT_RETURN_IF_ERROR(CheckAppProfile(router, target));
  if (use == InstanceUse::kQuery) LBT_RETURN_IF_ERROR(CheckQueriesAllowed(target));
  return router.Tables(instance);
}

namespace {

// The app profile a target's request goes through (the default one for
// ""), as its instance was read: nullptr when the instance was not read or
// has no such profile (OpenTarget has answered for an unknown one).
Result<const AppProfileSpec*> ProfileOf(const RequestTarget& target) {
  LBT_RETURN_IF_ERROR(target.instance_error);
  if (!target.instance) return nullptr;
  const std::string& id = target.ref.app_profile;
  return target.instance->FindAppProfile(id.empty() ? std::string_view(kDefaultAppProfile) : id);
}

Status CheckQueriesAllowed(const RequestTarget& target) {
  LBT_ASSIGN_OR_RETURN(const AppProfileSpec* profile, ProfileOf(target));
  if (profile == nullptr || profile->isolation != AppProfileSpec::Isolation::kDataBoost) return Status::OK();
  if (target.instance->edition == InstanceEdition::kEnterprisePlus) return Status::OK();
  return Status::FailedPrecondition(
      fmt::format("Data Boost runs SQL queries on Enterprise Plus instances only: app profile {} is a Data Boost "
                  "profile of an ENTERPRISE instance",
                  target.ref.instance.Child("appProfiles", profile->id)));
}

}  // namespace

Status CheckTransactionsAllowed(const RequestTarget& target) {
  LBT_ASSIGN_OR_RETURN(const AppProfileSpec* profile, ProfileOf(target));
  if (profile == nullptr) return Status::OK();
  if (profile->routing == AppProfileSpec::Routing::kSingleCluster && profile->allow_transactional_writes) {
    return Status::OK();
  }
  // Production's words (googleapis/google-cloud-python#10018).
  return Status::FailedPrecondition(
      fmt::format("Single-row transactions are not allowed by this app profile ({}): they need single-cluster "
                  "routing with allow_transactional_writes",
                  target.ref.instance.Child("appProfiles", profile->id)));
}

Status CheckWritesAllowed(const RequestTarget& target) {
  LBT_ASSIGN_OR_RETURN(const AppProfileSpec* profile, ProfileOf(target));
  if (profile == nullptr || profile->isolation != AppProfileSpec::Isolation::kDataBoost) return Status::OK();
  return Status::FailedPrecondition(
      fmt::format("You can't send write or delete requests with Data Boost: app profile {} is read-only "
                  "(data_boost_isolation_read_only)",
                  target.ref.instance.Child("appProfiles", profile->id)));
}

std::string SourceCluster(const RequestTarget& target) {
  if (!target.instance || target.instance->clusters.empty()) return "lbt";
  return target.instance->clusters.front().id;
}

// ---- the Table Admin service ----

Result<AdminTarget> OpenAdminTarget(const InstanceRouter& router, TableRef ref) {
  LBT_ASSIGN_OR_RETURN(InstanceTables tables, router.Tables(ref.instance));
  return AdminTarget{std::move(ref), std::move(tables)};
}

Result<AdminTarget> ResolveAdminTable(const InstanceRouter& router, std::string_view name, std::string_view field) {
  LBT_ASSIGN_OR_RETURN(TableRef ref, ParseTableName(name, field));
  return OpenAdminTarget(router, std::move(ref));
}

Result<AdminTarget> ResolveAdminAuthorizedView(const InstanceRouter& router, std::string_view name,
                                               std::string_view field) {
  LBT_ASSIGN_OR_RETURN(TableRef ref, ParseAuthorizedViewName(name, field));
  return OpenAdminTarget(router, std::move(ref));
}

Result<TableRef> BackupSourceOf(const ClusterName& cluster, std::string_view name, std::string_view field) {
  LBT_ASSIGN_OR_RETURN(TableRef source, ParseTableName(name, field));
  if (!(source.instance == cluster.instance)) {
    return Status::InvalidArgument(fmt::format("{}: must be a table of the backup's instance", field));
  }
  return source;
}

}  // namespace lbt::server
