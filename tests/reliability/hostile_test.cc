// `lbt serve` against hostile and careless clients: each request here once
// crashed the server, stalled it, grew its file without bound or answered
// wrongly. Each test sends the request to a running server, checks the
// answer, and then checks that the server still serves a plain read.

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "google/bigtable/v2/bigtable.grpc.pb.h"
#include "proto/convert.h"
#include "proto/query_convert.h"
#include "proto/row_assembler.h"
#include "tests/conformance/process.h"
#include "tests/reliability/serve_process.h"
#include "tests/test_util.h"

namespace lbt::testing {
namespace {

namespace v2 = ::google::bigtable::v2;
namespace admin = ::google::bigtable::admin::v2;
using conformance::ProcessResult;
using conformance::RunProcess;

constexpr char kInstance[] = "projects/p/instances/i";
std::string TableName(const std::string& table) { return std::string(kInstance) + "/tables/" + table; }

ProcessResult Lbt(const std::string& db, std::vector<std::string> words) {
  // The instance the tests' clients name: its tables are apart from the default instance's.
  words.insert(words.begin(), {LBT_BINARY, "--db", db, "-project", "p", "-instance", "i"});
  return RunProcess(words, {"TZ=UTC"});
}

grpc::Status Write(v2::Bigtable::Stub* stub, const std::string& table, const std::string& key,
                   const std::vector<Mutation>& mutations) {
  return WriteRow(stub, TableName(table), key, mutations);
}

struct ReadResult {
  grpc::Status status;
  std::vector<Row> rows;
};

ReadResult Read(v2::Bigtable::Stub* stub, v2::ReadRowsRequest request) {
  if (request.table_name().empty()) request.set_table_name(TableName("t"));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  auto stream = stub->ReadRows(&context, request);
  ReadResult result;
  proto::RowAssembler assembler;
  v2::ReadRowsResponse response;
  while (stream->Read(&response)) EXPECT_TRUE(assembler.Add(response, &result.rows).ok());
  result.status = stream->Finish();
  return result;
}

// The server answers a plain read of `key`, with its cell.
void ExpectServes(ServeProcess* server, const std::string& key = "plain") {
  ASSERT_TRUE(Write(server->stub(), "t", key, {Mutation::SetCell("cf", "q", "still here", Ms(1))}).ok());
  v2::ReadRowsRequest request;
  request.mutable_rows()->add_row_keys(key);
  ReadResult read = Read(server->stub(), request);
  ASSERT_TRUE(read.status.ok()) << read.status.error_message();
  ASSERT_EQ(read.rows.size(), 1u);
  EXPECT_EQ(read.rows[0].cells[0].value, "still here");
}

struct QueryResult {
  grpc::Status status;
  size_t rows = 0;
  std::vector<sql::Values> values;
};

QueryResult RunSql(v2::Bigtable::Stub* stub, const std::string& sql,
                   std::chrono::milliseconds deadline = std::chrono::seconds(120)) {
  QueryResult result;
  v2::PrepareQueryRequest prepare;
  prepare.set_instance_name(kInstance);
  prepare.set_query(sql);
  v2::PrepareQueryResponse prepared;
  {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + deadline);
    result.status = stub->PrepareQuery(&context, prepare, &prepared);
    if (!result.status.ok()) return result;
  }
  Result<std::vector<sql::ResultColumn>> columns = proto::ColumnsFromProto(prepared.metadata(), "metadata");
  EXPECT_TRUE(columns.ok());
  proto::ResultAssembler assembler(*columns);
  v2::ExecuteQueryRequest execute;
  execute.set_instance_name(kInstance);
  execute.set_prepared_query(prepared.prepared_query());
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + deadline);
  auto stream = stub->ExecuteQuery(&context, execute);
  v2::ExecuteQueryResponse response;
  std::deque<sql::Values> ready;
  while (stream->Read(&response)) {
    if (response.has_results()) {
      EXPECT_TRUE(assembler.Add(response.results(), &ready).ok());
    }
  }
  result.status = stream->Finish();
  result.rows = ready.size();
  result.values.assign(ready.begin(), ready.end());
  return result;
}

class HostileTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(Lbt(db_, {"createtable", "t", "families=cf"}).status, 0); }
  TempDir dir_;
  const std::string db_ = dir_.Sub("db");
};

std::string Repeated(const std::string& first, const std::string& joint, const std::string& term, int count) {
  std::string out = first;
  for (int i = 1; i < count; ++i) out += joint + term;
  return out;
}

