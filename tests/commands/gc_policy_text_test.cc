#include "commands/cbt/gc_policy_text.h"

#include <gtest/gtest.h>

#include "api/limits.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

constexpr int64_t kHour = 3'600'000'000;
constexpr int64_t kDay = 24 * kHour;

std::string RoundTrip(std::string_view text) {
  auto rule = ParseGcPolicy(text);
  EXPECT_TRUE(rule.ok()) << text << ": " << rule.status().ToString();
  return rule.ok() ? FormatGcPolicy(*rule) : "";
}

TEST(GcPolicyTextTest, ParsesTermsAndUnits) {
  ASSERT_OK_AND_ASSIGN(GcRule r, ParseGcPolicy("maxversions=3"));
  EXPECT_EQ(r, GcRule::MaxVersions(3));
  ASSERT_OK_AND_ASSIGN(r, ParseGcPolicy("maxage=10d"));
  EXPECT_EQ(r, GcRule::MaxAge(10 * kDay));
  ASSERT_OK_AND_ASSIGN(r, ParseGcPolicy("maxage=1500ms"));
  EXPECT_EQ(r, GcRule::MaxAge(1'500'000));
  ASSERT_OK_AND_ASSIGN(r, ParseGcPolicy("never"));
  EXPECT_EQ(r, GcRule::Never());
}

TEST(GcPolicyTextTest, CombinesLeftToRightLikeCbt) {
  EXPECT_EQ(RoundTrip("maxage=10d||maxversions=1"), "(age() > 10d || versions() > 1)");
  EXPECT_EQ(RoundTrip("maxversions=1 and maxage=1d"), "(versions() > 1 && age() > 1d)");
  EXPECT_EQ(RoundTrip("maxversions=1 or maxversions=2 and maxage=1d"),
            "((versions() > 1 || versions() > 2) && age() > 1d)");
  EXPECT_EQ(RoundTrip("(maxage=1h&&maxversions=3)||maxversions=5"),
            "((age() > 1h && versions() > 3) || versions() > 5)");
  EXPECT_EQ(RoundTrip("maxversions=1 && (maxage=1d || maxversions=4)"),
            "(versions() > 1 && (age() > 1d || versions() > 4))");
}

TEST(GcPolicyTextTest, FormatsAgesAsCbtDoes) {
  EXPECT_EQ(FormatAge(36 * kHour), "36h");
  EXPECT_EQ(FormatAge(2 * kDay), "2d");
  EXPECT_EQ(FormatAge(90 * 60'000'000LL), "90m");
  EXPECT_EQ(FormatAge(60 * 60'000'000LL), "1h");
  EXPECT_EQ(FormatAge(30'000'000), "30000000");
  EXPECT_EQ(FormatGcPolicy(GcRule::Never()), "");
}

TEST(GcPolicyTextTest, RejectsMalformedPolicies) {
  for (const char* bad :
       {"", "bogus", "maxage=10", "maxage=10y", "maxage=d", "maxversions=-1", "maxversions=x", "maxversions=1 and",
        "(maxversions=1", "maxversions=1)", "and maxversions=1", "maxversions=1 maxage=1d"}) {
    Result<GcRule> r = ParseGcPolicy(bad);
    EXPECT_FALSE(r.ok()) << "'" << bad << "' parsed";
    if (!r.ok()) {
      EXPECT_NE(r.status().message().find("GC policy"), std::string::npos) << r.status().message();
    }
  }
}

// Bigtable's max_num_versions is 32 bits: a larger count would be cut short
// on its way to a service (99999999999999 once arrived as 276447231), so the
// text refuses it, saying the limit; ages that overflow 64-bit microseconds
// say so too. The engine's rule refuses the same counts.
TEST(GcPolicyTextTest, RefusesCountsAndAgesBeyondTheirRange) {
  ASSERT_TRUE(ParseGcPolicy("maxversions=2147483647").ok());
  for (const char* big : {"maxversions=2147483648", "maxversions=99999999999999", "maxversions=99999999999999999999"}) {
    Result<GcRule> r = ParseGcPolicy(big);
    ASSERT_FALSE(r.ok()) << big;
    EXPECT_NE(r.status().message().find("at most 2147483647"), std::string::npos) << r.status().message();
  }
  // An age is a protobuf Duration in Bigtable's API: at most 10,000 years.
  for (const char* long_age : {"maxage=99999999999d", "maxage=3652501d", "maxage=315576000001s"}) {
    Result<GcRule> age = ParseGcPolicy(long_age);
    ASSERT_FALSE(age.ok()) << long_age;
    EXPECT_NE(age.status().message().find("too long; Bigtable allows at most"), std::string::npos)
        << age.status().message();
  }
  EXPECT_TRUE(ParseGcPolicy("maxage=3652500d").ok());
  EXPECT_TRUE(ParseGcPolicy("maxage=315576000000s").ok());
  EXPECT_FALSE(GcRule::MaxAge(kMaxGcAgeMicros + 1000).Validate().ok());
  EXPECT_FALSE(GcRule::MaxVersions(2147483648).Validate().ok());
  EXPECT_TRUE(GcRule::MaxVersions(2147483647).Validate().ok());
}

// Whether a policy may keep no version is the service's call: the text
// parses, the engine refuses it, a remote service decides for itself.
TEST(GcPolicyTextTest, ZeroVersionsParseAndTheRuleIsInvalid) {
  Result<GcRule> r = ParseGcPolicy("maxversions=0");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(FormatGcPolicy(*r), "versions() > 0");
  EXPECT_FALSE(r->Validate().ok());
}

TEST(GcPolicyTextTest, ValueTypesPrintAsCbtDoes) {
  EXPECT_EQ(FormatValueType(ValueType::kBytes), "{}");
  EXPECT_EQ(FormatValueType(ValueType::kIntSum),
            R"({"aggregateType":{"inputType":{"int64Type":{"encoding":{"bigEndianBytes":{}}}}, "sum":{}}})");
  EXPECT_NE(FormatValueType(ValueType::kIntMin).find("\"min\":{}"), std::string::npos);
  EXPECT_NE(FormatValueType(ValueType::kIntMax).find("\"max\":{}"), std::string::npos);
}

}  // namespace
}  // namespace lbt
