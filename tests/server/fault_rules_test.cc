// Fault rules: what a rule file may say, the one-line errors for what it
// may not, and which calls each rule fires on.

#include "server/fault_rules.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace lbt::server {
namespace {

std::string ParseError(std::string_view json) {
  Result<std::vector<FaultRule>> rules = ParseFaultRules(json);
  EXPECT_FALSE(rules.ok()) << json;
  return rules.ok() ? "" : rules.status().message();
}

TEST(FaultRulesTest, ParsesEveryField) {
  Result<std::vector<FaultRule>> rules = ParseFaultRules(R"([
    {"rpc": "ReadRows", "table": "events", "after_rows": 1000, "code": "UNAVAILABLE", "retry_delay_ms": 50},
    {"rpc": "MutateRows", "row_prefix": "user#", "entries": true, "code": "PERMISSION_DENIED", "message": "no"},
    {"latency_ms": 300, "probability": 0.5, "seed": 7, "times": 3, "app_profile": "batch"}])");
  ASSERT_TRUE(rules.ok()) << rules.status().ToString();
  ASSERT_EQ(rules->size(), 3u);
  EXPECT_EQ((*rules)[0].code, 14);  // gRPC's UNAVAILABLE
  EXPECT_EQ((*rules)[0].after_rows, 1000);
  EXPECT_EQ((*rules)[0].retry_delay_ms, 50);
  EXPECT_TRUE((*rules)[1].entries);
  EXPECT_EQ((*rules)[1].message, "no");
  EXPECT_EQ((*rules)[2].rpc, "*");
  EXPECT_EQ((*rules)[2].times, 3);
  EXPECT_EQ((*rules)[2].seed, 7u);
  EXPECT_TRUE(ParseFaultRules("[]").ok());
}

TEST(FaultRulesTest, BadRulesSayWhatIsWrongInOneLine) {
  EXPECT_EQ(ParseError("[{"), "fault rules: the text is not JSON");
  EXPECT_EQ(ParseError(R"("UNAVAILABLE")"), "fault rules: expected a JSON array of rule objects");
  EXPECT_EQ(ParseError(R"([{"code": "UNAVAILABLE", "tabel": "t"}])"), "fault rule 1: unknown field \"tabel\"");
  EXPECT_EQ(ParseError(R"([{"code": "UNAVAILABLE"}, {"code": "SOMETIMES"}])"),
            "fault rule 2: \"SOMETIMES\" is not a gRPC status code such as UNAVAILABLE");
  EXPECT_EQ(ParseError(R"([{"code": "OK"}])"), "fault rule 1: \"OK\" is no failure: choose a code such as UNAVAILABLE");
  // A name with a newline stays on one line, quoted as JSON quotes it.
  EXPECT_EQ(ParseError(R"([{"code": "UNAVAILABLE", "ta\nble": 1}])"), "fault rule 1: unknown field \"ta\\nble\"");
  EXPECT_EQ(ParseError(R"([{"code": "UNAVAILABLE", "latency_ms": 86400001}])"),
            "fault rule 1: \"latency_ms\" may be at most 86400000 (a day)");
  EXPECT_EQ(ParseError(R"([{"code": "UNAVAILABLE", "times": 0}])"),
            "fault rule 1: \"times\" 0 would never fire (leave it out for always)");
  // Deep nesting is refused before the parser would recurse through it.
  EXPECT_EQ(ParseError(std::string(200000, '[') + std::string(200000, ']')),
            "fault rules: the JSON nests deeper than 8 levels");
  EXPECT_EQ(ParseError(R"([{"code": "UNAVAILABLE", "probability": 2}])"),
            "fault rule 1: \"probability\" must be a number from 0 to 1");
  EXPECT_EQ(ParseError(R"([{"code": "UNAVAILABLE", "times": -1}])"),
            "fault rule 1: \"times\" must be a whole number, 0 or more");
  EXPECT_EQ(ParseError(R"([{"rpc": "ReadRows"}])"), "fault rule 1: it sets neither \"code\" nor \"latency_ms\"");
  EXPECT_EQ(ParseError(R"([{"latency_ms": 5, "after_rows": 3}])"),
            "fault rule 1: \"after_rows\", \"entries\" and \"retry_delay_ms\" need a \"code\"");
  EXPECT_EQ(ParseError(R"([{"code": "ABORTED", "entries": true}])"),
            "fault rule 1: \"entries\" needs a \"row_prefix\"");
  EXPECT_EQ(ParseError(R"([3])"), "fault rule 1: expected a JSON object");
  EXPECT_EQ(ParseError(R"([{"code": "OUT_OF_RANGE"}])"),
            "fault rule 1: lbt serve cannot answer OUT_OF_RANGE (choose another code)");
}

