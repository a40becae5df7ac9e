// Internal to remote/: GoogleSQL sent to the service, through PrepareQuery
// and ExecuteQuery, for a RemoteBigtable's query_service().

#ifndef LBT_REMOTE_REMOTE_QUERY_H_
#define LBT_REMOTE_REMOTE_QUERY_H_

#include <memory>

#include "remote/remote_calls.h"
#include "sql/query.h"

namespace lbt {

// Prepares queries with PrepareQuery and runs them with ExecuteQuery,
// resuming from the last resume token when the stream breaks, under the
// retry policy (remote/retry_policy.h); -timeout bounds a query's calls,
// its resumptions included. Rows are handed out only once the service has confirmed
// them with a resume token, so a resumed stream repeats none. The stats of
// a result count the rows returned; what the service read is its own.
// `calls` must outlive the service and its queries.
std::unique_ptr<sql::QueryService> NewRemoteQueryService(RemoteCalls* calls);

}  // namespace lbt

#endif  // LBT_REMOTE_REMOTE_QUERY_H_
