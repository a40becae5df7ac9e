// RpcGate counts the RPCs in flight so that a stopping server can wait for
// exactly those, however many idle connections clients keep open, and
// turns away the ones that arrive meanwhile. It also bounds them: past
// `max_in_flight` calls at once, a new one is answered RESOURCE_EXHAUSTED
// at once, naming the bound, while the calls already in flight go on.
//
// Threading: safe from any thread.

#ifndef LBT_SERVER_RPC_GATE_H_
#define LBT_SERVER_RPC_GATE_H_

#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "api/status.h"
#include "server/request_limits.h"

namespace lbt::server {

class RpcGate {
 public:
  explicit RpcGate(int max_in_flight = kMaxCallsInFlight) : max_in_flight_(max_in_flight) {}
  RpcGate(const RpcGate&) = delete;
  RpcGate& operator=(const RpcGate&) = delete;

  // Admits one call: OK, and then Leave must follow once the call ended;
  // or the answer to give the call instead (UNAVAILABLE while stopping,
  // RESOURCE_EXHAUSTED past the bound), and then no Leave.
  Status Enter() {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return Status::Unavailable("the server is stopping");
    if (in_flight_ >= max_in_flight_) {
      return Status::ResourceExhausted(fmt::format(
          "lbt serve runs at most {} calls at once, and that many are in flight; retry shortly", max_in_flight_));
    }
    ++in_flight_;
    return Status::OK();
  }
  void Leave() {
    std::lock_guard<std::mutex> lock(mu_);
    if (--in_flight_ == 0) idle_.notify_all();
  }

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
  std::mutex mu_;
  std::condition_variable idle_;
  const int max_in_flight_;
  int in_flight_ = 0;
  bool closed_ = false;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_RPC_GATE_H_
