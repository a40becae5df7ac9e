// How far a materialized view trails its table in lbt serve: a probe
// writes a row now and then and times how long until the view shows it.
// The view must be keyed by the table's own row key (`SELECT _key, ...
// GROUP BY _key`), so that the probe's row key is the view row's.
//
//   view_lag HOST:PORT TABLE VIEW SECONDS
//
// Run beside a write load (serve_load) to see the lag under load. Names
// projects/lbt/instances/local (lbt serve's default instance). Prints
// "name value" lines for scripts/bench-materialized-views.sh.

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "google/bigtable/v2/bigtable.grpc.pb.h"

namespace {

namespace v2 = ::google::bigtable::v2;
using Clock = std::chrono::steady_clock;
constexpr const char* kInstance = "projects/lbt/instances/local";

bool Write(v2::Bigtable::Stub* stub, const std::string& table, const std::string& key) {
  grpc::ClientContext context;
  v2::MutateRowRequest request;
  request.set_table_name(table);
  request.set_row_key(key);
  auto* set = request.add_mutations()->mutable_set_cell();
  set->set_family_name("stats");
  set->set_column_qualifier("load");
  set->set_timestamp_micros(-1);
  set->set_value("1.00");
  v2::MutateRowResponse response;
  return stub->MutateRow(&context, request, &response).ok();
}

// Whether the view has row `key` yet.
bool Shows(v2::Bigtable::Stub* stub, const std::string& view, const std::string& key) {
  grpc::ClientContext context;
  v2::ReadRowsRequest request;
  request.set_materialized_view_name(view);
  request.mutable_rows()->add_row_keys(key);
  auto stream = stub->ReadRows(&context, request);
  v2::ReadRowsResponse response;
  bool found = false;
  while (stream->Read(&response)) found |= response.chunks_size() > 0;
  return stream->Finish().ok() && found;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: view_lag HOST:PORT TABLE VIEW SECONDS\n");
    return 2;
  }
  const std::string table = std::string(kInstance) + "/tables/" + argv[2];
  const std::string view = std::string(kInstance) + "/materializedViews/" + argv[3];
  const auto deadline = Clock::now() + std::chrono::duration<double>(std::stod(argv[4]));
  auto stub = v2::Bigtable::NewStub(grpc::CreateChannel(argv[1], grpc::InsecureChannelCredentials()));
  std::vector<double> lags;
  int lost = 0;
  for (int probe = 0; Clock::now() < deadline; ++probe) {
    const std::string key = "~probe#" + std::to_string(probe);
    if (!Write(stub.get(), table, key)) return 1;
    const auto written = Clock::now();
    bool seen = false;
    while (!(seen = Shows(stub.get(), view, key)) && Clock::now() - written < std::chrono::seconds(30)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (!seen) ++lost;
    lags.push_back(std::chrono::duration<double, std::milli>(Clock::now() - written).count());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::sort(lags.begin(), lags.end());
  auto percentile = [&](double p) { return lags.empty() ? 0.0 : lags[static_cast<size_t>(p * (lags.size() - 1))]; };
  std::printf("probes %zu\nlag_p50_ms %.1f\nlag_p99_ms %.1f\nlag_max_ms %.1f\nnever_shown %d\n", lags.size(),
              percentile(0.5), percentile(0.99), lags.empty() ? 0.0 : lags.back(), lost);
  return lost > 0 ? 1 : 0;
}
