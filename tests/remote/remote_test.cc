// lbt in remote mode, as a process, against a Bigtable that misbehaves on
// purpose: a fake service in this test that breaks a read in the middle,
// goes away, or refuses. Every failure must be one line and exit status 1
// within the deadline; a transient break must be retried with every row
// arriving exactly once.

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "api/instance_admin.h"
#include "google/bigtable/admin/v2/bigtable_table_admin.grpc.pb.h"
#include "google/bigtable/v2/bigtable.grpc.pb.h"
#include "remote/remote_bigtable.h"
#include "tests/conformance/process.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

namespace v2 = ::google::bigtable::v2;
namespace admin = ::google::bigtable::admin::v2;
using conformance::FreeLoopbackPort;
using conformance::ProcessResult;
using conformance::RunProcess;

constexpr int kRows = 1000;

std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "row%04d", i);
  return buf;
}

// The first row a request asks for, of a table "row0000".."row0999" (the
// client resumes with an open start key).
int FirstRow(const v2::ReadRowsRequest& request) {
  if (request.rows().row_ranges_size() == 0) return 0;
  const v2::RowRange& range = request.rows().row_ranges(0);
  int i = 0;
  while (i < kRows && ((range.has_start_key_open() && Key(i) <= range.start_key_open()) ||
                       (range.has_start_key_closed() && Key(i) < range.start_key_closed()))) {
    ++i;
  }
  return i;
}

// What the fake does to a read.
enum class Misbehaviour {
  kNone,
  kUnavailableOnce,  // breaks the first read after kBreakAfter rows
  kHang,             // sends kBreakAfter rows, then waits until shut down;
                     // replication never finishes
  kDenyPermission,   // refuses every call
  kDenyAdmin,        // refuses every Table Admin call, serves data
};
constexpr int kBreakAfter = 300;

// What a fake that reports stats says it looked at: more than it sends, as
// a service does that skips rows and cells its filter drops.
constexpr int64_t kServiceRowsSeen = 4242;
constexpr int64_t kServiceCellsSeen = 9191;

// The stats production sends when a request asks for REQUEST_STATS_FULL.
v2::RequestStats ServiceStats(int64_t rows_returned) {
  v2::RequestStats stats;
  auto* iteration = stats.mutable_full_read_stats_view()->mutable_read_iteration_stats();
  iteration->set_rows_seen_count(kServiceRowsSeen);
  iteration->set_cells_seen_count(kServiceCellsSeen);
  iteration->set_rows_returned_count(rows_returned);
  iteration->set_cells_returned_count(rows_returned);
  return stats;
}

class FakeData final : public v2::Bigtable::Service {
 public:
  // `sends_stats`: a read that asks for full stats gets them on its last
  // response, and a row limit is honoured, as production does both.
  explicit FakeData(Misbehaviour m, bool sends_stats = false) : misbehaviour_(m), sends_stats_(sends_stats) {}

  grpc::Status ReadRows(grpc::ServerContext* context, const v2::ReadRowsRequest* request,
                        grpc::ServerWriter<v2::ReadRowsResponse>* writer) override {
    if (misbehaviour_ == Misbehaviour::kDenyPermission) {
      return grpc::Status(grpc::StatusCode::PERMISSION_DENIED, "caller may not read");
    }
    const int call = ++calls_;
    {
      std::lock_guard<std::mutex> lock(mu_);
      requests_.push_back(*request);
    }
    int sent = 0;
    for (int i = FirstRow(*request); i < kRows; ++i, ++sent) {
      if (sends_stats_ && request->rows_limit() > 0 && sent == request->rows_limit()) break;
      if (sent == kBreakAfter && call == 1 && misbehaviour_ == Misbehaviour::kUnavailableOnce) {
        return grpc::Status(grpc::StatusCode::UNAVAILABLE, "tablet moved");
      }
      if (sent == kBreakAfter && misbehaviour_ == Misbehaviour::kHang) {
        hanging_ = true;
        // Until the client leaves, or for a minute, past any test's wait.
        testing::PollUntil([&] { return context->IsCancelled(); }, std::chrono::seconds(60));
        return grpc::Status(grpc::StatusCode::CANCELLED, "gone");
      }
      v2::ReadRowsResponse response;
      v2::ReadRowsResponse::CellChunk* chunk = response.add_chunks();
      chunk->set_row_key(Key(i));
      chunk->mutable_family_name()->set_value("cf");
      chunk->mutable_qualifier()->set_value("q");
      chunk->set_timestamp_micros(1000);
      chunk->set_value("v" + std::to_string(i));
      chunk->set_commit_row(true);
      if (!writer->Write(response)) return grpc::Status::CANCELLED;
    }
    if (sends_stats_ && request->request_stats_view() == v2::ReadRowsRequest::REQUEST_STATS_FULL) {
      v2::ReadRowsResponse last;
      *last.mutable_request_stats() = ServiceStats(sent);
      if (!writer->Write(last)) return grpc::Status::CANCELLED;
    }
    return grpc::Status::OK;
  }

