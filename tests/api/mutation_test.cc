// Mutations through Database: SetCell, deletes, AddToCell, atomicity,
// timestamps, limits, ReadModifyWrite and CheckAndMutate.

#include "api/mutation.h"

#include <gtest/gtest.h>

#include "api/limits.h"
#include "storage/database.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::FakeClock;
using testing::Ms;
using testing::ReadAll;
using testing::TempDir;

class MutationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = testing::OpenWithClock(dir_.path(), &clock_);
    ASSERT_NE(db_, nullptr);
    ASSERT_OK(db_->CreateTable("t", {{"cf", {}, ValueType::kBytes},
                                     {"a", {}, ValueType::kBytes},
                                     {"sum", {}, ValueType::kIntSum},
                                     {"min", {}, ValueType::kIntMin},
                                     {"max", {}, ValueType::kIntMax}}));
  }

  std::vector<Cell> Cells(const std::string& row) {
    auto r = db_->ReadRow("t", row);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok() || !r->has_value()) return {};
    return (*r)->cells;
  }

  static Cell C(std::string family, std::string qualifier, int64_t ts, std::string value) {
    return Cell{std::move(family), std::move(qualifier), ts, std::move(value), {}};
  }

  TempDir dir_;
  FakeClock clock_;
  std::unique_ptr<Database> db_;
};

// Storage order is production's: families in creation order (the table
// made "cf" before "a"), then qualifiers, then timestamps newest first
// (googleapis/java-bigtable#154).
TEST_F(MutationTest, CellsComeBackInStorageOrder) {
  ASSERT_OK(db_->MutateRow("t", "r",
                           {Mutation::SetCell("cf", "b", "1", Ms(1)), Mutation::SetCell("cf", "a", "2", Ms(1)),
                            Mutation::SetCell("cf", "a", "3", Ms(5)), Mutation::SetCell("a", "z", "4", Ms(2))}));
  EXPECT_EQ(Cells("r"), (std::vector<Cell>{C("cf", "a", Ms(5), "3"), C("cf", "a", Ms(1), "2"), C("cf", "b", Ms(1), "1"),
                                           C("a", "z", Ms(2), "4")}));
}

TEST_F(MutationTest, WritingTheSameCoordinatesReplaces) {
  ASSERT_OK(db_->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "old", Ms(7))}));
  ASSERT_OK(db_->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "new", Ms(7))}));
  EXPECT_EQ(Cells("r"), (std::vector<Cell>{C("cf", "q", Ms(7), "new")}));
}

TEST_F(MutationTest, TheLastWriteToACellInOneListWins) {
  // A new row written out of key order, with one cell written twice.
  ASSERT_OK(db_->MutateRow("t", "new",
                           {Mutation::SetCell("cf", "z", "1", Ms(1)), Mutation::SetCell("cf", "a", "first", Ms(1)),
                            Mutation::SetCell("a", "q", "2", Ms(1)), Mutation::SetCell("cf", "a", "second", Ms(1))}));
  EXPECT_EQ(Cells("new"),
            (std::vector<Cell>{C("cf", "a", Ms(1), "second"), C("cf", "z", Ms(1), "1"), C("a", "q", Ms(1), "2")}));
  // Deleting the row must leave no size entry behind: it is not counted.
  ASSERT_OK(db_->MutateRow("t", "new", {Mutation::DeleteFromRow()}));
  ASSERT_OK_AND_ASSIGN(int64_t n, db_->CountRows("t"));
  EXPECT_EQ(n, 0);
}

TEST_F(MutationTest, BinaryKeysQualifiersAndValues) {
  const std::string row("\0\xff\0", 3), qual("\xff\0", 2), value("\0\x01\xff", 3);
  ASSERT_OK(
      db_->MutateRow("t", row, {Mutation::SetCell("cf", qual, value, Ms(1)), Mutation::SetCell("cf", "", "", Ms(1))}));
  ASSERT_OK(db_->MutateRow("t", std::string("\0", 1), {Mutation::SetCell("cf", "q", "x", 0)}));
  EXPECT_EQ(Cells(row), (std::vector<Cell>{C("cf", "", Ms(1), ""), C("cf", qual, Ms(1), value)}));
  auto rows = ReadAll(db_.get(), "t");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].key, std::string("\0", 1));
  EXPECT_EQ(rows[1].key, row);
}

TEST_F(MutationTest, ServerTimeIsNowInWholeMilliseconds) {
  clock_.now = 1'700'000'000'123'456;
  ASSERT_OK(db_->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "v")}));
  EXPECT_EQ(Cells("r").at(0).timestamp, 1'700'000'000'123'000);
}