// A rule that could never match is refused rather than left to do nothing.
TEST(FaultRulesTest, RulesThatCouldNeverMatchAreRefused) {
  EXPECT_EQ(ParseError(R"([{"rpc": "ReadRow", "code": "ABORTED"}])"),
            "fault rule 1: \"ReadRow\" is not an RPC of Bigtable's APIs (e.g. ReadRows, MutateRows, CreateTable)");
  EXPECT_EQ(ParseError(R"([{"rpc": "ReadRows", "row_prefix": "a", "entries": true, "code": "ABORTED"}])"),
            "fault rule 1: \"entries\" needs \"rpc\": \"MutateRows\"");
  EXPECT_EQ(ParseError(R"([{"rpc": "ReadRows", "row_prefix": "a", "code": "ABORTED"}])"),
            "fault rule 1: ReadRows calls carry no single row key for \"row_prefix\" (MutateRow, "
            "CheckAndMutateRow and ReadModifyWriteRow do; MutateRows with \"entries\")");
  EXPECT_EQ(ParseError(R"([{"rpc": "MutateRows", "after_rows": 3, "code": "ABORTED"}])"),
            "fault rule 1: \"after_rows\" needs \"rpc\": \"ReadRows\" or \"ExecuteQuery\"");
  EXPECT_EQ(ParseError(R"([{"rpc": "ExecuteQuery", "table": "t", "code": "ABORTED"}])"),
            "fault rule 1: ExecuteQuery calls name no table (a query's tables are in its SQL): drop \"table\"");
  // Every service's RPCs are names a rule may use.
  for (const char* rpc : {"ReadRows", "ExecuteQuery", "PrepareQuery", "CreateTable", "ListInstances", "GetOperation",
                          "ReadChangeStream", "CreateMaterializedView"}) {
    EXPECT_TRUE(ParseFaultRules(fmt::format(R"([{{"rpc": "{}", "code": "ABORTED"}}])", rpc)).ok()) << rpc;
  }
}

// A request without an app profile is the "default" profile's.
TEST(FaultRulesTest, NoAppProfileIsTheDefaultOne) {
  FaultInjector faults;
  faults.Replace(*ParseFaultRules(R"([{"app_profile": "default", "code": "ABORTED"}])"));
  EXPECT_TRUE(faults.Next({"ReadRows", "t", "", ""}));
  EXPECT_TRUE(faults.Next({"ReadRows", "t", "", "default"}));
  EXPECT_FALSE(faults.Next({"ReadRows", "t", "", "batch"}));
}

// A fault given back (a stream that ended before its cut) does not spend
// its rule's times; one from rules since replaced changes nothing.
TEST(FaultRulesTest, ARefundedFaultDoesNotSpendItsRule) {
  FaultInjector faults;
  faults.Replace(*ParseFaultRules(R"([{"rpc": "ReadRows", "after_rows": 5, "code": "ABORTED", "times": 1}])"));
  std::optional<Fault> first = faults.Next({"ReadRows", "t", "", ""});
  ASSERT_TRUE(first);
  faults.Refund(*first);
  EXPECT_EQ(faults.Rules()[0].fired, 0);
  std::optional<Fault> second = faults.Next({"ReadRows", "t", "", ""});
  ASSERT_TRUE(second);
  EXPECT_FALSE(faults.Next({"ReadRows", "t", "", ""}));  // spent
  faults.Replace(*ParseFaultRules(R"([{"rpc": "ReadRows", "after_rows": 5, "code": "ABORTED", "times": 1}])"));
  faults.Refund(*second);  // of the old rules: no effect on the new
  EXPECT_EQ(faults.Rules()[0].fired, 0);
  EXPECT_TRUE(faults.Next({"ReadRows", "t", "", ""}));
  EXPECT_EQ(faults.Rules()[0].fired, 1);
}

// The shell adds one rule at a time: a rule object alone is a list of one.
TEST(FaultRulesTest, ARuleObjectAloneIsOneRule) {
  Result<std::vector<FaultRule>> rules = ParseFaultRules(R"({"rpc": "MutateRows", "code": "UNAVAILABLE"})");
  ASSERT_TRUE(rules.ok()) << rules.status().ToString();
  ASSERT_EQ(rules->size(), 1u);
  EXPECT_EQ((*rules)[0].rpc, "MutateRows");
}

