// RowFilter JSON (proto3 mapping) parsed and applied through a read.

#include "commands/cbt/filter_json.h"

#include <gtest/gtest.h>

#include "storage/database.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::Ms;

class FilterJsonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Database::Open(dir_.path());
    ASSERT_TRUE(db.ok());
    db_ = std::move(db).value();
    ASSERT_OK(db_->CreateTable("t", {{"a", {}, ValueType::kBytes}, {"b", {}, ValueType::kBytes}}));
    ASSERT_OK(db_->MutateRow("t", "r1",
                             {Mutation::SetCell("a", "x", "v1", Ms(1)), Mutation::SetCell("a", "x", "v2", Ms(2)),
                              Mutation::SetCell("a", "y", "w", Ms(1)), Mutation::SetCell("b", "x", "z", Ms(5))}));
    ASSERT_OK(db_->MutateRow("t", "r2", {Mutation::SetCell("b", "q", "\xff", Ms(3))}));
  }

  // "row:family:qualifier@ms=value[labels]" for every cell the filter leaves.
  std::vector<std::string> Read(const std::string& json) {
    auto filter = ParseFilterJson(json);
    EXPECT_TRUE(filter.ok()) << json << ": " << filter.status().ToString();
    if (!filter.ok()) return {};
    auto compiled = CompileFilter(*filter);
    EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
    if (!compiled.ok()) return {};
    ReadOptions options;
    options.filter = compiled->get();
    std::vector<std::string> out;
    for (const Row& row : testing::ReadAll(db_.get(), "t", options)) {
      for (const Cell& c : row.cells) {
        std::string s =
            row.key + ":" + c.family + ":" + c.qualifier + "@" + std::to_string(c.timestamp / 1000) + "=" + c.value;
        for (const std::string& l : c.labels) s += "[" + l + "]";
        out.push_back(s);
      }
    }
    return out;
  }

  std::string Error(const std::string& json) {
    auto filter = ParseFilterJson(json);
    if (!filter.ok()) return filter.status().message();
    auto compiled = CompileFilter(*filter);
    return compiled.ok() ? "" : compiled.status().message();
  }

  using V = std::vector<std::string>;
  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(FilterJsonTest, EveryFilterKind) {
  EXPECT_EQ(Read(R"({"passAllFilter": true})").size(), 5u);
  EXPECT_EQ(Read(R"({"blockAllFilter": true})"), V{});
  EXPECT_EQ(Read(R"({"rowKeyRegexFilter": "cjI="})"), V{"r2:b:q@3=\xff"});  // "r2"
  EXPECT_EQ(Read(R"({"familyNameRegexFilter": "b"})"), (V{"r1:b:x@5=z", "r2:b:q@3=\xff"}));
  EXPECT_EQ(Read(R"({"columnQualifierRegexFilter": "eQ=="})"), V{"r1:a:y@1=w"});          // "y"
  EXPECT_EQ(Read(R"({"valueRegexFilter": "dlxk"})"), (V{"r1:a:x@2=v2", "r1:a:x@1=v1"}));  // "v\d"
  EXPECT_EQ(Read(R"({"columnRangeFilter": {"familyName": "a", "startQualifierOpen": "eA=="}})"), V{"r1:a:y@1=w"});
  EXPECT_EQ(Read(R"({"valueRangeFilter": {"startValueClosed": "dzE=", "endValueOpen": "/w=="}})"),
            (V{"r1:b:x@5=z"}));  // ["w1", "\xff")
  EXPECT_EQ(Read(R"({"timestampRangeFilter": {"startTimestampMicros": "2000", "endTimestampMicros": 5000}})"),
            (V{"r1:a:x@2=v2", "r2:b:q@3=\xff"}));
  EXPECT_EQ(Read(R"({"cellsPerRowOffsetFilter": 3})"), (V{"r1:b:x@5=z"}));
  EXPECT_EQ(Read(R"({"cellsPerRowLimitFilter": 1})"), (V{"r1:a:x@2=v2", "r2:b:q@3=\xff"}));
  EXPECT_EQ(Read(R"({"cellsPerColumnLimitFilter": "1"})").size(), 4u);
  for (const std::string& cell : Read(R"({"stripValueTransformer": true})")) EXPECT_EQ(cell.back(), '=');
  EXPECT_EQ(Read(R"({"chain": {"filters": [{"familyNameRegexFilter": "b"}, {"stripValueTransformer": true}]}})"),
            (V{"r1:b:x@5=", "r2:b:q@3="}));
  EXPECT_EQ(Read(R"({"chain": {"filters": [{"familyNameRegexFilter": "b"}, {"applyLabelTransformer": "tag"}]}})"),
            (V{"r1:b:x@5=z[tag]", "r2:b:q@3=\xff[tag]"}));
  EXPECT_EQ(
      Read(R"({"interleave": {"filters": [{"familyNameRegexFilter": "b"}, {"columnQualifierRegexFilter": "eA=="}]}})"),
      (V{"r1:a:x@2=v2", "r1:a:x@1=v1", "r1:b:x@5=z", "r1:b:x@5=z", "r2:b:q@3=\xff"}));
  EXPECT_EQ(Read(R"({"condition": {"predicateFilter": {"valueRegexFilter": "dzE="},
                                    "trueFilter": {"familyNameRegexFilter": "a"},
                                    "falseFilter": {"blockAllFilter": true}}})"),
            V{});
  EXPECT_EQ(
      Read(
          R"({"condition": {"predicateFilter": {"valueRegexFilter": "dw=="}, "trueFilter": {"familyNameRegexFilter": "b"}}})"),
      (V{"r1:b:x@5=z"}));
  EXPECT_EQ(Read(R"({"chain": {"filters": [{"familyNameRegexFilter": "a"},
              {"interleave": {"filters": [{"passAllFilter": true}, {"chain": {"filters": [{"applyLabelTransformer": "s"}, {"sink": true}]}}]}},
              {"columnQualifierRegexFilter": "eQ=="}]}})"),
            (V{"r1:a:x@2=v2[s]", "r1:a:x@1=v1[s]", "r1:a:y@1=w", "r1:a:y@1=w[s]"}));
  EXPECT_EQ(Read(R"({"row_sample_filter": 0.999999})").size(), 5u);
}