  std::vector<v2::ReadRowsRequest> requests() {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }
  bool hanging() const { return hanging_; }

 private:
  const Misbehaviour misbehaviour_;
  const bool sends_stats_;
  std::atomic<int> calls_{0};
  std::atomic<bool> hanging_{false};
  std::mutex mu_;
  std::vector<v2::ReadRowsRequest> requests_;
};

class FakeAdmin final : public admin::BigtableTableAdmin::Service {
 public:
  explicit FakeAdmin(Misbehaviour m) : misbehaviour_(m) {}
  grpc::Status GetTable(grpc::ServerContext*, const admin::GetTableRequest* request, admin::Table* table) override {
    if (misbehaviour_ == Misbehaviour::kDenyPermission || misbehaviour_ == Misbehaviour::kDenyAdmin) {
      return grpc::Status(grpc::StatusCode::PERMISSION_DENIED, "caller may not describe tables");
    }
    table->set_name(request->name());
    (*table->mutable_column_families())["cf"] = admin::ColumnFamily();
    return grpc::Status::OK;
  }
  // Replication finishes at the third check of the token it gave.
  grpc::Status GenerateConsistencyToken(grpc::ServerContext*, const admin::GenerateConsistencyTokenRequest*,
                                        admin::GenerateConsistencyTokenResponse* response) override {
    response->set_consistency_token("token-1");
    return grpc::Status::OK;
  }
  grpc::Status CheckConsistency(grpc::ServerContext*, const admin::CheckConsistencyRequest* request,
                                admin::CheckConsistencyResponse* response) override {
    if (request->consistency_token() != "token-1") {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "unknown consistency_token");
    }
    response->set_consistent(++checks_ >= 3 && misbehaviour_ != Misbehaviour::kHang);
    return grpc::Status::OK;
  }
  // A table's policy, which says whose it is in its etag.
  grpc::Status GetIamPolicy(grpc::ServerContext*, const google::iam::v1::GetIamPolicyRequest* request,
                            google::iam::v1::Policy* response) override {
    response->set_etag("table admin: " + request->resource());
    return grpc::Status::OK;
  }
  int checks() const { return checks_; }

 private:
  const Misbehaviour misbehaviour_;
  std::atomic<int> checks_{0};
};

// The fake services on a free loopback port.
class FakeBigtable {
 public:
  explicit FakeBigtable(Misbehaviour m, bool sends_stats = false) : data_(m, sends_stats), admin_(m) {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(&data_);
    builder.RegisterService(&admin_);
    server_ = builder.BuildAndStart();
  }
  ~FakeBigtable() { Shutdown(); }
  void Shutdown() {
    if (server_ != nullptr) server_->Shutdown(std::chrono::system_clock::now());
  }
  std::string host() const { return "127.0.0.1:" + std::to_string(port_); }
  FakeData& data() { return data_; }
  FakeAdmin& admin() { return admin_; }

