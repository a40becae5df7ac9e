// A session's reads stop at the interrupt flag between rows, also while a
// filter skips rows and before the first row is returned: what stops an
// aggregate or a count that prints nothing until its scan ends (Ctrl-C in
// the shell, Stop in lbt studio).

#include "commands/core/interruptible_bigtable.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "commands/core/session.h"
#include "local/local_bigtable.h"
#include "tests/test_util.h"

namespace lbt::testing {
namespace {

class InterruptibleBigtableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto local = std::make_unique<LocalBigtable>(dir_.Sub("db"), DatabaseOptions{});
    ASSERT_OK(local->CreateTable("t", {{"cf"}}, {}, false));
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<Table> table, local->OpenTable(TableRef::Table("t")));
    std::vector<RowMutation> rows;
    for (int i = 0; i < 5000; ++i)
      rows.push_back({fmt::format("r{:05}", i), {Mutation::SetCell("cf", "q", "v", 1000)}});
    ASSERT_OK(table->MutateRows(rows).status());
    SessionOptions options;
    options.instance = DefaultInstanceName();
    session_ = std::make_unique<Session>(options, std::move(local));
  }
  void TearDown() override { ClearInterrupt(); }

  // The rows a read of the whole table through the session returns, and
  // how it ends.
  std::pair<int, Status> ReadAll(const ReadRequest& request) {
    Result<std::unique_ptr<Table>> table = session_->bigtable()->OpenTable(TableRef::Table("t"));
    EXPECT_TRUE(table.ok());
    Result<std::unique_ptr<RowStream>> rows = (*table)->ReadRows(request);
    EXPECT_TRUE(rows.ok());
    int count = 0;
    for (Row row; (*rows)->Next(&row);) {
      if (++count == 10) RequestInterrupt();
    }
    return {count, (*rows)->status()};
  }

  TempDir dir_;
  std::unique_ptr<Session> session_;
};

TEST_F(InterruptibleBigtableTest, AReadStopsAtTheFlag) {
  const auto [count, status] = ReadAll(ReadRequest{});
  EXPECT_EQ(count, 10);
  EXPECT_EQ(status.code(), Status::Code::kCancelled) << status.ToString();
}

TEST_F(InterruptibleBigtableTest, AReadThatReturnsNothingYetStopsToo) {
  // A filter that skips every row: nothing is returned before the scan's
  // end, yet the raised flag ends it.
  RequestInterrupt();
  ReadRequest request;
  request.filter = Filter::RowKeyRegex("no row has this key");
  const auto [count, status] = ReadAll(request);
  EXPECT_EQ(count, 0);
  EXPECT_EQ(status.code(), Status::Code::kCancelled) << status.ToString();
}

TEST_F(InterruptibleBigtableTest, WithoutTheFlagEveryRowComes) {
  ClearInterrupt();
  Result<std::unique_ptr<Table>> table = session_->bigtable()->OpenTable(TableRef::Table("t"));
  ASSERT_TRUE(table.ok());
  Result<std::unique_ptr<RowStream>> rows = (*table)->ReadRows(ReadRequest{});
  ASSERT_TRUE(rows.ok());
  int count = 0;
  for (Row row; (*rows)->Next(&row);) ++count;
  EXPECT_EQ(count, 5000);
  EXPECT_TRUE((*rows)->status().ok());
}

}  // namespace
}  // namespace lbt::testing
