#include "server/fault_injection.h"

#include <fmt/format.h>
#include <grpcpp/support/status.h>

#include <cstdio>

#include "proto/grpc_status.h"

namespace lbt::server {

std::string_view TableIdOf(std::string_view resource) {
  constexpr std::string_view kTables = "/tables/";
  const size_t at = resource.find(kTables);
  if (at == std::string_view::npos) return {};
  std::string_view id = resource.substr(at + kTables.size());
  return id.substr(0, id.find('/'));
}

std::optional<Fault> TakeFault(CallRuntime* runtime, const FaultCall& call) {
  if (runtime->faults()->empty()) return std::nullopt;
  std::optional<Fault> fault = runtime->faults()->Next(call);
  if (!fault) return std::nullopt;
  if (fault->entries) return fault;  // said by the handler, which knows how many entries it fails
  const std::string where = call.table.empty() ? std::string() : fmt::format(" on table {}", call.table);
  std::string when;
  if (fault->after_rows) when += fmt::format(" after {} rows", *fault->after_rows);
  if (fault->latency_ms > 0) when += fmt::format(" after {} ms", fault->latency_ms);
  const std::string line = fault->code != 0
                               ? fmt::format("lbt serve: fault rule {}: {}{} fails with {}{}\n", fault->rule + 1,
                                             call.rpc, where, GrpcCodeName(fault->code), when)
                               : fmt::format("lbt serve: fault rule {}: {}{} delayed {} ms\n", fault->rule + 1,
                                             call.rpc, where, fault->latency_ms);
  std::fputs(line.c_str(), stderr);
  return fault;
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
  if (cut->latency_ms > 0) *fault = Fault{.rule = cut->rule, .latency_ms = cut->latency_ms};
  return cut;
}

}  // namespace lbt::server
