// One `lbt serve` process on a database and a free loopback port, with
// stubs for both of its services; stopped when it goes out of scope.

#ifndef LBT_TESTS_RELIABILITY_SERVE_PROCESS_H_
#define LBT_TESTS_RELIABILITY_SERVE_PROCESS_H_

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "google/bigtable/admin/v2/bigtable_table_admin.grpc.pb.h"
#include "google/bigtable/v2/bigtable.grpc.pb.h"
#include "proto/convert.h"
#include "tests/conformance/process.h"

namespace lbt::testing {

class ServeProcess {
 public:
  explicit ServeProcess(const std::string& db, std::vector<std::string> extra = {})
      : port_(conformance::FreeLoopbackPort()), stderr_path_(db + ".serve-stderr") {
    std::vector<std::string> argv = {LBT_BINARY, "serve", "--db", db, "--port", std::to_string(port_)};
    argv.insert(argv.end(), extra.begin(), extra.end());
    pid_ = conformance::StartProcess(argv, stderr_path_);
    EXPECT_TRUE(conformance::WaitForPort(port_, 10000)) << "lbt serve did not start";
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(-1);
    args.SetMaxSendMessageSize(-1);
    channel_ = grpc::CreateCustomChannel(address(), grpc::InsecureChannelCredentials(), args);
    stub_ = ::google::bigtable::v2::Bigtable::NewStub(channel_);
    admin_ = ::google::bigtable::admin::v2::BigtableTableAdmin::NewStub(channel_);
  }
  ~ServeProcess() {
    if (pid_ > 0) Stop(SIGTERM);
  }
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  int Stop(int signal) {
    int status = conformance::StopProcess(pid_, signal);
    pid_ = -1;
    return status;
  }
  // What the server has written on stderr so far (kept beside the database).
  std::string Stderr() const {
    std::ifstream in(stderr_path_);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }
  int pid() const { return pid_; }
  std::shared_ptr<grpc::Channel> channel() const { return channel_; }
  ::google::bigtable::v2::Bigtable::Stub* stub() { return stub_.get(); }
  ::google::bigtable::admin::v2::BigtableTableAdmin::Stub* admin() { return admin_.get(); }
  // A new stub on a connection of its own (the stubs above share one).
  // A stub on a connection of its own whose flow-control window stays at
  // HTTP/2's 64 KiB: for a client that stalls, the server then fills the
  // window at once and blocks. With BDP probing on, gRPC may grow the window
  // until a few MiB of response fit, and such a "stalled" read ends with OK.
  std::unique_ptr<::google::bigtable::v2::Bigtable::Stub> NewStalledClientStub() const {
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(-1);
    args.SetInt(GRPC_ARG_HTTP2_BDP_PROBE, 0);
    args.SetInt("lbt-own-connection", port_ + static_cast<int>(++connections_));
    return ::google::bigtable::v2::Bigtable::NewStub(
        grpc::CreateCustomChannel(address(), grpc::InsecureChannelCredentials(), args));
  }

 private:
  int port_;
  std::string stderr_path_;
  int pid_ = -1;
  mutable std::atomic<int> connections_{0};  // NewStalledClientStub is called from several threads
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<::google::bigtable::v2::Bigtable::Stub> stub_;
  std::unique_ptr<::google::bigtable::admin::v2::BigtableTableAdmin::Stub> admin_;
};

// One MutateRow of `mutations` to `key` of the table named `table_name`
// ("projects/p/instances/i/tables/t"), with a deadline of 30 s.
inline grpc::Status WriteRow(::google::bigtable::v2::Bigtable::Stub* stub, const std::string& table_name,
                             const std::string& key, const std::vector<Mutation>& mutations) {
  ::google::bigtable::v2::MutateRowRequest request;
  request.set_table_name(table_name);
  request.set_row_key(key);
  for (const Mutation& m : mutations) *request.add_mutations() = proto::ToProto(m);
  ::google::bigtable::v2::MutateRowResponse response;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  return stub->MutateRow(&context, request, &response);
}

}  // namespace lbt::testing

#endif  // LBT_TESTS_RELIABILITY_SERVE_PROCESS_H_
