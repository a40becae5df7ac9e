// lbt-grpc's OpenRemote: a gRPC client of the instance (see target.h).

#include "remote/remote_bigtable.h"
#include "shell/target.h"

namespace lbt {

Result<std::unique_ptr<Bigtable>> OpenRemote(char**, const RemoteOptions& options) {
  return ConnectRemote(options);
}

}  // namespace lbt
