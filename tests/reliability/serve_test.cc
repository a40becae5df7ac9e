// `lbt serve` as a process: what it prints, how it refuses, how it stops,
// sharing a database with the shell, and SIGKILL in the middle of writes
// from several clients.

#include <fmt/format.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "google/bigtable/admin/v2/bigtable_instance_admin.pb.h"
#include "google/bigtable/v2/bigtable.grpc.pb.h"
#include "google/longrunning/operations.pb.h"
#include "local/local_bigtable.h"
#include "proto/convert.h"
#include "proto/row_assembler.h"
#include "tests/conformance/process.h"
#include "tests/reliability/serve_process.h"
#include "tests/test_util.h"

namespace lbt::testing {
namespace {

namespace v2 = ::google::bigtable::v2;
using conformance::FreeLoopbackPort;
using conformance::ProcessResult;
using conformance::RunProcess;
using conformance::StartProcess;
using conformance::StopProcess;
using conformance::WaitForPort;

constexpr char kTable[] = "projects/p/instances/i/tables/t";

grpc::Status Write(v2::Bigtable::Stub* stub, const std::string& key, const std::vector<Mutation>& mutations) {
  return WriteRow(stub, kTable, key, mutations);
}

std::vector<Row> ReadEverything(v2::Bigtable::Stub* stub) {
  v2::ReadRowsRequest request;
  request.set_table_name(kTable);
  grpc::ClientContext context;
  auto stream = stub->ReadRows(&context, request);
  std::vector<Row> rows;
  proto::RowAssembler assembler;
  v2::ReadRowsResponse response;
  while (stream->Read(&response)) EXPECT_TRUE(assembler.Add(response, &rows).ok());
  grpc::Status s = stream->Finish();
  EXPECT_TRUE(s.ok()) << s.error_message();
  return rows;
}

ProcessResult Lbt(const std::string& db, std::vector<std::string> words) {
  // The instance the tests' clients name: its tables are apart from the default instance's.
  words.insert(words.begin(), {LBT_BINARY, "--db", db, "-project", "p", "-instance", "i"});
  return RunProcess(words, {"TZ=UTC"});
}

TEST(ServeTest, PrintsWhereItListensAndStopsCleanly) {
  TempDir dir;
  const int port = FreeLoopbackPort();
  // RunProcess waits for the end, so let a helper thread stop the server.
  std::thread stopper([&] {
    if (WaitForPort(port, 10000)) RunProcess({"pkill", "-TERM", "-f", "lbt serve --db " + dir.Sub("db")}, {});
  });
  ProcessResult r = RunProcess({LBT_BINARY, "serve", "--db", dir.Sub("db"), "--port", std::to_string(port)}, {});
  stopper.join();
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("export BIGTABLE_EMULATOR_HOST=127.0.0.1:" + std::to_string(port)), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

TEST(ServeTest, ABusyPortIsOneLineAndExitOne) {
  TempDir dir;
  ServeProcess first(dir.Sub("a"));
  ProcessResult r = RunProcess({LBT_BINARY, "serve", "--db", dir.Sub("b"), "--port", std::to_string(first.port())}, {});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("cannot listen"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  // The port is checked before the database is opened: nothing was created.
  EXPECT_FALSE(std::filesystem::exists(dir.Sub("b")));
}

TEST(ServeTest, OnlyLoopbackUnlessAllowed) {
  TempDir dir;
  ProcessResult r = RunProcess({LBT_BINARY, "serve", "--db", dir.Sub("db"), "--host", "0.0.0.0", "--port", "0"}, {});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--allow-remote"), std::string::npos) << r.err;
}

TEST(ServeTest, ADatabaseItCannotOpenIsOneLineAndExitOne) {
  TempDir dir;
  const std::string file = dir.Sub("not-a-dir");
  std::ofstream(file) << "x";
  ProcessResult r = RunProcess({LBT_BINARY, "serve", "--db", file, "--port", "0"}, {});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("not a directory"), std::string::npos) << r.err;
}

// A client's write is read at once by the shell, and the shell's by a client.
// The shell on a served directory: through the server while it keeps its
// writes in its log (the default), beside it with --no-write-log. Either
// way each sees what the other wrote.
void ShellAndClientsShare(const std::vector<std::string>& serve_flags) {
  TempDir dir;
  const std::string db = dir.Sub("db");
  ASSERT_EQ(Lbt(db, {"createtable", "t", "families=cf"}).status, 0);
  ServeProcess server(db, serve_flags);
  ASSERT_TRUE(Write(server.stub(), "from-client", {Mutation::SetCell("cf", "q", "hello", Ms(1))}).ok());
  ProcessResult read = Lbt(db, {"--format", "jsonl", "lookup", "t", "from-client"});
  EXPECT_NE(read.out.find("\"value\":\"hello\""), std::string::npos) << read.out << read.err;

  ASSERT_EQ(Lbt(db, {"set", "t", "from-shell", "cf:q=world@2000"}).status, 0);
  std::vector<Row> rows = ReadEverything(server.stub());
  ASSERT_EQ(RowKeys(rows), (std::vector<std::string>{"from-client", "from-shell"}));
  EXPECT_EQ(rows[1].cells[0].value, "world");
}

TEST(ServeTest, TheShellAndClientsShareTheDatabase) { ShellAndClientsShare({}); }

TEST(ServeTest, TheShellWritesBesideAServerWithoutItsLog) { ShellAndClientsShare({"--no-write-log"}); }

// A second server on a directory whose server keeps a log is refused.
TEST(ServeTest, ASecondServerOnALoggedDirectoryIsRefused) {
  TempDir dir;
  const std::string db = dir.Sub("db");
  ServeProcess server(db);
  ProcessResult r = RunProcess({LBT_BINARY, "serve", "--db", db, "--port", "0"}, {});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("open for writing in another process"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// A read of many rows over TCP fills many responses, each row whole.
TEST(ServeTest, StreamsALargeReadWhole) {
  TempDir dir;
  const std::string db = dir.Sub("db");
  {
    auto local = std::make_unique<LocalBigtable>(db, DatabaseOptions{}, InstanceName{"p", "i"});
    ASSERT_OK(local->CreateTable("t", {{"stats", GcRule::Never(), ValueType::kBytes}}, {}, false));
    std::vector<RowMutation> rows;
    for (int i = 0; i < 20000; ++i) {
      std::vector<Mutation> cells;
      for (const char* q : {"cpu", "mem", "disk", "net"})
        cells.push_back(Mutation::SetCell("stats", q, "12.34", Ms(1)));
      rows.push_back({fmt::format("host{:04}#{}", i % 1000, 1700000000000 + i / 1000 * 60000), cells});
    }
    auto written = local->MutateRows("t", rows);
    ASSERT_OK(written.status());
  }
  ServeProcess server(db);
  std::vector<Row> rows = ReadEverything(server.stub());
  EXPECT_EQ(rows.size(), 20000u);
}

// Every RPC of the Instance Admin and Operations services answers with a
// message: an empty request is refused naming the field it lacks, and an
// RPC lbt does not serve answers UNIMPLEMENTED naming itself, not gRPC's
// empty UNIMPLEMENTED. The methods come from the services' descriptors, so
// an RPC a newer proto adds is checked too.
TEST(ServeTest, EveryInstanceAdminRpcAnswersWithAMessage) {
  TempDir dir;
  ServeProcess server(dir.Sub("db"));
  grpc::GenericStub generic(server.channel());
  const google::protobuf::ServiceDescriptor* services[] = {
      google::bigtable::admin::v2::CreateInstanceRequest::descriptor()->file()->FindServiceByName(
          "BigtableInstanceAdmin"),
      google::longrunning::Operation::descriptor()->file()->FindServiceByName("Operations")};
  int served = 0, unserved = 0;
  for (const google::protobuf::ServiceDescriptor* service : services) {
    ASSERT_NE(service, nullptr);
    for (int i = 0; i < service->method_count(); ++i) {
      const std::string rpc = service->method(i)->name();
      grpc::ClientContext context;
      grpc::Slice no_bytes{std::string()};
      grpc::ByteBuffer request(&no_bytes, 1), response;  // an empty message: every field unset
      std::promise<grpc::Status> done;
      generic.UnaryCall(&context, fmt::format("/{}/{}", service->full_name(), rpc), grpc::StubOptions(), &request,
                        &response, [&](grpc::Status s) { done.set_value(s); });
      grpc::Status s = done.get_future().get();
      if (s.ok()) continue;  // ListOperations lists every operation for an empty name
      EXPECT_FALSE(s.error_message().empty()) << rpc;
      if (s.error_code() == grpc::StatusCode::UNIMPLEMENTED) {
        EXPECT_NE(s.error_message().find(rpc + " is not implemented by lbt: "), std::string::npos)
            << rpc << ": " << s.error_message();
        ++unserved;
      } else {
        ++served;
      }
    }
  }
  // Instances, clusters, app profiles, IAM policies, hot tablets, logical
  // and materialized views and operations: every RPC of the pinned proto.
  EXPECT_GE(served, 34);
  EXPECT_EQ(unserved, 0);
}

// lbt serve --gc=lazy: a cell its family's policy makes eligible is still
// read, as production reads it until its asynchronous garbage collection
// runs, and is gone once a pass has run; the default shows GC at once.
TEST(ServeTest, LazyGcReadsEligibleCellsUntilAPass) {
  TempDir dir;
  const std::string db = dir.Sub("db");
  ASSERT_EQ(Lbt(db, {"createtable", "t", "families=cf:maxversions=1"}).status, 0);
  auto versions = [](v2::Bigtable::Stub* stub) {
    std::vector<Row> rows = ReadEverything(stub);
    return rows.empty() ? size_t{0} : rows[0].cells.size();
  };
  {
    ServeProcess server(db, {"--gc=lazy", "--gc-interval", "1"});
    ASSERT_TRUE(Write(server.stub(), "r", {Mutation::SetCell("cf", "q", "old", Ms(1))}).ok());
    ASSERT_TRUE(Write(server.stub(), "r", {Mutation::SetCell("cf", "q", "new", Ms(2))}).ok());
    EXPECT_EQ(versions(server.stub()), 2u) << "the eligible version is read until a pass runs";
    size_t seen = 2;
    for (int i = 0; i < 100 && seen > 1; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      seen = versions(server.stub());
    }
    EXPECT_EQ(seen, 1u) << "no collection pass ran within 10 s";
  }
  ServeProcess eager(db);
  ASSERT_TRUE(Write(eager.stub(), "r", {Mutation::SetCell("cf", "q", "newer", Ms(3))}).ok());
  std::vector<Row> rows = ReadEverything(eager.stub());
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(rows[0].cells.size(), 1u);
  EXPECT_EQ(rows[0].cells[0].value, "newer");
}

// One client's write through the service, by kind: a row, a batch of two
// rows, an increment of the client's counter, or a check-and-mutate that
// writes a new row through its false branch. Every row written has both
// cells or none. Returns the rows written.
grpc::Status WriteSome(v2::Bigtable::Stub* stub, int kind, int client, const std::string& key,
                       std::vector<std::string>* rows) {
  auto both = [](const std::string& k) {
    return std::vector<Mutation>{Mutation::SetCell("a", "q", k, Ms(1)), Mutation::SetCell("b", "q", k, Ms(1))};
  };
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  switch (kind) {
    case 0: rows->push_back(key); return Write(stub, key, both(key));
    case 1: {
      v2::MutateRowsRequest request;
      request.set_table_name(kTable);
      for (const std::string& k : {key + "-x", key + "-y"}) {
        auto* entry = request.add_entries();
        entry->set_row_key(k);
        for (const Mutation& m : both(k)) *entry->add_mutations() = proto::ToProto(m);
        rows->push_back(k);
      }
      auto stream = stub->MutateRows(&context, request);
      v2::MutateRowsResponse response;
      bool all_ok = true;
      while (stream->Read(&response)) {
        for (const auto& e : response.entries()) all_ok = all_ok && e.status().code() == 0;
      }
      grpc::Status s = stream->Finish();
      return s.ok() && !all_ok ? grpc::Status(grpc::StatusCode::INTERNAL, "an entry failed") : s;
    }
    case 2: {
      v2::ReadModifyWriteRowRequest request;
      request.set_table_name(kTable);
      request.set_row_key("counters");
      auto* rule = request.add_rules();
      rule->set_family_name("a");
      rule->set_column_qualifier("c" + std::to_string(client));
      rule->set_increment_amount(1);
      v2::ReadModifyWriteRowResponse response;
      return stub->ReadModifyWriteRow(&context, request, &response);
    }
    default: {
      // The row is new: the predicate (any cell) fails and the false
      // branch writes it.
      v2::CheckAndMutateRowRequest request;
      request.set_table_name(kTable);
      request.set_row_key(key);
      for (const Mutation& m : both(key)) *request.add_false_mutations() = proto::ToProto(m);
      v2::CheckAndMutateRowResponse response;
      rows->push_back(key);
      grpc::Status s = stub->CheckAndMutateRow(&context, request, &response);
      return s.ok() && response.predicate_matched() ? grpc::Status(grpc::StatusCode::INTERNAL, "matched") : s;
    }
  }
}

// SIGKILL at seeded moments while eight clients write rows, batches,
// increments and check-and-mutates: after each restart every acknowledged
// write is there, every row whole, and each counter holds every
// acknowledged increment and at most one more per round.
TEST(ServeTest, SurvivesSigkillWithEveryAcknowledgedWrite) {
  TempDir dir;
  const std::string db = dir.Sub("db");
  ASSERT_EQ(Lbt(db, {"createtable", "t", "families=a,b"}).status, 0);
  std::mt19937_64 rng(20261122);
  constexpr int kClients = 8;
  constexpr int kRounds = 4;
  std::vector<int64_t> increments(kClients, 0);
  for (int round = 0; round < kRounds; ++round) {
    std::mutex mu;
    std::vector<std::string> acknowledged;
    {
      ServeProcess server(db);
      std::atomic<bool> stop{false};
      std::vector<std::thread> clients;
      for (int c = 0; c < kClients; ++c) {
        clients.emplace_back([&, c] {
          for (int i = 0; !stop; ++i) {
            std::vector<std::string> rows;
            const int kind = (i + c) % 4;
            grpc::Status s = WriteSome(server.stub(), kind, c, fmt::format("r{}-c{}-{:05}", round, c, i), &rows);
            if (!s.ok()) return;
            std::lock_guard<std::mutex> lock(mu);
            acknowledged.insert(acknowledged.end(), rows.begin(), rows.end());
            if (kind == 2) ++increments[c];
          }
        });
      }
      // Killed at a random moment once writes flow: on a loaded machine the
      // first fsync alone can take longer than the shortest wait.
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (std::chrono::steady_clock::now() < give_up) {
        {
          std::lock_guard<std::mutex> lock(mu);
          if (!acknowledged.empty()) break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(150 + rng() % 300));
      EXPECT_EQ(server.Stop(SIGKILL), 128 + SIGKILL) << "the server ended before it was killed";
      stop = true;
      for (auto& t : clients) t.join();
    }
    ASSERT_GT(acknowledged.size(), 0u);
    ServeProcess restarted(db);
    std::map<std::string, Row> stored;
    for (Row& row : ReadEverything(restarted.stub())) stored[row.key] = std::move(row);
    for (const std::string& key : acknowledged) {
      auto it = stored.find(key);
      ASSERT_NE(it, stored.end()) << "acknowledged row " << key << " is lost";
      EXPECT_EQ(it->second.cells.size(), 2u) << key << " is half written";
    }
    std::vector<int64_t> counters(kClients, 0);
    for (const auto& [key, row] : stored) {
      if (key != "counters") {
        EXPECT_EQ(row.cells.size(), 2u) << key << " is half written";
        continue;
      }
      std::set<std::string> seen;  // each column's newest cell comes first
      for (const Cell& cell : row.cells) {
        if (!seen.insert(cell.qualifier).second) continue;
        int64_t v = 0;
        for (char ch : cell.value) v = (v << 8) | static_cast<unsigned char>(ch);
        counters[std::stoi(cell.qualifier.substr(1))] = v;
      }
    }
    for (int c = 0; c < kClients; ++c) {
      EXPECT_GE(counters[c], increments[c]) << "client " << c << ": an acknowledged increment is lost";
      EXPECT_LE(counters[c], increments[c] + round + 1) << "client " << c << ": an increment applied twice";
    }
  }
}

}  // namespace
}  // namespace lbt::testing
