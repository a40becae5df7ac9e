// Internal to remote/: the single-row RPCs that read and write in one
// atomic step, CheckAndMutateRow and ReadModifyWriteRow. Neither retries:
// sent again, either could apply twice.

#ifndef LBT_REMOTE_REMOTE_READ_WRITE_H_
#define LBT_REMOTE_REMOTE_READ_WRITE_H_

#include <optional>
#include <string_view>
#include <vector>

#include "api/bigtable.h"
#include "remote/remote_calls.h"

namespace lbt::remote {

// A predicate must be one the service can run whole: the check and the
// mutations are atomic only there.
Result<bool> CheckAndMutateRow(RemoteCalls* calls, const TableRef& table, std::string_view row_key,
                               const std::optional<Filter>& predicate, const std::vector<Mutation>& true_mutations,
                               const std::vector<Mutation>& false_mutations);

Result<Row> ReadModifyWriteRow(RemoteCalls* calls, const TableRef& table, std::string_view row_key,
                               const std::vector<ReadModifyWriteRule>& rules);

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_READ_WRITE_H_