 private:
  FakeData data_;
  FakeAdmin admin_;
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

Result<std::unique_ptr<Bigtable>> ConnectTo(const FakeBigtable& fake) {
  RemoteOptions options;
  options.project = "p";
  options.instance = "i";
  options.emulator_host = fake.host();
  return ConnectRemote(options);
}

ProcessResult RunLbt(const std::string& host, const std::vector<std::string>& words) {
  std::vector<std::string> argv = {LBT_BINARY, "-project", "p", "-instance", "i"};
  argv.insert(argv.end(), words.begin(), words.end());
  return RunProcess(argv, {"BIGTABLE_EMULATOR_HOST=" + host, "LBT_HISTFILE=/dev/null"});
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(RemoteFaults, ATransientBreakMidReadIsResumedAndEveryRowArrivesOnce) {
  FakeBigtable fake(Misbehaviour::kUnavailableOnce);
  ProcessResult r = RunLbt(fake.host(), {"--format", "jsonl", "read", "t"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), static_cast<size_t>(kRows));
  for (int i = 0; i < kRows; ++i) {
    EXPECT_NE(lines[i].find("\"key\":\"" + Key(i) + "\""), std::string::npos) << "line " << i << ": " << lines[i];
  }
  // The retry asked only for what was left.
  std::vector<v2::ReadRowsRequest> requests = fake.data().requests();
  ASSERT_EQ(requests.size(), 2u);
  ASSERT_EQ(requests[1].rows().row_ranges_size(), 1);
  EXPECT_EQ(requests[1].rows().row_ranges(0).start_key_open(), Key(kBreakAfter - 1));
}

// Each request names what its TableRef names, field by field: a table id
// that looks like a view's name is still a table's (nothing is sniffed
// from the string).
TEST(RemoteTargets, EachRequestNamesWhatItsRefNames) {
  FakeBigtable fake(Misbehaviour::kNone);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Bigtable> remote, ConnectTo(fake));
  const std::vector<TableRef> refs = {TableRef::Table("t"), TableRef::AuthorizedView("t", "v"),
                                      TableRef::MaterializedView("mv"), TableRef::Table("materializedViews/x")};
  for (const TableRef& ref : refs) {
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<Table> table, remote->OpenTable(ref));
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<RowStream> rows, table->ReadRows(ReadRequest{}));
    for (Row row; rows->Next(&row);) {
    }
    ASSERT_OK(rows->status());
  }
  std::vector<v2::ReadRowsRequest> requests = fake.data().requests();
  ASSERT_EQ(requests.size(), refs.size());
  const std::string instance = "projects/p/instances/i";
  EXPECT_EQ(requests[0].table_name(), instance + "/tables/t");
  EXPECT_EQ(requests[1].authorized_view_name(), instance + "/tables/t/authorizedViews/v");
  EXPECT_EQ(requests[1].table_name(), "");
  EXPECT_EQ(requests[2].materialized_view_name(), instance + "/materializedViews/mv");
  EXPECT_EQ(requests[3].table_name(), instance + "/tables/materializedViews/x");
  EXPECT_EQ(requests[3].materialized_view_name(), "");
  // A materialized view is read, never written.
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Table> view, remote->OpenTable(TableRef::MaterializedView("mv")));
  EXPECT_EQ(view->MutateRow("r", {Mutation::DeleteFromRow()}).code(), Status::Code::kInvalidArgument);
}

// A table's IAM policy is the Table Admin API's, an instance's the
// Instance Admin API's (which the fake does not serve): each goes to its
// service by the interface it is asked through, not by its name's shape.
TEST(RemoteTargets, IamPoliciesGoToTheServiceOfTheirResource) {
  FakeBigtable fake(Misbehaviour::kNone);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Bigtable> remote, ConnectTo(fake));
  const std::string table = "projects/p/instances/i/tables/t";
  ASSERT_OK_AND_ASSIGN(IamPolicy policy, remote->GetIamPolicy(table));
  EXPECT_EQ(policy.etag, "table admin: " + table);
  ASSERT_NE(remote->instance_admin(), nullptr);
  EXPECT_EQ(remote->instance_admin()->GetIamPolicy("projects/p/instances/i").status().code(),
            Status::Code::kUnimplemented);
}

TEST(RemoteFaults, ARowLimitIsNarrowedOnRetry) {
  FakeBigtable fake(Misbehaviour::kUnavailableOnce);
  ProcessResult r = RunLbt(fake.host(), {"--format", "jsonl", "read", "t", "count=500"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(Lines(r.out).size(), 500u);
  std::vector<v2::ReadRowsRequest> requests = fake.data().requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].rows_limit(), 500);
  EXPECT_EQ(requests[1].rows_limit(), 500 - kBreakAfter);
}

TEST(RemoteFaults, AServerGoneMidReadIsOneLineAndNoPartialOutput) {
  FakeBigtable fake(Misbehaviour::kHang);
  std::thread killer([&] {
    EXPECT_TRUE(testing::PollUntil([&] { return fake.data().hanging(); })) << "the read never reached the hang";
    fake.Shutdown();
  });
  ProcessResult r = RunLbt(fake.host(), {"-timeout", "3s", "--format", "jsonl", "read", "t"});
  killer.join();
  EXPECT_EQ(r.status, 1);
  std::vector<std::string> err = Lines(r.err);
  ASSERT_EQ(err.size(), 1u) << r.err;
  EXPECT_EQ(err[0].rfind("error: ", 0), 0u) << err[0];
  // Whole JSON lines only: the rows before the break, each complete.
  ASSERT_FALSE(r.out.empty());
  EXPECT_EQ(r.out.back(), '\n');
  for (const std::string& line : Lines(r.out)) {
    EXPECT_TRUE(line.front() == '{' && line.back() == '}') << line;
  }
}

