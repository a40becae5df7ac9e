// Where lbt serve's calls meet the fault rules (fault_rules.h): a handler
// names its call (RPC, table, row, app profile), and the call is delayed or
// failed as the first matching rule says, before any of its work, so that
// a failed call changes nothing. Each fault fired is one line on stderr.
//
//   return HandleUnaryWithFaults(context, runtime_, Runs::kOnPool,
//                                CallOf("CheckAndMutateRow", *request, request->row_key()), [=] { ... });

#ifndef LBT_SERVER_FAULT_INJECTION_H_
#define LBT_SERVER_FAULT_INJECTION_H_

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "server/call_runtime.h"
#include "server/fault_rules.h"
#include "server/handler.h"
#include "server/stream_reactor.h"

namespace lbt::server {

// The table id in a resource name ("projects/P/instances/I/tables/<id>[/...]",
// or an operation's name holding one); empty for none.
std::string_view TableIdOf(std::string_view resource);

// A data request's call: its table (through table_name, authorized view or
// materialized view names) and app profile.
template <typename Request>
FaultCall CallOf(std::string_view rpc, const Request& request, std::string_view row_key = {}) {
  std::string_view table = TableIdOf(request.table_name());
  if constexpr (requires { request.authorized_view_name(); }) {
    if (table.empty()) table = TableIdOf(request.authorized_view_name());
  }
  return FaultCall{rpc, table, row_key, request.app_profile_id()};
}

// An admin request's call: the table it creates (table_id) or names
// (name, parent or, for IAM, resource: a table's, or one below a table's;
// a new backup's source table).
template <typename Request>
FaultCall AdminCallOf(std::string_view rpc, const Request& request) {
  std::string_view table;
  if constexpr (requires { request.table_id(); }) table = request.table_id();
  if constexpr (requires { request.name(); }) {
    if (table.empty()) table = TableIdOf(request.name());
  }
  if constexpr (requires { request.parent(); }) {
    if (table.empty()) table = TableIdOf(request.parent());
  }
  if constexpr (requires { request.resource(); }) {
    if (table.empty()) table = TableIdOf(request.resource());
  }
  if constexpr (requires { request.backup().source_table(); }) {
    if (table.empty()) table = TableIdOf(request.backup().source_table());
  }
  return FaultCall{rpc, table, {}, {}};
}

// How long a delay waits before it looks again at its call and the server.
inline constexpr std::chrono::milliseconds kDelaySlice{100};

// The fault `call` gets, if any, said on stderr (an after_rows fault when
// its stream is cut, SayCut; an entries fault by its handler).
std::optional<Fault> TakeFault(CallRuntime* runtime, const FaultCall& call);
// Says on stderr that `rpc` on `table` was cut after the fault's rows.
void SayCut(std::string_view rpc, std::string_view table, const Fault& fault);
// The status a fault fails its call with.
Status FaultStatus(const Fault& fault, std::string_view rpc);

// Waits `ms` on the pool's timers, a slice at a time, then runs `go`; or
// answers `done` at once when the client cancels or the server stops, so
// that a long delay neither holds a stop nor applies a call its client
// gave up on.
void DelayThen(CallRuntime* runtime, grpc::CallbackServerContext* context, int64_t ms, UnaryDone done,
               std::function<void()> go);

// HandleUnaryAsync (handler.h), delayed or failed as the rules say first.
template <typename Start>
grpc::ServerUnaryReactor* HandleUnaryAsyncWithFaults(grpc::CallbackServerContext* context, CallRuntime* runtime,
                                                     const FaultCall& call, Start start) {
  std::optional<Fault> fault = TakeFault(runtime, call);
  if (!fault) return HandleUnaryAsync(context, runtime, std::move(start));
  return HandleUnaryAsync(context, runtime,
                          [runtime, context, fault = *fault, rpc = std::string(call.rpc), start](UnaryDone done) {
                            auto go = [fault, rpc, done, start]() mutable {
                              if (fault.code != 0) return done(FaultStatus(fault, rpc));
                              start(done);
                            };
                            if (fault.latency_ms <= 0) return go();
                            DelayThen(runtime, context, fault.latency_ms, done, std::move(go));
                          });
}

// HandleUnary (handler.h), delayed or failed as the rules say first.
template <typename Body>
grpc::ServerUnaryReactor* HandleUnaryWithFaults(grpc::CallbackServerContext* context, CallRuntime* runtime, Runs runs,
                                                const FaultCall& call, Body body) {
  if (runtime->faults()->empty()) return HandleUnary(context, runtime, runs, std::move(body));
  return HandleUnaryAsyncWithFaults(context, runtime, call, [runtime, runs, body](UnaryDone done) mutable {
    if (runs == Runs::kInline) return done(body());
    runtime->pool()->Run([done, body]() mutable { done(body()); });
  });
}

// An admin RPC's handler: HandleUnary on the pool, through the rules.
// `rpc` is the handler's own name (__func__), which is the RPC's.
template <typename Request, typename Body>
grpc::ServerUnaryReactor* HandleAdmin(grpc::CallbackServerContext* context, CallRuntime* runtime, std::string_view rpc,
                                      const Request& request, Body body) {
  return HandleUnaryWithFaults(context, runtime, Runs::kOnPool, AdminCallOf(rpc, request), std::move(body));
}

// A stream's source, its first step delayed, or the stream failed, as a
// fault says. The delay is waited a slice at a time, and ends the stream
// when the server stops (the reactor ends it when the client cancels).
template <typename Response>
class FaultedSource final : public ResponseSource<Response> {
 public:
  FaultedSource(Fault fault, std::string rpc, RpcGate* gate, std::unique_ptr<ResponseSource<Response>> inner)
      : fault_(std::move(fault)),
        rpc_(std::move(rpc)),
        gate_(gate),
        inner_(std::move(inner)),
        waited_until_(std::chrono::steady_clock::now() + std::chrono::milliseconds(fault_.latency_ms)) {}

