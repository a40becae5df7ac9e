#include "server/server.h"

#include <absl/synchronization/mutex.h>
#include <arpa/inet.h>
#include <fmt/format.h>
#include <grpc/support/log.h>
#include <grpcpp/grpcpp.h>
#include <netdb.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>

#include "server/admin_service.h"
#include "server/data_service.h"
#include "server/fault_file.h"
#include "server/fault_service.h"
#include "server/instance_admin_service.h"
#include "server/stall_watch.h"

namespace lbt::server {

namespace {

std::string Bracketed(const std::string& host) {
  return host.find(':') != std::string::npos && host.front() != '[' ? "[" + host + "]" : host;
}

}  // namespace

bool IsLoopbackHost(const std::string& host) {
  if (host == "localhost" || host == "::1" || host == "[::1]") return true;
  in_addr v4;
  return inet_pton(AF_INET, host.c_str(), &v4) == 1 && (ntohl(v4.s_addr) >> 24) == 127;
}

Status ValidateServeOptions(const ServeOptions& options) {
  if (!options.allow_remote && !IsLoopbackHost(options.host)) {
    return Status::InvalidArgument(
        fmt::format("refusing to listen on {}: the server has no authentication; pass --allow-remote to serve "
                    "beyond this machine",
                    options.host));
  }
  if (options.port < 0 || options.port > 65535) {
    return Status::InvalidArgument(fmt::format("--port {} is not a port number (0 to 65535)", options.port));
  }
  return Status::OK();
}

Status CheckCanListen(const ServeOptions& options) {
  if (options.port == 0) return Status::OK();  // any free port will do
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  std::string host = options.host;
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(options.port).c_str(), &hints, &found) != 0 || found == nullptr) {
    return Status::IOError(fmt::format("cannot listen on {}: the host is not known", options.host));
  }
  bool bound = false;
  for (const addrinfo* a = found; a != nullptr && !bound; a = a->ai_next) {
    const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    const int on = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));  // as gRPC binds: past TIME_WAIT
    bound = ::bind(fd, a->ai_addr, a->ai_addrlen) == 0;
    ::close(fd);
  }
  freeaddrinfo(found);
  if (!bound) {
    return Status::IOError(
        fmt::format("cannot listen on {}:{}: the port is in use or the address is not this machine's",
                    Bracketed(options.host), options.port));
  }
  return Status::OK();
}

void ConfigureCallbackServer(grpc::ServerBuilder* builder) {
  // Debian builds abseil, whose Mutex gRPC locks several times per call,
  // with its debug lock-order graph on: a cost on every lock, for a check
  // meant for abseil's own tests.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  // Every service is a callback service: no sync server threads. A call
  // arriving past kMaxCallsInFlight is refused by the gate (rpc_gate.h).
  builder->SetMaxReceiveMessageSize(kMaxReceiveMessageBytes);
  builder->SetMaxSendMessageSize(kMaxSendMessageBytes);
}

Status Serve(Bigtable* bigtable, const ServeOptions& options,
             const std::function<void(const std::string& address)>& listening) {
  LBT_RETURN_IF_ERROR(ValidateServeOptions(options));
  // gRPC would log a failed bind and the like on stderr; lbt reports
  // them itself, in one line.
  gpr_set_log_function([](gpr_log_func_args*) {});
  // Signals go to the thread that waits for them, never to gRPC's threads.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  // Declared before the server: its workers run calls' last steps until
  // the server has stopped.
  CallRuntime runtime(options.stall_timeout);
  std::unique_ptr<FaultFile> faults;
  if (!options.faults_file.empty()) {
    Result<std::unique_ptr<FaultFile>> watched = FaultFile::Watch(options.faults_file, runtime.faults());
    if (!watched.ok()) {
      pthread_sigmask(SIG_UNBLOCK, &stop_signals, nullptr);
      return watched.status();
    }
    faults = std::move(watched).value();
  }
  InstanceRouter router(bigtable);
  OperationStore kept_operations;
  DataService data(&router, &runtime);
  AdminService admin(&router, &runtime, &kept_operations);
  InstanceAdminService instance_admin(&router, &kept_operations, &runtime);
  OperationsService operations(&kept_operations, &runtime);
  FaultService fault_rules(&runtime);
  grpc::ServerBuilder builder;
  int bound_port = 0;
  const std::string address = fmt::format("{}:{}", Bracketed(options.host), options.port);
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(), &bound_port);
  // Requests come uncompressed. gRPC inflates a compressed message whole
  // before it applies the size limit, so a 1 MB gzip request could make
  // the server build 1 GiB; Bigtable's clients do not compress requests.
  builder.SetCompressionAlgorithmSupportStatus(GRPC_COMPRESS_DEFLATE, false);
  builder.SetCompressionAlgorithmSupportStatus(GRPC_COMPRESS_GZIP, false);
  ConfigureCallbackServer(&builder);
  // A port another process holds must fail, not be shared.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.RegisterService(&data);
  builder.RegisterService(&admin);
  builder.RegisterService(&instance_admin);
  builder.RegisterService(&operations);
  builder.RegisterService(&fault_rules);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || bound_port == 0) {
    pthread_sigmask(SIG_UNBLOCK, &stop_signals, nullptr);
    return Status::IOError(
        fmt::format("cannot listen on {}: the port is in use or the address is not this machine's", address));
  }
  listening(fmt::format("{}:{}", Bracketed(options.host), bound_port));

  int signal = 0;
  sigwait(&stop_signals, &signal);
  // Idle connections would hold a plain Shutdown until its deadline: wait
  // for the RPCs in flight only, then cancel whatever outlived the drain.
  runtime.gate()->CloseAndDrain(options.drain);
  server->Shutdown(std::chrono::system_clock::now());
  server->Wait();
  return Status::OK();
}

}  // namespace lbt::server
