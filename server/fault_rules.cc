#include "server/fault_rules.h"

#include <fmt/format.h>
#include <google/protobuf/descriptor.h>

#include <array>
#include <nlohmann/json.hpp>

#include "google/bigtable/admin/v2/bigtable_instance_admin.pb.h"
#include "google/bigtable/admin/v2/bigtable_table_admin.pb.h"
#include "google/bigtable/v2/bigtable.pb.h"
#include "google/longrunning/operations.pb.h"
#include "util/bytes.h"

namespace lbt::server {

namespace {

using Json = nlohmann::json;

// gRPC's status codes, in their numeric order.
constexpr std::array<std::string_view, 17> kCodeNames = {
    "OK",        "CANCELLED",      "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
    "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
    "ABORTED",   "OUT_OF_RANGE",   "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
    "DATA_LOSS", "UNAUTHENTICATED"};

// A user's text inside a message: JSON-quoted, so that a newline or a
// quote in it cannot break the message's one line.
std::string Quoted(std::string_view text) { return Json(std::string(text)).dump(); }

// The longest a rule may delay or ask a client to wait: a day, which any
// test means as "forever", and far from the clock's overflow.
constexpr int64_t kMaxDelayMs = 24LL * 60 * 60 * 1000;

// Rules nest two deep (a list of objects); a deeper text is refused before
// the parser would recurse through it, so that no text can exhaust the
// stack.
constexpr int kMaxNesting = 8;

Status RuleError(size_t index, std::string_view what) {
  return Status::InvalidArgument(fmt::format("fault rule {}: {}", index + 1, what));
}

Result<std::string> Text(const Json& value, size_t index, std::string_view field) {
  if (!value.is_string()) return RuleError(index, fmt::format("\"{}\" must be a string", field));
  return value.get<std::string>();
}

Result<int64_t> Count(const Json& value, size_t index, std::string_view field) {
  if (!value.is_number_integer() || value.get<int64_t>() < 0) {
    return RuleError(index, fmt::format("\"{}\" must be a whole number, 0 or more", field));
  }
  return value.get<int64_t>();
}

Result<int64_t> Delay(const Json& value, size_t index, std::string_view field) {
  LBT_ASSIGN_OR_RETURN(int64_t ms, Count(value, index, field));
  if (ms > kMaxDelayMs) {
    return RuleError(index, fmt::format("\"{}\" may be at most {} (a day)", field, kMaxDelayMs));
  }
  return ms;
}

Status SetField(FaultRule* rule, const std::string& field, const Json& value, size_t i) {
  if (field == "rpc") {
    LBT_ASSIGN_OR_RETURN(rule->rpc, Text(value, i, field));
  } else if (field == "table") {
    LBT_ASSIGN_OR_RETURN(rule->table, Text(value, i, field));
  } else if (field == "row_prefix") {
    LBT_ASSIGN_OR_RETURN(rule->row_prefix, Text(value, i, field));
  } else if (field == "app_profile") {
    LBT_ASSIGN_OR_RETURN(rule->app_profile, Text(value, i, field));
  } else if (field == "message") {
    LBT_ASSIGN_OR_RETURN(rule->message, Text(value, i, field));
  } else if (field == "code") {
    LBT_ASSIGN_OR_RETURN(std::string name, Text(value, i, field));
    rule->code = GrpcCodeFromName(name);
    if (rule->code == 0) return RuleError(i, "\"OK\" is no failure: choose a code such as UNAVAILABLE");
    if (rule->code < 0)
      return RuleError(i, fmt::format("{} is not a gRPC status code such as UNAVAILABLE", Quoted(name)));
    // lbt's statuses answer OUT_OF_RANGE as Bigtable does (INVALID_ARGUMENT)
    // and have no UNKNOWN: a rule cannot promise them.
    if (name == "OUT_OF_RANGE" || name == "UNKNOWN") {
      return RuleError(i, fmt::format("lbt serve cannot answer {} (choose another code)", name));
    }
  } else if (field == "latency_ms") {
    LBT_ASSIGN_OR_RETURN(rule->latency_ms, Delay(value, i, field));
  } else if (field == "retry_delay_ms") {
    LBT_ASSIGN_OR_RETURN(rule->retry_delay_ms, Delay(value, i, field));
  } else if (field == "after_rows") {
    LBT_ASSIGN_OR_RETURN(rule->after_rows, Count(value, i, field));
  } else if (field == "times") {
    LBT_ASSIGN_OR_RETURN(rule->times, Count(value, i, field));
    if (*rule->times == 0) return RuleError(i, "\"times\" 0 would never fire (leave it out for always)");
  } else if (field == "seed") {
    LBT_ASSIGN_OR_RETURN(int64_t seed, Count(value, i, field));
    rule->seed = static_cast<uint64_t>(seed);
  } else if (field == "entries") {
    if (!value.is_boolean()) return RuleError(i, "\"entries\" must be true or false");
    rule->entries = value.get<bool>();
  } else if (field == "probability") {
    if (!value.is_number() || !(value.get<double>() >= 0 && value.get<double>() <= 1)) {
      return RuleError(i, "\"probability\" must be a number from 0 to 1");
    }
    rule->probability = value.get<double>();
  } else {
    return RuleError(i, fmt::format("unknown field {}", Quoted(field)));
  }
  return Status::OK();
}

// The files of the services whose calls rules match: an `rpc` must name
// one of their methods (a misspelt name would match nothing, silently).
// Reached through a message of each, which links the file in.
std::array<const google::protobuf::FileDescriptor*, 4> ServiceFiles() {
  return {google::bigtable::v2::ReadRowsRequest::descriptor()->file(),
          google::bigtable::admin::v2::CreateTableRequest::descriptor()->file(),
          google::bigtable::admin::v2::CreateInstanceRequest::descriptor()->file(),
          google::longrunning::GetOperationRequest::descriptor()->file()};
}

bool IsRpcName(std::string_view name) {
  for (const google::protobuf::FileDescriptor* file : ServiceFiles()) {
    for (int i = 0; i < file->service_count(); ++i) {
      if (file->service(i)->FindMethodByName(std::string(name)) != nullptr) return true;
    }
  }
  return false;
}

// The calls that carry one row key, which `row_prefix` matches.
bool IsSingleRowRpc(std::string_view rpc) {
  return rpc == "MutateRow" || rpc == "CheckAndMutateRow" || rpc == "ReadModifyWriteRow";
}

// What a rule must say to mean something, and what fits together: a rule
// that could never match is refused rather than left to do nothing.
Status CheckRule(const FaultRule& rule, size_t i) {
  if (rule.rpc != "*" && !IsRpcName(rule.rpc)) {
    return RuleError(i, fmt::format("{} is not an RPC of Bigtable's APIs (e.g. ReadRows, MutateRows, CreateTable)",
                                    Quoted(rule.rpc)));
  }
  if (rule.code == 0 && rule.latency_ms == 0) return RuleError(i, "it sets neither \"code\" nor \"latency_ms\"");
  if (rule.code == 0 && (rule.after_rows || rule.entries || rule.retry_delay_ms)) {
    return RuleError(i, "\"after_rows\", \"entries\" and \"retry_delay_ms\" need a \"code\"");
  }
  if (rule.entries && rule.row_prefix.empty()) return RuleError(i, "\"entries\" needs a \"row_prefix\"");
  if (rule.entries && rule.rpc != "MutateRows") return RuleError(i, "\"entries\" needs \"rpc\": \"MutateRows\"");
  if (!rule.row_prefix.empty() && !rule.entries && rule.rpc != "*" && !IsSingleRowRpc(rule.rpc)) {
    return RuleError(i, fmt::format("{} calls carry no single row key for \"row_prefix\" (MutateRow, "
                                    "CheckAndMutateRow and ReadModifyWriteRow do; MutateRows with \"entries\")",
                                    rule.rpc));
  }
  if (rule.after_rows && rule.rpc != "ReadRows" && rule.rpc != "ExecuteQuery") {
    return RuleError(i, "\"after_rows\" needs \"rpc\": \"ReadRows\" or \"ExecuteQuery\"");
  }
  if (!rule.table.empty() && (rule.rpc == "ExecuteQuery" || rule.rpc == "PrepareQuery")) {
    return RuleError(i,
                     fmt::format("{} calls name no table (a query's tables are in its SQL): drop \"table\"", rule.rpc));
  }
  return Status::OK();
}

// A rule as a rule file writes it: the fields it sets, rpc first.
nlohmann::ordered_json RuleJson(const FaultRule& r) {
  nlohmann::ordered_json rule = {{"rpc", r.rpc}};
  if (!r.table.empty()) rule["table"] = r.table;
  if (!r.row_prefix.empty()) rule["row_prefix"] = r.row_prefix;
  if (!r.app_profile.empty()) rule["app_profile"] = r.app_profile;
  if (r.code != 0) rule["code"] = GrpcCodeName(r.code);
  if (!r.message.empty()) rule["message"] = r.message;
  if (r.latency_ms != 0) rule["latency_ms"] = r.latency_ms;
  if (r.retry_delay_ms) rule["retry_delay_ms"] = *r.retry_delay_ms;
  if (r.after_rows) rule["after_rows"] = *r.after_rows;
  if (r.entries) rule["entries"] = true;
  if (r.times) rule["times"] = *r.times;
  if (r.probability < 1) rule["probability"] = r.probability;
  if (r.seed) rule["seed"] = *r.seed;
  return rule;
}

}  // namespace

int GrpcCodeFromName(std::string_view name) {
  for (size_t i = 0; i < kCodeNames.size(); ++i) {
    if (kCodeNames[i] == name) return static_cast<int>(i);
  }
  return -1;
}

std::string GrpcCodeName(int code) {
  return code >= 0 && code < static_cast<int>(kCodeNames.size()) ? std::string(kCodeNames[code])
                                                                 : fmt::format("CODE_{}", code);
}

Result<std::vector<FaultRule>> ParseFaultRules(std::string_view json) {
  if (!JsonNestsAtMost(json, kMaxNesting)) {
    return Status::InvalidArgument(fmt::format("fault rules: the JSON nests deeper than {} levels", kMaxNesting));
  }
  const Json doc = Json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::InvalidArgument("fault rules: the text is not JSON");
  if (!doc.is_array() && !doc.is_object()) {
    return Status::InvalidArgument("fault rules: expected a JSON array of rule objects");
  }
  const Json list = doc.is_object() ? Json::array({doc}) : doc;  // one rule, alone
  std::vector<FaultRule> rules;
  for (size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_object()) return RuleError(i, "expected a JSON object");
    FaultRule rule;
    for (const auto& [field, value] : list[i].items()) LBT_RETURN_IF_ERROR(SetField(&rule, field, value, i));
    LBT_RETURN_IF_ERROR(CheckRule(rule, i));
    rules.push_back(std::move(rule));
  }
  return rules;
}

