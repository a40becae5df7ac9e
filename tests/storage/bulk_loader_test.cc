// BulkLoader: a load in any order leaves the table exactly as writing the
// same rows one by one with MutateRow would: unsorted input, input larger
// than the sort memory, a table with data in the range already, other
// tables around it, GC on write, commits that stop midway, rows refused.

#include "storage/load/bulk_loader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "api/limits.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::Ms;

class BulkLoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions options;
    options.clock = clock_.Fn();
    options.sync = false;  // the reference writes row by row: no fsync each
    ASSERT_OK_AND_ASSIGN(db_, Database::Open(dir_.Sub("db"), options));
    families_ = {{"cf", GcRule::Never()}, {"v2", GcRule::MaxVersions(2)}, {"young", GcRule::MaxAge(Ms(10000))}};
  }

  // Creates `table` twice: as `table` for the load and `table`_ref for the
  // reference written with MutateRow.
  void CreatePair(const std::string& table) {
    ASSERT_OK(db_->CreateTable(table, families_));
    ASSERT_OK(db_->CreateTable(table + "_ref", families_));
  }

  // Loads `rows` into `table` and writes them row by row into the
  // reference; returns the load's stats.
  BulkLoadStats LoadBoth(const std::string& table, const std::vector<RowMutation>& rows, BulkLoadOptions options = {}) {
    options.temp_dir = dir_.path();
    auto loader = db_->NewBulkLoad(table, options);
    EXPECT_OK(loader.status());
    if (!loader.ok()) return {};
    for (const RowMutation& row : rows) {
      EXPECT_OK((*loader)->Add(row));
      EXPECT_OK(db_->MutateRow(table + "_ref", row.row_key, row.mutations));
    }
    EXPECT_OK((*loader)->Finish(nullptr, nullptr));
    return (*loader)->stats();
  }

  void ExpectSameAsReference(const std::string& table) {
    std::vector<Row> loaded = testing::ReadAll(db_.get(), table);
    std::vector<Row> reference = testing::ReadAll(db_.get(), table + "_ref");
    ASSERT_EQ(loaded.size(), reference.size());
    for (size_t i = 0; i < loaded.size(); ++i) {
      ASSERT_EQ(loaded[i].key, reference[i].key) << "row " << i;
      ASSERT_EQ(loaded[i].cells, reference[i].cells) << "row " << i;
    }
    EXPECT_EQ(*db_->CountRows(table), *db_->CountRows(table + "_ref"));
    // The row index agrees too: it sizes rows for SampleRowKeys.
    EXPECT_EQ(db_->SampleRowKeys(table, 1)->back().offset_bytes,
              db_->SampleRowKeys(table + "_ref", 1)->back().offset_bytes);
  }

  // Time-series rows from `hosts` hosts in arrival (time) order, plus rows
  // that repeat a key with other cells and binary keys.
  std::vector<RowMutation> TimeOrderedRows(int n, int hosts, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<RowMutation> rows;
    for (int i = 0; i < n; ++i) {
      RowMutation row;
      row.row_key = "host" + std::to_string(1000 + i % hosts) + "#" + std::to_string(1000000 + i / hosts);
      if (i % 97 == 0) row.row_key = testing::RandomBytes(rng, 20, 1);
      if (i % 501 == 0) row.row_key = std::string(600 + i % 50, 'k') + std::to_string(i);  // a long key
      if (i % 53 == 0 && !rows.empty()) row.row_key = rows[rng() % rows.size()].row_key;   // again
      const int64_t ts = Ms(1000 + static_cast<int64_t>(rng() % 5));
      row.mutations = {Mutation::SetCell("cf", "cpu", std::to_string(rng() % 100), ts),
                       Mutation::SetCell("cf", "mem", testing::RandomBytes(rng, 8), ts),
                       Mutation::SetCell("v2", "q", std::to_string(i), ts),
                       Mutation::SetCell("young", "t", "x", clock_.now - Ms(rng() % 20000))};
      if (i % 7 == 0) row.mutations.push_back(Mutation::SetCell("cf", "cpu", "again", ts));  // same cell twice
      rows.push_back(std::move(row));
    }
    return rows;
  }

  testing::TempDir dir_;
  testing::FakeClock clock_;
  std::unique_ptr<Database> db_;
  std::vector<FamilySpec> families_;
};

TEST_F(BulkLoaderTest, UnsortedInputLoadsAsRowByRowWrites) {
  CreatePair("t");
  BulkLoadStats stats = LoadBoth("t", TimeOrderedRows(3000, 50, 1));
  ExpectSameAsReference("t");
  EXPECT_EQ(stats.rows_added, 3000);
  EXPECT_EQ(stats.rows_committed, 3000);
  EXPECT_EQ(stats.rows_failed, 0);
  EXPECT_EQ(stats.rows_merged, 0);
  EXPECT_EQ(stats.runs_spilled, 0);
  EXPECT_GT(stats.cells_collected, 0) << "cells older than the young family's maxage are never written";
}

