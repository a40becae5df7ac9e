// InstanceRouter: the tables a request's resource name points at. The
// default instance (api/instance.h) is the Bigtable served; any other is
// opened from its InstanceAdmin for the length of the request. A Bigtable
// without one (nothing to manage) serves every instance name itself.
//
// Threading: safe from any thread, as the Bigtable served.

#ifndef LBT_SERVER_INSTANCE_ROUTER_H_
#define LBT_SERVER_INSTANCE_ROUTER_H_

#include <memory>
#include <string_view>

#include "api/bigtable.h"
#include "api/instance.h"
#include "api/status.h"

namespace lbt::server {

// The tables of one instance, for one request.
class InstanceTables {
 public:
  explicit InstanceTables(Bigtable* shared) : bigtable_(shared) {}
  explicit InstanceTables(std::unique_ptr<Bigtable> owned) : owned_(std::move(owned)), bigtable_(owned_.get()) {}

  Bigtable* operator->() const { return bigtable_; }
  Bigtable* get() const { return bigtable_; }

 private:
  std::unique_ptr<Bigtable> owned_;
  Bigtable* bigtable_;
};

class InstanceRouter {
 public:
  // `served` is not owned and must outlive the router.
  explicit InstanceRouter(Bigtable* served) : served_(served), admin_(served->instance_admin()) {}

  // The tables of `instance`.
  Result<InstanceTables> Tables(const InstanceName& instance) const;
  // The same for a data request, after checking that `app_profile_id`
  // ("" for the default) is shaped as an id (InvalidArgument) and names a
  // profile of the instance: NotFound otherwise, as production answers.
  Result<InstanceTables> TablesFor(const InstanceName& instance, std::string_view app_profile_id) const;
  // FailedPrecondition unless the app profile (the default one for "")
  // allows single-row transactions (CheckAndMutateRow,
  // ReadModifyWriteRow): production allows them through single-cluster
  // routing with allow_transactional_writes alone. An instance that does
  // not exist yet allows them, as the emulator does.
  Status CheckTransactionsAllowed(const InstanceName& instance, std::string_view app_profile_id) const;
  // The instances' admin, or nullptr.
  InstanceAdmin* admin() const { return admin_; }

 private:
  Bigtable* served_;
  InstanceAdmin* admin_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_INSTANCE_ROUTER_H_