// ---- FaultInjector ----

FaultInjector::Live FaultInjector::Start(FaultRule rule) {
  const uint64_t seed = rule.seed ? *rule.seed : std::random_device()();
  return Live{std::move(rule), 0, std::mt19937_64(seed)};
}

void FaultInjector::Replace(std::vector<FaultRule> rules) {
  std::vector<Live> live;
  for (FaultRule& rule : rules) live.push_back(Start(std::move(rule)));
  std::lock_guard<std::mutex> lock(mu_);
  rules_ = std::move(live);
  ++generation_;
  empty_.store(rules_.empty(), std::memory_order_relaxed);
}

void FaultInjector::Add(std::vector<FaultRule> rules) {
  std::lock_guard<std::mutex> lock(mu_);
  for (FaultRule& rule : rules) rules_.push_back(Start(std::move(rule)));
  empty_.store(rules_.empty(), std::memory_order_relaxed);
}

bool FaultInjector::Matches(const FaultRule& rule, const FaultCall& call) {
  if (rule.rpc != "*" && rule.rpc != call.rpc) return false;
  if (!rule.table.empty() && rule.table != call.table) return false;
  const std::string_view profile = call.app_profile.empty() ? std::string_view("default") : call.app_profile;
  if (!rule.app_profile.empty() && rule.app_profile != profile) return false;
  if (rule.row_prefix.empty()) return true;
  if (call.row_key.empty()) {
    return rule.entries && call.has_row_with_prefix && call.has_row_with_prefix(rule.row_prefix);
  }
  return call.row_key.starts_with(rule.row_prefix);
}

std::optional<Fault> FaultInjector::Next(const FaultCall& call) {
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 0; i < rules_.size(); ++i) {
    Live& live = rules_[i];
    const FaultRule& rule = live.rule;
    if (rule.times && live.fired >= *rule.times) continue;  // spent
    if (!Matches(rule, call)) continue;
    if (rule.probability < 1 && std::uniform_real_distribution<double>(0, 1)(live.random) >= rule.probability) {
      continue;
    }
    ++live.fired;
    return Fault{i,
                 generation_,
                 rule.code,
                 rule.message,
                 rule.latency_ms,
                 rule.retry_delay_ms,
                 rule.after_rows,
                 rule.entries,
                 rule.row_prefix};
  }
  return std::nullopt;
}

void FaultInjector::Refund(const Fault& fault) {
  std::lock_guard<std::mutex> lock(mu_);
  if (fault.generation != generation_ || fault.rule >= rules_.size()) return;
  if (rules_[fault.rule].fired > 0) --rules_[fault.rule].fired;
}

std::vector<FaultInjector::RuleState> FaultInjector::Rules() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<RuleState> states;
  for (const Live& live : rules_) states.push_back(RuleState{RuleJson(live.rule).dump(), live.fired});
  return states;
}

}  // namespace lbt::server