TEST_F(BulkLoaderTest, InputLargerThanTheSortMemorySpillsRuns) {
  CreatePair("t");
  BulkLoadOptions options;
  options.sort_memory_bytes = 256u << 10;
  options.rows_per_commit = 700;
  BulkLoadStats stats = LoadBoth("t", TimeOrderedRows(12000, 300, 2), options);
  ExpectSameAsReference("t");
  EXPECT_GT(stats.runs_spilled, 2);
  EXPECT_GT(stats.commits, 12000 / 700);
  EXPECT_EQ(stats.rows_committed, 12000);
}

TEST_F(BulkLoaderTest, RowsWithDataAlreadyAreMergedWithIt) {
  CreatePair("t");
  // Existing rows interleaved with the load's: some keys in common, cells
  // the load replaces or adds versions to, and rows between them.
  std::vector<RowMutation> before;
  for (int i = 0; i < 400; i += 3) {
    before.push_back({"host" + std::to_string(1000 + i % 40) + "#" + std::to_string(1000000 + i / 40),
                      {Mutation::SetCell("cf", "cpu", "old", Ms(1000)), Mutation::SetCell("v2", "q", "a", Ms(10)),
                       Mutation::SetCell("v2", "q", "b", Ms(20)), Mutation::SetCell("cf", "old", "kept", Ms(5))}});
  }
  LoadBoth("t", before);
  BulkLoadStats stats = LoadBoth("t", TimeOrderedRows(2000, 40, 3));
  ExpectSameAsReference("t");
  EXPECT_GT(stats.rows_merged, 50);
  EXPECT_GT(stats.rows_appended, 500);
}

TEST_F(BulkLoaderTest, TablesAroundTheLoadAreLeftAlone) {
  ASSERT_OK(db_->CreateTable("a", families_));
  CreatePair("t");  // t's keys sort before b's, so t's cells cannot be appended at the end
  ASSERT_OK(db_->CreateTable("b", families_));
  ASSERT_OK(db_->MutateRow("a", "host1000#1", {Mutation::SetCell("cf", "x", "a", Ms(1))}));
  ASSERT_OK(db_->MutateRow("b", "host1000#1", {Mutation::SetCell("cf", "x", "b", Ms(1))}));
  LoadBoth("t", TimeOrderedRows(2000, 20, 4));
  ExpectSameAsReference("t");
  EXPECT_EQ(testing::ReadAll(db_.get(), "a").size(), 1u);
  EXPECT_EQ(testing::ReadAll(db_.get(), "b").size(), 1u);
  EXPECT_EQ(testing::ReadAll(db_.get(), "b")[0].cells[0].value, "b");
}

TEST_F(BulkLoaderTest, ServerTimeIsWhenTheLoaderWasMade) {
  ASSERT_OK(db_->CreateTable("t", families_));
  ASSERT_OK_AND_ASSIGN(auto loader, db_->NewBulkLoad("t"));
  const int64_t made = clock_.now;
  clock_.now += Ms(5000);
  ASSERT_OK(loader->Add({"r", {Mutation::SetCell("cf", "a", "1")}}));
  ASSERT_OK(loader->Finish(nullptr, nullptr));
  std::vector<Row> rows = testing::ReadAll(db_.get(), "t");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].cells[0].timestamp, made);
}

TEST_F(BulkLoaderTest, AddRefusesBadRowsAlone) {
  ASSERT_OK(db_->CreateTable("t", families_));
  ASSERT_OK_AND_ASSIGN(auto loader, db_->NewBulkLoad("t"));
  EXPECT_TRUE(loader->Add({"r1", {Mutation::SetCell("nope", "a", "1", Ms(1))}}).IsNotFound());
  EXPECT_TRUE(loader->Add({"r2", {Mutation::SetCell("cf", "a", "1", 1234)}}).IsInvalidArgument());
  EXPECT_TRUE(loader->Add({"", {Mutation::SetCell("cf", "a", "1", Ms(1))}}).IsInvalidArgument());
  EXPECT_TRUE(loader->Add({"r3", {Mutation::DeleteFromRow()}}).IsInvalidArgument());
  ASSERT_OK(loader->Add({"r4", {Mutation::SetCell("cf", "a", "1", Ms(1))}}));
  ASSERT_OK(loader->Finish(nullptr, nullptr));
  EXPECT_EQ(loader->stats().rows_added, 1);
  EXPECT_EQ(testing::RowKeys(testing::ReadAll(db_.get(), "t")), std::vector<std::string>{"r4"});
  EXPECT_FALSE(loader->Finish(nullptr, nullptr).ok()) << "Finish runs once";
}