  Result<Produced> Next(Response* response, std::chrono::milliseconds* retry_after) override {
    if (const auto left = waited_until_ - std::chrono::steady_clock::now(); left > left.zero()) {
      if (gate_->closing()) return Status::Unavailable("lbt serve is stopping");
      *retry_after = std::min(kDelaySlice, std::chrono::ceil<std::chrono::milliseconds>(left));
      return Produced::kNothingYet;
    }
    if (fault_.code != 0) return FaultStatus(fault_, rpc_);
    return inner_->Next(response, retry_after);
  }

 private:
  Fault fault_;
  std::string rpc_;
  RpcGate* gate_;
  std::unique_ptr<ResponseSource<Response>> inner_;
  std::chrono::steady_clock::time_point waited_until_;
};

// Splits a stream's fault: an after_rows fault is returned, to cut the
// stream once that many rows went out, leaving in `*fault` only its delay
// (before the first row), if any.
std::optional<Fault> TakeCut(std::optional<Fault>* fault);

// `source`, wrapped by `fault` (delayed or failed) when there is one.
template <typename Response>
std::unique_ptr<ResponseSource<Response>> WithFault(CallRuntime* runtime, const std::optional<Fault>& fault,
                                                    std::string_view rpc,
                                                    std::unique_ptr<ResponseSource<Response>> source) {
  if (!fault) return source;
  return std::make_unique<FaultedSource<Response>>(*fault, std::string(rpc), runtime->gate(), std::move(source));
}

// `source`, wrapped by the fault `call` gets, if any.
template <typename Response>
std::unique_ptr<ResponseSource<Response>> WithFaults(CallRuntime* runtime, const FaultCall& call,
                                                     std::unique_ptr<ResponseSource<Response>> source) {
  return WithFault(runtime, TakeFault(runtime, call), call.rpc, std::move(source));
}

}  // namespace lbt::server

#endif  // LBT_SERVER_FAULT_INJECTION_H_
