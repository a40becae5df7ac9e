// lbt studio's JSON API: a statement runs through the shell's command
// table and JSON renderer, its documents gathered in one answer; errors
// are one line; what a page may not run (files, the shell's own
// statements, the HBase language) is refused, and under read-only every
// change, with nothing changed.

#include "studio/studio_api.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "api/forwarding_bigtable.h"
#include "api/forwarding_table.h"
#include "local/local_bigtable.h"
#include "tests/test_util.h"

namespace lbt::testing {
namespace {

using Json = nlohmann::json;

class StudioApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bigtable_ = std::make_unique<LocalBigtable>(dir_.Sub("db"), DatabaseOptions{});
    api_ = std::make_unique<studio::StudioApi>(bigtable_.get(), DefaultInstanceName(), false);
    ASSERT_TRUE(Ok("createtable t families=cf"));
    ASSERT_TRUE(Ok("set t a1 cf:q=hello@1000"));
    ASSERT_TRUE(Ok("set t b1 cf:q=world@1000"));
  }

  Json Run(std::string_view statement, studio::StudioApi* api = nullptr) {
    return Json::parse((api ? api : api_.get())->Run(statement));
  }
  bool Ok(std::string_view statement) { return Run(statement)["ok"].get<bool>(); }
  std::string Error(std::string_view statement, studio::StudioApi* api = nullptr) {
    const Json answer = Run(statement, api);
    EXPECT_FALSE(answer["ok"].get<bool>()) << statement;
    return answer.value("error", "");
  }

  TempDir dir_;
  std::unique_ptr<LocalBigtable> bigtable_;
  std::unique_ptr<studio::StudioApi> api_;
};

TEST_F(StudioApiTest, AStatementAnswersWhatTheJsonRendererPrints) {
  EXPECT_EQ(Run("ls"), Json::parse(R"({"ok":true,"results":[{"tables":["t"]}]})"));
  // Rows come one document each.
  const Json read = Run("read t prefix=a");
  ASSERT_TRUE(read["ok"].get<bool>()) << read;
  EXPECT_EQ(read["results"].size(), 1u);
  EXPECT_EQ(read["results"][0]["key"], "a1");
  EXPECT_EQ(read["results"][0]["cells"][0]["value"], "hello");
  const Json sql = Run("SELECT _key, CAST(cf['q'] AS STRING) AS q FROM t ORDER BY q DESC");
  ASSERT_TRUE(sql["ok"].get<bool>()) << sql;
  EXPECT_EQ(sql["results"], Json::parse(R"([{"_key":"b1","q":"world"},{"_key":"a1","q":"hello"}])"));
  // with its columns' types, for the page's grid
  EXPECT_EQ(sql["columns"], Json::parse(R"([{"name":"_key","type":"BYTES"},{"name":"q","type":"STRING"}])"));
  const Json empty = Run("SELECT COUNT(*) AS n, MAX(cf['q']) AS m FROM t WHERE _key = 'none' GROUP BY _key");
  ASSERT_TRUE(empty["ok"].get<bool>()) << empty;
  EXPECT_TRUE(empty["results"].empty());
  EXPECT_EQ(empty["columns"], Json::parse(R"([{"name":"n","type":"INT64"},{"name":"m","type":"BYTES"}])"));
}

// An answer is bounded: past the bound the statement stops, and the rows
// before it come back, whole, marked truncated.
TEST_F(StudioApiTest, ABigAnswerIsCutAtItsBound) {
  for (int i = 0; i < 300; ++i) ASSERT_TRUE(Ok(fmt::format("set t r{:03} cf:q=value-{:03}@1000", i, i)));
  api_->set_max_answer_bytes(1000);
  const Json answer = Run("SELECT _key, CAST(cf['q'] AS STRING) AS q FROM t");
  ASSERT_TRUE(answer["ok"].get<bool>()) << answer;
  EXPECT_TRUE(answer.value("truncated", false));
  EXPECT_GT(answer["results"].size(), 5u);
  EXPECT_LT(answer["results"].size(), 300u);
  for (const Json& row : answer["results"]) EXPECT_TRUE(row.is_object()) << row;  // whole rows only
  EXPECT_TRUE(Run("count t")["ok"].get<bool>());                                  // the next statement runs as usual
  EXPECT_FALSE(Run("read t count=2").value("truncated", false));
}

TEST_F(StudioApiTest, WordsAreTheFunctionsOfGoogleSql) {
  const Json words = Json::parse(studio::StudioApi::Words());
  ASSERT_TRUE(words["ok"].get<bool>());
  std::vector<std::string> functions = words["functions"];
  EXPECT_NE(std::find(functions.begin(), functions.end(), "ARRAY_AGG"), functions.end());
  EXPECT_NE(std::find(functions.begin(), functions.end(), "TIMESTAMP_TRUNC"), functions.end());
  for (const std::string& name : functions) EXPECT_NE(name[0], '$') << name;  // operators are not offered
}