TEST_F(BulkLoaderTest, AStoppedLoadKeepsItsCommitsAndCountsThem) {
  ASSERT_OK(db_->CreateTable("t", families_));
  BulkLoadOptions options;
  options.rows_per_commit = 100;
  ASSERT_OK_AND_ASSIGN(auto loader, db_->NewBulkLoad("t", options));
  std::vector<RowMutation> rows = TimeOrderedRows(1000, 10, 5);
  for (const RowMutation& row : rows) ASSERT_OK(loader->Add(row));
  int commits = 0;
  Status s = loader->Finish(
      [&](const BulkLoadStats&) { return ++commits == 3 ? Status::Cancelled("stop") : Status::OK(); }, nullptr);
  EXPECT_EQ(s.code(), Status::Code::kCancelled);
  const BulkLoadStats& stats = loader->stats();
  EXPECT_EQ(stats.commits, 3);
  EXPECT_GE(stats.rows_committed, 300);
  EXPECT_LT(stats.rows_committed, 1000);
  // What was kept is the first rows in key order, whole.
  std::vector<std::string> keys;
  for (const RowMutation& row : rows) keys.push_back(row.row_key);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<Row> kept = testing::ReadAll(db_.get(), "t");
  ASSERT_FALSE(kept.empty());
  for (size_t i = 0; i < kept.size(); ++i) {
    ASSERT_EQ(kept[i].key, keys[i]);
    EXPECT_GE(kept[i].cells.size(), 3u) << "a kept row is whole";
  }
}

TEST_F(BulkLoaderTest, RowsThatFailWhileWrittenAreReportedAndTheRestWritten) {
  ASSERT_OK(db_->CreateTable("t", families_));
  ASSERT_OK_AND_ASSIGN(auto loader, db_->NewBulkLoad("t"));
  ASSERT_OK(loader->Add({"a", {Mutation::SetCell("cf", "x", "1", Ms(1))}}));
  ASSERT_OK(loader->Add({"b", {Mutation::SetCell("v2", "x", "1", Ms(1))}}));
  ASSERT_OK(loader->Add({"c", {Mutation::SetCell("cf", "x", "1", Ms(1)), Mutation::SetCell("v2", "y", "2", Ms(1))}}));
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::Drop("v2")}));  // after Add checked the rows
  std::vector<std::string> failed;
  ASSERT_OK(loader->Finish(nullptr, [&](std::string_view key, const Status& s) {
    EXPECT_TRUE(s.IsNotFound()) << s.ToString();
    failed.emplace_back(key);
  }));
  EXPECT_EQ(failed, (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(loader->stats().rows_failed, 2);
  EXPECT_EQ(testing::RowKeys(testing::ReadAll(db_.get(), "t")), std::vector<std::string>{"a"});
}

TEST_F(BulkLoaderTest, GcOnWriteAppliesToNewRows) {
  CreatePair("t");
  std::vector<RowMutation> rows;
  for (int i = 0; i < 50; ++i) {
    rows.push_back({"r" + std::to_string(i),
                    {Mutation::SetCell("v2", "q", "1", Ms(1)), Mutation::SetCell("v2", "q", "2", Ms(2)),
                     Mutation::SetCell("v2", "q", "3", Ms(3)), Mutation::SetCell("young", "old", "gone", Ms(1))}});
  }
  BulkLoadStats stats = LoadBoth("t", rows);
  ExpectSameAsReference("t");
  EXPECT_EQ(stats.cells_collected, 100);  // per row: the oldest version and the expired cell
  EXPECT_EQ(stats.cells_written, 100);
}

TEST_F(BulkLoaderTest, TheMapGrowsDuringTheLoad) {
  testing::TempDir dir;
  DatabaseOptions options;
  options.initial_map_bytes = 64 << 10;
  ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir.Sub("db"), options));
  ASSERT_OK(db->CreateTable("t", families_));
  ASSERT_OK_AND_ASSIGN(auto loader, db->NewBulkLoad("t"));
  for (int i = 0; i < 5000; ++i) {
    ASSERT_OK(loader->Add(
        {"r" + std::to_string(i * 7919 % 5000), {Mutation::SetCell("cf", "q", std::string(100, 'v'), Ms(1))}}));
  }
  ASSERT_OK(loader->Finish(nullptr, nullptr));
  EXPECT_EQ(*db->CountRows("t"), 5000);
}

}  // namespace
}  // namespace lbt
