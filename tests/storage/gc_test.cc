// Garbage collection: cells a policy makes eligible are never read, and are
// physically removed by writes to their column and by CollectGarbage.

#include <gtest/gtest.h>

#include "storage/database.h"
#include "storage/load/bulk_loader.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::FakeClock;
using testing::Ms;
using testing::TempDir;

constexpr int64_t kDay = 86'400'000'000;

class GcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = testing::OpenWithClock(dir_.path(), &clock_);
    ASSERT_NE(db_, nullptr);
    ASSERT_OK(db_->CreateTable("t", {{"cf", {}, ValueType::kBytes}}));
  }

  // Writes versions at now - i days for i in `days_ago`, one mutation each.
  void WriteVersions(const std::string& row, const std::string& qualifier, const std::vector<int>& days_ago) {
    for (int d : days_ago) {
      ASSERT_OK(
          db_->MutateRow("t", row, {Mutation::SetCell("cf", qualifier, std::to_string(d), clock_.now - d * kDay)}));
    }
  }

  // The values of a column, newest first.
  std::vector<std::string> Values(const std::string& row, const std::string& qualifier) {
    ReadOptions options;
    options.columns = {ColumnSelector{"cf", qualifier}};
    auto r = db_->ReadRow("t", row, options);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    std::vector<std::string> out;
    if (r.ok() && r->has_value()) {
      for (const Cell& c : (*r)->cells) out.push_back(c.value);
    }
    return out;
  }

  using V = std::vector<std::string>;
  TempDir dir_;
  FakeClock clock_;
  std::unique_ptr<Database> db_;
};

TEST_F(GcTest, MaxVersionsAppliesAtOnceToReads) {
  WriteVersions("r", "q", {4, 3, 2, 1});
  EXPECT_EQ(Values("r", "q"), (V{"1", "2", "3", "4"}));
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::MaxVersions(2))}));
  EXPECT_EQ(Values("r", "q"), (V{"1", "2"}));
}

TEST_F(GcTest, MaxAgeFollowsTheClock) {
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::MaxAge(3 * kDay))}));
  WriteVersions("r", "q", {5, 2, 1});
  EXPECT_EQ(Values("r", "q"), (V{"1", "2"}));
  clock_.now += kDay + 1000;
  EXPECT_EQ(Values("r", "q"), (V{"1"}));
  clock_.now += kDay;
  EXPECT_TRUE(Values("r", "q").empty());
  // A row whose every cell expired is not read or counted.
  EXPECT_TRUE(testing::ReadAll(db_.get(), "t").empty());
  ASSERT_OK_AND_ASSIGN(int64_t n, db_->CountRows("t"));
  EXPECT_EQ(n, 0);
}

TEST_F(GcTest, UnionCollectsWhatAnyRuleCollects) {
  ASSERT_OK(db_->ModifyFamilies(
      "t", {FamilyChange::SetGcRule("cf", GcRule::Union({GcRule::MaxAge(3 * kDay), GcRule::MaxVersions(2)}))}));
  WriteVersions("r", "q", {5, 2, 1, 0});
  EXPECT_EQ(Values("r", "q"), (V{"0", "1"}));
  WriteVersions("s", "q", {5, 4});
  EXPECT_TRUE(Values("s", "q").empty());
}

TEST_F(GcTest, IntersectionCollectsWhatEveryRuleCollects) {
  ASSERT_OK(db_->ModifyFamilies(
      "t", {FamilyChange::SetGcRule("cf", GcRule::Intersection({GcRule::MaxAge(3 * kDay), GcRule::MaxVersions(1)}))}));
  WriteVersions("r", "q", {6, 5, 2, 1});
  // Extra versions are kept while young; the newest is kept however old.
  EXPECT_EQ(Values("r", "q"), (V{"1", "2"}));
  WriteVersions("s", "q", {9});
  EXPECT_EQ(Values("s", "q"), (V{"9"}));
}

TEST_F(GcTest, NestedRules) {
  // (maxage=3d && maxversions=1) || maxversions=3
  ASSERT_OK(db_->ModifyFamilies(
      "t", {FamilyChange::SetGcRule(
               "cf", GcRule::Union({GcRule::Intersection({GcRule::MaxAge(3 * kDay), GcRule::MaxVersions(1)}),
                                    GcRule::MaxVersions(3)}))}));
  WriteVersions("r", "q", {9, 8, 2, 1});
  EXPECT_EQ(Values("r", "q"), (V{"1", "2"}));
  WriteVersions("s", "q", {3, 2, 1, 0});
  EXPECT_EQ(Values("s", "q"), (V{"0", "1", "2"}));
}

TEST_F(GcTest, WritingAColumnRemovesItsEligibleCells) {
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::MaxVersions(1))}));
  WriteVersions("r", "written", {3, 2, 1});
  // Written before the rule existed, so only hidden, not yet removed.
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::Never())}));
  WriteVersions("r", "untouched", {3, 2, 1});
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::MaxVersions(1))}));
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::Never())}));
  // Relaxing the rule shows what is physically there.
  EXPECT_EQ(Values("r", "written"), (V{"1"}));
  EXPECT_EQ(Values("r", "untouched"), (V{"1", "2", "3"}));
}

