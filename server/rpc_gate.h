// RpcGate counts the RPCs in flight so that a stopping server can wait for
// exactly those, however many idle connections clients keep open, and
// turns away the ones that arrive meanwhile.

#ifndef LBT_SERVER_RPC_GATE_H_
#define LBT_SERVER_RPC_GATE_H_

#include <grpcpp/support/status.h>

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace lbt::server {

class RpcGate {
 public:
  // Admits one RPC for as long as it lives, unless the gate is closed.
  class Pass {
   public:
    explicit Pass(RpcGate* gate) : gate_(gate->Enter() ? gate : nullptr) {}
    ~Pass() {
      if (gate_ != nullptr) gate_->Leave();
    }
    Pass(const Pass&) = delete;
    Pass& operator=(const Pass&) = delete;
    bool admitted() const { return gate_ != nullptr; }
    static grpc::Status Refusal() { return grpc::Status(grpc::StatusCode::UNAVAILABLE, "the server is stopping"); }

   private:
    RpcGate* gate_;
  };

  // True once the server is stopping: a long stream ends at its next
  // chance, so that stopping does not wait for it.
  bool closing() {
    std::lock_guard<std::mutex> lock(mu_);
    return closed_;
  }
  // Closes the gate and waits until no RPC is in flight or `timeout` passes.
  // Returns true if none is left.
  bool CloseAndDrain(std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    closed_ = true;
    return idle_.wait_for(lock, timeout, [this] { return in_flight_ == 0; });
  }

 private:
  bool Enter() {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return false;
    ++in_flight_;
    return true;
  }
  void Leave() {
    std::lock_guard<std::mutex> lock(mu_);
    if (--in_flight_ == 0) idle_.notify_all();
  }

  std::mutex mu_;
  std::condition_variable idle_;
  int in_flight_ = 0;
  bool closed_ = false;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_RPC_GATE_H_
