// Materialized views of a remote Bigtable instance, over the Instance Admin
// API. Queries over them run on the service (its PrepareQuery).

#ifndef LBT_REMOTE_REMOTE_MATERIALIZED_VIEWS_H_
#define LBT_REMOTE_REMOTE_MATERIALIZED_VIEWS_H_

#include <string_view>
#include <vector>

#include "api/materialized_view.h"
#include "remote/remote_calls.h"

namespace lbt::remote {

Result<MaterializedViewSpec> CreateMaterializedView(RemoteCalls* calls, const InstanceName& instance,
                                                    const MaterializedViewSpec& view);
Result<MaterializedViewSpec> GetMaterializedView(RemoteCalls* calls, const InstanceName& instance,
                                                 std::string_view view_id);
Result<std::vector<MaterializedViewSpec>> ListMaterializedViews(RemoteCalls* calls, const InstanceName& instance);
Result<MaterializedViewSpec> UpdateMaterializedView(RemoteCalls* calls, const InstanceName& instance,
                                                    const MaterializedViewSpec& view,
                                                    const MaterializedViewUpdate& update);
Status DeleteMaterializedView(RemoteCalls* calls, const InstanceName& instance, std::string_view view_id,
                              std::string_view etag);

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_MATERIALIZED_VIEWS_H_
