// lbt-grpc's OpenRemote: a gRPC client of the instance (see target.h).

#include <grpc/support/log.h>

#include "remote/remote_bigtable.h"
#include "shell/target.h"

namespace lbt {

namespace {

// gRPC's own log lines ("E1122 12:00:00 ... Handshake failed") would reach
// the user's terminal beside lbt's one-line error that already says what
// went wrong.
void DiscardGrpcLog(gpr_log_func_args*) {}

}  // namespace

Result<std::unique_ptr<Bigtable>> OpenRemote(char**, const RemoteOptions& options) {
  gpr_set_log_function(DiscardGrpcLog);
  return ConnectRemoteOnFirstUse(options);
}

}  // namespace lbt
