// Internal to remote/: the connection to one Bigtable instance that every
// RPC family calls through (reads, mutations, check-and-mutate and
// read-modify-write, sample keys, table admin, queries; one file each): the
// stubs, the context each call carries, and the calls in flight, which
// CancelAll reaches.
//
// Every call carries the routing header (x-goog-request-params, with the
// app profile if one is set) and bigtable-features.
//
// Threading: safe to use from several threads.

#ifndef LBT_REMOTE_REMOTE_CALLS_H_
#define LBT_REMOTE_REMOTE_CALLS_H_

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>

#include "api/resource.h"
#include "api/status.h"
#include "google/bigtable/admin/v2/bigtable_instance_admin.grpc.pb.h"
#include "google/bigtable/admin/v2/bigtable_table_admin.grpc.pb.h"
#include "google/bigtable/v2/bigtable.grpc.pb.h"
#include "google/longrunning/operations.grpc.pb.h"
#include "lbt/v1/faults.grpc.pb.h"
#include "proto/grpc_status.h"
#include "remote/remote_options.h"

namespace lbt {

class RemoteCalls {
 public:
  using Clock = std::chrono::system_clock;
  using DataStub = google::bigtable::v2::Bigtable::Stub;
  using AdminStub = google::bigtable::admin::v2::BigtableTableAdmin::Stub;
  using InstanceAdminStub = google::bigtable::admin::v2::BigtableInstanceAdmin::Stub;
  using OperationsStub = google::longrunning::Operations::Stub;
  using FaultsStub = lbt::v1::Faults::Stub;  // lbt serve's own (proto/lbt/v1/faults.proto)

  RemoteCalls(const RemoteOptions& options, const std::shared_ptr<grpc::Channel>& data,
              const std::shared_ptr<grpc::Channel>& admin);
  RemoteCalls(const RemoteCalls&) = delete;
  RemoteCalls& operator=(const RemoteCalls&) = delete;

  // When a command starting now must end: -timeout from now, or
  // Clock::time_point::max(). A call and its retries share one deadline.
  Clock::time_point Deadline() const;

  // A context for one call: `deadline`, the routing header
  // (`routing_key`=`resource`, and the app profile) and the features.
  std::unique_ptr<grpc::ClientContext> NewContext(std::string_view routing_key, std::string_view resource,
                                                  Clock::time_point deadline) const;

  // Makes one unary call of `stub`'s `rpc`, registered for CancelAll while
  // it runs, and returns its status as lbt's.
  template <typename Stub, typename Request, typename Response>
  Status Unary(Stub* stub, grpc::Status (Stub::*rpc)(grpc::ClientContext*, const Request&, Response*),
               std::string_view routing_key, std::string_view resource, const Request& request, Response* response,
               Clock::time_point deadline);
  template <typename Stub, typename Request, typename Response>
  Status Unary(Stub* stub, grpc::Status (Stub::*rpc)(grpc::ClientContext*, const Request&, Response*),
               std::string_view routing_key, std::string_view resource, const Request& request, Response* response) {
    return Unary(stub, rpc, routing_key, resource, request, response, Deadline());
  }

  // Calls in flight register so that CancelAll reaches them.
  void Register(grpc::ClientContext* context);
  void Unregister(grpc::ClientContext* context);
  // Cancels every call in flight.
  void CancelAll();
  // How many times CancelAll ran, so that a wait between calls can see one.
  uint64_t cancellations() const { return cancellations_; }

