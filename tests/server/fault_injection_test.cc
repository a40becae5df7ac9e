// Fault and latency rules applied to lbt serve's data calls: a faulted
// call fails with the rule's status before any of its work (so it changes
// nothing), a spent rule lets calls through, rules match by RPC and table,
// and a delayed call still succeeds.

#include "server/fault_injection.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "proto/grpc_status.h"
#include "tests/server/server_fixture.h"

namespace lbt::testing {
namespace {

class FaultInjectionTest : public ServerTest {
 protected:
  void SetUp() override {
    ServerTest::SetUp();
    CreateTable("t", {"cf"});
    CreateTable("u", {"cf"});
  }

  void Rules(const char* json) {
    Result<std::vector<server::FaultRule>> rules = server::ParseFaultRules(json);
    ASSERT_TRUE(rules.ok()) << rules.status().ToString();
    runtime_->faults()->Replace(*rules);
  }

  grpc::Status Set(const std::string& table, const std::string& key) {
    return MutateRow(table, key, {Mutation::SetCell("cf", "q", "v", 1000)});
  }

  grpc::Status MutateRows(const std::string& table, const std::vector<std::string>& keys) {
    v2::MutateRowsRequest request;
    request.set_table_name(TableName(table));
    for (const std::string& key : keys) {
      auto* entry = request.add_entries();
      entry->set_row_key(key);
      *entry->add_mutations() = proto::ToProto(Mutation::SetCell("cf", "q", "v", 1000));
    }
    return MutateRowsEntries(request).status;
  }

  grpc::Status Sample(const std::string& table) {
    v2::SampleRowKeysRequest request;
    request.set_table_name(TableName(table));
    grpc::ClientContext context;
    auto stream = bigtable_->SampleRowKeys(&context, request);
    v2::SampleRowKeysResponse response;
    while (stream->Read(&response)) {
    }
    return stream->Finish();
  }

