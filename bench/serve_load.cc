// A load generator for Bigtable servers (lbt serve, the official emulator):
// N clients issue single-row MutateRow or single-row ReadRows calls for a
// fixed time, each its next call once the last was answered, and the
// latencies of all calls give the throughput and the 50th and 99th
// percentiles. The clients are light, so that on a machine shared with the
// server the figures measure the server: they run on gRPC's callback API
// (no thread per client; gRPC's own threads issue each next call), spread
// over up to kChannels channels (connections).
//
//   serve_load HOST:PORT TABLE read|write|ping CLIENTS SECONDS KEYS.csv
//
// ping issues PingAndWarm: the cost of a call that does no work, a floor
// for the others.
//
// LBT_LOAD_IDLE_STREAMS=N first opens N ReadChangeStream calls on table
// LBT_LOAD_IDLE_TABLE (which must have its change stream on, and which
// the load does not write) and waits until each is open and idle (its
// first heartbeat came), then runs the load beside them, and cancels them
// after.
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
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <random>
#include <string>
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

// Change streams held open beside the load, idle: each reads on until
// it is cancelled.
class IdleStreams {
 public:
  IdleStreams(v2::Bigtable::Stub* stub, const std::string& table, int count) {
    for (int i = 0; i < count; ++i) streams_.push_back(new Stream(this, stub, table));
  }
  ~IdleStreams() {
    for (Stream* s : streams_) s->Cancel();
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [this] { return done_ == static_cast<int>(streams_.size()); });
    for (Stream* s : streams_) delete s;
  }
  // Waits until every stream is open and idle; false if one failed.
  bool WaitOpen() {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [this] { return open_ + done_ >= static_cast<int>(streams_.size()); });
    return done_ == 0;
  }

 private:
  class Stream final : public grpc::ClientReadReactor<v2::ReadChangeStreamResponse> {
   public:
    Stream(IdleStreams* owner, v2::Bigtable::Stub* stub, const std::string& table) : owner_(owner) {
      request_.set_table_name(table);
      request_.mutable_partition()->mutable_row_range();  // every row
      request_.mutable_heartbeat_duration()->set_seconds(1);
      stub->async()->ReadChangeStream(&context_, &request_, this);
      StartRead(&response_);
      StartCall();
    }
    void Cancel() { context_.TryCancel(); }
    void OnReadDone(bool ok) override {
      if (!ok) return;
      if (!counted_) owner_->Opened();
      counted_ = true;
      StartRead(&response_);
    }
    void OnDone(const grpc::Status&) override { owner_->Done(); }

   private:
    IdleStreams* owner_;
    grpc::ClientContext context_;
    v2::ReadChangeStreamRequest request_;
    v2::ReadChangeStreamResponse response_;
    bool counted_ = false;
  };

  void Opened() {
    std::lock_guard<std::mutex> lock(mu_);
    ++open_;
    changed_.notify_all();
  }
  void Done() {
    std::lock_guard<std::mutex> lock(mu_);
    ++done_;
    changed_.notify_all();
  }

  std::vector<Stream*> streams_;
  std::mutex mu_;
  std::condition_variable changed_;
  int open_ = 0;
  int done_ = 0;
};

// The connections the clients share, round robin.
constexpr int kChannels = 4;

// Runs the load's clients and collects their latencies.
class Load {
 public:
  Load(std::vector<std::unique_ptr<v2::Bigtable::Stub>> stubs, std::string table, Mode mode,
       const std::vector<std::string>& keys, Clock::time_point deadline)
      : stubs_(std::move(stubs)), table_(std::move(table)), mode_(mode), keys_(keys), deadline_(deadline) {}

  // Starts `clients` clients and waits until each has made its last call.
  void Run(int clients) {
    latencies_.resize(clients);
    running_ = clients;
    for (int c = 0; c < clients; ++c) Next(c, std::make_shared<std::mt19937_64>(c + 1));
    std::unique_lock<std::mutex> lock(mu_);
    all_done_.wait(lock, [this] { return running_ == 0; });
  }

  std::vector<double> Latencies() const {
    std::vector<double> all;
    for (const auto& l : latencies_) all.insert(all.end(), l.begin(), l.end());
    return all;
  }
  int failures() const { return failures_; }

 private:
  // One call's state, alive until its answer.
  struct Call {
    grpc::ClientContext context;
    Clock::time_point start = Clock::now();
    v2::PingAndWarmRequest ping;
    v2::PingAndWarmResponse pinged;
    v2::MutateRowRequest write;
    v2::MutateRowResponse written;
  };

