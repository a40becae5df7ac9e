// Internal to remote/: writes through MutateRow and MutateRows.
//
// MutateRows retries, under the retry policy (remote/retry_policy.h), the
// entries that failed with a retryable error or that the service left
// unanswered, if they are idempotent: never an AddToCell, nor a cell
// written at the server's time (increments and appends are
// ReadModifyWriteRow's, which never retries).

#ifndef LBT_REMOTE_REMOTE_MUTATIONS_H_
#define LBT_REMOTE_REMOTE_MUTATIONS_H_

#include <string_view>
#include <vector>

#include "api/bigtable.h"
#include "google/bigtable/v2/data.pb.h"
#include "remote/remote_calls.h"

namespace lbt::remote {

Status MutateRow(RemoteCalls* calls, const TableRef& table, std::string_view row_key,
                 const std::vector<Mutation>& mutations);

// One status per row, in order. The Result is an error only when the first
// call failed, not retryably, before the service answered any entry: then
// nothing was applied.
Result<std::vector<Status>> MutateRows(RemoteCalls* calls, const TableRef& table, const std::vector<RowMutation>& rows);

// `mutations` as sent. Bigtable assigns the time of a SetCell itself but
// wants an AddToCell's from the client: the client's clock, in
// milliseconds.
void AddMutations(const std::vector<Mutation>& mutations,
                  google::protobuf::RepeatedPtrField<google::bigtable::v2::Mutation>* out);

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_MUTATIONS_H_
