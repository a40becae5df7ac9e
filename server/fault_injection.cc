#include "server/fault_injection.h"

#include <fmt/format.h>
#include <grpcpp/support/status.h>

#include <algorithm>
#include <cstdio>

#include "proto/grpc_status.h"

namespace lbt::server {

std::string_view TableIdOf(std::string_view resource) {
  // The segment after ".../instances/<id>/tables/": an instance may itself
  // be called "tables".
  for (size_t at = resource.find("instances/"); at != std::string_view::npos;
       at = resource.find("instances/", at + 1)) {
    if (at != 0 && resource[at - 1] != '/') continue;
    const size_t id_end = resource.find('/', at + 10);
    if (id_end == std::string_view::npos) return {};
    std::string_view rest = resource.substr(id_end + 1);
    if (!rest.starts_with("tables/")) return {};
    rest.remove_prefix(7);
    return rest.substr(0, rest.find('/'));
  }
  return {};
}

std::optional<Fault> TakeFault(CallRuntime* runtime, const FaultCall& call) {
  if (runtime->faults()->empty()) return std::nullopt;
  std::optional<Fault> fault = runtime->faults()->Next(call);
  if (!fault) return std::nullopt;
  // Said by the handler, which knows how many entries it fails, or by the
  // stream, when it is cut.
  if (fault->entries || fault->after_rows) return fault;
  const std::string where = call.table.empty() ? std::string() : fmt::format(" on table {}", call.table);
  std::string when;
  if (fault->latency_ms > 0) when += fmt::format(" after {} ms", fault->latency_ms);
  const std::string line = fault->code != 0
                               ? fmt::format("lbt serve: fault rule {}: {}{} fails with {}{}\n", fault->rule + 1,
                                             call.rpc, where, GrpcCodeName(fault->code), when)
                               : fmt::format("lbt serve: fault rule {}: {}{} delayed {} ms\n", fault->rule + 1,
                                             call.rpc, where, fault->latency_ms);
  std::fputs(line.c_str(), stderr);
  return fault;
}

void SayCut(std::string_view rpc, std::string_view table, const Fault& fault) {
  const std::string where = table.empty() ? std::string() : fmt::format(" on table {}", table);
  std::fputs(fmt::format("lbt serve: fault rule {}: {}{} fails with {} after {} rows\n", fault.rule + 1, rpc, where,
                         GrpcCodeName(fault.code), *fault.after_rows)
                 .c_str(),
             stderr);
}

void DelayThen(CallRuntime* runtime, grpc::CallbackServerContext* context, int64_t ms, UnaryDone done,
               std::function<void()> go) {
  if (context->IsCancelled()) return done(Status::Cancelled("the client cancelled the call"));
  if (runtime->gate()->closing()) return done(Status::Unavailable("lbt serve is stopping"));
  if (ms <= 0) return go();
  const int64_t slice = std::min<int64_t>(ms, kDelaySlice.count());
  runtime->pool()->RunAfter(std::chrono::milliseconds(slice), [runtime, context, left = ms - slice, done, go] {
    DelayThen(runtime, context, left, done, go);
  });
}

Status FaultStatus(const Fault& fault, std::string_view rpc) {
  const std::string message = fault.message.empty() ? fmt::format("{} failed by a fault rule", rpc) : fault.message;
  Status status = proto::FromGrpcStatus(grpc::Status(static_cast<grpc::StatusCode>(fault.code), message));
  if (fault.retry_delay_ms) status = status.WithRetryDelay(*fault.retry_delay_ms);
  return status;
}

std::optional<Fault> TakeCut(std::optional<Fault>* fault) {
  if (!*fault || !(*fault)->after_rows) return std::nullopt;
  std::optional<Fault> cut = std::move(*fault);
  *fault = std::nullopt;
  if (cut->latency_ms > 0)
    *fault = Fault{.rule = cut->rule, .generation = cut->generation, .latency_ms = cut->latency_ms};
  return cut;
}

}  // namespace lbt::server
