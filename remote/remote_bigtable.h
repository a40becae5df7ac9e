// RemoteBigtable: the Bigtable interface as a gRPC client of Cloud
// Bigtable, its emulator or `lbt serve`.
//
// Every call carries the routing header (x-goog-request-params) and
// bigtable-features, and the app profile if one is set. Each RPC family
// lives in a file of its own over one connection (remote/remote_calls.h).
// Reads, MutateRows and queries retry under one policy
// (remote/retry_policy.h): reads resume after the last row received,
// MutateRows sends again the failed entries that are idempotent (never an
// increment, an append, an AddToCell or a cell written at the server's
// time), queries resume from their last resume token. Filters the service
// cannot run, run here (remote/filter_plan.h). A read's stats are the
// service's when it sends them (remote/remote_reads.h).
//
// Threading: safe to use from several threads; a RowStream belongs to one.

#ifndef LBT_REMOTE_REMOTE_BIGTABLE_H_
#define LBT_REMOTE_REMOTE_BIGTABLE_H_

#include <memory>
#include <string>

#include "api/bigtable.h"
#include "remote/remote_options.h"

namespace lbt {

// Opens channels to the instance `options` names. Fails with one line when
// options are missing or credentials cannot be loaded; an unreachable
// service shows on the first call, within its deadline.
Result<std::unique_ptr<Bigtable>> ConnectRemote(const RemoteOptions& options);

// ConnectRemote, called by the first operation rather than now (see
// api/deferred_bigtable.h): what the shell uses, so that commands which
// never reach the service need neither options nor credentials.
std::unique_ptr<Bigtable> ConnectRemoteOnFirstUse(const RemoteOptions& options);

}  // namespace lbt

#endif  // LBT_REMOTE_REMOTE_BIGTABLE_H_