  DataStub* data() { return data_.get(); }
  AdminStub* admin() { return admin_.get(); }
  InstanceAdminStub* instance_admin() { return instance_admin_.get(); }
  OperationsStub* operations() { return operations_.get(); }
  FaultsStub* faults() { return faults_.get(); }
  const RemoteOptions& options() const { return options_; }
  const InstanceName& instance() const { return instance_; }
  // "projects/P/instances/I".
  const std::string& instance_name() const { return instance_name_; }
  const std::string& app_profile() const { return options_.app_profile; }
  // "projects/P/instances/I/tables/T".
  std::string TableName(std::string_view table) const;
  // The routing header's key and value for a data request that SetTarget
  // pointed: its table's name, or its authorized or materialized view's.
  template <typename Request>
  static std::string_view TargetKey(const Request& request) {
    if constexpr (requires { request.materialized_view_name(); }) {
      if (!request.materialized_view_name().empty()) return "materialized_view_name";
    }
    return request.authorized_view_name().empty() ? "table_name" : "authorized_view_name";
  }
  template <typename Request>
  static const std::string& TargetOf(const Request& request) {
    if constexpr (requires { request.materialized_view_name(); }) {
      if (!request.materialized_view_name().empty()) return request.materialized_view_name();
    }
    return request.authorized_view_name().empty() ? request.table_name() : request.authorized_view_name();
  }
  // Points a data request at `target`: its table_name, its
  // authorized_view_name or, for a request that has one, its
  // materialized_view_name. InvalidArgument for a materialized view named
  // in a request that cannot name one (a write).
  template <typename Request>
  Status SetTarget(Request* request, const TableRef& target) const {
    if (target.is_materialized_view()) {
      if constexpr (requires { request->set_materialized_view_name(""); }) {
        request->set_materialized_view_name(instance_.Child("materializedViews", target.materialized_view));
        return Status::OK();
      }
      return Status::InvalidArgument(fmt::format(
          "{} is a materialized view: it is kept from its query and cannot be written", target.materialized_view));
    }
    if (target.is_authorized_view()) {
      request->set_authorized_view_name(TableName(target.table) + "/authorizedViews/" + target.authorized_view);
    } else {
      request->set_table_name(TableName(target.table));
    }
    return Status::OK();
  }

 private:
  const RemoteOptions options_;
  const InstanceName instance_;
  const std::string instance_name_;  // instance_.Full()
  const std::string features_;
  std::unique_ptr<DataStub> data_;
  std::unique_ptr<AdminStub> admin_;
  std::unique_ptr<InstanceAdminStub> instance_admin_;
  std::unique_ptr<OperationsStub> operations_;
  std::unique_ptr<FaultsStub> faults_;
  std::mutex mu_;
  std::set<grpc::ClientContext*> in_flight_;
  std::atomic<uint64_t> cancellations_{0};
};

// A call's context, registered for CancelAll while it lives.
class Call {
 public:
  Call(RemoteCalls* calls, std::unique_ptr<grpc::ClientContext> context) : calls_(calls), context_(std::move(context)) {
    calls_->Register(context_.get());
  }
  ~Call() { calls_->Unregister(context_.get()); }
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;
  grpc::ClientContext* get() const { return context_.get(); }

 private:
  RemoteCalls* calls_;
  std::unique_ptr<grpc::ClientContext> context_;
};

template <typename Stub, typename Request, typename Response>
Status RemoteCalls::Unary(Stub* stub, grpc::Status (Stub::*rpc)(grpc::ClientContext*, const Request&, Response*),
                          std::string_view routing_key, std::string_view resource, const Request& request,
                          Response* response, Clock::time_point deadline) {
  Call call(this, NewContext(routing_key, resource, deadline));
  return proto::FromGrpcStatus((stub->*rpc)(call.get(), request, response));
}

// Asks about `operation` once a second until it is done, within -timeout;
// its error, if it ended with one. With `result`, unpacks its response.
template <typename Response = google::protobuf::Empty>
Status AwaitOperation(RemoteCalls* calls, google::longrunning::Operation operation, Response* result = nullptr) {
  const RemoteCalls::Clock::time_point deadline = calls->Deadline();
  const uint64_t cancellations = calls->cancellations();
  while (!operation.done()) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    if (calls->cancellations() != cancellations) return Status::Cancelled("cancelled while waiting for the operation");
    google::longrunning::GetOperationRequest request;
    request.set_name(operation.name());
    google::longrunning::Operation polled;
    LBT_RETURN_IF_ERROR(calls->Unary(calls->operations(), &RemoteCalls::OperationsStub::GetOperation, "name",
                                     request.name(), request, &polled, deadline));
    operation = std::move(polled);
  }
  if (operation.has_error()) return proto::FromRpcStatus(operation.error());
  if (result != nullptr && !operation.response().UnpackTo(result)) {
    return Status::FromCode(Status::Code::kInternal, "the operation's response is not of the type expected");
  }
  return Status::OK();
}

}  // namespace lbt

#endif  // LBT_REMOTE_REMOTE_CALLS_H_
