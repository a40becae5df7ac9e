// HLL++ families (hllpp_unique_count) in the storage core: AddToCell
// counts INT64 inputs or raw bytes into a sketch, MergeToCell merges a
// sketch, a set must hold a sketch, inputs of the wrong kind are refused
// and change nothing, and the change log keeps byte inputs. Each test runs
// with writes straight to LMDB and through the log.

#include <gtest/gtest.h>

#include "api/hll_sketch.h"
#include "storage/database.h"
#include "storage/format/change_log.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::Ms;
using testing::TempDir;

class HllCellsTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    Open();
    ASSERT_OK(db_->CreateTable("visits", {{"users", GcRule::Never(), ValueType::kHllInt64},
                                          {"names", GcRule::Never(), ValueType::kHllBytes},
                                          {"n", GcRule::Never(), ValueType::kIntSum}}));
  }

  void Open() {
    db_.reset();
    DatabaseOptions options;
    options.log_writes = GetParam();
    auto db = Database::Open(dir_.path(), options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
  }

  // The sketch in (row, family:q), parsed.
  HllSketch Sketch(const std::string& row, const std::string& family) {
    Result<std::optional<Row>> read = db_->ReadRow("visits", row);
    EXPECT_TRUE(read.ok() && read->has_value());
    for (const Cell& c : (*read)->cells) {
      if (c.family == family) {
        Result<HllSketch> s = HllSketch::Parse(c.value);
        EXPECT_TRUE(s.ok()) << s.status().ToString();
        return s.ok() ? *s : HllSketch();
      }
    }
    ADD_FAILURE() << "no " << family << " cell in " << row;
    return HllSketch();
  }

  TempDir dir_;
  std::unique_ptr<Database> db_;
};

TEST_P(HllCellsTest, AddToCellCountsDistinctInputs) {
  for (int round = 0; round < 3; ++round) {
    std::vector<Mutation> adds;
    for (int64_t i = 0; i < 500; ++i) adds.push_back(Mutation::AddToCell("users", "q", i * 31, Ms(1)));
    for (int i = 0; i < 40; ++i) {
      adds.push_back(Mutation::AddBytesToCell("names", "q", "name-" + std::to_string(i), Ms(1)));
    }
    ASSERT_OK(db_->MutateRow("visits", "day1", adds));
  }
  EXPECT_NEAR(static_cast<double>(Sketch("day1", "users").Estimate()), 500, 5);
  EXPECT_EQ(Sketch("day1", "names").Estimate(), 40);
  Open();  // kept across a reopen
  EXPECT_NEAR(static_cast<double>(Sketch("day1", "users").Estimate()), 500, 5);
}

TEST_P(HllCellsTest, MergeToCellMergesASketch) {
  HllSketch other;
  for (int64_t i = 1000; i < 1300; ++i) other.AddInt64(i);
  ASSERT_OK(db_->MutateRow("visits", "day1", {Mutation::AddToCell("users", "q", 1000, Ms(1))}));
  ASSERT_OK(db_->MutateRow("visits", "day1",
                           {Mutation::AddBytesToCell("users", "q", other.Serialize(), Ms(1), /*merge=*/true)}));
  EXPECT_NEAR(static_cast<double>(Sketch("day1", "users").Estimate()), 300, 3);
  // A set writes a sketch whole.
  ASSERT_OK(db_->MutateRow("visits", "day2", {Mutation::SetCell("users", "q", other.Serialize(), Ms(1))}));
  EXPECT_EQ(Sketch("day2", "users").Estimate(), other.Estimate());
}

TEST_P(HllCellsTest, InputsOfTheWrongKindAreRefusedAndChangeNothing) {
  const std::vector<std::vector<Mutation>> refused = {
      {Mutation::SetCell("users", "q", "not a sketch", Ms(1))},
      {Mutation::AddBytesToCell("users", "q", "abc", Ms(1))},  // inthll takes int64 inputs
      {Mutation::AddToCell("names", "q", 5, Ms(1))},           // rawhll takes bytes
      {Mutation::AddToCell("users", "q", 5, Ms(1)), Mutation::AddBytesToCell("users", "q", "junk", Ms(1), true)},
      {Mutation::AddBytesToCell("n", "q", "abc", Ms(1))},  // an int64 sum takes 8 bytes
  };
  for (const std::vector<Mutation>& m : refused) {
    Status s = db_->MutateRow("visits", "r", m);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  }
  Result<std::optional<Row>> read = db_->ReadRow("visits", "r");
  ASSERT_TRUE(read.ok());
  EXPECT_FALSE(read->has_value());
  // Eight raw bytes are an int64 sum's input.
  Mutation eight = Mutation::AddBytesToCell("n", "q", EncodeInt64(7), Ms(1));
  eight.int_value = 7;
  ASSERT_OK(db_->MutateRow("visits", "r", {eight}));
}

TEST(HllChangeLog, ByteInputsAndMergesRoundTrip) {
  DataChange change;
  change.row_key = "r";
  change.mutations = {Mutation::AddBytesToCell("names", "q", std::string("a\0b", 3), Ms(1)),
                      Mutation::AddBytesToCell("users", "q", HllSketch().Serialize(), Ms(2), true),
                      Mutation::AddToCell("n", "q", 9, Ms(3))};
  DataChange back;
  ASSERT_OK(DecodeChange(EncodeChange(change), &back));
  ASSERT_EQ(back.mutations.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(back.mutations[i].bytes_input, change.mutations[i].bytes_input) << i;
    EXPECT_EQ(back.mutations[i].merge, change.mutations[i].merge) << i;
    EXPECT_EQ(back.mutations[i].value, change.mutations[i].value) << i;
    EXPECT_EQ(back.mutations[i].int_value, change.mutations[i].int_value) << i;
    EXPECT_EQ(back.mutations[i].timestamp, change.mutations[i].timestamp) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Writes, HllCellsTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Logged" : "Direct"; });

}  // namespace
}  // namespace lbt