// What Ctrl-C does in the shell: CancelCalls from another thread ends a
// read that waits on the service.
TEST(RemoteFaults, CancelCallsEndsAReadWaitingOnTheService) {
  FakeBigtable fake(Misbehaviour::kHang);
  Result<std::unique_ptr<Bigtable>> remote = ConnectTo(fake);
  ASSERT_TRUE(remote.ok()) << remote.status().ToString();
  Result<std::unique_ptr<RowStream>> stream = (*remote)->ReadRows("t", ReadRequest{});
  ASSERT_TRUE(stream.ok()) << stream.status().ToString();
  // Cancelled once every row sent has arrived: a cancel may drop messages
  // still in flight, which a loaded machine leaves more of.
  std::atomic<int> rows{0};
  std::thread cancel([&] {
    EXPECT_TRUE(testing::PollUntil([&] { return fake.data().hanging() && rows >= kBreakAfter; }))
        << "the rows before the hang never arrived";
    (*remote)->CancelCalls();
  });
  for (Row row; (*stream)->Next(&row);) ++rows;
  cancel.join();
  EXPECT_EQ(rows, kBreakAfter);
  EXPECT_EQ((*stream)->status().code(), Status::Code::kCancelled) << (*stream)->status().ToString();
}

TEST(RemoteReplication, WaitsUntilTheServiceSaysTheTokenIsConsistent) {
  FakeBigtable fake(Misbehaviour::kNone);
  ProcessResult result = RunLbt(fake.host(), {"waitforreplication", "t"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(fake.admin().checks(), 3);
  EXPECT_EQ(result.out.rfind("Waiting for all writes up to ", 0), 0u) << result.out;
}

TEST(RemoteReplication, CancelCallsEndsTheWait) {
  FakeBigtable fake(Misbehaviour::kHang);  // never consistent
  Result<std::unique_ptr<Bigtable>> remote = ConnectTo(fake);
  ASSERT_TRUE(remote.ok()) << remote.status().ToString();
  std::thread cancel([&] {
    EXPECT_TRUE(testing::PollUntil([&] { return fake.admin().checks() >= 1; })) << "the wait never asked the service";
    (*remote)->CancelCalls();
  });
  Status waited = (*remote)->WaitForReplication("t");
  cancel.join();
  EXPECT_EQ(waited.code(), Status::Code::kCancelled) << waited.ToString();
}

TEST(RemoteFaults, AnUnreachableEndpointFailsWithinItsTimeout) {
  const std::string nowhere = "127.0.0.1:" + std::to_string(FreeLoopbackPort());
  // A command that hung would be ended by timeout(1) after 60 s, with
  // status 124. That the retries stop at the deadline, to the millisecond,
  // RetryPolicyTest.NeverWaitsPastTheDeadline checks on a clock of its own.
  ProcessResult r =
      RunProcess({"timeout", "60", LBT_BINARY, "-project", "p", "-instance", "i", "-timeout", "2s", "read", "t"},
                 {"BIGTABLE_EMULATOR_HOST=" + nowhere, "LBT_HISTFILE=/dev/null"});
  EXPECT_EQ(r.status, 1) << "124: the command outlived its timeout";
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
}

TEST(RemoteFaults, PermissionDeniedIsOneLine) {
  FakeBigtable fake(Misbehaviour::kDenyPermission);
  ProcessResult r = RunLbt(fake.host(), {"read", "t"});
  EXPECT_EQ(r.status, 1);
  ASSERT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("caller may not"), std::string::npos) << r.err;
}

TEST(RemoteFaults, AReadNeedsOnlyTheDataApi) {
  FakeBigtable fake(Misbehaviour::kDenyAdmin);
  ProcessResult r = RunLbt(fake.host(), {"read", "t", "count=2"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("row0001"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("row0002"), std::string::npos) << r.out;
}

// include-stats=full in remote mode prints what the service says it
// looked at, as cbt does, not what lbt counted arriving.
TEST(RemoteStats, AReadPrintsTheServiceStats) {
  FakeBigtable fake(Misbehaviour::kNone, /*sends_stats=*/true);
  ProcessResult r = RunLbt(fake.host(), {"read", "t", "include-stats=full"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("rows_seen_count: 4242\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cells_seen_count: 9191\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rows_returned_count: 1000\n"), std::string::npos) << r.out;
  std::vector<v2::ReadRowsRequest> requests = fake.data().requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].request_stats_view(), v2::ReadRowsRequest::REQUEST_STATS_FULL);
}

// The service applies the row limit and sends its stats right after the
// last row: lbt hears them rather than cancelling the call.
TEST(RemoteStats, ALimitedReadPrintsTheServiceStats) {
  FakeBigtable fake(Misbehaviour::kNone, /*sends_stats=*/true);
  ProcessResult r = RunLbt(fake.host(), {"--format", "json", "read", "t", "count=5", "include-stats=full"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"rows_seen\":4242"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"rows_returned\":5,"), std::string::npos) << r.out;
}

// A service that sends no stats: lbt's own counts of what arrived.
TEST(RemoteStats, WithoutTheServiceStatsLbtCountsWhatArrived) {
  FakeBigtable fake(Misbehaviour::kNone);
  ProcessResult r = RunLbt(fake.host(), {"read", "t", "include-stats=full"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("rows_seen_count: 1000\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cells_seen_count: 1000\n"), std::string::npos) << r.out;
}

// Part of the filter runs here: the service says what it looked at, lbt
// what the read returned after its part of the filter.
TEST(RemoteStats, AClientFilterCountsWhatTheReadReturned) {
  FakeBigtable fake(Misbehaviour::kNone, /*sends_stats=*/true);
  Result<std::unique_ptr<Bigtable>> remote = ConnectTo(fake);
  ASSERT_TRUE(remote.ok()) << remote.status().ToString();
  ReadRequest request;
  request.filter =
      Filter::Compare(Filter::Target::kRowKey, Filter::CompareOp::kLess, Filter::Comparator::kBinary, Key(10));
  Result<std::unique_ptr<RowStream>> stream = (*remote)->ReadRows("t", request);
  ASSERT_TRUE(stream.ok()) << stream.status().ToString();
  int rows = 0;
  for (Row row; (*stream)->Next(&row);) ++rows;
  ASSERT_TRUE((*stream)->status().ok()) << (*stream)->status().ToString();
  EXPECT_EQ(rows, 10);
  const ReadStats stats = (*stream)->stats();
  EXPECT_EQ(stats.rows_seen, kServiceRowsSeen);
  EXPECT_EQ(stats.cells_seen, kServiceCellsSeen);
  EXPECT_EQ(stats.rows_returned, 10);
  EXPECT_EQ(stats.cells_returned, 10);
}

// A read resumed after a break: the broken call sent no stats, so the
// service's numbers would be short; lbt's own counts stand.
TEST(RemoteStats, AResumedReadWhoseBrokenCallSentNoStatsCountsWhatArrived) {
  FakeBigtable fake(Misbehaviour::kUnavailableOnce, /*sends_stats=*/true);
  ProcessResult r = RunLbt(fake.host(), {"read", "t", "include-stats=full"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("rows_seen_count: 1000\n"), std::string::npos) << r.out;
  EXPECT_EQ(fake.data().requests().size(), 2u);
}

TEST(RemoteConnect, CommandsThatNeverReachTheServiceNeedNoCredentials) {
  const std::vector<std::string> remote = {
      LBT_BINARY, "-project", "p", "-instance", "i", "-creds", "/nonexistent/key.json"};
  auto run = [&](const std::string& command) {
    std::vector<std::string> argv = remote;
    argv.push_back(command);
    return RunProcess(argv, {"BIGTABLE_EMULATOR_HOST="});
  };
  ProcessResult help = run("help");
  EXPECT_EQ(help.status, 0) << help.err;
  EXPECT_NE(help.out.find("createtable"), std::string::npos);
  ProcessResult typo = run("lss");
  EXPECT_EQ(typo.status, 2);
  EXPECT_NE(typo.err.find("unknown command 'lss'"), std::string::npos) << typo.err;
  ProcessResult ls = run("ls");
  EXPECT_EQ(ls.status, 1);
  EXPECT_EQ(ls.err, "error: cannot read the credentials file '/nonexistent/key.json'\n");
}

TEST(RemoteConnect, AKeyWithoutAPrivateKeyIsOneLineWithoutGrpcLogs) {
  testing::TempDir dir;
  const std::string key = dir.path() + "/key.json";
  std::ofstream(key) << R"({"type":"service_account"})";
  ProcessResult r =
      RunProcess({LBT_BINARY, "-project", "p", "-instance", "i", "-creds", key, "ls"}, {"BIGTABLE_EMULATOR_HOST="});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("not a service account key"), std::string::npos) << r.err;
}

TEST(RemoteFaults, AMissingCredentialsFileIsOneLine) {
  ProcessResult r = RunProcess({LBT_BINARY, "-project", "p", "-instance", "i", "-creds", "/nonexistent/key.json", "ls"},
                               {"BIGTABLE_EMULATOR_HOST="});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "error: cannot read the credentials file '/nonexistent/key.json'\n");
}

}  // namespace
}  // namespace lbt
