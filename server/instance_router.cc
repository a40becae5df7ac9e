#include "server/instance_router.h"

#include <fmt/format.h>

namespace lbt::server {

Result<InstanceTables> InstanceRouter::Tables(const InstanceName& instance) const {
  if (admin_ == nullptr || instance == DefaultInstanceName()) return InstanceTables(served_);
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Bigtable> tables, admin_->OpenTables(instance));
  return InstanceTables(std::move(tables));
}

Result<InstanceTables> InstanceRouter::TablesFor(const InstanceName& instance, std::string_view app_profile_id) const {
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

}  // namespace lbt::server