TEST_F(MutationTest, TimestampsMustBeWholeMilliseconds) {
  Status s = db_->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "v", 1234)});
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("multiple of 1000"), std::string::npos) << s.message();
  EXPECT_TRUE(db_->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "v", -5000)}).IsInvalidArgument());
  EXPECT_TRUE(Cells("r").empty());
}

TEST_F(MutationTest, AFailedMutationListChangesNothing) {
  ASSERT_OK(db_->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "keep", Ms(1))}));
  Status s = db_->MutateRow("t", "r",
                            {Mutation::DeleteFromRow(), Mutation::SetCell("cf", "q", "x", Ms(2)),
                             Mutation::SetCell("nope", "q", "x", Ms(2))});
  EXPECT_TRUE(s.IsNotFound());  // as production answers a write to a missing family
  EXPECT_NE(s.message().find("'nope'"), std::string::npos);
  EXPECT_EQ(Cells("r"), (std::vector<Cell>{C("cf", "q", Ms(1), "keep")}));
}

TEST_F(MutationTest, MutationsApplyInOrder) {
  ASSERT_OK(db_->MutateRow(
      "t", "r",
      {Mutation::SetCell("cf", "q", "x", Ms(1)), Mutation::DeleteFromRow(), Mutation::SetCell("cf", "p", "y", Ms(1))}));
  EXPECT_EQ(Cells("r"), (std::vector<Cell>{C("cf", "p", Ms(1), "y")}));
}

// As Bigtable's MutateRows: each row applies or fails on its own.
TEST_F(MutationTest, RowsOfABatchApplyOrFailAlone) {
  std::vector<RowMutation> batch = {
      {"r1", {Mutation::SetCell("cf", "q", "1", Ms(1))}},
      {"r2",
       {Mutation::SetCell("cf", "q", "2", Ms(1)), Mutation::SetCell("cf", "p", "2", 1)}},  // not a whole millisecond
      {"r3", {Mutation::SetCell("cf", "q", "3", Ms(1))}}};
  ASSERT_OK_AND_ASSIGN(std::vector<Status> statuses, db_->MutateRows("t", batch));
  ASSERT_EQ(statuses.size(), 3u);
  EXPECT_TRUE(statuses[0].ok());
  EXPECT_TRUE(statuses[1].IsInvalidArgument()) << statuses[1].ToString();
  EXPECT_TRUE(statuses[2].ok());
  EXPECT_EQ(testing::RowKeys(ReadAll(db_.get(), "t")), (std::vector<std::string>{"r1", "r3"}));
  EXPECT_TRUE(db_->MutateRows("nope", batch).status().IsNotFound());
}

TEST_F(MutationTest, DeleteFromColumnWithAndWithoutRange) {
  std::vector<Mutation> set;
  for (int ms = 1; ms <= 5; ++ms) set.push_back(Mutation::SetCell("cf", "q", std::to_string(ms), Ms(ms)));
  set.push_back(Mutation::SetCell("cf", "other", "o", Ms(1)));
  ASSERT_OK(db_->MutateRow("t", "r", set));
  ASSERT_OK(db_->MutateRow("t", "r", {Mutation::DeleteFromColumn("cf", "q", {Ms(2), Ms(4)})}));
  EXPECT_EQ(Cells("r"), (std::vector<Cell>{C("cf", "other", Ms(1), "o"), C("cf", "q", Ms(5), "5"),
                                           C("cf", "q", Ms(4), "4"), C("cf", "q", Ms(1), "1")}));
  ASSERT_OK(db_->MutateRow("t", "r", {Mutation::DeleteFromColumn("cf", "q", {Ms(4), 0})}));
  EXPECT_EQ(Cells("r"), (std::vector<Cell>{C("cf", "other", Ms(1), "o"), C("cf", "q", Ms(1), "1")}));
  ASSERT_OK(db_->MutateRow("t", "r", {Mutation::DeleteFromColumn("cf", "q")}));
  EXPECT_EQ(Cells("r"), (std::vector<Cell>{C("cf", "other", Ms(1), "o")}));
  EXPECT_TRUE(db_->MutateRow("t", "r", {Mutation::DeleteFromColumn("cf", "q", {Ms(5), Ms(2)})}).IsInvalidArgument());
}

TEST_F(MutationTest, DeleteFromFamilyAndRow) {
  ASSERT_OK(
      db_->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "1", Ms(1)), Mutation::SetCell("a", "q", "2", Ms(1))}));
  ASSERT_OK(db_->MutateRow("t", "r2", {Mutation::SetCell("cf", "q", "3", Ms(1))}));
  ASSERT_OK(db_->MutateRow("t", "r", {Mutation::DeleteFromFamily("cf")}));
  EXPECT_EQ(Cells("r"), (std::vector<Cell>{C("a", "q", Ms(1), "2")}));
  ASSERT_OK(db_->MutateRow("t", "r", {Mutation::DeleteFromRow()}));
  EXPECT_TRUE(Cells("r").empty());
  EXPECT_EQ(testing::RowKeys(ReadAll(db_.get(), "t")), std::vector<std::string>{"r2"});
  ASSERT_OK_AND_ASSIGN(int64_t n, db_->CountRows("t"));
  EXPECT_EQ(n, 1);
}