// Counts the rows its tables' reads hand on.
class CountingBigtable final : public ForwardingBigtable {
 public:
  using ForwardingBigtable::ForwardingBigtable;
  Result<std::unique_ptr<Table>> OpenTable(const TableRef& ref) override {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, ForwardingBigtable::OpenTable(ref));
    return std::unique_ptr<Table>(std::make_unique<CountingTable>(std::move(table), &rows_read));
  }
  std::atomic<int64_t> rows_read{0};

 private:
  class CountingTable final : public ForwardingTable {
   public:
    CountingTable(std::unique_ptr<Table> table, std::atomic<int64_t>* count)
        : ForwardingTable(std::move(table)), count_(count) {}
    Result<std::unique_ptr<RowStream>> ReadRows(const ReadRequest& request) override {
      LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> rows, target()->ReadRows(request));
      return std::unique_ptr<RowStream>(std::make_unique<CountingStream>(std::move(rows), count_));
    }

   private:
    std::atomic<int64_t>* count_;
  };
  class CountingStream final : public RowStream {
   public:
    CountingStream(std::unique_ptr<RowStream> rows, std::atomic<int64_t>* count)
        : rows_(std::move(rows)), count_(count) {}
    bool Next(Row* row) override {
      if (!rows_->Next(row)) return false;
      ++*count_;
      return true;
    }
    Status status() const override { return rows_->status(); }
    ReadStats stats() const override { return rows_->stats(); }

   private:
    std::unique_ptr<RowStream> rows_;
    std::atomic<int64_t>* count_;
  };
};

// Stop on an aggregate, which returns no row until its scan ends: the
// scan itself stops, rather than read the whole table first.
TEST_F(StudioApiTest, StopEndsAnAggregateBeforeItsFirstRow) {
  for (int i = 0; i < 3000; ++i) ASSERT_TRUE(Ok(fmt::format("set t r{:05} cf:q=v@1000", i)));
  CountingBigtable counting(bigtable_.get());
  studio::StudioApi* stoppable = nullptr;
  // Stop is pressed as the statement starts (the hook runs inside it).
  studio::StudioApi api(&counting, DefaultInstanceName(), false, [&] { stoppable->Cancel(); });
  stoppable = &api;
  EXPECT_EQ(Error("SELECT COUNT(*) AS n FROM t", &api), "stopped");
  EXPECT_LT(counting.rows_read.load(), 1000);  // of 3002
}

// Stop that comes as a write finishes does not make it a failure: the
// write is done, and says so.
TEST_F(StudioApiTest, AStatementDoneBeforeStopIsNotStopped) {
  studio::StudioApi* api = nullptr;
  studio::StudioApi stopped(bigtable_.get(), DefaultInstanceName(), false, [&] { api->Cancel(); });
  api = &stopped;
  EXPECT_TRUE(Run("set t late cf:q=written@1000", &stopped)["ok"].get<bool>());
  EXPECT_EQ(Run("read t prefix=late")["results"][0]["cells"][0]["value"], "written");
}

