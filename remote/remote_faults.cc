#include "remote/remote_faults.h"

namespace lbt::remote {

namespace {

using Stub = RemoteCalls::FaultsStub;

std::vector<FaultRuleState> RulesOf(const lbt::v1::FaultRules& response) {
  std::vector<FaultRuleState> rules;
  for (const lbt::v1::FaultRule& rule : response.rules()) rules.push_back({rule.rule_json(), rule.fired()});
  return rules;
}

// A service without fault rules answers UNIMPLEMENTED for the whole
// service: say what has them instead.
Status Explained(const Status& status) {
  if (status.code() != Status::Code::kUnimplemented) return status;
  return Status::FailedPrecondition("the service has no fault rules: only lbt serve takes them");
}

}  // namespace

Result<std::vector<FaultRuleState>> RemoteServerFaults::List() {
  lbt::v1::FaultRules response;
  LBT_RETURN_IF_ERROR(Explained(calls_->Unary(calls_->faults(), &Stub::ListFaultRules, "name", calls_->instance_name(),
                                              lbt::v1::ListFaultRulesRequest(), &response)));
  return RulesOf(response);
}

Result<std::vector<FaultRuleState>> RemoteServerFaults::Add(std::string_view rules_json) {
  lbt::v1::AddFaultRulesRequest request;
  request.set_rules_json(std::string(rules_json));
  lbt::v1::FaultRules response;
  LBT_RETURN_IF_ERROR(Explained(
      calls_->Unary(calls_->faults(), &Stub::AddFaultRules, "name", calls_->instance_name(), request, &response)));
  return RulesOf(response);
}

Status RemoteServerFaults::Clear() {
  lbt::v1::FaultRules response;
  return Explained(calls_->Unary(calls_->faults(), &Stub::ClearFaultRules, "name", calls_->instance_name(),
                                 lbt::v1::ClearFaultRulesRequest(), &response));
}

}  // namespace lbt::remote
