// The HBase filter language, parsed and applied through real reads.

#include "commands/hbase/filter.h"

#include <gtest/gtest.h>

#include "storage/database.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::Ms;
using V = std::vector<std::string>;

class HBaseFilterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Database::Open(dir_.path());
    ASSERT_TRUE(db.ok());
    db_ = std::move(db).value();
    ASSERT_OK(db_->CreateTable("t", {{"f", {}, ValueType::kBytes}, {"g", {}, ValueType::kBytes}}));
    Put("user#1", "f", "name", "Ada", 1);
    Put("user#1", "f", "age", "36", 1);
    Put("user#1", "g", "city", "London", 1);
    Put("user#2", "f", "name", "Grace", 2);
    Put("user#2", "f", "name", "G.", 1);
    Put("user#3", "f", "age", "45", 3);
    Put("zz", "f", "name", "Zed", 4);
  }

  void Put(const std::string& row, const std::string& f, const std::string& q, const std::string& v, int64_t ms) {
    ASSERT_OK(db_->MutateRow("t", row, {Mutation::SetCell(f, q, v, Ms(ms))}));
  }

  // "row/family:qualifier=value" for every cell left.
  V Scan(const std::string& text, int64_t per_column = 0) {
    auto filter = ParseHBaseFilter(text);
    EXPECT_TRUE(filter.ok()) << text << ": " << filter.status().ToString();
    if (!filter.ok()) return {};
    auto compiled = CompileFilter(*filter);
    EXPECT_TRUE(compiled.ok()) << text << ": " << compiled.status().ToString();
    if (!compiled.ok()) return {};
    ReadOptions options;
    options.filter = compiled->get();
    options.cells_per_column_limit = per_column;
    V out;
    for (const Row& row : testing::ReadAll(db_.get(), "t", options)) {
      for (const Cell& c : row.cells) out.push_back(row.key + "/" + c.family + ":" + c.qualifier + "=" + c.value);
    }
    return out;
  }

  std::string Error(const std::string& text) {
    auto filter = ParseHBaseFilter(text);
    if (!filter.ok()) return filter.status().message();
    auto compiled = CompileFilter(*filter);
    return compiled.ok() ? "" : compiled.status().message();
  }

  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(HBaseFilterTest, RowAndColumnPrefixes) {
  EXPECT_EQ(Scan("PrefixFilter('user#2')"), (V{"user#2/f:name=Grace", "user#2/f:name=G."}));
  EXPECT_EQ(Scan("ColumnPrefixFilter('na')", 1), (V{"user#1/f:name=Ada", "user#2/f:name=Grace", "zz/f:name=Zed"}));
  EXPECT_EQ(Scan("MultipleColumnPrefixFilter('ag', 'ci')"),
            (V{"user#1/f:age=36", "user#1/g:city=London", "user#3/f:age=45"}));
  EXPECT_EQ(Scan("ColumnRangeFilter('age', false, 'name', true)", 1),
            (V{"user#1/f:name=Ada", "user#1/g:city=London", "user#2/f:name=Grace", "zz/f:name=Zed"}));
}

TEST_F(HBaseFilterTest, CompareFiltersAndComparators) {
  EXPECT_EQ(Scan("RowFilter(>, 'binary:user#2')"), (V{"user#3/f:age=45", "zz/f:name=Zed"}));
  EXPECT_EQ(Scan("RowFilter(=, 'binaryprefix:user')", 1).size(), 5u);
  EXPECT_EQ(Scan("FamilyFilter(=, 'binary:g')"), (V{"user#1/g:city=London"}));
  EXPECT_EQ(Scan("QualifierFilter(!=, 'binary:name')"),
            (V{"user#1/f:age=36", "user#1/g:city=London", "user#3/f:age=45"}));
  EXPECT_EQ(Scan("ValueFilter(=, 'regexstring:^[0-9]+$')"), (V{"user#1/f:age=36", "user#3/f:age=45"}));
  EXPECT_EQ(Scan("ValueFilter(=, 'regexstring:on')"), (V{"user#1/g:city=London"}));  // unanchored
  EXPECT_EQ(Scan("ValueFilter(=, 'substring:LON')"), (V{"user#1/g:city=London"}));   // case-insensitive
  EXPECT_EQ(Scan("ValueFilter(!=, 'substring:a')", 1).size(), 4u);
}

