// PrepareQuery and ExecuteQuery as clients drive them: prepare, then
// execute the prepared bytes, reassembling rows as a client must.

#include "server/query_requests.h"

#include <gtest/gtest.h>

#include <limits>
#include <utility>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "proto/query_convert.h"
#include "server/fault_rules.h"
#include "tests/server/server_fixture.h"

namespace lbt::testing {
namespace {

// What an ExecuteQuery call returned.
struct QueryResult {
  grpc::Status status;
  std::vector<std::vector<std::string>> rows;  // each value as text
  int metadata_responses = 0;
  int result_responses = 0;
  std::string last_token;
};

class QueryServiceTest : public ServerTest {
 protected:
  void SetUp() override {
    ServerTest::SetUp();
    CreateTable("mobile", {"stats_summary"});
    for (const char* key :
         {"phone#4c410523#20190501", "phone#4c410523#20190502", "phone#5c10102#20190501", "tablet#a0b81f74#20190501"}) {
      ASSERT_TRUE(MutateRow("mobile", key, {Mutation::SetCell("stats_summary", "os_build", "PQ2A", 1000)}).ok());
    }
  }

  grpc::Status Prepare(const std::string& query, const std::map<std::string, v2::Type>& types,
                       v2::PrepareQueryResponse* response) {
    v2::PrepareQueryRequest request;
    request.set_instance_name(kInstance);
    request.set_query(query);
    request.mutable_proto_format();
    for (const auto& [name, type] : types) (*request.mutable_param_types())[name] = type;
    grpc::ClientContext context;
    return bigtable_->PrepareQuery(&context, request, response);
  }

