// Where lbt serve's calls meet the fault rules (fault_rules.h): a handler
// names its call (RPC, table, row, app profile), and the call is delayed or
// failed as the first matching rule says, before any of its work, so that
// a failed call changes nothing. Each fault fired is one line on stderr.
//
//   return HandleUnaryWithFaults(context, runtime_, Runs::kOnPool,
//                                CallOf("CheckAndMutateRow", *request, request->row_key()), [=] { ... });

#ifndef LBT_SERVER_FAULT_INJECTION_H_
#define LBT_SERVER_FAULT_INJECTION_H_

#include <chrono>
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

// The table id in a resource name (".../tables/<id>[/...]"); empty for none.
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
// (name, parent or, for IAM, resource: a table's, or one below a table's).
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
  return FaultCall{rpc, table, {}, {}};
}

// The fault `call` gets, if any, said on stderr.
std::optional<Fault> TakeFault(CallRuntime* runtime, const FaultCall& call);
// The status a fault fails its call with.
Status FaultStatus(const Fault& fault, std::string_view rpc);

// HandleUnaryAsync (handler.h), delayed or failed as the rules say first.
template <typename Start>
grpc::ServerUnaryReactor* HandleUnaryAsyncWithFaults(grpc::CallbackServerContext* context, CallRuntime* runtime,
                                                     const FaultCall& call, Start start) {
  std::optional<Fault> fault = TakeFault(runtime, call);
  if (!fault) return HandleUnaryAsync(context, runtime, std::move(start));
  return HandleUnaryAsync(context, runtime,
                          [runtime, fault = *fault, rpc = std::string(call.rpc), start](UnaryDone done) mutable {
                            auto go = [fault, rpc, done, start]() mutable {
                              if (fault.code != 0) return done(FaultStatus(fault, rpc));
                              start(done);
                            };
                            if (fault.latency_ms <= 0) return go();
                            runtime->pool()->RunAfter(std::chrono::milliseconds(fault.latency_ms), std::move(go));
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
// fault says.
template <typename Response>
class FaultedSource final : public ResponseSource<Response> {
 public:
  FaultedSource(Fault fault, std::string rpc, std::unique_ptr<ResponseSource<Response>> inner)
      : fault_(std::move(fault)), rpc_(std::move(rpc)), inner_(std::move(inner)) {}

  Result<Produced> Next(Response* response, std::chrono::milliseconds* retry_after) override {
    if (!waited_ && fault_.latency_ms > 0) {
      waited_ = true;
      *retry_after = std::chrono::milliseconds(fault_.latency_ms);
      return Produced::kNothingYet;
    }
    if (fault_.code != 0) return FaultStatus(fault_, rpc_);
    return inner_->Next(response, retry_after);
  }

 private:
  Fault fault_;
  std::string rpc_;
  std::unique_ptr<ResponseSource<Response>> inner_;
  bool waited_ = false;
};

// Splits a stream's fault: an after_rows fault is returned, to cut the
// stream once that many rows went out, leaving in `*fault` only its delay
// (before the first row), if any.
std::optional<Fault> TakeCut(std::optional<Fault>* fault);

// `source`, wrapped by the fault `call` gets, if any.
template <typename Response>
std::unique_ptr<ResponseSource<Response>> WithFaults(CallRuntime* runtime, const FaultCall& call,
                                                     std::unique_ptr<ResponseSource<Response>> source) {
  std::optional<Fault> fault = TakeFault(runtime, call);
  if (!fault) return source;
  return std::make_unique<FaultedSource<Response>>(*fault, std::string(call.rpc), std::move(source));
}

}  // namespace lbt::server

#endif  // LBT_SERVER_FAULT_INJECTION_H_
