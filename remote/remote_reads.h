// Internal to remote/: reads through the service's ReadRows.
//
// A read streams. When the service breaks it with a retryable error, it
// resumes under the retry policy (remote/retry_policy.h), asking only for
// the rows after the last one received or scanned, and for fewer rows if
// it had a limit. Filters the service cannot run, run here
// (remote/filter_plan.h).
//
// Stats: every read asks for the service's full request stats
// (REQUEST_STATS_FULL). Once a read has reached its end and every call it
// made reported them, its stats() are the service's: the rows and cells
// the service looked at and returned, summed over the calls, except that
// when part of the filter ran here, "returned" counts what the read
// returned after it. Otherwise (while the read runs, when it was ended
// early, when a call broke, or when the service sends no stats) they are
// lbt's own counts of the rows and cells that arrived and that it returned.

#ifndef LBT_REMOTE_REMOTE_READS_H_
#define LBT_REMOTE_REMOTE_READS_H_

#include <memory>
#include <string_view>

#include "api/bigtable.h"
#include "remote/remote_calls.h"

namespace lbt::remote {

// REQUIRES: `calls` outlives the stream.
Result<std::unique_ptr<RowStream>> ReadRows(RemoteCalls* calls, const TableRef& table, const ReadRequest& request);

// The rows in `range`, counted from one stripped cell a row.
Result<int64_t> CountRows(RemoteCalls* calls, const TableRef& table, const RowRange& range);

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_READS_H_
