#include "server/instance_router.h"

namespace lbt::server {

Result<InstanceTables> InstanceRouter::Tables(const InstanceName& instance) const {
  if (admin_ == nullptr || instance == DefaultInstanceName()) return InstanceTables(served_);
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Bigtable> tables, admin_->OpenTables(instance));
  return InstanceTables(std::move(tables));
}

}  // namespace lbt::server