// A few statements wait their turn; past that they are answered busy at
// once, so that the server keeps threads for Stop.
TEST_F(StudioApiTest, PastAFewWaitingStatementsTheStudioIsBusy) {
  std::atomic<bool> first{true}, release{false};
  studio::StudioApi api(bigtable_.get(), DefaultInstanceName(), false, [&] {
    if (!first.exchange(false)) return;
    while (!release) std::this_thread::yield();  // holds the first statement until the test lets it go
  });
  std::thread running([&] { api.Run("ls"); });
  while (first) std::this_thread::yield();  // the first statement runs
  std::vector<std::thread> waiting;
  std::atomic<int> busy{0}, done{0};
  for (int i = 0; i < 5; ++i) {
    waiting.emplace_back([&] {
      const Json answer = Json::parse(api.Run("ls"));
      if (!answer["ok"].get<bool>() && answer["error"].get<std::string>().starts_with("busy")) ++busy;
      ++done;
    });
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (busy == 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  release = true;
  running.join();
  for (std::thread& t : waiting) t.join();
  EXPECT_EQ(busy.load(), 1);  // of 5: four waited and ran
  EXPECT_EQ(done.load(), 5);
}

TEST_F(StudioApiTest, ACloseStudioRefusesStatements) {
  api_->Close();
  EXPECT_EQ(Error("ls"), "the studio is stopping");
}

TEST_F(StudioApiTest, ErrorsAreOneLine) {
  EXPECT_EQ(Error("read nosuch"), "table 'nosuch' does not exist");
  EXPECT_EQ(Error(""), "nothing to run");
  EXPECT_EQ(Error("read 'unclosed"), Error("read 'unclosed"));  // the tokenizer's own line
  EXPECT_EQ(Error("read 'unclosed").find('\n'), std::string::npos);
}

// A page sees the database, not the machine: no command that reads or
// writes a file, runs on, or leaves the session's instance.
TEST_F(StudioApiTest, WhatAPageMayNotRunIsRefused) {
  for (const char* statement :
       {"import t /etc/passwd", "export t /tmp/out.csv", "dump /tmp/d.cbt", "source /tmp/x.cbt", "dump"}) {
    const std::string error = Error(statement);
    EXPECT_NE(error.find("cannot run in the studio"), std::string::npos) << statement << ": " << error;
  }
  EXPECT_EQ(Error("scan 't'"), "the studio runs cbt's language and SQL");
  // watch only for what has committed, which a page polls for.
  EXPECT_EQ(Error("watch t"), "watch in the studio reads what has committed: give it end=now");
  EXPECT_EQ(Error("watch t start=-1h end=+1h"), Error("watch t"));
  EXPECT_EQ(Error("watch t end=now end=+1d"), Error("watch t"));  // the last end= would count
  // keyviz may print its heatmap, not write a file.
  EXPECT_EQ(Error("keyviz t /tmp/k.html"), "keyviz in the studio draws its heatmap: give it no file");
  const Json heatmap = Run("keyviz t sample=10");
  ASSERT_TRUE(heatmap["ok"].get<bool>()) << heatmap;
  EXPECT_EQ(heatmap["results"][0]["table"], "t");
  EXPECT_TRUE(heatmap["results"][0]["values"].is_array());
}

// The page's live log: watch's changes since a token, asked again and again.
TEST_F(StudioApiTest, WatchAnswersTheChangesCommittedSinceItsToken) {
  ASSERT_TRUE(Ok("setchangestream t 1d"));
  ASSERT_TRUE(Ok("set t c1 cf:q=first"));
  const Json first = Run("watch t start=-1h end=now");
  ASSERT_TRUE(first["ok"].get<bool>()) << first;
  ASSERT_EQ(first["results"].size(), 1u) << first;
  EXPECT_EQ(first["results"][0]["row_key"], "c1") << first;
  const std::string token = first["results"][0]["token"];
  ASSERT_TRUE(Ok("set t c2 cf:q=second"));
  const Json next = Run(fmt::format("watch t token={} end=now", token));
  ASSERT_TRUE(next["ok"].get<bool>()) << next;
  ASSERT_EQ(next["results"].size(), 1u) << next;
  EXPECT_EQ(next["results"][0]["row_key"], "c2");
  studio::StudioApi read_only(bigtable_.get(), DefaultInstanceName(), true);
  EXPECT_TRUE(Run("watch t start=-1h end=now", &read_only)["ok"].get<bool>());
}

// useinstance moves the studio's sessions, both: documents and rows.
TEST_F(StudioApiTest, UseInstanceMovesBothSessions) {
  EXPECT_EQ(Json::parse(api_->Where())["instance"], "local");
  const Json moved = Run("useinstance other-inst project=p2");
  ASSERT_TRUE(moved["ok"].get<bool>()) << moved;
  EXPECT_EQ(moved["project"], "p2");
  EXPECT_EQ(moved["instance"], "other-inst");
  EXPECT_EQ(Run("ls")["results"][0]["tables"], Json::array());
  ASSERT_TRUE(Ok("createtable u families=f"));
  ASSERT_TRUE(Ok("set u k f:q=elsewhere@1000"));
  EXPECT_EQ(Run("read u")["results"][0]["key"], "k");  // the rows session moved too
  ASSERT_TRUE(Ok("useinstance local project=lbt"));
  EXPECT_EQ(Run("ls")["results"][0]["tables"], Json::parse(R"(["t"])"));
  EXPECT_EQ(Error("read u"), "table 'u' does not exist");
}

TEST_F(StudioApiTest, ReadOnlyRefusesEveryChangeAndChangesNothing) {
  studio::StudioApi read_only(bigtable_.get(), DefaultInstanceName(), true);
  EXPECT_EQ(Error("set t c1 cf:q=x", &read_only), "set changes data: the studio is read-only");
  EXPECT_EQ(Error("createtable u", &read_only), "createtable changes data: the studio is read-only");
  EXPECT_EQ(Error("deleterow t a1", &read_only), "deleterow changes data: the studio is read-only");
  EXPECT_TRUE(Run("count t", &read_only)["ok"].get<bool>());
  EXPECT_EQ(Run("read t", &read_only)["results"].size(), 2u);
  EXPECT_EQ(Error("faults clear", &read_only), "faults changes data: the studio is read-only");
}

}  // namespace
}  // namespace lbt::testing