TEST_F(MutationTest, AddToCellMergesAtTheSameTimestampOnly) {
  ASSERT_OK(db_->MutateRow("t", "r",
                           {Mutation::AddToCell("sum", "c", 5, Ms(1)), Mutation::AddToCell("sum", "c", -2, Ms(1)),
                            Mutation::AddToCell("sum", "c", 10, Ms(2)), Mutation::AddToCell("min", "c", 5, Ms(1)),
                            Mutation::AddToCell("min", "c", -7, Ms(1)), Mutation::AddToCell("min", "c", 3, Ms(1)),
                            Mutation::AddToCell("max", "c", 5, Ms(1)), Mutation::AddToCell("max", "c", 9, Ms(1)),
                            Mutation::AddToCell("max", "c", -1, Ms(1))}));
  EXPECT_EQ(Cells("r"),
            (std::vector<Cell>{C("sum", "c", Ms(2), EncodeInt64(10)), C("sum", "c", Ms(1), EncodeInt64(3)),
                               C("min", "c", Ms(1), EncodeInt64(-7)), C("max", "c", Ms(1), EncodeInt64(9))}));
}

TEST_F(MutationTest, AggregateFamiliesAreChecked) {
  EXPECT_TRUE(db_->MutateRow("t", "r", {Mutation::AddToCell("cf", "c", 1, Ms(1))}).IsInvalidArgument());
  EXPECT_TRUE(db_->MutateRow("t", "r", {Mutation::SetCell("sum", "c", "abc", Ms(1))}).IsInvalidArgument());
  ASSERT_OK(db_->MutateRow(
      "t", "r", {Mutation::SetCell("sum", "c", EncodeInt64(4), Ms(1)), Mutation::AddToCell("sum", "c", 1, Ms(1))}));
  EXPECT_EQ(Cells("r"), (std::vector<Cell>{C("sum", "c", Ms(1), EncodeInt64(5))}));
}

TEST_F(MutationTest, BigtableLimitsNotLmdbs) {
  const std::string long_row(kMaxRowKeyBytes, 'r');
  const std::string long_qualifier(kMaxQualifierBytes, 'q');
  ASSERT_OK(db_->MutateRow("t", long_row, {Mutation::SetCell("cf", long_qualifier, "v", Ms(1))}));
  auto cells = Cells(long_row);
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].qualifier, long_qualifier);

  Status s = db_->MutateRow("t", long_row + "x", {Mutation::SetCell("cf", "q", "v", Ms(1))});
  EXPECT_TRUE(s.IsOutOfRange());
  EXPECT_NE(s.message().find("4096"), std::string::npos) << s.message();
  s = db_->MutateRow("t", "r", {Mutation::SetCell("cf", long_qualifier + "x", "v", Ms(1))});
  EXPECT_TRUE(s.IsOutOfRange());
  EXPECT_NE(s.message().find("16384"), std::string::npos) << s.message();
  s = db_->MutateRow("t", "r", {Mutation::SetCell("cf", "q", std::string(kMaxValueBytes + 1, 'v'), Ms(1))});
  EXPECT_TRUE(s.IsOutOfRange());
  EXPECT_NE(s.message().find("100 MiB"), std::string::npos) << s.message();
  EXPECT_TRUE(db_->MutateRow("t", "", {Mutation::SetCell("cf", "q", "v", Ms(1))}).IsInvalidArgument());
}

TEST_F(MutationTest, RowsAreLimitedTo256MiB) {
  const std::string big(90u << 20, 'x');
  Status s = db_->MutateRow("t", "r",
                            {Mutation::SetCell("cf", "1", big, Ms(1)), Mutation::SetCell("cf", "2", big, Ms(1)),
                             Mutation::SetCell("cf", "3", big, Ms(1))});
  EXPECT_TRUE(s.IsOutOfRange());
  EXPECT_NE(s.message().find("256 MiB"), std::string::npos) << s.message();
  EXPECT_TRUE(Cells("r").empty());
  // Replacing a cell counts only the new value.
  ASSERT_OK(
      db_->MutateRow("t", "r", {Mutation::SetCell("cf", "1", big, Ms(1)), Mutation::SetCell("cf", "2", big, Ms(1))}));
  ASSERT_OK(db_->MutateRow("t", "r", {Mutation::SetCell("cf", "2", big, Ms(1))}));
  EXPECT_TRUE(db_->MutateRow("t", "r", {Mutation::SetCell("cf", "3", big, Ms(1))}).IsOutOfRange());
  ASSERT_OK(db_->MutateRow("t", "r", {Mutation::DeleteFromColumn("cf", "1")}));
  ASSERT_OK(db_->MutateRow("t", "r", {Mutation::SetCell("cf", "3", big, Ms(1))}));
}

