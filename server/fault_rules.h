// Fault and latency injection rules for lbt serve in test suites: which
// calls fail, how, how often. A rule file is a JSON array of rule objects;
// a rule matches a call when every field it sets matches. The rules are
// plain data here; the handlers ask a FaultInjector what to do with each
// call before doing its work, so that a failed call changes nothing.
//
//   [{"rpc": "MutateRows", "code": "UNAVAILABLE", "times": 2},
//    {"rpc": "ReadRows", "table": "events", "after_rows": 1000, "code": "UNAVAILABLE"},
//    {"rpc": "*", "latency_ms": 300, "probability": 0.1, "seed": 7}]

#ifndef LBT_SERVER_FAULT_RULES_H_
#define LBT_SERVER_FAULT_RULES_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"

namespace lbt::server {

struct FaultRule {
  // What the rule matches; empty (or "*" for rpc) matches anything.
  std::string rpc = "*";
  std::string table;  // the table id, not its full name
  std::string row_prefix;
  std::string app_profile;
  // What it does: fail with `code` (a gRPC status code; 0 for none, when
  // the rule only delays), after `latency_ms`; a failure carries a
  // google.rpc.RetryInfo of `retry_delay_ms` when that is set.
  int code = 0;
  std::string message;
  int64_t latency_ms = 0;
  std::optional<int64_t> retry_delay_ms;
  // A stream (ReadRows, ExecuteQuery) fails after sending this many rows.
  std::optional<int64_t> after_rows;
  // MutateRows: only the entries whose key starts with row_prefix fail, in
  // their per-entry status.
  bool entries = false;
  // How often: at most `times` calls (then the rule is spent), each with
  // `probability`, drawn from a generator seeded with `seed` when given.
  std::optional<int64_t> times;
  double probability = 1;
  std::optional<uint64_t> seed;
};

// The rules of a rule file's text (a JSON array of rule objects, or one
// rule object alone). INVALID_ARGUMENT in one line naming the
// rule and the problem: malformed JSON, an unknown field or status code, a
// probability outside [0, 1], a negative count, a rule that does nothing.
Result<std::vector<FaultRule>> ParseFaultRules(std::string_view json);

// A gRPC status code's name ("UNAVAILABLE") and back; -1 for an unknown name.
int GrpcCodeFromName(std::string_view name);
std::string GrpcCodeName(int code);

// What one call gets.
struct Fault {
  size_t rule = 0;          // its index in the rules
  uint64_t generation = 0;  // of the rules it came from (FaultInjector::Refund)
  int code = 0;             // 0: no failure, only the latency
  std::string message;
  int64_t latency_ms = 0;
  std::optional<int64_t> retry_delay_ms;
  std::optional<int64_t> after_rows;
  bool entries = false;
  std::string row_prefix;
};

// The call a handler asks about.
struct FaultCall {
  std::string_view rpc;
  std::string_view table;    // table id; empty when the call names none
  std::string_view row_key;  // a single-row call's key; empty otherwise
  std::string_view app_profile;
  // A multi-row call's: whether one of its rows starts with the prefix
  // (MutateRows' entries); null for calls without rows.
  std::function<bool(std::string_view prefix)> has_row_with_prefix;
};

// The rules in force, with how often each fired. Thread-safe.
class FaultInjector {
 public:
  // Puts `rules` in force, their counts from zero.
  void Replace(std::vector<FaultRule> rules);
  // The fault the first matching rule that fires gives `call`, counting it;
  // nullopt when none does. A rule with row_prefix matches a call with a
  // row key starting with it, and a multi-row call (no row key) when it
  // sets `entries` and the call has such a row (`has_row_with_prefix`; the
  // handler then fails only those entries). A call without an app profile
  // is the "default" profile's, as Bigtable takes it.
  std::optional<Fault> Next(const FaultCall& call);
  // Takes back the count of a fault that did nothing after all (a stream
  // that ended before its after_rows cut), so that its rule's `times` is
  // not spent on it. A no-op once the rules were replaced.
  void Refund(const Fault& fault);
  // Puts `rules` in force after those in force, their counts from zero.
  void Add(std::vector<FaultRule> rules);
  // Each rule in force: its JSON object (a rule file's fields) and how
  // many times it fired.
  struct RuleState {
    std::string json;
    int64_t fired = 0;
  };
  std::vector<RuleState> Rules() const;
  // Whether no rule is in force: one atomic load, for every call.
  bool empty() const { return empty_.load(std::memory_order_relaxed); }

 private:
  struct Live {
    FaultRule rule;
    int64_t fired = 0;
    std::mt19937_64 random;
  };
  static bool Matches(const FaultRule& rule, const FaultCall& call);
  static Live Start(FaultRule rule);

  mutable std::mutex mu_;
  std::vector<Live> rules_;
  uint64_t generation_ = 0;        // counts Replace calls: a fault's indices hold within one
  std::atomic<bool> empty_{true};  // read without the lock on every call
};

}  // namespace lbt::server

#endif  // LBT_SERVER_FAULT_RULES_H_