// Finding 1: chains of operators recursed once per term in every pass and
// crashed the server (SIGSEGV). Long AND/OR lists now run; other chains and
// nesting past the limits are INVALID_ARGUMENT.
TEST_F(HostileTest, DeepExpressionsAreRefusedOrRunWithoutCrashing) {
  ServeProcess server(db_);
  ASSERT_TRUE(Write(server.stub(), "t", "r1", {Mutation::SetCell("cf", "q", "v", Ms(1))}).ok());
  // 30,000 ORs (270 KB), once fatal in PrepareQuery: one flat OR, which runs.
  QueryResult ors = RunSql(server.stub(), "SELECT _key FROM t WHERE " + Repeated("FALSE", " OR ", "FALSE", 30000));
  ASSERT_TRUE(ors.status.ok()) << ors.status.error_message();
  EXPECT_EQ(ors.rows, 0u);
  QueryResult ands = RunSql(server.stub(), "SELECT _key FROM t WHERE " + Repeated("TRUE", " AND ", "TRUE", 10000));
  ASSERT_TRUE(ands.status.ok()) << ands.status.error_message();
  EXPECT_EQ(ands.rows, 1u);
  for (const std::string& deep : {"SELECT _key FROM t WHERE " + Repeated("NOT", " ", "NOT", 6000) + " TRUE",
                                  "SELECT " + Repeated("1", " + ", "1", 10000) + " AS n FROM t",
                                  "SELECT " + Repeated("'a'", " || ", "'a'", 10000) + " AS s FROM t",
                                  "SELECT " + std::string(5000, '(') + "1" + std::string(5000, ')') + " AS n FROM t",
                                  "SELECT " + Repeated("-", " ", "-", 20000) + " 1 AS n FROM t",
                                  "SELECT CAST(NULL AS " + Repeated("ARRAY<", "", "ARRAY<", 20000) + "INT64" +
                                      std::string(20000, '>') + ") AS a FROM t"}) {
    QueryResult r = RunSql(server.stub(), deep);
    EXPECT_EQ(r.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << deep.substr(0, 60);
    EXPECT_NE(r.status.error_message().find("nest"), std::string::npos) << r.status.error_message();
  }
  // A query text past 1 MiB is refused before it is tokenized.
  QueryResult long_text = RunSql(server.stub(), "SELECT _key FROM t WHERE " + Repeated("TRUE", " OR ", "TRUE", 200000));
  EXPECT_EQ(long_text.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(long_text.status.error_message().find("1 MiB"), std::string::npos) << long_text.status.error_message();
  // Just inside the limit, a chain still runs and adds up.
  QueryResult sum = RunSql(server.stub(), "SELECT " + Repeated("1", " + ", "1", 900) + " AS n FROM t");
  ASSERT_TRUE(sum.status.ok()) << sum.status.error_message();
  ASSERT_EQ(sum.rows, 1u);
  EXPECT_EQ(sum.values[0][0].int64(), 900);
  ExpectServes(&server);
}

v2::RowFilter PassAllInterleave(int branches) {
  v2::RowFilter filter;
  for (int i = 0; i < branches; ++i) filter.mutable_interleave()->add_filters()->set_pass_all_filter(true);
  return filter;
}

// Finding 2: a ~1 KB interleave of 250 branches copied a 10 MiB row 250
// times into one response over 2 GB, and protobuf aborted the process.
TEST_F(HostileTest, FilterFanOutOverALargeRowIsRefused) {
  ServeProcess server(db_);
  ASSERT_TRUE(Write(server.stub(), "t", "big", {Mutation::SetCell("cf", "q", std::string(10 << 20, 'x'), Ms(1))}).ok());
  v2::ReadRowsRequest request;
  request.mutable_rows()->add_row_keys("big");
  *request.mutable_filter() = PassAllInterleave(250);
  ASSERT_LT(request.filter().ByteSizeLong(), 20480u);
  ReadResult read = Read(server.stub(), request);
  EXPECT_EQ(read.status.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << read.status.error_message();
  EXPECT_NE(read.status.error_message().find("big"), std::string::npos) << read.status.error_message();

  // A fan-out that fits is served, each copy once per branch: 20 MiB.
  *request.mutable_filter() = PassAllInterleave(2);
  read = Read(server.stub(), request);
  ASSERT_TRUE(read.status.ok()) << read.status.error_message();
  ASSERT_EQ(read.rows.size(), 1u);
  EXPECT_EQ(read.rows[0].cells.size(), 2u);

  // The same predicate in CheckAndMutateRow ran inside the write lock.
  v2::CheckAndMutateRowRequest check;
  check.set_table_name(TableName("t"));
  check.set_row_key("big");
  *check.mutable_predicate_filter() = PassAllInterleave(150);
  *check.add_true_mutations() = proto::ToProto(Mutation::SetCell("cf", "hit", "1", Ms(2)));
  v2::CheckAndMutateRowResponse checked;
  grpc::ClientContext context;
  grpc::Status s = server.stub()->CheckAndMutateRow(&context, check, &checked);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << s.error_message();

  // Production's limit on a filter's size: 20,480 bytes serialized.
  v2::RowFilter huge;
  for (int i = 0; i < 3000; ++i) huge.mutable_chain()->add_filters()->set_column_qualifier_regex_filter("qqqqqqqq");
  *request.mutable_filter() = huge;
  read = Read(server.stub(), request);
  EXPECT_EQ(read.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << read.status.error_message();
  EXPECT_NE(read.status.error_message().find("20480"), std::string::npos) << read.status.error_message();
  ExpectServes(&server);
}

// Finding 3: a SQL value over 2 GB ended the stream OK with no rows.
TEST_F(HostileTest, SqlValuesTooLargeAreErrorsNotEmptyResults) {
  ServeProcess server(db_);
  ASSERT_TRUE(Write(server.stub(), "t", "r1", {Mutation::SetCell("cf", "q", "v", Ms(1))}).ok());
  for (int n : {46500, 20000}) {
    QueryResult r =
        RunSql(server.stub(), fmt::format("SELECT REPLACE(REPEAT('a',{0}),'a',REPEAT('b',{0})) AS s FROM t", n));
    EXPECT_FALSE(r.status.ok()) << n;
    EXPECT_EQ(r.rows, 0u);
    EXPECT_NE(r.status.error_message().find("REPLACE"), std::string::npos) << r.status.error_message();
  }
  for (const char* sql : {"SELECT REPEAT('ab', 60000000) AS s FROM t",
                          "SELECT REPEAT('a', 60000000) || REPEAT('b', 60000000) AS s FROM t",
                          "SELECT CONCAT(REPEAT('a', 60000000), REPEAT('b', 60000000)) AS s FROM t"}) {
    QueryResult r = RunSql(server.stub(), sql);
    EXPECT_FALSE(r.status.ok()) << sql;
    EXPECT_NE(r.status.error_message().find("100 MiB"), std::string::npos) << r.status.error_message();
  }
  QueryResult fine = RunSql(server.stub(), "SELECT REPLACE(REPEAT('a',1000),'a','bb') AS s FROM t");
  ASSERT_TRUE(fine.status.ok()) << fine.status.error_message();
  ASSERT_EQ(fine.rows, 1u);
  EXPECT_EQ(fine.values[0][0].str(), std::string(2000, 'b'));
  ExpectServes(&server);
}

grpc::Status AppendRules(v2::Bigtable::Stub* stub, int rules, size_t bytes, v2::ReadModifyWriteRowResponse* out) {
  v2::ReadModifyWriteRowRequest request;
  request.set_table_name(TableName("t"));
  request.set_row_key("log");
  for (int i = 0; i < rules; ++i) {
    auto* rule = request.add_rules();
    rule->set_family_name("cf");
    rule->set_column_qualifier("q");
    rule->set_append_value(std::string(bytes, static_cast<char>('a' + i % 26)));
  }
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  return stub->ReadModifyWriteRow(&context, request, out);
}

// Finding 4: appends to one cell were quadratic in the rules (4,000 took 24 s
// and stalled every writer), and 100,001 rules were accepted.
TEST_F(HostileTest, ReadModifyWriteRowIsLinearAndBounded) {
  ServeProcess server(db_);
  v2::ReadModifyWriteRowResponse response;
  grpc::Status s = AppendRules(server.stub(), 4000, 1024, &response);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(response.row().families_size(), 1);
  const std::string& value = response.row().families(0).columns(0).cells(0).value();
  ASSERT_EQ(value.size(), 4000u * 1024);
  EXPECT_EQ(value.substr(0, 2), std::string(1024, 'a').substr(0, 2));
  EXPECT_EQ(value[1024 * 27], 'b');  // rule 27 appended its 'b's in order

  s = AppendRules(server.stub(), 100001, 1, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("100000"), std::string::npos) << s.error_message();
  // An append past Bigtable's 100 MiB value changes nothing.
  s = AppendRules(server.stub(), 100, 1 << 20, &response);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.error_message().find("100 MiB"), std::string::npos) << s.error_message();
  v2::ReadRowsRequest request;
  request.mutable_rows()->add_row_keys("log");
  ReadResult read = Read(server.stub(), request);
  ASSERT_TRUE(read.status.ok());
  ASSERT_EQ(read.rows.size(), 1u);
  EXPECT_EQ(read.rows[0].cells[0].value.size(), 4000u * 1024);
  ExpectServes(&server);
}

uint64_t FileBytes(const std::string& path) {
  std::error_code ec;
  uint64_t size = std::filesystem::file_size(path, ec);
  return ec ? 0 : size;
}

// The snapshots (transaction ids) that live read transactions hold, from
// LMDB's reader table (mdb_stat -r).
std::set<std::string> LiveSnapshots(const std::string& db) {
  ProcessResult r = RunProcess({"mdb_stat", "-r", db}, {});
  EXPECT_NE(r.out.find("Reader Table Status"), std::string::npos) << r.out << r.err;
  std::set<std::string> live;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    // "<pid> <thread> <txnid>", the txnid "-" for a slot without a snapshot.
    std::istringstream words(line);
    std::string pid, thread, txnid;
    if (!(words >> pid >> thread >> txnid) || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    if (txnid != "-") live.insert(txnid);
  }
  return live;
}

// The server has ended every call whose client stopped reading: it notes
// each on stderr with the number of writes still waiting on their clients.
void ExpectStalledCallsEnded(ServeProcess* server) {
  EXPECT_TRUE(PollUntil([&] { return server->Stderr().find("; 0 more wait on their clients") != std::string::npos; },
                        std::chrono::seconds(60)))
      << "the stalled calls were not ended: " << server->Stderr();
}

// Findings 5 and the stalled-reader test: a client that opens ReadRows and
// never reads once pinned its snapshot (the file grew to 5.4 GB under
// overwrites of 30 MiB of live data) and held a reader slot for ever.
TEST_F(HostileTest, AStalledReaderPinsNothingAndIsEndedWithAborted) {
  // ~32 MiB of live data: 512 rows of 64 KiB.
  const std::string value(64 << 10, 'v');
  ServeProcess server(db_, {"--stall-timeout", "10", "--sync", "off"});
  for (int i = 0; i < 512; ++i) {
    ASSERT_TRUE(
        Write(server.stub(), "t", fmt::format("row{:04}", i), {Mutation::SetCell("cf", "q", value, Ms(1))}).ok());
  }
  const uint64_t live_bytes = 512u * value.size();

  // Stalled clients: each opens a read of everything and never reads. Each
  // on a connection of its own, so flow control holds each server handler.
  std::vector<std::unique_ptr<v2::Bigtable::Stub>> stubs;
  std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
  std::vector<std::unique_ptr<grpc::ClientReader<v2::ReadRowsResponse>>> stalled;
  for (int i = 0; i < 8; ++i) {
    stubs.push_back(server.NewStalledClientStub());
    contexts.push_back(std::make_unique<grpc::ClientContext>());
    v2::ReadRowsRequest request;
    request.set_table_name(TableName("t"));
    stalled.push_back(stubs.back()->ReadRows(contexts.back().get(), request));
    // The server sends the call's headers with its first response: the
    // handler runs, and its write waits on the client.
    stalled.back()->WaitForInitialMetadata();
  }
  // Overwrite every row again and again (within the stall timeout), while
  // another client reads the whole table now and then. Every commit makes a
  // new snapshot; the ones live after round 3 and after round 13, hundreds
  // of commits apart, must differ: no read holds one for long.
  constexpr int kRounds = 16;
  int rounds = 0;
  std::set<std::string> early, late;
  while (rounds < kRounds) {
    if (rounds == 3) early = LiveSnapshots(db_);
    if (rounds == 13) late = LiveSnapshots(db_);
    for (int i = 0; i < 512; i += 4) {
      ASSERT_TRUE(Write(server.stub(), "t", fmt::format("row{:04}", i),
                        {Mutation::DeleteFromColumn("cf", "q"), Mutation::SetCell("cf", "q", value, Ms(2 + rounds))})
                      .ok());
    }
    if (++rounds % 4 == 0) {
      ReadResult other = Read(server.stub(), v2::ReadRowsRequest());
      ASSERT_TRUE(other.status.ok()) << other.status.error_message();
      EXPECT_EQ(other.rows.size(), 512u);
    }
  }
  for (const std::string& txnid : late)
    EXPECT_EQ(early.count(txnid), 0u) << "snapshot " << txnid << " was held 10 rounds";
  // Without pinned snapshots freed pages are reused: the file stays within
  // a few times the live data (it grew to 5.4 GB under a pinned snapshot).
  const uint64_t file = FileBytes(db_ + "/data.mdb");
  EXPECT_LT(file, 4 * live_bytes + (64u << 20))
      << "data.mdb is " << file << " bytes for " << live_bytes << " live after " << rounds << " rounds";
  ASSERT_EQ(server.Stderr().find("ended a call"), std::string::npos)
      << "the stall timeout ran out during the overwrites, which then proved nothing";
  // Past the stall timeout the server ends the stalled streams with ABORTED.
  ExpectStalledCallsEnded(&server);
  EXPECT_TRUE(LiveSnapshots(db_).empty());
  for (auto& stream : stalled) {
    v2::ReadRowsResponse response;
    while (stream->Read(&response)) {
    }
    grpc::Status s = stream->Finish();
    EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED) << s.error_message();
    EXPECT_NE(s.error_message().find("did not read"), std::string::npos) << s.error_message();
  }
  ExpectServes(&server);
}

// Finding 5: ~1,023 stalled streams once filled LMDB's reader table, and
// every other read failed with MDB_READERS_FULL (1,034 threads). Now the
// stalled streams hold no reader slot, the server takes at most 512 calls
// at once and answers the rest RESOURCE_EXHAUSTED at once, and the stall
// timeout frees everything.
TEST_F(HostileTest, ManyStalledReadersNeitherFillTheReaderTableNorHangOthers) {
  ServeProcess server(db_, {"--stall-timeout", "10"});
  const std::string value(64 << 10, 'v');
  for (int i = 0; i < 64; ++i) {
    ASSERT_TRUE(
        Write(server.stub(), "t", fmt::format("row{:04}", i), {Mutation::SetCell("cf", "q", value, Ms(1))}).ok());
  }
  // 600 readers that never read, each on a connection of its own, opened
  // from six threads at once.
  struct Stalled {
    std::unique_ptr<v2::Bigtable::Stub> stub;
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v2::ReadRowsResponse>> stream;
  };
  std::vector<Stalled> stalled(600);
  std::vector<std::thread> openers;
  for (int t = 0; t < 6; ++t) {
    openers.emplace_back([&, t] {
      for (size_t i = t; i < stalled.size(); i += 6) {
        stalled[i].stub = server.NewStalledClientStub();
        // 600 connections at once can overflow the listen backlog; a
        // connection the kernel dropped is retried rather than ended
        // UNAVAILABLE before it ever reached the server.
        stalled[i].context.set_wait_for_ready(true);
        stalled[i].context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
        v2::ReadRowsRequest request;
        request.set_table_name(TableName("t"));
        stalled[i].stream = stalled[i].stub->ReadRows(&stalled[i].context, request);
      }
    });
  }
  for (std::thread& t : openers) t.join();
  // Each call has been refused, or its handler has begun its first write
  // (the headers go with it): every admitted call now waits on its client.
  for (Stalled& s : stalled) s.stream->WaitForInitialMetadata();
  EXPECT_TRUE(LiveSnapshots(db_).empty());
  // Another client is answered while every stalled call still holds its
  // thread: served, or told the server is busy, before the stall timeout
  // has freed anything.
  v2::ReadRowsRequest one;
  one.mutable_rows()->add_row_keys("row0001");
  ReadResult read = Read(server.stub(), one);
  EXPECT_EQ(server.Stderr().find("ended a call"), std::string::npos)
      << "the read was answered only once the stall timeout had freed threads";
  EXPECT_TRUE(read.status.ok() || read.status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED)
      << read.status.error_code() << " " << read.status.error_message();
  // The stall timeout ends the stalled calls (the ones past the thread
  // limit were refused at once); then everything is served. A call read
  // before its timeout ran out would be unstalled and end OK, so the reads
  // wait until the server says no write waits on its client any more.
  // (Finish without reading cannot wait instead: it waits for the unread
  // messages.)
  ExpectStalledCallsEnded(&server);
  int aborted = 0, refused = 0;
  std::string others;  // every other ending, to say what went wrong
  for (Stalled& s : stalled) {
    v2::ReadRowsResponse response;
    while (s.stream->Read(&response)) {
    }
    grpc::Status status = s.stream->Finish();
    aborted += status.error_code() == grpc::StatusCode::ABORTED;
    refused += status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED;
    if (status.error_code() != grpc::StatusCode::ABORTED &&
        status.error_code() != grpc::StatusCode::RESOURCE_EXHAUSTED) {
      others += fmt::format(" [code {}: {}]", static_cast<int>(status.error_code()), status.error_message());
    }
  }
  EXPECT_EQ(aborted + refused, 600) << "other endings:" << others;
  EXPECT_GT(aborted, 0);
  ExpectServes(&server);
}

// CPU seconds the process has used (user + system).
double CpuSeconds(int pid) {
  std::ifstream in(fmt::format("/proc/{}/stat", pid));
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14 || i == 15) ticks += std::stod(field);
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// Finding 6: a `_key IN` list of 10,000 took 7 s (quadratic), and a call whose
// deadline expired kept a core busy for minutes.
TEST_F(HostileTest, LargeInListsAreFastAndExpiredQueriesStop) {
  ServeProcess server(db_);
  v2::MutateRowsRequest load;
  load.set_table_name(TableName("t"));
  for (int i = 0; i < 20000; ++i) {
    auto* entry = load.add_entries();
    entry->set_row_key(fmt::format("k{:06}", i));
    *entry->add_mutations() = proto::ToProto(Mutation::SetCell("cf", "q", "v", Ms(1)));
  }
  {
    grpc::ClientContext context;
    auto stream = server.stub()->MutateRows(&context, load);
    v2::MutateRowsResponse response;
    while (stream->Read(&response)) {
    }
    ASSERT_TRUE(stream->Finish().ok());
  }
  std::string in = "SELECT _key FROM t WHERE _key IN (";
  for (int i = 0; i < 40000; ++i) in += fmt::format("{}'k{:06}'", i ? ", " : "", i * 7);
  in += ")";
  // k000000, k000007, ... up to k019999: 2,858 of the 40,000 exist.
  QueryResult r = RunSql(server.stub(), in, std::chrono::seconds(60));
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  EXPECT_EQ(r.rows, 2858u);

  // A query of minutes' work whose deadline passes after 300 ms.
  const std::string heavy = "SELECT COUNT(*) AS n FROM t WHERE LENGTH(REPEAT(_key, 2000000)) > 0";
  QueryResult expired = RunSql(server.stub(), heavy, std::chrono::milliseconds(300));
  EXPECT_EQ(expired.status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED) << expired.status.error_message();
  // The server stops working on it: it goes idle (a fifth of a core over
  // half a second at most) long before the query's work could be done.
  EXPECT_TRUE(PollUntil(
      [&] {
        const double before = CpuSeconds(server.pid());
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        return CpuSeconds(server.pid()) - before < 0.1;
      },
      std::chrono::seconds(20)))
      << "the server kept working on an expired query";
  ExpectServes(&server);
}

grpc::Status SetMaxAge(admin::BigtableTableAdmin::Stub* stub, int64_t seconds, int32_t nanos) {
  admin::ModifyColumnFamiliesRequest request;
  request.set_name(TableName("t"));
  auto* mod = request.add_modifications();
  mod->set_id("cf");
  auto* age = mod->mutable_update()->mutable_gc_rule()->mutable_max_age();
  age->set_seconds(seconds);
  age->set_nanos(nanos);
  admin::Table response;
  grpc::ClientContext context;
  return stub->ModifyColumnFamilies(&context, request, &response);
}

// Finding 7: max_age beyond a Duration's range overflowed to 0.448 s and
// deleted data; nanos of 2e9 were taken too.
TEST_F(HostileTest, OutOfRangeDurationsAreRefusedAndDeleteNothing) {
  ServeProcess server(db_);
  // Written long ago: under any max_age these requests could have set, it
  // would be gone at once.
  ASSERT_TRUE(Write(server.stub(), "t", "kept", {Mutation::SetCell("cf", "q", "v", Ms(1))}).ok());
  for (auto [seconds, nanos, field] : {std::tuple<int64_t, int32_t, const char*>{18446744073710, 0, "max_age.seconds"},
                                       {315576000001, 0, "max_age.seconds"},
                                       {10, 2000000000, "max_age.nanos"},
                                       {10, -5, "max_age.nanos"}}) {
    grpc::Status s = SetMaxAge(server.admin(), seconds, nanos);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << seconds << " " << nanos;
    EXPECT_NE(s.error_message().find(field), std::string::npos) << s.error_message();
  }
  admin::GetTableRequest get;
  get.set_name(TableName("t"));
  admin::Table table;
  grpc::ClientContext context;
  ASSERT_TRUE(server.admin()->GetTable(&context, get, &table).ok());
  EXPECT_FALSE(table.column_families().at("cf").gc_rule().has_max_age()) << "a refused GC rule was set";
  v2::ReadRowsRequest request;
  request.mutable_rows()->add_row_keys("kept");
  ReadResult read = Read(server.stub(), request);
  ASSERT_TRUE(read.status.ok());
  EXPECT_EQ(read.rows.size(), 1u) << "a refused GC rule deleted data";
  // The largest legal Duration is taken.
  EXPECT_TRUE(SetMaxAge(server.admin(), 315576000000, 999999999).ok());
  ExpectServes(&server);
}

// A resource name or app profile id of ~64 KB was echoed whole into the
// status, whose header the client refused: the call and the next one on
// the connection hung. Each is one prompt INVALID_ARGUMENT naming the
// field, with the value cut short, and the connection goes on.
TEST_F(HostileTest, HugeNamesAreRefusedPromptlyAndTheConnectionGoesOn) {
  ServeProcess server(db_);
  const std::string huge(64 << 10, 'n');
  auto expect_refused = [&](const grpc::Status& s, const std::string& field) {
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_code() << " " << s.error_message();
    EXPECT_EQ(s.error_message().rfind(field + ": ", 0), 0u) << s.error_message();
    EXPECT_LT(s.error_message().size(), 1024u);
  };
  auto write = [&](const std::string& table, const std::string& app_profile) {
    v2::MutateRowRequest request;
    request.set_table_name(table);
    request.set_app_profile_id(app_profile);
    request.set_row_key("r");
    *request.add_mutations() = proto::ToProto(Mutation::SetCell("cf", "q", "v", Ms(1)));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    v2::MutateRowResponse response;
    return server.stub()->MutateRow(&context, request, &response);
  };
  expect_refused(write(TableName(huge), ""), "table_name");
  ExpectServes(&server);
  expect_refused(write(TableName("t"), huge), "app_profile_id");
  expect_refused(write(TableName("t"), std::string(51, 'p')), "app_profile_id");
  expect_refused(write(TableName("t"), "-starts-with-a-hyphen"), "app_profile_id");
  ExpectServes(&server);
  for (const std::string& app_profile : {huge, std::string("-starts-with-a-hyphen")}) {
    v2::PingAndWarmRequest ping;
    ping.set_name(kInstance);
    ping.set_app_profile_id(app_profile);
    v2::PingAndWarmResponse pong;
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    expect_refused(server.stub()->PingAndWarm(&context, ping, &pong), "app_profile_id");
  }
  admin::GetTableRequest get;
  get.set_name(std::string(kInstance) + "/tables/" + huge);
  admin::Table table;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
  expect_refused(server.admin()->GetTable(&context, get, &table), "name");
  ExpectServes(&server);
}

// Finding 8: drop: false dropped the family; CheckConsistency took any token.
TEST_F(HostileTest, AdminRequestsMeanWhatTheySay) {
  ServeProcess server(db_);
  ASSERT_TRUE(Write(server.stub(), "t", "r", {Mutation::SetCell("cf", "q", "v", Ms(1))}).ok());
  admin::ModifyColumnFamiliesRequest modify;
  modify.set_name(TableName("t"));
  auto* mod = modify.add_modifications();
  mod->set_id("cf");
  mod->set_drop(false);
  admin::Table table;
  {
    grpc::ClientContext context;
    grpc::Status s = server.admin()->ModifyColumnFamilies(&context, modify, &table);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(s.error_message().find("drop"), std::string::npos) << s.error_message();
  }
  admin::CheckConsistencyRequest check;
  check.set_name(TableName("t"));
  check.set_consistency_token("made-up");
  admin::CheckConsistencyResponse consistent;
  {
    grpc::ClientContext context;
    grpc::Status s = server.admin()->CheckConsistency(&context, check, &consistent);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  }
  admin::GenerateConsistencyTokenRequest generate;
  generate.set_name(TableName("t"));
  admin::GenerateConsistencyTokenResponse token;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(server.admin()->GenerateConsistencyToken(&context, generate, &token).ok());
  }
  check.set_consistency_token(token.consistency_token());
  {
    grpc::ClientContext context;
    ASSERT_TRUE(server.admin()->CheckConsistency(&context, check, &consistent).ok());
    EXPECT_TRUE(consistent.consistent());
  }
  ExpectServes(&server);  // the family and its data are still there
  v2::ReadRowsRequest request;
  request.mutable_rows()->add_row_keys("r");
  EXPECT_EQ(Read(server.stub(), request).rows.size(), 1u);
}

// The process's peak resident memory (VmHWM).
uint64_t PeakResidentBytes(int pid) {
  std::ifstream status(fmt::format("/proc/{}/status", pid));
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  }
  ADD_FAILURE() << "no VmHWM for " << pid;
  return 0;
}

