// The fault rules of an lbt serve: which of its calls fail or wait, for a
// test suite to try its retries (`lbt serve --faults FILE`, the shell's
// `faults` command). Only lbt serve has them; a Bigtable that reaches a
// server gives them through Bigtable::server_faults(), whose calls fail
// with FailedPrecondition, in one line, where the service has none
// (Bigtable itself, its emulator).
//
// A rule is a JSON object, a rule file's (see the README's lbt serve
// section): {"rpc": "MutateRows", "code": "UNAVAILABLE", "times": 2}.

#ifndef LBT_API_SERVER_FAULTS_H_
#define LBT_API_SERVER_FAULTS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"

namespace lbt {

// One rule in force.
struct FaultRuleState {
  std::string rule_json;  // the rule as a JSON object, its fields as a rule file sets them
  int64_t fired = 0;      // how many calls it failed or delayed
};

class ServerFaults {
 public:
  virtual ~ServerFaults() = default;

  // The rules in force, in the order they are tried.
  virtual Result<std::vector<FaultRuleState>> List() = 0;
  // Puts the rules of `rules_json` (a rule object or a JSON array of them)
  // in force after the others, and returns them all. InvalidArgument
  // naming the rule and its problem, and nothing added, for a bad one.
  virtual Result<std::vector<FaultRuleState>> Add(std::string_view rules_json) = 0;
  // Removes every rule in force.
  virtual Status Clear() = 0;
};

}  // namespace lbt

#endif  // LBT_API_SERVER_FAULTS_H_
