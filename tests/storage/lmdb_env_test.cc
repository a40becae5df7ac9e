#include "storage/kv/lmdb_env.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "storage/database.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::Ms;
using testing::TempDir;

TEST(LmdbEnvTest, TheMapGrowsByItselfWhenFull) {
  TempDir dir;
  DatabaseOptions options;
  options.initial_map_bytes = 64 << 10;  // 64 KiB: full after a few writes
  ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir.path(), options));
  ASSERT_OK(db->CreateTable("t", {{"cf", {}, ValueType::kBytes}}));
  const std::string value(100 << 10, 'v');
  for (int i = 0; i < 64; ++i) {
    ASSERT_OK(db->MutateRow("t", "row" + std::to_string(i), {Mutation::SetCell("cf", "q", value, Ms(1))}));
  }
  // One write far larger than the map grew to so far.
  const std::string big(20 << 20, 'b');
  ASSERT_OK(db->MutateRow("t", "big", {Mutation::SetCell("cf", "q", big, Ms(1))}));
  ASSERT_OK_AND_ASSIGN(int64_t n, db->CountRows("t"));
  EXPECT_EQ(n, 65);
  ASSERT_OK_AND_ASSIGN(auto row, db->ReadRow("t", "big"));
  EXPECT_EQ(row->cells.at(0).value.size(), big.size());
}

TEST(LmdbEnvTest, AnotherHandleAdoptsAGrownMap) {
  TempDir dir;
  DatabaseOptions small;
  small.initial_map_bytes = 64 << 10;
  ASSERT_OK_AND_ASSIGN(auto first, Database::Open(dir.path(), small));
  ASSERT_OK_AND_ASSIGN(auto second, Database::Open(dir.path(), small));
  ASSERT_OK(first->CreateTable("t", {{"cf", {}, ValueType::kBytes}}));
  ASSERT_OK(first->MutateRow("t", "r", {Mutation::SetCell("cf", "q", std::string(8 << 20, 'x'), Ms(1))}));
  ASSERT_OK_AND_ASSIGN(auto row, second->ReadRow("t", "r"));
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->cells.at(0).value.size(), 8u << 20);
  ASSERT_OK(second->MutateRow("t", "r2", {Mutation::SetCell("cf", "q", "v", Ms(1))}));
}

TEST(LmdbEnvTest, CursorsAndTransactionsReportMissingKeys) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto env, LmdbEnv::Open(dir.path(), {}));
  ASSERT_OK_AND_ASSIGN(auto txn, Txn::Begin(env.get(), true));
  ASSERT_OK_AND_ASSIGN(MDB_dbi dbi, txn->OpenDbi("d", true));
  EXPECT_TRUE(txn->OpenDbi("absent", false).status().IsNotFound());
  std::string_view v;
  ASSERT_OK_AND_ASSIGN(bool found, txn->Get(dbi, "k", &v));
  EXPECT_FALSE(found);
  ASSERT_OK(txn->Put(dbi, "k", "v"));
  ASSERT_OK_AND_ASSIGN(found, txn->Get(dbi, "k", &v));
  EXPECT_TRUE(found);
  EXPECT_EQ(v, "v");
  {
    ASSERT_OK_AND_ASSIGN(auto cursor, Cursor::Open(txn.get(), dbi));
    ASSERT_OK_AND_ASSIGN(found, cursor->Seek("j"));
    EXPECT_TRUE(found);
    EXPECT_EQ(cursor->key(), "k");
    ASSERT_OK_AND_ASSIGN(found, cursor->Next());
    EXPECT_FALSE(found);
  }
  ASSERT_OK(txn->Commit());
}

TEST(LmdbEnvTest, ReadOnlyEnvironmentsRefuseWrites) {
  TempDir dir;
  { ASSERT_OK_AND_ASSIGN(auto env, LmdbEnv::Open(dir.path(), {})); }
  LmdbOptions ro;
  ro.read_only = true;
  ASSERT_OK_AND_ASSIGN(auto env, LmdbEnv::Open(dir.path(), ro));
  EXPECT_EQ(Txn::Begin(env.get(), true).status().code(), Status::Code::kFailedPrecondition);
}

}  // namespace
}  // namespace lbt
