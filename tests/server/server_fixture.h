// A DataService and an AdminService over a fresh database, reached through
// gRPC's in-process channel, for the server's tests.

#ifndef LBT_TESTS_SERVER_SERVER_FIXTURE_H_
#define LBT_TESTS_SERVER_SERVER_FIXTURE_H_

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "api/instance_admin.h"
#include "local/local_bigtable.h"
#include "proto/convert.h"
#include "proto/row_assembler.h"
#include "server/admin_service.h"
#include "server/data_service.h"
#include "server/fault_service.h"
#include "server/server.h"
#include "storage/database.h"
#include "tests/test_util.h"

namespace lbt::testing {

namespace v2 = ::google::bigtable::v2;
namespace admin = ::google::bigtable::admin::v2;

inline constexpr char kInstance[] = "projects/p/instances/i";
inline std::string TableName(const std::string& table) { return std::string(kInstance) + "/tables/" + table; }

// What a ReadRows call returned.
struct ReadResult {
  grpc::Status status;
  std::vector<Row> rows;
  int responses = 0;
  int chunks = 0;
  v2::RequestStats stats;
};

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override { Start(); }
  void TearDown() override { Stop(); }

  // Stops the server and closes the database, then opens both again.
  void Restart() {
    Stop();
    Start();
  }

  void Start() {
    auto db = Database::Open(dir_.Sub("db"), options_);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    // db_ served as one instance, with no InstanceAdmin: every instance
    // name is it. serve_local_ serves another database, as lbt serve does
    // (instances, materialized views).
    if (serve_local_) {
      local_ = std::make_unique<LocalBigtable>(dir_.Sub("local"), options_);
    } else {
      local_ = LocalBigtable::OneInstanceOf(db_.get(), options_);
    }
    router_ = std::make_unique<server::InstanceRouter>(local_.get());
    runtime_ = std::make_unique<server::CallRuntime>();
    data_ = std::make_unique<server::DataService>(router_.get(), runtime_.get(), stream_bounds_);
    admin_service_ = std::make_unique<server::AdminService>(router_.get(), runtime_.get(), &operations_);
    fault_service_ = std::make_unique<server::FaultService>(runtime_.get());
    grpc::ServerBuilder builder;
    server::ConfigureCallbackServer(&builder);  // as lbt serve
    builder.SetMaxReceiveMessageSize(512 << 20);
    builder.RegisterService(data_.get());
    builder.RegisterService(admin_service_.get());
    builder.RegisterService(fault_service_.get());
    server_ = builder.BuildAndStart();
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(512 << 20);
    args.SetMaxSendMessageSize(512 << 20);
    channel_ = server_->InProcessChannel(args);
    auto& channel = channel_;
    bigtable_ = v2::Bigtable::NewStub(channel);
    admin_ = admin::BigtableTableAdmin::NewStub(channel);
    faults_ = lbt::v1::Faults::NewStub(channel);
  }
  void Stop() {
    server_->Shutdown();
    server_.reset();
    runtime_.reset();
    data_.reset();
    admin_service_.reset();
    fault_service_.reset();
    bigtable_.reset();
    admin_.reset();
    faults_.reset();
    channel_.reset();
    local_.reset();
    db_.reset();
  }

  // Creates table `t` with the given families (no GC).
  void CreateTable(const std::string& table, const std::vector<std::string>& families) {
    std::vector<FamilySpec> specs;
    for (const std::string& f : families) specs.push_back({f, GcRule::Never(), ValueType::kBytes});
    ASSERT_OK(db_->CreateTable(table, specs));
  }

  grpc::Status MutateRow(const std::string& table, const std::string& key, std::vector<Mutation> mutations) {
    v2::MutateRowRequest request;
    request.set_table_name(TableName(table));
    request.set_row_key(key);
    for (const Mutation& m : mutations) *request.add_mutations() = proto::ToProto(m);
    v2::MutateRowResponse response;
    grpc::ClientContext context;
    return bigtable_->MutateRow(&context, request, &response);
  }

  // A MutateRows call's status and each entry's code (-1: not answered).
  struct EntriesResult {
    grpc::Status status;
    std::vector<int> codes;
  };
  EntriesResult MutateRowsEntries(const v2::MutateRowsRequest& request) {
    grpc::ClientContext context;
    auto stream = bigtable_->MutateRows(&context, request);
    EntriesResult result{grpc::Status::OK, std::vector<int>(request.entries_size(), -1)};
    v2::MutateRowsResponse response;
    while (stream->Read(&response)) {
      for (const auto& e : response.entries()) result.codes[e.index()] = e.status().code();
    }
    result.status = stream->Finish();
    return result;
  }

  ReadResult Read(v2::ReadRowsRequest request) {
    if (request.table_name().empty() && request.authorized_view_name().empty()) {
      request.set_table_name(TableName("t"));
    }
    grpc::ClientContext context;
    auto stream = bigtable_->ReadRows(&context, request);
    ReadResult result;
    proto::RowAssembler assembler;
    v2::ReadRowsResponse response;
    while (stream->Read(&response)) {
      ++result.responses;
      result.chunks += response.chunks_size();
      Status s = assembler.Add(response, &result.rows);
      EXPECT_TRUE(s.ok()) << s.ToString();
      // Clients such as Go's require every response to end between rows.
      EXPECT_TRUE(assembler.Finish().ok()) << "response " << result.responses << " ends inside a row";
      if (response.has_request_stats()) result.stats = response.request_stats();
    }
    result.status = stream->Finish();
    if (result.status.ok()) {
      EXPECT_TRUE(assembler.Finish().ok());
    }
    return result;
  }

  // Every cell of every table, to show that a refused request changed nothing.
  std::string Dump() {
    std::string out;
    auto tables = db_->ListTables();
    EXPECT_TRUE(tables.ok());
    for (const std::string& t : *tables) {
      auto spec = db_->GetTable(t);
      out += "table " + t + (spec->deletion_protection ? " protected" : "") + "\n";
      for (const auto& [name, family] : spec->families) out += " family " + name + "\n";
      for (const Row& row : ReadAll(db_.get(), t)) {
        for (const Cell& c : row.cells) {
          out +=
              row.key + "/" + c.family + ":" + c.qualifier + "@" + std::to_string(c.timestamp) + "=" + c.value + "\n";
        }
      }
    }
    return out;
  }

  TempDir dir_;
  DatabaseOptions options_;  // how Start opens the database
  std::unique_ptr<Database> db_;
  bool serve_local_ = false;            // set before Start
  server::StreamBounds stream_bounds_;  // set before Start
  std::unique_ptr<LocalBigtable> local_;
  std::unique_ptr<server::CallRuntime> runtime_;  // before the services: they use it
  std::unique_ptr<server::InstanceRouter> router_;
  server::OperationStore operations_;
  std::unique_ptr<server::DataService> data_;
  std::unique_ptr<server::AdminService> admin_service_;
  std::unique_ptr<server::FaultService> fault_service_;
  std::unique_ptr<grpc::Server> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v2::Bigtable::Stub> bigtable_;
  std::unique_ptr<admin::BigtableTableAdmin::Stub> admin_;
  std::unique_ptr<lbt::v1::Faults::Stub> faults_;
};

}  // namespace lbt::testing

#endif  // LBT_TESTS_SERVER_SERVER_FIXTURE_H_
