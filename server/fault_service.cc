#include "server/fault_service.h"

#include <fmt/format.h>

#include <cstdio>
#include <utility>
#include <vector>

#include "server/handler.h"

namespace lbt::server {

namespace {

// The rules in force, as the service answers them.
void FillRules(const FaultInjector& faults, lbt::v1::FaultRules* response) {
  for (FaultInjector::RuleState& state : faults.Rules()) {
    lbt::v1::FaultRule* rule = response->add_rules();
    rule->set_rule_json(std::move(state.json));
    rule->set_fired(state.fired);
  }
}

}  // namespace

grpc::ServerUnaryReactor* FaultService::ListFaultRules(grpc::CallbackServerContext* context,
                                                       const lbt::v1::ListFaultRulesRequest*,
                                                       lbt::v1::FaultRules* response) {
  return HandleUnary(context, runtime_, Runs::kInline, [this, response]() -> Status {
    FillRules(*runtime_->faults(), response);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* FaultService::AddFaultRules(grpc::CallbackServerContext* context,
                                                      const lbt::v1::AddFaultRulesRequest* request,
                                                      lbt::v1::FaultRules* response) {
  return HandleUnary(context, runtime_, Runs::kInline, [this, request, response]() -> Status {
    Result<std::vector<FaultRule>> rules = ParseFaultRules(request->rules_json());
    if (!rules.ok()) return Status::InvalidArgument(fmt::format("rules_json: {}", rules.status().message()));
    const size_t count = rules->size();
    runtime_->faults()->Add(std::move(rules).value());
    std::fputs(fmt::format("lbt serve: {} fault rule{} added\n", count, count == 1 ? "" : "s").c_str(), stderr);
    FillRules(*runtime_->faults(), response);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* FaultService::ClearFaultRules(grpc::CallbackServerContext* context,
                                                        const lbt::v1::ClearFaultRulesRequest*,
                                                        lbt::v1::FaultRules* response) {
  return HandleUnary(context, runtime_, Runs::kInline, [this, response]() -> Status {
    runtime_->faults()->Replace({});
    std::fputs("lbt serve: fault rules cleared\n", stderr);
    FillRules(*runtime_->faults(), response);
    return Status::OK();
  });
}

}  // namespace lbt::server