TEST_F(MutationTest, ReadModifyWriteAppendsAndIncrements) {
  clock_.now = Ms(100);
  ASSERT_OK(db_->MutateRow(
      "t", "r", {Mutation::SetCell("cf", "s", "ab", Ms(50)), Mutation::SetCell("cf", "n", EncodeInt64(40), Ms(500))}));
  ASSERT_OK_AND_ASSIGN(Row out, db_->ReadModifyWriteRow("t", "r",
                                                        {ReadModifyWriteRule::Append("cf", "s", "cd"),
                                                         ReadModifyWriteRule::Increment("cf", "n", 2),
                                                         ReadModifyWriteRule::Increment("cf", "fresh", -3)}));
  EXPECT_EQ(out.cells, (std::vector<Cell>{C("cf", "fresh", Ms(100), EncodeInt64(-3)),
                                          C("cf", "n", Ms(500), EncodeInt64(42)), C("cf", "s", Ms(100), "abcd")}));
  // The newer timestamp wins, so the latest value is the result.
  ReadOptions latest;
  latest.cells_per_column_limit = 1;
  ASSERT_OK_AND_ASSIGN(auto row, db_->ReadRow("t", "r", latest));
  EXPECT_EQ(row->cells, (std::vector<Cell>{C("cf", "fresh", Ms(100), EncodeInt64(-3)),
                                           C("cf", "n", Ms(500), EncodeInt64(42)), C("cf", "s", Ms(100), "abcd")}));
  EXPECT_EQ(db_->ReadModifyWriteRow("t", "r", {ReadModifyWriteRule::Increment("cf", "s", 1)}).status().code(),
            Status::Code::kFailedPrecondition);
}

// Two rules on one column compound, and the answer holds the column once.
TEST_F(MutationTest, ReadModifyWriteReturnsEachColumnOnce) {
  clock_.now = Ms(100);
  ASSERT_OK_AND_ASSIGN(
      Row out, db_->ReadModifyWriteRow(
                   "t", "r",
                   {ReadModifyWriteRule::Append("cf", "s", "ab"), ReadModifyWriteRule::Increment("cf", "n", 1),
                    ReadModifyWriteRule::Append("cf", "s", "cd"), ReadModifyWriteRule::Increment("cf", "n", 2)}));
  EXPECT_EQ(out.cells, (std::vector<Cell>{C("cf", "n", Ms(100), EncodeInt64(3)), C("cf", "s", Ms(100), "abcd")}));
  EXPECT_TRUE(db_->ReadModifyWriteRow("t", "r", {ReadModifyWriteRule::Append("nope", "s", "x")}).status().IsNotFound());
}

TEST_F(MutationTest, CheckAndMutateChoosesABranch) {
  // No predicate: does the row have any cell?
  ASSERT_OK_AND_ASSIGN(bool matched,
                       db_->CheckAndMutateRow("t", "r", std::nullopt, {Mutation::SetCell("cf", "q", "t", Ms(1))},
                                              {Mutation::SetCell("cf", "q", "f", Ms(1))}));
  EXPECT_FALSE(matched);
  EXPECT_EQ(Cells("r"), (std::vector<Cell>{C("cf", "q", Ms(1), "f")}));

  const Filter is_f = Filter::ValueRegex("f"), is_z = Filter::ValueRegex("z");
  ASSERT_OK_AND_ASSIGN(matched,
                       db_->CheckAndMutateRow("t", "r", is_f, {Mutation::SetCell("cf", "q", "yes", Ms(2))}, {}));
  EXPECT_TRUE(matched);
  ASSERT_OK_AND_ASSIGN(matched, db_->CheckAndMutateRow("t", "r", is_z, {Mutation::DeleteFromRow()},
                                                       {Mutation::SetCell("cf", "q", "no", Ms(3))}));
  EXPECT_FALSE(matched);
  EXPECT_EQ(Cells("r"),
            (std::vector<Cell>{C("cf", "q", Ms(3), "no"), C("cf", "q", Ms(2), "yes"), C("cf", "q", Ms(1), "f")}));
  // An invalid branch fails the whole call, even when not taken.
  EXPECT_FALSE(db_->CheckAndMutateRow("t", "r", std::nullopt, {}, {Mutation::SetCell("x", "q", "v", Ms(1))}).ok());
}

}  // namespace
}  // namespace lbt