  QueryResult Execute(const v2::ExecuteQueryRequest& request, const std::vector<sql::ResultColumn>& columns) {
    QueryResult result;
    grpc::ClientContext context;
    auto stream = bigtable_->ExecuteQuery(&context, request);
    proto::ResultAssembler assembler(columns);
    std::deque<sql::Values> ready;
    v2::ExecuteQueryResponse response;
    while (stream->Read(&response)) {
      if (response.has_metadata()) {
        ++result.metadata_responses;
        continue;
      }
      ++result.result_responses;
      Status s = assembler.Add(response.results(), &ready);
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
    result.status = stream->Finish();
    EXPECT_TRUE(assembler.Finish().ok());
    result.last_token = assembler.resume_token();
    for (const sql::Values& row : ready) {
      std::vector<std::string> texts;
      for (const sql::Value& v : row) texts.push_back(v.ToText());
      result.rows.push_back(texts);
    }
    return result;
  }

  // Prepares and executes `query`, with `params` typed by their values.
  QueryResult Run(const std::string& query, const sql::Params& params = {}, const std::string& resume_token = "") {
    std::map<std::string, v2::Type> types;
    for (const auto& [name, value] : params) types[name] = proto::ToProto(*value.type());
    v2::PrepareQueryResponse prepared;
    grpc::Status s = Prepare(query, types, &prepared);
    if (!s.ok()) return QueryResult{s};
    Result<std::vector<sql::ResultColumn>> columns = proto::ColumnsFromProto(prepared.metadata(), "metadata");
    EXPECT_TRUE(columns.ok());
    v2::ExecuteQueryRequest request;
    request.set_instance_name(kInstance);
    request.set_prepared_query(prepared.prepared_query());
    request.set_resume_token(resume_token);
    for (const auto& [name, value] : params) (*request.mutable_params())[name] = proto::ToProto(value);
    return Execute(request, *columns);
  }
};

using Rows = std::vector<std::vector<std::string>>;

TEST_F(QueryServiceTest, PreparesThenExecutesWithParameters) {
  v2::PrepareQueryResponse prepared;
  v2::Type bytes;
  bytes.mutable_bytes_type();
  ASSERT_TRUE(Prepare("SELECT _key, stats_summary['os_build'] AS build FROM mobile WHERE STARTS_WITH(_key, @p)",
                      {{"p", bytes}}, &prepared)
                  .ok());
  ASSERT_EQ(prepared.metadata().proto_schema().columns_size(), 2);
  EXPECT_EQ(prepared.metadata().proto_schema().columns(1).name(), "build");
  EXPECT_TRUE(prepared.metadata().proto_schema().columns(1).type().has_bytes_type());
  EXPECT_GT(prepared.valid_until().seconds(), 0);

  QueryResult r = Run("SELECT _key FROM mobile WHERE STARTS_WITH(_key, @p)", {{"p", sql::Value::Bytes("phone#4c")}});
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  EXPECT_EQ(r.rows, (Rows{{"phone#4c410523#20190501"}, {"phone#4c410523#20190502"}}));
  // A prepared query's metadata came with PrepareQuery: clients refuse it here.
  EXPECT_EQ(r.metadata_responses, 0);
  EXPECT_EQ(r.last_token, server::kFinalResumeToken);
}

TEST_F(QueryServiceTest, AnEmptyResultStillEndsWithTheFinalToken) {
  QueryResult r = Run("SELECT _key FROM mobile WHERE _key = 'nobody'");
  ASSERT_TRUE(r.status.ok());
  EXPECT_TRUE(r.rows.empty());
  EXPECT_EQ(r.result_responses, 1);
  EXPECT_EQ(r.last_token, server::kFinalResumeToken);
}

TEST_F(QueryServiceTest, ResumingSkipsTheRowsAlreadyDelivered) {
  QueryResult r = Run("SELECT _key FROM mobile", {}, server::ResumeToken(3));
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.rows, (Rows{{"tablet#a0b81f74#20190501"}}));
  QueryResult done = Run("SELECT _key FROM mobile", {}, std::string(server::kFinalResumeToken));
  ASSERT_TRUE(done.status.ok());
  EXPECT_TRUE(done.rows.empty());
  EXPECT_EQ(done.last_token, server::kFinalResumeToken);
}

// Results past one batch arrive in several, each closed by a checksum and a
// token, so that a client can resume between them.
TEST_F(QueryServiceTest, ALargeResultArrivesInSeveralBatches) {
  const std::string value(100000, 'v');
  for (int i = 0; i < 30; ++i) {
    grpc::Status s =
        MutateRow("mobile", fmt::format("big#{:02}", i), {Mutation::SetCell("stats_summary", "blob", value, 1000)});
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  QueryResult r = Run("SELECT _key, stats_summary['blob'] FROM mobile WHERE STARTS_WITH(_key, 'big#')");
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  EXPECT_EQ(r.rows.size(), 30u);
  EXPECT_GE(r.result_responses, 3);
  EXPECT_EQ(r.rows[29][0], "big#29");
}

TEST_F(QueryServiceTest, ErrorsAreInvalidArgumentOrNotFoundAndNameTheProblem) {
  struct Case {
    std::string query;
    grpc::StatusCode code;
    std::string message_part;
  };
  for (const Case& c : std::vector<Case>{
           {"SELECT FOO(_key) FROM mobile", grpc::StatusCode::INVALID_ARGUMENT, "Function not found: FOO"},
           {"SELECT * FROM mobile JOIN other ON TRUE", grpc::StatusCode::INVALID_ARGUMENT, "not supported"},
           {"SELECT _key FROM nosuch", grpc::StatusCode::NOT_FOUND, "nosuch"},
           {"SELEC _key FROM mobile", grpc::StatusCode::INVALID_ARGUMENT, "Syntax error"},
       }) {
    QueryResult r = Run(c.query);
    EXPECT_EQ(r.status.error_code(), c.code) << c.query << ": " << r.status.error_message();
    EXPECT_NE(r.status.error_message().find(c.message_part), std::string::npos) << r.status.error_message();
  }
}

TEST_F(QueryServiceTest, ExecuteChecksItsRequest) {
  v2::PrepareQueryResponse prepared;
  v2::Type int64;
  int64.mutable_int64_type();
  grpc::Status s = Prepare("SELECT _key FROM mobile LIMIT @n", {{"n", int64}}, &prepared);
  ASSERT_TRUE(s.ok()) << s.error_message();
  auto refused = [&](v2::ExecuteQueryRequest request, const std::string& field) {
    request.set_instance_name(request.instance_name().empty() ? kInstance : request.instance_name());
    QueryResult r = Execute(request, {{"_key", sql::Type::Bytes()}});
    EXPECT_EQ(r.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << field;
    EXPECT_EQ(r.status.error_message().rfind(field, 0), 0u) << r.status.error_message();
  };
  v2::ExecuteQueryRequest request;
  request.set_prepared_query(prepared.prepared_query());
  (*request.mutable_params())["n"].set_string_value("2");
  refused(request, "params[n]");
  (*request.mutable_params())["n"] = v2::Value();
  (*request.mutable_params())["n"].mutable_type()->mutable_string_type();
  refused(request, "params[n].type");
  v2::ExecuteQueryRequest garbage;
  garbage.set_prepared_query("not one of ours");
  refused(garbage, "prepared_query");
  v2::ExecuteQueryRequest neither;
  refused(neither, "prepared_query");
  v2::ExecuteQueryRequest bad_instance = request;
  bad_instance.set_instance_name("projects/p");
  refused(bad_instance, "instance_name");
  // A well-typed value goes through, without its type as the client may send it.
  (*request.mutable_params())["n"] = v2::Value();
  (*request.mutable_params())["n"].set_int_value(2);
  request.set_instance_name(kInstance);
  QueryResult r = Execute(request, {{"_key", sql::Type::Bytes()}});
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  EXPECT_EQ(r.rows.size(), 2u);
}

// A rule with after_rows cuts the query's stream once that many rows went
// out with their resume token; executing again from that token returns the
// rest, so a client that resumes sees every row once. PrepareQuery and
// ExecuteQuery fail as their rules say.
TEST_F(QueryServiceTest, FaultRulesCutAndFailQueries) {
  Result<std::vector<server::FaultRule>> rules = server::ParseFaultRules(
      R"([{"rpc": "ExecuteQuery", "after_rows": 3, "code": "UNAVAILABLE", "times": 1},
          {"rpc": "PrepareQuery", "code": "PERMISSION_DENIED", "times": 1}])");
  ASSERT_TRUE(rules.ok()) << rules.status().ToString();
  runtime_->faults()->Replace(*rules);
  const std::string query = "SELECT _key FROM mobile";
  EXPECT_EQ(Run(query).status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  QueryResult cut = Run(query);
  EXPECT_EQ(cut.status.error_code(), grpc::StatusCode::UNAVAILABLE);
  ASSERT_EQ(cut.rows.size(), 3u);
  ASSERT_FALSE(cut.last_token.empty());
  QueryResult rest = Run(query, {}, cut.last_token);
  ASSERT_TRUE(rest.status.ok()) << rest.status.error_message();
  EXPECT_EQ(rest.rows, (Rows{{"tablet#a0b81f74#20190501"}}));
  EXPECT_EQ(cut.rows[0], (std::vector<std::string>{"phone#4c410523#20190501"}));
}

// The PreconditionFailure violation types a status's details carry.
std::vector<std::string> ViolationTypes(const grpc::Status& status) {
  std::vector<std::string> types;
  google::rpc::Status rich;
  if (!rich.ParseFromString(status.error_details())) return types;
  for (const google::protobuf::Any& detail : rich.details()) {
    google::rpc::PreconditionFailure failure;
    if (!detail.UnpackTo(&failure)) continue;
    for (const auto& v : failure.violations()) types.push_back(v.type());
  }
  return types;
}

// A prepared query expires as production's does (FAILED_PRECONDITION with
// a PreconditionFailure violation PREPARED_QUERY_EXPIRED, on which clients
// prepare again): when a family of a table it reads is added, dropped or
// retyped, or a row-key schema is set, when its valid_until passes, and when it comes from an older
// format. GC rules change no result and expire nothing; a query prepared
// again after the change runs.
TEST_F(QueryServiceTest, APreparedQueryExpiresWhenItsTableChanges) {
  auto prepare = [&](const std::string& query) {
    v2::PrepareQueryResponse prepared;
    EXPECT_TRUE(Prepare(query, {}, &prepared).ok());
    v2::ExecuteQueryRequest request;
    request.set_instance_name(kInstance);
    request.set_prepared_query(prepared.prepared_query());
    return request;
  };
  const std::vector<sql::ResultColumn> key{{"_key", sql::Type::Bytes()}};
  auto expect_expired = [&](const v2::ExecuteQueryRequest& request, const std::string& why) {
    QueryResult r = Execute(request, key);
    EXPECT_EQ(r.status.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << why << ": " << r.status.error_message();
    EXPECT_EQ(ViolationTypes(r.status), std::vector<std::string>{"PREPARED_QUERY_EXPIRED"}) << why;
    EXPECT_TRUE(r.rows.empty()) << why;
  };
  auto expect_runs = [&](const v2::ExecuteQueryRequest& request, const std::string& why) {
    QueryResult r = Execute(request, key);
    EXPECT_TRUE(r.status.ok()) << why << ": " << r.status.error_message();
    EXPECT_EQ(r.rows.size(), 4u) << why;
  };
  const std::string query = "SELECT _key FROM mobile";
  v2::ExecuteQueryRequest request = prepare(query);
  expect_runs(request, "as prepared");
  ASSERT_OK(db_->ModifyFamilies("mobile", {FamilyChange::SetGcRule("stats_summary", GcRule::MaxVersions(3))}));
  expect_runs(request, "after a GC rule changed");
  ASSERT_OK(db_->ModifyFamilies("mobile", {FamilyChange::Create({"extra", GcRule::Never(), ValueType::kBytes})}));
  expect_expired(request, "after a family was added");
  request = prepare(query);
  expect_runs(request, "prepared again");
  ASSERT_OK(db_->ModifyFamilies("mobile", {FamilyChange::SetValueType("extra", ValueType::kString)}));
  expect_expired(request, "after a value type changed");
  request = prepare(query);
  ASSERT_OK(db_->ModifyFamilies("mobile", {FamilyChange::Drop("extra")}));
  expect_expired(request, "after a family was dropped");
  request = prepare(query);
  ASSERT_OK(db_->SetRowKeySchema(
      "mobile",
      RowKeySchema{.fields = {{"device", RowKeyField::Type::kString}}, .encoding = RowKeySchema::Encoding::kSingleton},
      false));
  expect_expired(request, "after a row-key schema was set");

  server::PreparedQueryToken token;
  token.request.set_query(query);
  token.valid_until_micros = 1;  // long past
  request.set_prepared_query(server::EncodePreparedQuery(token));
  expect_expired(request, "past its valid_until");
  request.set_prepared_query("lbt-prepared-query-1:" + token.request.SerializeAsString());
  expect_expired(request, "from an older lbt");
}

// A TIMESTAMP or DATE parameter outside the years 1 to 9999 is refused,
// naming it: its microseconds once overflowed into any time at all.
TEST_F(QueryServiceTest, TimesOutsideTheirRangeAreRefusedAsParameters) {
  v2::PrepareQueryResponse prepared;
  v2::Type timestamp, date;
  timestamp.mutable_timestamp_type();
  date.mutable_date_type();
  ASSERT_TRUE(Prepare("SELECT @t AS t, @d AS d FROM mobile LIMIT 1", {{"t", timestamp}, {"d", date}}, &prepared).ok());
  auto execute = [&](int64_t seconds, int32_t nanos, int32_t year) {
    v2::ExecuteQueryRequest request;
    request.set_instance_name(kInstance);
    request.set_prepared_query(prepared.prepared_query());
    (*request.mutable_params())["t"].mutable_timestamp_value()->set_seconds(seconds);
    (*request.mutable_params())["t"].mutable_timestamp_value()->set_nanos(nanos);
    google::type::Date* d = (*request.mutable_params())["d"].mutable_date_value();
    d->set_year(year);
    d->set_month(1);
    d->set_day(1);
    return Execute(request, {{"t", sql::Type::Timestamp()}, {"d", sql::Type::Date()}}).status;
  };
  for (auto [seconds, nanos] : {std::pair<int64_t, int32_t>{std::numeric_limits<int64_t>::max(), 0},
                                std::pair<int64_t, int32_t>{std::numeric_limits<int64_t>::min(), 0},
                                std::pair<int64_t, int32_t>{1, -1}, std::pair<int64_t, int32_t>{253402300800, 0}}) {
    grpc::Status s = execute(seconds, nanos, 2026);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << seconds << " " << nanos;
    EXPECT_EQ(s.error_message().rfind("params[t]", 0), 0u) << s.error_message();
  }
  grpc::Status s = execute(0, 0, 10000);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message().rfind("params[d]", 0), 0u) << s.error_message();
  EXPECT_TRUE(execute(0, 0, 2026).ok());
}

TEST_F(QueryServiceTest, TheDeprecatedQueryFieldStillWorksWithItsMetadataFirst) {
  v2::ExecuteQueryRequest request;
  request.set_instance_name(kInstance);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  request.set_query("SELECT _key FROM mobile WHERE _key < @k");
#pragma GCC diagnostic pop
  v2::Value& k = (*request.mutable_params())["k"];
  k.set_bytes_value("phone#5");
  k.mutable_type()->mutable_bytes_type();
  QueryResult r = Execute(request, {{"_key", sql::Type::Bytes()}});
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  EXPECT_EQ(r.metadata_responses, 1);
  EXPECT_EQ(r.rows.size(), 2u);
}

TEST(ResumeTokenTest, RoundTripsAndRefusesStrangers) {
  EXPECT_EQ(*server::RowsBeforeResumeToken(server::ResumeToken(12)), 12);
  EXPECT_EQ(*server::RowsBeforeResumeToken(server::kFinalResumeToken), -1);
  for (const char* bad : {"", "lbt-rows:", "lbt-rows:x", "lbt-rows:-1", "other:5"}) {
    EXPECT_FALSE(server::RowsBeforeResumeToken(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace lbt::testing
