// InstanceRouter: the tables of the instance a request names. The
// default instance (api/instance.h) is the Bigtable served; any other is
// opened from its InstanceAdmin for the length of the request. A Bigtable
// without one (nothing to manage) serves every instance name itself.
//
// Threading: safe from any thread, as the Bigtable served.

#ifndef LBT_SERVER_INSTANCE_ROUTER_H_
#define LBT_SERVER_INSTANCE_ROUTER_H_

#include <memory>

#include "api/bigtable.h"
#include "api/instance.h"
#include "api/instance_admin.h"
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

  // The tables of `instance`. A request's names and app profile are
  // resolved before (server/request_target.h).
  Result<InstanceTables> Tables(const InstanceName& instance) const;
  // The instances' admin, or nullptr.
  InstanceAdmin* admin() const { return admin_; }

 private:
  Bigtable* served_;
  InstanceAdmin* admin_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_INSTANCE_ROUTER_H_
