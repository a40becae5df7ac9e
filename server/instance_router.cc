#include "server/instance_router.h"

#include <fmt/format.h>

namespace lbt::server {

Result<InstanceTables> InstanceRouter::Tables(const InstanceName& instance) const {
  if (admin_ == nullptr || instance == DefaultInstanceName()) return InstanceTables(served_);
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Bigtable> tables, admin_->OpenTables(instance));
  return InstanceTables(std::move(tables));
}

Result<InstanceTables> InstanceRouter::TablesFor(const InstanceName& instance, std::string_view app_profile_id) const {
  if (!app_profile_id.empty()) LBT_RETURN_IF_ERROR(ValidateAppProfileId(app_profile_id, "app_profile_id"));
  if (!app_profile_id.empty() && admin_ != nullptr) {
    Result<InstanceSpec> spec = admin_->GetInstance(instance);
    // An instance that does not exist yet is the emulator's: it takes the
    // default profile alone, and its first table brings it into being.
    const bool known = spec.ok() ? spec->FindAppProfile(app_profile_id) != nullptr
                                 : spec.status().IsNotFound() && app_profile_id == kDefaultAppProfile;
    if (!spec.ok() && !spec.status().IsNotFound()) return spec.status();
    if (!known) {
      return Status::NotFound(
          fmt::format("app_profile_id: app profile {}/appProfiles/{} does not exist", instance.Full(), app_profile_id));
    }
  }
  return Tables(instance);
}

Status InstanceRouter::CheckTransactionsAllowed(const InstanceName& instance, std::string_view app_profile_id) const {
  if (admin_ == nullptr) return Status::OK();
  Result<InstanceSpec> spec = admin_->GetInstance(instance);
  if (spec.status().IsNotFound()) return Status::OK();
  LBT_RETURN_IF_ERROR(spec.status());
  const AppProfileSpec* profile =
      spec->FindAppProfile(app_profile_id.empty() ? std::string_view(kDefaultAppProfile) : app_profile_id);
  if (profile == nullptr) return Status::OK();  // TablesFor has answered for an unknown one
  if (profile->routing == AppProfileSpec::Routing::kSingleCluster && profile->allow_transactional_writes) {
    return Status::OK();
  }
  // Production's words (googleapis/google-cloud-python#10018).
  return Status::FailedPrecondition(fmt::format(
      "Single-row transactions are not allowed by this app profile ({}/appProfiles/{}): they need single-cluster "
      "routing with allow_transactional_writes",
      instance.Full(), profile->id));
}

}  // namespace lbt::server