  size_t RowCount(const std::string& table) { return ReadAll(db_.get(), table).size(); }
};

TEST_F(FaultInjectionTest, AFaultedWriteFailsAndChangesNothingUntilTheRuleIsSpent) {
  Rules(R"([{"rpc": "MutateRow", "table": "t", "code": "UNAVAILABLE", "times": 2, "message": "try again"}])");
  for (int i = 0; i < 2; ++i) {
    const grpc::Status failed = Set("t", "r1");
    EXPECT_EQ(failed.error_code(), grpc::StatusCode::UNAVAILABLE);
    EXPECT_EQ(failed.error_message(), "try again");
    EXPECT_EQ(RowCount("t"), 0u);
  }
  EXPECT_TRUE(Set("u", "r1").ok());  // another table: no rule
  EXPECT_TRUE(Set("t", "r1").ok());  // the rule is spent
  EXPECT_EQ(RowCount("t"), 1u);
  EXPECT_EQ(runtime_->faults()->Rules()[0].fired, 2);
}

TEST_F(FaultInjectionTest, RulesReachEveryKindOfDataCall) {
  ASSERT_TRUE(Set("t", "r1").ok());
  Rules(R"([{"rpc": "ReadRows", "code": "PERMISSION_DENIED"},
            {"rpc": "MutateRows", "table": "t", "code": "UNAVAILABLE"},
            {"rpc": "SampleRowKeys", "code": "DEADLINE_EXCEEDED"},
            {"rpc": "CheckAndMutateRow", "code": "ABORTED"},
            {"rpc": "ReadModifyWriteRow", "row_prefix": "r", "code": "INTERNAL"}])");
  EXPECT_EQ(Read(v2::ReadRowsRequest()).status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(MutateRows("t", {"a", "b"}).error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(RowCount("t"), 1u);  // the batch wrote nothing
  EXPECT_TRUE(MutateRows("u", {"a", "b"}).ok());
  EXPECT_EQ(Sample("t").error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);

  v2::CheckAndMutateRowRequest check;
  check.set_table_name(TableName("t"));
  check.set_row_key("r1");
  *check.add_true_mutations() = proto::ToProto(Mutation::DeleteFromRow());
  v2::CheckAndMutateRowResponse checked;
  grpc::ClientContext check_context;
  EXPECT_EQ(bigtable_->CheckAndMutateRow(&check_context, check, &checked).error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(RowCount("t"), 1u);

  v2::ReadModifyWriteRowRequest increment;
  increment.set_table_name(TableName("t"));
  increment.set_row_key("r1");
  auto* rule = increment.add_rules();
  rule->set_family_name("cf");
  rule->set_column_qualifier("n");
  rule->set_increment_amount(1);
  v2::ReadModifyWriteRowResponse incremented;
  grpc::ClientContext rmw_context;
  EXPECT_EQ(bigtable_->ReadModifyWriteRow(&rmw_context, increment, &incremented).error_code(),
            grpc::StatusCode::INTERNAL);
  increment.set_row_key("x1");  // outside the rule's row_prefix
  grpc::ClientContext other_context;
  EXPECT_TRUE(bigtable_->ReadModifyWriteRow(&other_context, increment, &incremented).ok());
}

// An entries rule fails the batch's entries under its prefix, each in its
// own status, and applies the others.
TEST_F(FaultInjectionTest, AnEntriesRuleFailsOnlyItsEntries) {
  Rules(R"([{"rpc": "MutateRows", "row_prefix": "b", "entries": true, "code": "UNAVAILABLE"}])");
  v2::MutateRowsRequest request;
  request.set_table_name(TableName("t"));
  for (const char* key : {"a1", "b1", "a2", "b2"}) {
    auto* entry = request.add_entries();
    entry->set_row_key(key);
    *entry->add_mutations() = proto::ToProto(Mutation::SetCell("cf", "q", "v", 1000));
  }
  const EntriesResult result = MutateRowsEntries(request);
  ASSERT_TRUE(result.status.ok());
  EXPECT_EQ(result.codes, (std::vector<int>{0, grpc::StatusCode::UNAVAILABLE, 0, grpc::StatusCode::UNAVAILABLE}));
  EXPECT_EQ(RowKeys(ReadAll(db_.get(), "t")), (std::vector<std::string>{"a1", "a2"}));
}

// An after_rows rule sends that many rows, then fails the stream.
TEST_F(FaultInjectionTest, AnAfterRowsRuleCutsTheReadStream) {
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(Set("t", "r" + std::to_string(i)).ok());
  Rules(R"([{"rpc": "ReadRows", "table": "t", "after_rows": 3, "code": "UNAVAILABLE", "times": 1}])");
  ReadResult cut = Read(v2::ReadRowsRequest());
  EXPECT_EQ(cut.status.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(RowKeys(cut.rows), (std::vector<std::string>{"r0", "r1", "r2"}));
  ReadResult whole = Read(v2::ReadRowsRequest());  // the rule is spent
  EXPECT_TRUE(whole.status.ok());
  EXPECT_EQ(whole.rows.size(), 10u);
}

TEST_F(FaultInjectionTest, ADelayedCallStillSucceedsAfterItsLatency) {
  Rules(R"([{"rpc": "MutateRow", "latency_ms": 150}, {"rpc": "ReadRows", "latency_ms": 150}])");
  const auto started = std::chrono::steady_clock::now();
  EXPECT_TRUE(Set("t", "r1").ok());
  ReadResult read = Read(v2::ReadRowsRequest());
  EXPECT_TRUE(read.status.ok());
  EXPECT_EQ(read.rows.size(), 1u);
  // A delay cannot be shorter than asked: a lower bound, never flaky.
  EXPECT_GE(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(300));
}

// retry_delay_ms rides in the failure as google.rpc.RetryInfo, as
// production's throttling answers carry it.
TEST_F(FaultInjectionTest, ARetryDelayTravelsAsRetryInfo) {
  Rules(R"([{"rpc": "MutateRow", "code": "UNAVAILABLE", "retry_delay_ms": 250}])");
  const grpc::Status failed = Set("t", "r1");
  EXPECT_EQ(failed.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(proto::FromGrpcStatus(failed).retry_delay_ms(), 250);
}

// Admin calls go through the rules too, named by their RPC and matched by
// the table they create or name; a faulted one changes nothing.
TEST_F(FaultInjectionTest, RulesReachAdminCalls) {
  Rules(R"([{"rpc": "CreateTable", "table": "new", "code": "UNAVAILABLE", "times": 1},
            {"rpc": "GetTable", "table": "u", "code": "PERMISSION_DENIED"}])");
  auto create = [&](const std::string& id) {
    admin::CreateTableRequest request;
    request.set_parent(kInstance);
    request.set_table_id(id);
    admin::Table response;
    grpc::ClientContext context;
    return admin_->CreateTable(&context, request, &response);
  };
  auto get = [&](const std::string& id) {
    admin::GetTableRequest request;
    request.set_name(TableName(id));
    admin::Table response;
    grpc::ClientContext context;
    return admin_->GetTable(&context, request, &response);
  };
  EXPECT_EQ(create("new").error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(get("new").error_code(), grpc::StatusCode::NOT_FOUND);  // nothing was created
  EXPECT_TRUE(create("new").ok());                                  // the rule is spent
  EXPECT_TRUE(create("other").ok());
  EXPECT_TRUE(get("t").ok());
  EXPECT_EQ(get("u").error_code(), grpc::StatusCode::PERMISSION_DENIED);
}

// lbt serve's own Faults service lists the rules in force with their
// counts, adds rules after them (refusing a bad one, adding nothing), and
// clears them.
TEST_F(FaultInjectionTest, TheFaultsServiceListsAddsAndClears) {
  auto add = [&](const std::string& json, lbt::v1::FaultRules* rules) {
    lbt::v1::AddFaultRulesRequest request;
    request.set_rules_json(json);
    grpc::ClientContext context;
    return faults_->AddFaultRules(&context, request, rules);
  };
  lbt::v1::FaultRules rules;
  ASSERT_TRUE(add(R"({"rpc": "MutateRow", "table": "t", "code": "UNAVAILABLE", "times": 1})", &rules).ok());
  ASSERT_EQ(rules.rules_size(), 1);
  EXPECT_EQ(Set("t", "r1").error_code(), grpc::StatusCode::UNAVAILABLE);
  const grpc::Status bad = add(R"([{"rpc": "MutateRow", "code": "SOMETIMES"}])", &rules);
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(bad.error_message(),
            "rules_json: fault rule 1: \"SOMETIMES\" is not a gRPC status code such as UNAVAILABLE");
  {
    grpc::ClientContext context;
    ASSERT_TRUE(faults_->ListFaultRules(&context, lbt::v1::ListFaultRulesRequest(), &rules).ok());
  }
  ASSERT_EQ(rules.rules_size(), 1);  // the bad rule added nothing
  EXPECT_EQ(rules.rules(0).fired(), 1);
  EXPECT_EQ(rules.rules(0).rule_json(), R"({"rpc":"MutateRow","table":"t","code":"UNAVAILABLE","times":1})");
  ASSERT_TRUE(add(R"({"rpc": "ReadRows", "code": "ABORTED"})", &rules).ok());
  EXPECT_EQ(rules.rules_size(), 2);
  EXPECT_EQ(Read(v2::ReadRowsRequest()).status.error_code(), grpc::StatusCode::ABORTED);
  {
    grpc::ClientContext context;
    ASSERT_TRUE(faults_->ClearFaultRules(&context, lbt::v1::ClearFaultRulesRequest(), &rules).ok());
  }
  EXPECT_EQ(rules.rules_size(), 0);
  EXPECT_TRUE(runtime_->faults()->empty());
  EXPECT_TRUE(Read(v2::ReadRowsRequest()).status.ok());
}

// A delayed write whose client gave up is not applied; a delay does not
// hold the server's stop: the call ends within a slice of the gate closing.
TEST_F(FaultInjectionTest, ADelayEndsWithItsClientAndWithTheServer) {
  Rules(R"([{"rpc": "MutateRow", "table": "t", "latency_ms": 86400000}])");
  {
    v2::MutateRowRequest request;
    request.set_table_name(TableName("t"));
    request.set_row_key("late");
    *request.add_mutations() = proto::ToProto(Mutation::SetCell("cf", "q", "v", 1000));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(200));
    v2::MutateRowResponse response;
    EXPECT_EQ(bigtable_->MutateRow(&context, request, &response).error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  }
  grpc::Status stopped;
  std::thread waiting([&] { stopped = Set("t", "r1"); });
  // Both calls end once the gate closes: the drain does not wait a day.
  for (const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
       runtime_->faults()->Rules()[0].fired < 2 && std::chrono::steady_clock::now() < until;) {
    std::this_thread::yield();
  }
  ASSERT_EQ(runtime_->faults()->Rules()[0].fired, 2);
  EXPECT_TRUE(runtime_->gate()->CloseAndDrain(std::chrono::seconds(30)));
  waiting.join();
  EXPECT_EQ(stopped.error_code(), grpc::StatusCode::UNAVAILABLE);
  // Its delay ended by the closing gate ("lbt serve is stopping"), or, had
  // the gate closed before the call entered, refused by it.
  EXPECT_NE(stopped.error_message().find("is stopping"), std::string::npos) << stopped.error_message();
  EXPECT_EQ(RowCount("t"), 0u);  // neither write was applied
}

TEST_F(FaultInjectionTest, TableIdsComeFromEveryKindOfName) {
  EXPECT_EQ(server::TableIdOf("projects/p/instances/i/tables/t1"), "t1");
  EXPECT_EQ(server::TableIdOf("projects/p/instances/tables/tables/t1"), "t1");  // an instance called "tables"
  EXPECT_EQ(server::TableIdOf("projects/p/instances/tables"), "");
  EXPECT_EQ(server::TableIdOf("projects/p/instances/i/tables/t1/authorizedViews/v"), "t1");
  EXPECT_EQ(server::TableIdOf("projects/p/instances/i/materializedViews/m"), "");
}

}  // namespace
}  // namespace lbt::testing
