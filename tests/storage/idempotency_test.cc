// Idempotent writes (storage/db_idempotency.cc): a token applies its write
// once within the window, kept in the same step as the write (so across a
// reopen too); tokens are checked, scoped to their table and row, and
// forgotten after the window. Each test runs with writes straight to LMDB
// and through the log.

#include <gtest/gtest.h>

#include "storage/database.h"
#include "storage/format/record_keys.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::Ms;
using testing::TempDir;

class IdempotencyTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    Open();
    ASSERT_OK(db_->CreateTable("counts", {{"n", GcRule::Never(), ValueType::kIntSum}}));
    ASSERT_OK(db_->CreateTable("other", {{"n", GcRule::Never(), ValueType::kIntSum}}));
  }

  void Open() {
    db_.reset();
    DatabaseOptions options;
    options.log_writes = GetParam();
    options.clock = clock_.Fn();
    auto db = Database::Open(dir_.path(), options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
  }

  // Adds 1 to `row`'s counter with `token`; the row's status.
  Status Add(const std::string& table, const std::string& row, const std::string& token, int64_t start = 0) {
    RowMutation m{row, {Mutation::AddToCell("n", "c", 1, Ms(1))}, Idempotency{token, start}};
    Result<std::vector<Status>> statuses = db_->MutateRows(table, {m});
    if (!statuses.ok()) return statuses.status();
    return statuses->front();
  }
  int64_t Count(const std::string& table, const std::string& row) {
    Result<std::optional<Row>> read = db_->ReadRow(table, row);
    EXPECT_TRUE(read.ok());
    if (!read.ok() || !read->has_value()) return 0;
    int64_t n = 0;
    EXPECT_TRUE(DecodeInt64((*read)->cells[0].value, &n));
    return n;
  }

  TempDir dir_;
  testing::FakeClock clock_;
  std::unique_ptr<Database> db_;
};

TEST_P(IdempotencyTest, AReplayedTokenAppliesOnce) {
  ASSERT_OK(Add("counts", "r", "token-0001"));
  ASSERT_OK(Add("counts", "r", "token-0001"));  // the retry after a lost answer
  EXPECT_EQ(Count("counts", "r"), 1);
  ASSERT_OK(Add("counts", "r", "token-0002"));
  EXPECT_EQ(Count("counts", "r"), 2);
  // A token names one write: of its table and row.
  ASSERT_OK(Add("counts", "s", "token-0001"));
  ASSERT_OK(Add("other", "r", "token-0001"));
  EXPECT_EQ(Count("counts", "s"), 1);
  EXPECT_EQ(Count("other", "r"), 1);
  // Without a token, every write applies.
  ASSERT_OK(Add("counts", "plain", ""));
  ASSERT_OK(Add("counts", "plain", ""));
  EXPECT_EQ(Count("counts", "plain"), 2);
  // Twice in one request: the second is a replay of the first.
  RowMutation twice{"both", {Mutation::AddToCell("n", "c", 1, Ms(1))}, Idempotency{"token-0003", 0}};
  ASSERT_OK_AND_ASSIGN(std::vector<Status> statuses, db_->MutateRows("counts", {twice, twice}));
  EXPECT_TRUE(statuses[0].ok() && statuses[1].ok());
  EXPECT_EQ(Count("counts", "both"), 1);
  // The tokens live in the hidden table.
  ASSERT_OK_AND_ASSIGN(TableSpec tokens, db_->GetTable(kIdempotencyTable));
  EXPECT_EQ(tokens.families.count("t"), 1u);
}

TEST_P(IdempotencyTest, TokensAreKeptAcrossAReopenAndForgottenAfterTheWindow) {
  ASSERT_OK(Add("counts", "r", "token-0001"));
  Open();
  ASSERT_OK(Add("counts", "r", "token-0001"));
  EXPECT_EQ(Count("counts", "r"), 1);
  clock_.now += kIdempotencyWindowMicros + Ms(1);
  ASSERT_OK(Add("counts", "r", "token-0001"));
  EXPECT_EQ(Count("counts", "r"), 2);
}

TEST_P(IdempotencyTest, TokensAndStartTimesAreChecked) {
  Status s = Add("counts", "r", "short");
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("idempotency.token"), std::string::npos) << s.message();
  EXPECT_EQ(Add("counts", "r", std::string(1025, 'x')).code(), Status::Code::kInvalidArgument);
  // A first attempt older than the window could be replayed unnoticed.
  s = Add("counts", "r", "token-0001", clock_.now - kIdempotencyWindowMicros - Ms(1));
  EXPECT_EQ(s.code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(s.message().find("idempotency.start_time"), std::string::npos) << s.message();
  EXPECT_EQ(Count("counts", "r"), 0);
  ASSERT_OK(Add("counts", "r", "token-0001", clock_.now - Ms(5)));
  EXPECT_EQ(Count("counts", "r"), 1);
}

INSTANTIATE_TEST_SUITE_P(Writes, IdempotencyTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Logged" : "Direct"; });

}  // namespace
}  // namespace lbt
