// Change streams of a remote Bigtable: turning them on and off
// (UpdateTable's change_stream_config), GenerateInitialChangeStreamPartitions
// and ReadChangeStream (api/change_stream.h).

#ifndef LBT_REMOTE_REMOTE_CHANGE_STREAMS_H_
#define LBT_REMOTE_REMOTE_CHANGE_STREAMS_H_

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "api/change_stream.h"
#include "remote/remote_calls.h"

namespace lbt::remote {

Status SetChangeStream(RemoteCalls* calls, std::string_view table, const std::optional<ChangeStreamConfig>& config);
Result<std::vector<RowRange>> ChangeStreamPartitions(RemoteCalls* calls, std::string_view table);
// One ReadChangeStream call for `request.partition`, read by a thread of
// its own into a bounded queue; the stream ends the call when destroyed.
// REQUIRES: `calls` outlives the stream.
Result<std::unique_ptr<ChangeStream>> ReadChangeStream(RemoteCalls* calls, std::string_view table,
                                                       const ChangeStreamRequest& request);

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_CHANGE_STREAMS_H_
