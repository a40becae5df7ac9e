// Internal to remote/: reads through the service's ReadRows.
//
// A read streams. When the service breaks it with a retryable error, it
// resumes under the retry policy (remote/retry_policy.h), asking only for
// the rows after the last one received or scanned, and for fewer rows if
// it had a limit. Filters the service cannot run, run here
// (remote/filter_plan.h).

#ifndef LBT_REMOTE_REMOTE_READS_H_
#define LBT_REMOTE_REMOTE_READS_H_

#include <memory>
#include <string_view>

#include "api/bigtable.h"
#include "remote/remote_calls.h"

namespace lbt::remote {

// REQUIRES: `calls` outlives the stream.
Result<std::unique_ptr<RowStream>> ReadRows(RemoteCalls* calls, std::string_view table,
                                                  const ReadRequest& request);

// The rows in `range`, counted from one stripped cell a row.
Result<int64_t> CountRows(RemoteCalls* calls, std::string_view table, const RowRange& range);

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_READS_H_