TEST_F(HBaseFilterTest, SingleColumnValueFilters) {
  EXPECT_EQ(Scan("SingleColumnValueFilter('f', 'name', =, 'binary:Ada')"),
            (V{"user#1/f:age=36", "user#1/f:name=Ada", "user#1/g:city=London", "user#3/f:age=45"}))
      << "rows without the column pass unless filterIfMissing";
  EXPECT_EQ(Scan("SingleColumnValueFilter('f', 'name', =, 'binary:Ada', true, true)"),
            (V{"user#1/f:age=36", "user#1/f:name=Ada", "user#1/g:city=London"}));
  EXPECT_EQ(Scan("SingleColumnValueExcludeFilter('f', 'name', =, 'binary:Ada', true, true)"),
            (V{"user#1/f:age=36", "user#1/g:city=London"}));
  // Only the latest version counts unless latestVersionOnly is false.
  EXPECT_EQ(Scan("SingleColumnValueFilter('f', 'name', =, 'binary:G.', true, true)"), V{});
  EXPECT_EQ(Scan("SingleColumnValueFilter('f', 'name', =, 'binary:G.', true, false)").size(), 2u);
}

TEST_F(HBaseFilterTest, KeysTimestampsPagesAndColumns) {
  EXPECT_EQ(Scan("KeyOnlyFilter() AND PrefixFilter('zz')"), (V{"zz/f:name="}));
  EXPECT_EQ(Scan("FirstKeyOnlyFilter()"),
            (V{"user#1/f:age=36", "user#2/f:name=Grace", "user#3/f:age=45", "zz/f:name=Zed"}));
  EXPECT_EQ(Scan("TimestampsFilter(2, 4)"), (V{"user#2/f:name=Grace", "zz/f:name=Zed"}));
  EXPECT_EQ(Scan("PageFilter(2)"), (V{"user#1/f:age=36", "user#1/f:name=Ada", "user#1/g:city=London",
                                      "user#2/f:name=Grace", "user#2/f:name=G."}));
  EXPECT_EQ(Scan("ColumnCountGetFilter(1) AND PrefixFilter('user#1')"), (V{"user#1/f:age=36"}));
  EXPECT_EQ(Scan("ColumnPaginationFilter(1, 1) AND PrefixFilter('user#1')"), (V{"user#1/f:name=Ada"}));
  EXPECT_EQ(Scan("InclusiveStopFilter('user#2')", 1),
            (V{"user#1/f:age=36", "user#1/f:name=Ada", "user#1/g:city=London", "user#2/f:name=Grace"}));
}

TEST_F(HBaseFilterTest, DependentColumnKeepsTheReferenceColumnsTimestamps) {
  // user#3 has no f:name: the row goes.
  EXPECT_EQ(Scan("DependentColumnFilter('f', 'name')"),
            (V{"user#1/f:age=36", "user#1/f:name=Ada", "user#1/g:city=London", "user#2/f:name=Grace",
               "user#2/f:name=G.", "zz/f:name=Zed"}));
  EXPECT_EQ(Scan("DependentColumnFilter('f', 'name', true)"), (V{"user#1/f:age=36", "user#1/g:city=London"}));
  // With a value test only the reference cells that pass lend their timestamps.
  EXPECT_EQ(Scan("DependentColumnFilter('f', 'name', false, =, 'binary:Ada')"),
            (V{"user#1/f:age=36", "user#1/f:name=Ada", "user#1/g:city=London"}));
  EXPECT_EQ(Scan("DependentColumnFilter('f', 'name', false, =, 'binary:G.')"), (V{"user#2/f:name=G."}));
}