TEST_F(GcTest, CollectGarbageRemovesEligibleCellsTableWide) {
  WriteVersions("a", "q", {3, 2, 1});
  WriteVersions("b", "q", {3, 2, 1});
  WriteVersions("b", "p", {1});
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::MaxVersions(1))}));
  ASSERT_OK_AND_ASSIGN(GcStats stats, db_->CollectGarbage("t"));
  EXPECT_EQ(stats.cells_examined, 7);
  EXPECT_EQ(stats.cells_deleted, 4);
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::Never())}));
  EXPECT_EQ(Values("a", "q"), (V{"1"}));
  EXPECT_EQ(Values("b", "q"), (V{"1"}));
  EXPECT_EQ(Values("b", "p"), (V{"1"}));
  ASSERT_OK_AND_ASSIGN(stats, db_->CollectGarbage("t"));
  EXPECT_EQ(stats.cells_deleted, 0);
}

TEST_F(GcTest, WritingAnExpiredCellKeepsNothing) {
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::MaxAge(kDay))}));
  WriteVersions("old", "q", {5});
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::Never())}));
  EXPECT_TRUE(Values("old", "q").empty());
}

TEST_F(GcTest, CollectingAWholeRowRemovesIt) {
  WriteVersions("old", "q", {5});
  WriteVersions("new", "q", {0});
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::MaxAge(kDay))}));
  ASSERT_OK_AND_ASSIGN(GcStats stats, db_->CollectGarbage("t"));
  EXPECT_EQ(stats.cells_deleted, 1);
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::Never())}));
  ASSERT_OK_AND_ASSIGN(int64_t n, db_->CountRows("t"));
  EXPECT_EQ(n, 1);
  EXPECT_EQ(testing::RowKeys(testing::ReadAll(db_.get(), "t")), (V{"new"}));
}

TEST_F(GcTest, DroppingAFamilyDeletesItsData) {
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::Create({"other", {}, ValueType::kBytes})}));
  ASSERT_OK(db_->MutateRow("t", "r1",
                           {Mutation::SetCell("cf", "q", "1", Ms(1)), Mutation::SetCell("other", "q", "2", Ms(1))}));
  ASSERT_OK(db_->MutateRow("t", "r2", {Mutation::SetCell("other", "q", "3", Ms(1))}));
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::Drop("other")}));
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::Create({"other", {}, ValueType::kBytes})}));
  auto rows = testing::ReadAll(db_.get(), "t");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].key, "r1");
  ASSERT_EQ(rows[0].cells.size(), 1u);
  EXPECT_EQ(rows[0].cells[0].family, "cf");
  ASSERT_OK_AND_ASSIGN(int64_t n, db_->CountRows("t"));
  EXPECT_EQ(n, 1);
}

// GcMode::kLazy, as production: eligible cells are read, written over and
// loaded in bulk like any other until a collection pass removes them.
class LazyGcTest : public GcTest {
 protected:
  void SetUp() override {
    DatabaseOptions options;
    options.clock = clock_.Fn();
    options.gc = GcMode::kLazy;
    auto db = Database::Open(dir_.path(), options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    ASSERT_OK(db_->CreateTable("t", {{"cf", GcRule::MaxVersions(1), ValueType::kBytes}}));
  }
};

TEST_F(LazyGcTest, EligibleCellsAreReadUntilAPassRemovesThem) {
  WriteVersions("r", "q", {3, 2, 1});  // each write would have collected the older ones eagerly
  EXPECT_EQ(Values("r", "q"), (V{"1", "2", "3"}));
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::MaxAge(kDay + Ms(1)))}));
  EXPECT_EQ(Values("r", "q"), (V{"1", "2", "3"}));
  ASSERT_OK_AND_ASSIGN(GcStats stats, db_->CollectAllGarbage());
  EXPECT_EQ(stats.cells_deleted, 2);
  EXPECT_EQ(Values("r", "q"), (V{"1"}));
  // A bulk load keeps what it loads, eligible or not, until the next pass.
  ASSERT_OK_AND_ASSIGN(auto loader, db_->NewBulkLoad("t"));
  ASSERT_OK(loader->Add({"old", {Mutation::SetCell("cf", "q", "x", clock_.now - 5 * kDay)}}));
  ASSERT_OK(loader->Finish(nullptr, nullptr));
  loader.reset();
  EXPECT_EQ(Values("old", "q"), (V{"x"}));
  ASSERT_OK(db_->CollectGarbage("t").status());
  EXPECT_TRUE(Values("old", "q").empty());
}

TEST_F(LazyGcTest, BackgroundPassesRunAtTheInterval) {
  db_.reset();
  DatabaseOptions options;
  options.gc = GcMode::kLazy;
  options.gc_interval = std::chrono::milliseconds(50);
  auto db = Database::Open(dir_.path(), options);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  db_ = std::move(db).value();
  for (int v = 1; v <= 3; ++v) {
    ASSERT_OK(db_->MutateRow("t", "r", {Mutation::SetCell("cf", "q", std::to_string(v), Ms(v))}));
  }
  // Within a few intervals a pass has removed the two older versions.
  testing::PollUntil([&] { return Values("r", "q").size() <= 1; });
  EXPECT_EQ(Values("r", "q"), (V{"3"}));
}

TEST_F(GcTest, TheDefaultIsEager) {
  ASSERT_OK(db_->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::MaxVersions(1))}));
  WriteVersions("r", "q", {3, 2, 1});
  EXPECT_EQ(Values("r", "q"), (V{"1"}));
}

}  // namespace
}  // namespace lbt
