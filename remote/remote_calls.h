// Internal to remote/: what a client of one Bigtable service needs from
// the RemoteBigtable that owns the channel, so that each RPC family can
// live in its own file.

#ifndef LBT_REMOTE_REMOTE_CALLS_H_
#define LBT_REMOTE_REMOTE_CALLS_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>
#include <string_view>

#include "google/bigtable/v2/bigtable.grpc.pb.h"

namespace lbt {

class RemoteCalls {
 public:
  virtual ~RemoteCalls() = default;
  // A context for one call: the -timeout deadline, the routing header
  // (`routing_key`=`resource`, and the app profile) and the features.
  virtual std::unique_ptr<grpc::ClientContext> NewContext(std::string_view routing_key,
                                                          std::string_view resource) const = 0;
  // Calls in flight register so that CancelCalls reaches them.
  virtual void Register(grpc::ClientContext* context) = 0;
  virtual void Unregister(grpc::ClientContext* context) = 0;
  virtual google::bigtable::v2::Bigtable::Stub* data() = 0;
  // "projects/P/instances/I".
  virtual const std::string& instance_name() const = 0;
  virtual const std::string& app_profile() const = 0;
};

// A call's context, registered for CancelCalls while it lives.
class Call {
 public:
  Call(RemoteCalls* owner, std::unique_ptr<grpc::ClientContext> context)
      : owner_(owner), context_(std::move(context)) {
    owner_->Register(context_.get());
  }
  ~Call() { owner_->Unregister(context_.get()); }
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;
  grpc::ClientContext* get() const { return context_.get(); }

 private:
  RemoteCalls* owner_;
  std::unique_ptr<grpc::ClientContext> context_;
};

}  // namespace lbt

#endif  // LBT_REMOTE_REMOTE_CALLS_H_