// A MutateRow of one cell of `bytes` bytes of `fill`, gzip-compressed or not.
grpc::Status WriteLarge(ServeProcess* server, size_t bytes, char fill, bool gzip) {
  v2::MutateRowRequest request;
  request.set_table_name(TableName("t"));
  request.set_row_key("large");
  *request.add_mutations() = proto::ToProto(Mutation::SetCell("cf", "q", std::string(bytes, fill), Ms(1)));
  grpc::ClientContext context;
  if (gzip) context.set_compression_algorithm(GRPC_COMPRESS_GZIP);
  v2::MutateRowResponse response;
  return server->stub()->MutateRow(&context, request, &response);
}

// Finding 8: a gzip request of ~1 MB inflated to 1 GiB before it was refused.
TEST_F(HostileTest, ACompressedRequestPastTheLimitIsRefused) {
  ServeProcess server(db_);
  // 300 MiB of zeros: about 300 KB of gzip.
  grpc::Status s = WriteLarge(&server, 300u << 20, '\0', /*gzip=*/true);
  // gRPC inflates a compressed message whole before the size limit applies,
  // so compressed requests are refused outright (UNIMPLEMENTED, naming the
  // algorithm), before anything is inflated.
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNIMPLEMENTED) << s.error_message();
  EXPECT_NE(s.error_message().find("gzip"), std::string::npos) << s.error_message();
  EXPECT_LT(PeakResidentBytes(server.pid()), 256u << 20) << "the server inflated the request";
  ExpectServes(&server);
}

