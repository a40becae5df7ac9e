// A load generator for Bigtable servers (lbt serve, the official emulator):
// N clients, each on its own channel, issue single-row MutateRow or
// single-row ReadRows calls for a fixed time, and the latencies of all
// calls give the throughput and the 50th and 99th percentiles.
//
//   serve_load HOST:PORT TABLE read|write|ping CLIENTS SECONDS KEYS.csv
//
// ping issues PingAndWarm: the cost of a call that does no work, a floor
// for the others.
//
// LBT_LOAD_INSTANCE=projects/P/instances/I names another instance than
// projects/bench/instances/bench (lbt serve's default instance is
// projects/lbt/instances/local).
//
// KEYS.csv is lbt_bench's data: the first field of each line from the
// third on is a row key. Prints "name value" lines for scripts/bench.sh.

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "google/bigtable/v2/bigtable.grpc.pb.h"

namespace {

namespace v2 = ::google::bigtable::v2;
using Clock = std::chrono::steady_clock;

std::vector<std::string> LoadKeys(const std::string& csv) {
  std::ifstream in(csv);
  std::vector<std::string> keys;
  std::string line;
  for (int n = 0; std::getline(in, line); ++n) {
    if (n >= 2) keys.push_back(line.substr(0, line.find(',')));
  }
  return keys;
}

enum class Mode { kRead, kWrite, kPing };

// The instance the calls name.
std::string Instance() {
  const char* named = std::getenv("LBT_LOAD_INSTANCE");
  return named != nullptr && *named != '\0' ? named : "projects/bench/instances/bench";
}

bool Call(v2::Bigtable::Stub* stub, const std::string& table, const std::string& key, Mode mode) {
  grpc::ClientContext context;
  if (mode == Mode::kPing) {
    v2::PingAndWarmRequest request;
    request.set_name(Instance());
    v2::PingAndWarmResponse response;
    return stub->PingAndWarm(&context, request, &response).ok();
  }
  if (mode == Mode::kWrite) {
    v2::MutateRowRequest request;
    request.set_table_name(table);
    request.set_row_key(key);
    auto* set = request.add_mutations()->mutable_set_cell();
    set->set_family_name("stats");
    set->set_column_qualifier("load");
    set->set_timestamp_micros(-1);
    set->set_value("42.00");
    v2::MutateRowResponse response;
    return stub->MutateRow(&context, request, &response).ok();
  }
  v2::ReadRowsRequest request;
  request.set_table_name(table);
  request.mutable_rows()->add_row_keys(key);
  auto stream = stub->ReadRows(&context, request);
  v2::ReadRowsResponse response;
  while (stream->Read(&response)) {
  }
  return stream->Finish().ok();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7) {
    std::fprintf(stderr, "usage: serve_load HOST:PORT TABLE read|write|ping CLIENTS SECONDS KEYS.csv\n");
    return 2;
  }
  const std::string host = argv[1];
  const std::string table = Instance() + "/tables/" + argv[2];
  const std::string mode_name = argv[3];
  const Mode mode = mode_name == "write" ? Mode::kWrite : mode_name == "ping" ? Mode::kPing : Mode::kRead;
  const int clients = std::stoi(argv[4]);
  const double seconds = std::stod(argv[5]);
  const std::vector<std::string> keys = LoadKeys(argv[6]);
  if (keys.empty()) return 1;

  std::vector<std::vector<double>> latencies(clients);
  std::atomic<int> failures{0};
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      grpc::ChannelArguments args;
      args.SetInt("lbt-client", c);  // a distinct channel per client, not a shared subchannel
      auto stub = v2::Bigtable::NewStub(grpc::CreateCustomChannel(host, grpc::InsecureChannelCredentials(), args));
      std::mt19937_64 rng(c + 1);
      std::uniform_int_distribution<size_t> pick(0, keys.size() - 1);
      while (Clock::now() < deadline) {
        const auto start = Clock::now();
        if (!Call(stub.get(), table, keys[pick(rng)], mode)) ++failures;
        latencies[c].push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
      }
    });
  }
  for (auto& t : threads) t.join();
  std::vector<double> all;
  for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  std::sort(all.begin(), all.end());
  auto percentile = [&](double p) { return all.empty() ? 0.0 : all[static_cast<size_t>(p * (all.size() - 1))]; };
  std::printf("ops_per_second %.0f\np50_us %.0f\np99_us %.0f\nfailures %d\n", all.size() / seconds, percentile(0.5),
              percentile(0.99), failures.load());
  return failures > 0 ? 1 : 0;
}
