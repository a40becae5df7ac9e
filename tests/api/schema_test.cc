#include "api/schema.h"

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace lbt {
namespace {

constexpr int64_t kDay = 86'400'000'000;
constexpr int64_t kNow = 100 * kDay;

TEST(GcRuleTest, NeverCollectsNothing) {
  GcRule r = GcRule::Never();
  EXPECT_FALSE(r.Collects(1000, 0, kNow));
  EXPECT_FALSE(r.CanCollect());
}

TEST(GcRuleTest, MaxVersionsKeepsTheNewestN) {
  GcRule r = GcRule::MaxVersions(2);
  EXPECT_FALSE(r.Collects(0, 0, kNow));
  EXPECT_FALSE(r.Collects(1, 0, kNow));
  EXPECT_TRUE(r.Collects(2, kNow, kNow));
}

TEST(GcRuleTest, MaxAgeCollectsCellsOlderThanTheAge) {
  GcRule r = GcRule::MaxAge(kDay);
  EXPECT_FALSE(r.Collects(5, kNow - kDay, kNow));  // exactly the age: kept
  EXPECT_TRUE(r.Collects(0, kNow - kDay - 1000, kNow));
  EXPECT_FALSE(r.Collects(0, kNow + kDay, kNow));  // future cells are young
}

TEST(GcRuleTest, IntersectionNeedsEveryRule) {
  GcRule r = GcRule::Intersection({GcRule::MaxAge(kDay), GcRule::MaxVersions(1)});
  EXPECT_FALSE(r.Collects(0, 0, kNow));               // old but newest
  EXPECT_FALSE(r.Collects(3, kNow, kNow));            // extra version but young
  EXPECT_TRUE(r.Collects(3, kNow - 2 * kDay, kNow));  // old and extra
}

TEST(GcRuleTest, UnionNeedsAnyRule) {
  GcRule r = GcRule::Union({GcRule::MaxAge(kDay), GcRule::MaxVersions(1)});
  EXPECT_TRUE(r.Collects(0, 0, kNow));
  EXPECT_TRUE(r.Collects(3, kNow, kNow));
  EXPECT_FALSE(r.Collects(0, kNow, kNow));
}

TEST(GcRuleTest, NestedRules) {
  // (age > 1d && versions > 2) || versions > 5
  GcRule r =
      GcRule::Union({GcRule::Intersection({GcRule::MaxAge(kDay), GcRule::MaxVersions(2)}), GcRule::MaxVersions(5)});
  EXPECT_FALSE(r.Collects(2, kNow, kNow));
  EXPECT_TRUE(r.Collects(2, 0, kNow));
  EXPECT_FALSE(r.Collects(1, 0, kNow));
  EXPECT_TRUE(r.Collects(5, kNow, kNow));
  // (age > 1d || versions > 3) && versions > 1
  GcRule s =
      GcRule::Intersection({GcRule::Union({GcRule::MaxAge(kDay), GcRule::MaxVersions(3)}), GcRule::MaxVersions(1)});
  EXPECT_FALSE(s.Collects(0, 0, kNow));
  EXPECT_TRUE(s.Collects(1, 0, kNow));
  EXPECT_FALSE(s.Collects(2, kNow, kNow));
  EXPECT_TRUE(s.Collects(3, kNow, kNow));
}

TEST(GcRuleTest, Validation) {
  EXPECT_OK(GcRule::Never().Validate());
  EXPECT_TRUE(GcRule::MaxVersions(0).Validate().IsInvalidArgument());
  EXPECT_TRUE(GcRule::MaxAge(0).Validate().IsInvalidArgument());
  EXPECT_TRUE(GcRule::Union({}).Validate().IsInvalidArgument());
  EXPECT_TRUE(GcRule::Union({GcRule::MaxVersions(1), GcRule::MaxVersions(-1)}).Validate().IsInvalidArgument());
  EXPECT_OK(GcRule::Intersection({GcRule::MaxVersions(1), GcRule::MaxAge(1000)}).Validate());
}

TEST(SchemaTest, TableNames) {
  EXPECT_OK(ValidateTableName("t"));
  EXPECT_OK(ValidateTableName("_my-table.v2"));
  EXPECT_OK(ValidateTableName(std::string(50, 'a')));
  EXPECT_FALSE(ValidateTableName(std::string(51, 'a')).ok());
  EXPECT_FALSE(ValidateTableName("").ok());
  EXPECT_FALSE(ValidateTableName("-t").ok());
  EXPECT_FALSE(ValidateTableName(".t").ok());
  EXPECT_FALSE(ValidateTableName("a b").ok());
  EXPECT_FALSE(ValidateTableName("a/b").ok());
}

TEST(SchemaTest, FamilyNames) {
  EXPECT_OK(ValidateFamilyName("cf"));
  EXPECT_OK(ValidateFamilyName("-_.9Z"));
  EXPECT_OK(ValidateFamilyName(std::string(64, 'f')));
  EXPECT_FALSE(ValidateFamilyName(std::string(65, 'f')).ok());
  EXPECT_FALSE(ValidateFamilyName("").ok());
  EXPECT_FALSE(ValidateFamilyName("a:b").ok());
  EXPECT_FALSE(ValidateFamilyName(std::string("a\0b", 3)).ok());
}

TEST(SchemaTest, ValueTypes) {
  for (ValueType t : {ValueType::kBytes, ValueType::kIntSum, ValueType::kIntMin, ValueType::kIntMax, ValueType::kString,
                      ValueType::kHllInt64, ValueType::kHllBytes}) {
    auto parsed = ParseValueType(ValueTypeName(t));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, t);
  }
  EXPECT_FALSE(ParseValueType("intavg").ok());
  EXPECT_TRUE(IsAggregate(ValueType::kHllInt64));
  EXPECT_FALSE(IsIntAggregate(ValueType::kHllInt64));
  EXPECT_EQ(StoredValueType(ValueType::kStringUtf8Raw), ValueType::kString);
  EXPECT_FALSE(IsAggregate(ValueType::kString));
}

TEST(SchemaTest, ValueTypeChangesStayOutOfAggregates) {
  EXPECT_TRUE(CheckValueTypeChange("f", ValueType::kBytes, ValueType::kStringUtf8Raw).ok());
  EXPECT_TRUE(CheckValueTypeChange("f", ValueType::kString, ValueType::kBytes).ok());
  EXPECT_TRUE(CheckValueTypeChange("f", ValueType::kIntSum, ValueType::kIntSum).ok());
  EXPECT_FALSE(CheckValueTypeChange("f", ValueType::kBytes, ValueType::kIntSum).ok());
  Status s = CheckValueTypeChange("f", ValueType::kIntMax, ValueType::kString);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("'f'"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace lbt