// An uncompressed request past the limit is RESOURCE_EXHAUSTED.
TEST_F(HostileTest, ARequestPastTheLimitIsRefused) {
  ServeProcess server(db_);
  grpc::Status s = WriteLarge(&server, 257u << 20, 'x', /*gzip=*/false);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
  ExpectServes(&server);
}

// Finding 8: with the database's directory deleted, writes were acknowledged
// into files that vanish at shutdown.
TEST_F(HostileTest, WritesAfterTheDatabaseIsDeletedAreRefused) {
  ServeProcess server(db_);
  ASSERT_TRUE(Write(server.stub(), "t", "before", {Mutation::SetCell("cf", "q", "v", Ms(1))}).ok());
  std::filesystem::remove_all(db_);
  grpc::Status s = Write(server.stub(), "t", "after", {Mutation::SetCell("cf", "q", "v", Ms(1))});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << s.error_message();
  EXPECT_NE(s.error_message().find("deleted"), std::string::npos) << s.error_message();
  // Reads still answer from what is open.
  v2::ReadRowsRequest request;
  request.mutable_rows()->add_row_keys("before");
  ReadResult read = Read(server.stub(), request);
  ASSERT_TRUE(read.status.ok()) << read.status.error_message();
  EXPECT_EQ(read.rows.size(), 1u);
}

