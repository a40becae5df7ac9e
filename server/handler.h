// The shapes of lbt serve's RPC handlers, on gRPC's callback API. A call
// holds no thread while it waits: a handler admits the call through the
// gate (rpc_gate.h) and runs a body written in lbt's terms, whose Status
// becomes the call's gRPC status here and nowhere else (the mapping
// itself is proto/grpc_status.h's). Where the body runs is the handler's
// choice:
//
//   - Runs::kInline, on the gRPC thread that took the call, for work that
//     cannot block and is short: lookups, single-row writes that do not
//     wait for a sync, PingAndWarm. No thread hand-off.
//   - Runs::kOnPool, on the runtime's workers (worker_pool.h), for work
//     that may block or take long: DDL, backups, batch writes that wait
//     for their sync.
//
//   grpc::ServerUnaryReactor* AdminService::GetTable(grpc::CallbackServerContext* context,
//                                                    const admin::GetTableRequest* request, admin::Table* response) {
//     return HandleUnary(context, runtime_, Runs::kOnPool, [=, this]() -> Status {
//       ...fill *response...
//       return Status::OK();
//     });
//   }
//
// A body captures by value: it may run after the handler returned. It
// fills the response itself and returns OK, or returns the error the
// client sees, its message naming the request's field. Streams are
// stream_reactor.h's.

#ifndef LBT_SERVER_HANDLER_H_
#define LBT_SERVER_HANDLER_H_

#include <fmt/format.h>
#include <grpcpp/support/server_callback.h>
#include <grpcpp/support/status.h>

#include <string_view>
#include <type_traits>
#include <utility>

#include "api/status.h"
#include "proto/grpc_status.h"
#include "server/call_runtime.h"

namespace lbt::server {

enum class Runs { kInline, kOnPool };

// Answers a unary call once. Copyable; exactly one copy is called.
class UnaryDone {
 public:
  UnaryDone(grpc::ServerUnaryReactor* reactor, RpcGate* gate) : reactor_(reactor), gate_(gate) {}
  // Leaves the gate before answering: once the client has its answer, the
  // server (and the gate with it) may be stopped and destroyed at any
  // moment, while gRPC keeps the reactor until its Finish.
  void operator()(const Status& status) const {
    grpc::ServerUnaryReactor* reactor = reactor_;
    gate_->Leave();
    reactor->Finish(proto::ToGrpcStatus(status));
  }

 private:
  grpc::ServerUnaryReactor* reactor_;
  RpcGate* gate_;
};

// Admits a unary call and starts it: `start(done)` must call `done`
// exactly once, on any thread, now or later (a write that completes when
// its group's sync returns). Unless the gate refuses the call, which is
// answered at once without running `start`.
template <typename Start>
grpc::ServerUnaryReactor* HandleUnaryAsync(grpc::CallbackServerContext* context, CallRuntime* runtime, Start&& start) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  if (Status admitted = runtime->gate()->Enter(); !admitted.ok()) {
    reactor->Finish(proto::ToGrpcStatus(admitted));
    return reactor;
  }
  start(UnaryDone(reactor, runtime->gate()));
  return reactor;
}

// Admits a unary call and runs `body` where `runs` says.
template <typename Body>
grpc::ServerUnaryReactor* HandleUnary(grpc::CallbackServerContext* context, CallRuntime* runtime, Runs runs,
                                      Body&& body) {
  static_assert(std::is_same_v<std::invoke_result_t<Body&>, Status>, "a handler's body returns lbt's Status");
  return HandleUnaryAsync(context, runtime, [&](UnaryDone done) {
    if (runs == Runs::kInline) return done(body());
    runtime->pool()->Run([done, body = std::forward<Body>(body)]() mutable { done(body()); });
  });
}

// The answer to an RPC lbt does not serve: UNIMPLEMENTED, naming the RPC
// and saying why.
inline Status NotServed(std::string_view rpc, std::string_view why) {
  return Status::FromCode(Status::Code::kUnimplemented, fmt::format("{} is not implemented by lbt: {}", rpc, why));
}

// A bidirectional stream lbt does not serve: answered `status` at once.
template <typename Request, typename Response>
class RefusedBidiStream final : public grpc::ServerBidiReactor<Request, Response> {
 public:
  explicit RefusedBidiStream(const Status& status) { this->Finish(proto::ToGrpcStatus(status)); }
  void OnDone() override { delete this; }
};

}  // namespace lbt::server

// Declares, in a service class with a CallRuntime* runtime_, a unary RPC
// that answers UNIMPLEMENTED naming itself and saying why.
#define LBT_NOT_SERVED(Rpc, Request, Response, why)                                                         \
  grpc::ServerUnaryReactor* Rpc(grpc::CallbackServerContext* context, const Request*, Response*) override { \
    return HandleUnary(context, runtime_, Runs::kInline, [] { return NotServed(#Rpc, why); });              \
  }

#endif  // LBT_SERVER_HANDLER_H_
