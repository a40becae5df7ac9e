// `lbt serve`: Bigtable's Data, Table Admin, Instance Admin and Operations
// APIs over one database, whose instances are namespaces (api/instance.h),
// for every client library and cbt through BIGTABLE_EMULATOR_HOST.

#ifndef LBT_SERVER_SERVER_H_
#define LBT_SERVER_SERVER_H_

#include <chrono>
#include <functional>
#include <string>

#include "api/bigtable.h"
#include "api/status.h"
#include "server/request_limits.h"

namespace grpc {
class ServerBuilder;
}  // namespace grpc

namespace lbt::server {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8086;  // 0: any free port
  // The server has no authentication, so only loopback addresses are
  // served unless this is set.
  bool allow_remote = false;
  // On shutdown, in-flight RPCs get this long to finish before they are cancelled.
  std::chrono::milliseconds drain = std::chrono::seconds(5);
  // A stream whose client has not taken a response for this long is ended
  // with ABORTED (0: never).
  std::chrono::milliseconds stall_timeout = kDefaultStallTimeout;
  // A fault rule file (fault_file.h), or "" for none.
  std::string faults_file;
};

// True for 127.0.0.0/8, ::1 and "localhost".
bool IsLoopbackHost(const std::string& host);

// OK if `options` may be served: a port number, and a loopback host unless
// remote clients are allowed.
Status ValidateServeOptions(const ServeOptions& options);

// OK if the address can be bound now (port 0 always can): checked before
// the database is opened, so that a busy port creates nothing.
Status CheckCanListen(const ServeOptions& options);

// Gives `builder`'s server lbt serve's message size limits
// (request_limits.h). Its services are callback services (handler.h), and
// their CallRuntime bounds the calls in flight.
void ConfigureCallbackServer(grpc::ServerBuilder* builder);

// Serves `bigtable` until SIGINT or SIGTERM arrives, then stops accepting, lets
// in-flight RPCs finish (for at most options.drain) and returns OK. Once
// listening, calls `listening` with the address actually bound
// ("127.0.0.1:8086"). Returns an error, having served nothing, when the
// address is refused or cannot be bound.
// REQUIRES: called from the main thread, before any other thread starts
// (it blocks SIGINT and SIGTERM for the threads gRPC creates).
Status Serve(Bigtable* bigtable, const ServeOptions& options,
             const std::function<void(const std::string& address)>& listening);

}  // namespace lbt::server

#endif  // LBT_SERVER_SERVER_H_