// Finding 8: on a full disk writes failed with INTERNAL "input/output error",
// and after DropRowRange freed space a 256 KiB write still failed.
TEST_F(HostileTest, AFullDiskIsResourceExhaustedAndFreedSpaceIsReused) {
  const std::string mount_point = dir_.Sub("small");
  std::filesystem::create_directories(mount_point);
  if (::mount("tmpfs", mount_point.c_str(), "tmpfs", 0, "size=24m") != 0) {
    GTEST_SKIP() << "cannot mount a small tmpfs here (needs root): " << std::strerror(errno);
  }
  struct Unmount {
    std::string path;
    ~Unmount() { ::umount2(path.c_str(), MNT_DETACH); }
  } unmount{mount_point};
  const std::string db = mount_point + "/db";
  ASSERT_EQ(Lbt(db, {"createtable", "t", "families=cf"}).status, 0);
  ServeProcess server(db);
  const std::string value(256 << 10, 'f');
  grpc::Status s;
  int written = 0;
  for (; written < 1000; ++written) {
    s = Write(server.stub(), "t", fmt::format("fill{:04}", written), {Mutation::SetCell("cf", "q", value, Ms(1))});
    if (!s.ok()) break;
  }
  ASSERT_FALSE(s.ok()) << "24 MiB never filled";
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
  EXPECT_NE(s.error_message().find("no space left"), std::string::npos) << s.error_message();
  ASSERT_GT(written, 10);

  admin::DropRowRangeRequest drop;
  drop.set_name(TableName("t"));
  drop.set_row_key_prefix("fill00");
  google::protobuf::Empty empty;
  {
    grpc::ClientContext context;
    grpc::Status dropped = server.admin()->DropRowRange(&context, drop, &empty);
    ASSERT_TRUE(dropped.ok()) << dropped.error_message();
  }
  s = Write(server.stub(), "t", "after-drop", {Mutation::SetCell("cf", "q", value, Ms(1))});
  EXPECT_TRUE(s.ok()) << s.error_message();
  v2::ReadRowsRequest request;
  request.mutable_rows()->add_row_keys("after-drop");
  ReadResult read = Read(server.stub(), request);
  ASSERT_TRUE(read.status.ok()) << read.status.error_message();
  EXPECT_EQ(read.rows.size(), 1u);
  server.Stop(SIGTERM);
}

}  // namespace
}  // namespace lbt::testing