TEST_F(HBaseFilterTest, MultiRowRangeKeepsRowsInAnyRange) {
  EXPECT_EQ(
      Scan("MultiRowRangeFilter('user#1', true, 'user#2', true, 'zz', true, '', false)", 1),
      (V{"user#1/f:age=36", "user#1/f:name=Ada", "user#1/g:city=London", "user#2/f:name=Grace", "zz/f:name=Zed"}));
  EXPECT_EQ(Scan("MultiRowRangeFilter('user#1', false, 'user#3', false)", 1), (V{"user#2/f:name=Grace"}));
  EXPECT_NE(Error("MultiRowRangeFilter('a', true, 'b')").find("ranges of 4 arguments"), std::string::npos);
  EXPECT_NE(Error("DependentColumnFilter('f')").find("2, 3 or 5"), std::string::npos);
}

TEST_F(HBaseFilterTest, PrecedenceSkipAndWhile) {
  // AND binds tighter than OR.
  EXPECT_EQ(Scan("PrefixFilter('zz') OR PrefixFilter('user#3') AND ValueFilter(=, 'binary:nope')"),
            (V{"zz/f:name=Zed"}));
  EXPECT_EQ(Scan("(PrefixFilter('zz') OR PrefixFilter('user#3')) AND ValueFilter(=, 'binary:45')"),
            (V{"user#3/f:age=45"}));
  // OR keeps a cell once even when both sides keep it.
  EXPECT_EQ(Scan("PrefixFilter('zz') OR ValueFilter(=, 'binary:Zed')"), (V{"zz/f:name=Zed"}));
  // SKIP drops rows with any failing cell; WHILE stops at the first one.
  EXPECT_EQ(Scan("SKIP ValueFilter(!=, 'binary:London')", 1),
            (V{"user#2/f:name=Grace", "user#3/f:age=45", "zz/f:name=Zed"}));
  EXPECT_EQ(Scan("WHILE RowFilter(<, 'binary:user#3')", 1),
            (V{"user#1/f:age=36", "user#1/f:name=Ada", "user#1/g:city=London", "user#2/f:name=Grace"}));
  EXPECT_EQ(Scan("WHILE ValueFilter(!=, 'binary:Grace')", 1),
            (V{"user#1/f:age=36", "user#1/f:name=Ada", "user#1/g:city=London"}));
  EXPECT_EQ(Scan("ValueFilter(=, 'binary:it''s')"), V{});  // '' is a quote
}

TEST_F(HBaseFilterTest, Errors) {
  EXPECT_NE(Error("NoSuchFilter('x')").find("unknown filter 'NoSuchFilter'"), std::string::npos);
  EXPECT_NE(Error("PrefixFilter('x'").find("expected"), std::string::npos);
  EXPECT_NE(Error("PrefixFilter('x') AND").find("expected"), std::string::npos);
  EXPECT_NE(Error("ValueFilter(=, 'bogus:x')").find("bad comparator"), std::string::npos);
  EXPECT_NE(Error("ValueFilter(<, 'regexstring:x')").find("= or !="), std::string::npos);
  EXPECT_NE(Error("ValueFilter(=, 'regexstring:(')").find("invalid regular expression"), std::string::npos);
  EXPECT_NE(Error("PageFilter(0)").find("positive"), std::string::npos);
  EXPECT_NE(Error("PrefixFilter(1)").find("quoted string"), std::string::npos);
  EXPECT_NE(Error("SingleColumnValueFilter('f', 'q', =)").find("4 or 6"), std::string::npos);
  EXPECT_NE(Error("PrefixFilter('unclosed)").find("never closed"), std::string::npos);
}

}  // namespace
}  // namespace lbt