TEST_F(FilterJsonTest, SnakeCaseNamesWork) {
  EXPECT_EQ(Read(R"({"family_name_regex_filter": "a"})").size(), 3u);
  EXPECT_EQ(
      Read(
          R"({"column_range_filter": {"family_name": "b", "start_qualifier_closed": "cQ==", "end_qualifier_closed": "cQ=="}})"),
      V{"r2:b:q@3=\xff"});
}

TEST_F(FilterJsonTest, ErrorsNameThePart) {
  EXPECT_NE(Error("{").find("not valid JSON"), std::string::npos);
  EXPECT_NE(Error("{}").find("exactly one"), std::string::npos);
  EXPECT_NE(Error(R"({"stripValueTransformer": true, "passAllFilter": true})").find("exactly one"), std::string::npos);
  EXPECT_NE(Error(R"({"timestampRangeFilter": {"startTimestampMicros": 0, "bogus": 1}})").find("unknown field 'bogus'"),
            std::string::npos);
  EXPECT_NE(Error(R"({"bogusFilter": 1})").find("unknown filter 'bogusFilter'"), std::string::npos);
  EXPECT_NE(Error(R"({"chain": {"filters": [{"passAllFilter": true}, {"valueRegexFilter": "%%"}]}})")
                .find("filter.chain.filters[1].valueRegexFilter: not valid base64"),
            std::string::npos);
  EXPECT_NE(Error(R"({"chain": {"filters": [{"passAllFilter": true}]}})").find("at least two"), std::string::npos);
  EXPECT_NE(Error(R"({"sink": false})").find("expected true"), std::string::npos);
  EXPECT_NE(Error(R"({"cellsPerRowLimitFilter": 0})").find("must be positive"), std::string::npos);
  EXPECT_NE(Error(R"({"cellsPerRowLimitFilter": "x"})").find("expected an integer"), std::string::npos);
  EXPECT_NE(Error(R"({"applyLabelTransformer": "UPPER"})").find("invalid label"), std::string::npos);
  EXPECT_NE(Error(R"({"rowSampleFilter": 2})").find("between 0 and 1"), std::string::npos);
  EXPECT_NE(Error(R"({"columnRangeFilter": {"startQualifierClosed": "YQ==", "startQualifierOpen": "YQ=="}})")
                .find("not both"),
            std::string::npos);
  EXPECT_NE(Error(R"({"condition": {"predicateFilter": {"sink": true}}})").find("sink"), std::string::npos);
  EXPECT_NE(Error(R"({"valueRegexFilter": "KA=="})").find("invalid regular expression"), std::string::npos);
}

TEST_F(FilterJsonTest, ARowKeyRegexWithALiteralPrefixDoesNotScanOtherRows) {
  std::vector<RowMutation> rows;
  for (int i = 0; i < 300; ++i)
    rows.push_back({"user#" + std::to_string(i), {Mutation::SetCell("a", "q", "v", Ms(1))}});
  ASSERT_OK(testing::WriteRows(db_.get(), "t", rows));
  auto filter = ParseFilterJson(R"({"rowKeyRegexFilter": "dXNlciMxMi4="})");  // user#12.
  ASSERT_TRUE(filter.ok());
  auto compiled = CompileFilter(*filter);
  ASSERT_TRUE(compiled.ok());
  ReadOptions options;
  options.filter = compiled->get();
  auto reader = db_->NewReader("t", options);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(testing::Drain(reader->get()).size(), 10u);
  EXPECT_LE((*reader)->stats().rows_seen, 12) << "the scan should stay within the regex's literal prefix";
}

}  // namespace
}  // namespace lbt
