// Internal to remote/: SampleRowKeys, the service's split points of a
// table with the approximate bytes before each.

#ifndef LBT_REMOTE_REMOTE_SAMPLE_KEYS_H_
#define LBT_REMOTE_REMOTE_SAMPLE_KEYS_H_

#include <string_view>
#include <vector>

#include "api/bigtable.h"
#include "remote/remote_calls.h"

namespace lbt::remote {

// The samples of the whole table, or of `range` when it is bounded.
Result<std::vector<KeySample>> SampleRowKeys(RemoteCalls* calls, const TableRef& table, const RowRange& range);

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_SAMPLE_KEYS_H_