  // A single-row read: its responses are drained, then the next call goes.
  class Read final : public grpc::ClientReadReactor<v2::ReadRowsResponse> {
   public:
    Read(Load* load, int client, std::shared_ptr<std::mt19937_64> rng, v2::Bigtable::Stub* stub,
         const v2::ReadRowsRequest& request)
        : load_(load), client_(client), rng_(std::move(rng)), request_(request) {
      stub->async()->ReadRows(&context_, &request_, this);
      StartRead(&response_);
      StartCall();
    }
    void OnReadDone(bool ok) override {
      if (ok) StartRead(&response_);
    }
    void OnDone(const grpc::Status& status) override {
      load_->Answered(client_, rng_, start_, status);
      delete this;
    }

   private:
    Load* load_;
    int client_;
    std::shared_ptr<std::mt19937_64> rng_;
    grpc::ClientContext context_;
    v2::ReadRowsRequest request_;
    v2::ReadRowsResponse response_;
    Clock::time_point start_ = Clock::now();
  };

  void Next(int client, std::shared_ptr<std::mt19937_64> rng) {
    if (Clock::now() >= deadline_) {
      std::lock_guard<std::mutex> lock(mu_);
      if (--running_ == 0) all_done_.notify_all();
      return;
    }
    v2::Bigtable::Stub* stub = stubs_[client % stubs_.size()].get();
    const std::string& key = keys_[(*rng)() % keys_.size()];
    if (mode_ == Mode::kRead) {
      v2::ReadRowsRequest request;
      request.set_table_name(table_);
      request.mutable_rows()->add_row_keys(key);
      new Read(this, client, std::move(rng), stub, request);
      return;
    }
    auto call = std::make_shared<Call>();
    auto done = [this, client, rng, call](grpc::Status status) { Answered(client, rng, call->start, status); };
    if (mode_ == Mode::kPing) {
      call->ping.set_name(Instance());
      stub->async()->PingAndWarm(&call->context, &call->ping, &call->pinged, std::move(done));
      return;
    }
    call->write.set_table_name(table_);
    call->write.set_row_key(key);
    auto* set = call->write.add_mutations()->mutable_set_cell();
    set->set_family_name("stats");
    set->set_column_qualifier("load");
    set->set_timestamp_micros(-1);
    set->set_value("42.00");
    stub->async()->MutateRow(&call->context, &call->write, &call->written, std::move(done));
  }

  // Records a call's latency and starts the client's next call.
  void Answered(int client, std::shared_ptr<std::mt19937_64> rng, Clock::time_point start, const grpc::Status& status) {
    latencies_[client].push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    // The first failure says why, on stderr.
    if (!status.ok() && failures_++ == 0) {
      std::fprintf(stderr, "serve_load: a call failed: %s\n", status.error_message().c_str());
    }
    Next(client, std::move(rng));
  }

  const std::vector<std::unique_ptr<v2::Bigtable::Stub>> stubs_;
  const std::string table_;
  const Mode mode_;
  const std::vector<std::string>& keys_;
  const Clock::time_point deadline_;
  std::vector<std::vector<double>> latencies_;  // each client's, written by its calls one at a time
  std::atomic<int> failures_{0};
  std::mutex mu_;
  std::condition_variable all_done_;
  int running_ = 0;
};

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

  std::unique_ptr<IdleStreams> idle;
  const char* idle_count = std::getenv("LBT_LOAD_IDLE_STREAMS");
  auto idle_stub = v2::Bigtable::NewStub(grpc::CreateChannel(host, grpc::InsecureChannelCredentials()));
  if (idle_count != nullptr && std::atoi(idle_count) > 0) {
    const char* idle_table = std::getenv("LBT_LOAD_IDLE_TABLE");
    if (idle_table == nullptr) {
      std::fprintf(stderr, "serve_load: LBT_LOAD_IDLE_STREAMS needs LBT_LOAD_IDLE_TABLE\n");
      return 2;
    }
    idle = std::make_unique<IdleStreams>(idle_stub.get(), Instance() + "/tables/" + idle_table, std::atoi(idle_count));
    if (!idle->WaitOpen()) {
      std::fprintf(stderr, "serve_load: an idle change stream could not be opened\n");
      return 1;
    }
  }
  std::vector<std::unique_ptr<v2::Bigtable::Stub>> stubs;
  for (int c = 0; c < std::min(clients, kChannels); ++c) {
    grpc::ChannelArguments args;
    args.SetInt("lbt-channel", c);  // a connection of its own, not a shared subchannel
    stubs.push_back(v2::Bigtable::NewStub(grpc::CreateCustomChannel(host, grpc::InsecureChannelCredentials(), args)));
  }
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  Load load(std::move(stubs), table, mode, keys, deadline);
  load.Run(clients);
  std::vector<double> all = load.Latencies();
  const int failures = load.failures();
  std::sort(all.begin(), all.end());
  auto percentile = [&](double p) { return all.empty() ? 0.0 : all[static_cast<size_t>(p * (all.size() - 1))]; };
  std::printf("ops_per_second %.0f\np50_us %.0f\np99_us %.0f\nfailures %d\n", all.size() / seconds, percentile(0.5),
              percentile(0.99), failures);
  return failures > 0 ? 1 : 0;
}
