// Logical views of a remote Bigtable instance, over the Instance Admin
// API. Queries over them run on the service (its PrepareQuery).

#ifndef LBT_REMOTE_REMOTE_LOGICAL_VIEWS_H_
#define LBT_REMOTE_REMOTE_LOGICAL_VIEWS_H_

#include <string_view>
#include <vector>

#include "api/logical_view.h"
#include "remote/remote_calls.h"

namespace lbt::remote {

Result<LogicalViewSpec> CreateLogicalView(RemoteCalls* calls, const InstanceName& instance,
                                          const LogicalViewSpec& view);
Result<LogicalViewSpec> GetLogicalView(RemoteCalls* calls, const InstanceName& instance, std::string_view view_id);
Result<std::vector<LogicalViewSpec>> ListLogicalViews(RemoteCalls* calls, const InstanceName& instance);
Result<LogicalViewSpec> UpdateLogicalView(RemoteCalls* calls, const InstanceName& instance, const LogicalViewSpec& view,
                                          const LogicalViewUpdate& update);
Status DeleteLogicalView(RemoteCalls* calls, const InstanceName& instance, std::string_view view_id,
                         std::string_view etag);

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_LOGICAL_VIEWS_H_
