#include "filter/row_filter.h"

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace lbt {
namespace {

Cell C(std::string family, std::string qualifier, int64_t ts, std::string value, std::vector<std::string> labels = {}) {
  return Cell{std::move(family), std::move(qualifier), ts, std::move(value), std::move(labels)};
}

// A row in storage order: a:x@3, a:x@2, a:y@1, b:x@5.
std::vector<Cell> SampleRow() {
  return {C("a", "x", 3000, "v3"), C("a", "x", 2000, "v2"), C("a", "y", 1000, "w"), C("b", "x", 5000, "z")};
}

std::vector<Cell> Apply(const Filter& f, std::vector<Cell> cells = SampleRow(), std::string row = "row") {
  auto compiled = CompileFilter(f);
  EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
  if (!compiled.ok()) return {};
  EXPECT_OK((*compiled)->Apply(row, &cells));
  return cells;
}

Status CompileError(const Filter& f) { return CompileFilter(f).status(); }

TEST(FilterTest, RegexesMatchTheWholeInput) {
  EXPECT_EQ(Apply(Filter::FamilyNameRegex("a")).size(), 3u);
  EXPECT_EQ(Apply(Filter::FamilyNameRegex("")).size(), 0u);
  EXPECT_EQ(Apply(Filter::QualifierRegex("x")).size(), 3u);
  EXPECT_EQ(Apply(Filter::ValueRegex("v.")).size(), 2u);
  EXPECT_EQ(Apply(Filter::ValueRegex("v")).size(), 0u);
  EXPECT_EQ(Apply(Filter::RowKeyRegex("ro")).size(), 0u);
  EXPECT_EQ(Apply(Filter::RowKeyRegex("ro.")).size(), 4u);
}

TEST(FilterTest, RegexesWorkOnRawBytes) {
  std::vector<Cell> cells = {C("a", std::string("\xff\x00", 2), 0, std::string("\n\x80", 2))};
  EXPECT_EQ(Apply(Filter::QualifierRegex("\\xff\\x00"), cells).size(), 1u);
  EXPECT_EQ(Apply(Filter::ValueRegex("\\C\\C"), cells).size(), 1u);
  EXPECT_EQ(Apply(Filter::ValueRegex(".."), cells).size(), 0u) << "'.' does not match a newline";
  EXPECT_EQ(Apply(Filter::ValueRegex(".\\x80"), cells).size(), 0u);
}

TEST(FilterTest, RangesAndLimits) {
  EXPECT_EQ(Apply(Filter::ColumnRange("a", ByteBound::Open("x"), ByteBound::Unbounded())),
            (std::vector<Cell>{C("a", "y", 1000, "w")}));
  EXPECT_EQ(Apply(Filter::ColumnRange("b", ByteBound::Closed("x"), ByteBound::Closed("x"))).size(), 1u);
  EXPECT_EQ(Apply(Filter::TimestampRange(2000, 5000)).size(), 2u);
  EXPECT_EQ(Apply(Filter::TimestampRange(2000, 0)).size(), 3u);
  EXPECT_EQ(Apply(Filter::ValueRange(ByteBound::Closed("v2"), ByteBound::Open("w"))).size(), 2u);
  EXPECT_EQ(Apply(Filter::CellsPerColumnLimit(1)),
            (std::vector<Cell>{C("a", "x", 3000, "v3"), C("a", "y", 1000, "w"), C("b", "x", 5000, "z")}));
  // Offset and limit count cells across families, in storage order.
  EXPECT_EQ(Apply(Filter::Chain({Filter::CellsPerRowOffset(2), Filter::CellsPerRowLimit(2)})),
            (std::vector<Cell>{C("a", "y", 1000, "w"), C("b", "x", 5000, "z")}));
  EXPECT_EQ(Apply(Filter::Chain({Filter::CellsPerRowOffset(1), Filter::CellsPerRowLimit(2)})),
            (std::vector<Cell>{C("a", "x", 2000, "v2"), C("a", "y", 1000, "w")}));
}

TEST(FilterTest, InterleaveKeepsDuplicatesInStorageOrder) {
  auto out = Apply(Filter::Interleave({Filter::QualifierRegex("x"), Filter::FamilyNameRegex("a")}));
  EXPECT_EQ(out, (std::vector<Cell>{C("a", "x", 3000, "v3"), C("a", "x", 3000, "v3"), C("a", "x", 2000, "v2"),
                                    C("a", "x", 2000, "v2"), C("a", "y", 1000, "w"), C("b", "x", 5000, "z")}));
}

// A row whose families come in creation order, "z" before "a": merges keep
// the row's own family order, also inside a condition's branch.
TEST(FilterTest, MergesKeepTheRowsFamilyOrder) {
  const std::vector<Cell> row = {C("z", "q", 2000, "z2"), C("z", "q", 1000, "z1"), C("a", "q", 1000, "a1")};
  const Filter interleave = Filter::Interleave({Filter::FamilyNameRegex("a"), Filter::FamilyNameRegex("z")});
  const std::vector<Cell> expected = {C("z", "q", 2000, "z2"), C("z", "q", 1000, "z1"), C("a", "q", 1000, "a1")};
  EXPECT_EQ(Apply(interleave, row), expected);
  EXPECT_EQ(Apply(Filter::Condition(Filter::PassAll(), interleave, std::nullopt), row), expected);
  EXPECT_EQ(Apply(Filter::Chain({interleave, Filter::CellsPerRowLimit(1)}), row),
            (std::vector<Cell>{C("z", "q", 2000, "z2")}));
}

TEST(FilterTest, ConditionChoosesABranchAndMissingBranchesYieldNothing) {
  Filter has_b = Filter::FamilyNameRegex("b");
  EXPECT_EQ(Apply(Filter::Condition(has_b, Filter::StripValue(), Filter::BlockAll()))[0].value, "");
  EXPECT_TRUE(Apply(Filter::Condition(has_b, std::nullopt, Filter::PassAll())).empty());
  EXPECT_EQ(Apply(Filter::Condition(Filter::FamilyNameRegex("c"), std::nullopt, Filter::PassAll())).size(), 4u);
  EXPECT_TRUE(Apply(Filter::Condition(Filter::FamilyNameRegex("c"), Filter::PassAll(), std::nullopt)).empty());
}

TEST(FilterTest, SinkSendsCellsToTheFinalOutput) {
  // Bigtable's documented example: Chain(FamilyRegex(a), Interleave(All, Chain(Label(foo), Sink)), QualifierRegex(y)).
  Filter f = Filter::Chain(
      {Filter::FamilyNameRegex("a"),
       Filter::Interleave({Filter::PassAll(), Filter::Chain({Filter::ApplyLabel("foo"), Filter::Sink()})}),
       Filter::QualifierRegex("y")});
  EXPECT_EQ(Apply(f), (std::vector<Cell>{C("a", "x", 3000, "v3", {"foo"}), C("a", "x", 2000, "v2", {"foo"}),
                                         C("a", "y", 1000, "w"), C("a", "y", 1000, "w", {"foo"})}));
}

TEST(FilterTest, RowSampleIsDeterministic) {
  int kept = 0;
  for (int i = 0; i < 1000; ++i) {
    std::string row = "row" + std::to_string(i);
    bool first = !Apply(Filter::RowSample(0.25), SampleRow(), row).empty();
    bool second = !Apply(Filter::RowSample(0.25), SampleRow(), row).empty();
    EXPECT_EQ(first, second);
    kept += first;
  }
  EXPECT_GT(kept, 150);
  EXPECT_LT(kept, 350);
}

TEST(FilterTest, InvalidShapesAreRefusedWithThePartNamed) {
  EXPECT_NE(CompileError(Filter::Chain({Filter::PassAll()})).message().find("chain"), std::string::npos);
  EXPECT_NE(CompileError(Filter::Interleave({})).message().find("an interleave needs"), std::string::npos);
  EXPECT_FALSE(CompileError(Filter::CellsPerRowLimit(0)).ok());
  EXPECT_FALSE(CompileError(Filter::CellsPerColumnLimit(-1)).ok());
  EXPECT_FALSE(CompileError(Filter::RowSample(1.0)).ok());
  EXPECT_FALSE(CompileError(Filter::RowSample(0)).ok());
  EXPECT_FALSE(CompileError(Filter::ApplyLabel("Bad")).ok());
  EXPECT_FALSE(CompileError(Filter::ApplyLabel("abcdefghijklmnop")).ok());
  EXPECT_FALSE(CompileError(Filter::Chain({Filter::ApplyLabel("a"), Filter::ApplyLabel("b")})).ok());
  EXPECT_FALSE(CompileError(Filter::Condition(Filter::Sink(), std::nullopt, std::nullopt)).ok());
  EXPECT_FALSE(CompileError(Filter::TimestampRange(5000, 1000)).ok());
  Status bad = CompileError(Filter::Chain({Filter::PassAll(), Filter::ValueRegex("(")}));
  EXPECT_NE(bad.message().find("chain.filters[1]"), std::string::npos) << bad.message();
  Filter deep = Filter::PassAll();
  for (int i = 0; i < 25; ++i) deep = Filter::Chain({deep, Filter::PassAll()});
  EXPECT_FALSE(CompileError(deep).ok());
}

}  // namespace
}  // namespace lbt