// Added rules go after those in force, whose counts they leave alone; each
// rule reads back as the JSON a file would hold.
TEST(FaultRulesTest, AddedRulesFollowTheOthersAndReadBack) {
  FaultInjector faults;
  faults.Replace(*ParseFaultRules(R"([{"rpc": "MutateRow", "code": "UNAVAILABLE", "times": 1}])"));
  EXPECT_TRUE(faults.Next({"MutateRow", "t", "a", ""}));
  faults.Add(*ParseFaultRules(R"({"rpc": "ReadRows", "table": "t", "after_rows": 5, "code": "ABORTED"})"));
  EXPECT_TRUE(faults.Next({"ReadRows", "t", "", ""}));
  EXPECT_TRUE(faults.Next({"ReadRows", "t", "", ""}));
  const std::vector<FaultInjector::RuleState> rules = faults.Rules();
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[0].json, R"({"rpc":"MutateRow","code":"UNAVAILABLE","times":1})");
  EXPECT_EQ(rules[0].fired, 1);
  EXPECT_EQ(rules[1].json, R"({"rpc":"ReadRows","table":"t","code":"ABORTED","after_rows":5})");
  EXPECT_EQ(rules[1].fired, 2);
  // What a rule reads back as parses to the same rule.
  EXPECT_EQ(ParseFaultRules(rules[1].json)->front().after_rows, 5);
}

TEST(FaultRulesTest, RulesMatchAndSpendThemselves) {
  FaultInjector faults;
  EXPECT_TRUE(faults.empty());
  Result<std::vector<FaultRule>> rules = ParseFaultRules(R"([
    {"rpc": "MutateRow", "table": "t", "row_prefix": "a", "code": "UNAVAILABLE", "times": 2},
    {"rpc": "MutateRows", "row_prefix": "b", "entries": true, "code": "ABORTED"},
    {"rpc": "*", "app_profile": "slow", "latency_ms": 20}])");
  ASSERT_TRUE(rules.ok());
  faults.Replace(*rules);
  // Another table, another key, another RPC: no fault.
  EXPECT_FALSE(faults.Next({"MutateRow", "u", "a1", ""}));
  EXPECT_FALSE(faults.Next({"MutateRow", "t", "b1", ""}));
  EXPECT_FALSE(faults.Next({"ReadRows", "t", "", ""}));
  // The first rule fires twice, then is spent.
  for (int i = 0; i < 2; ++i) {
    std::optional<Fault> fault = faults.Next({"MutateRow", "t", "a1", ""});
    ASSERT_TRUE(fault);
    EXPECT_EQ(fault->rule, 0u);
    EXPECT_EQ(fault->code, 14);
  }
  EXPECT_FALSE(faults.Next({"MutateRow", "t", "a1", ""}));
  // An entries rule matches a batch with a "b" entry (the handler fails
  // those), and not one without.
  auto has_b = [](std::string_view prefix) { return prefix == "b"; };
  EXPECT_FALSE(faults.Next({"MutateRows", "t", "", "", [](std::string_view) { return false; }}));
  std::optional<Fault> batch = faults.Next({"MutateRows", "t", "", "", has_b});
  ASSERT_TRUE(batch);
  EXPECT_TRUE(batch->entries);
  EXPECT_EQ(batch->row_prefix, "b");
  std::optional<Fault> slow = faults.Next({"CheckAndMutateRow", "t", "z", "slow"});
  ASSERT_TRUE(slow);
  EXPECT_EQ(slow->code, 0);
  EXPECT_EQ(slow->latency_ms, 20);
  EXPECT_EQ(faults.Rules()[0].fired, 2);
  // Replacing the rules starts their counts over.
  faults.Replace({});
  EXPECT_TRUE(faults.empty());
  EXPECT_FALSE(faults.Next({"MutateRow", "t", "a1", ""}));
}

TEST(FaultRulesTest, ASeedMakesProbabilityRepeatable) {
  auto run = [](const char* json) {
    FaultInjector faults;
    faults.Replace(*ParseFaultRules(json));
    std::string fired;
    for (int i = 0; i < 200; ++i) fired += faults.Next({"ReadRows", "t", "", ""}) ? '1' : '0';
    return fired;
  };
  const char* rule = R"([{"code": "UNAVAILABLE", "probability": 0.25, "seed": 42}])";
  const std::string first = run(rule);
  EXPECT_EQ(first, run(rule));
  const auto count = std::count(first.begin(), first.end(), '1');
  EXPECT_GT(count, 20);  // about 50 of 200
  EXPECT_LT(count, 90);
  EXPECT_NE(first, run(R"([{"code": "UNAVAILABLE", "probability": 0.25, "seed": 43}])"));
  EXPECT_EQ(run(R"([{"code": "UNAVAILABLE", "probability": 0}])"), std::string(200, '0'));
}

}  // namespace
}  // namespace lbt::server
