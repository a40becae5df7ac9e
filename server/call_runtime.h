// What every service's calls share: the gate that admits them and lets a
// stopping server wait for them (rpc_gate.h), the workers that run what
// may block (worker_pool.h), the watch that ends a stream whose client
// stopped reading (stall_watch.h), and the fault rules (fault_rules.h).
//
// Threading: safe from any thread. Lifetime: it must outlive the gRPC
// server whose services use it (its pool runs those calls' last steps).

#ifndef LBT_SERVER_CALL_RUNTIME_H_
#define LBT_SERVER_CALL_RUNTIME_H_

#include <chrono>

#include "server/fault_rules.h"
#include "server/request_limits.h"
#include "server/rpc_gate.h"
#include "server/stall_watch.h"
#include "server/worker_pool.h"

namespace lbt::server {

class CallRuntime {
 public:
  // A `stall_timeout` of zero or less: a client may take as long as it
  // likes to read.
  explicit CallRuntime(std::chrono::milliseconds stall_timeout = std::chrono::milliseconds(0),
                       int max_in_flight = kMaxCallsInFlight, int workers = kWorkerThreads)
      : gate_(max_in_flight), stalls_(stall_timeout), pool_(workers) {}
  CallRuntime(const CallRuntime&) = delete;
  CallRuntime& operator=(const CallRuntime&) = delete;

  RpcGate* gate() { return &gate_; }
  StallWatch* stalls() { return &stalls_; }
  WorkerPool* pool() { return &pool_; }
  // The fault and latency rules calls are checked against (none at first).
  FaultInjector* faults() { return &faults_; }

 private:
  RpcGate gate_;
  StallWatch stalls_;
  FaultInjector faults_;
  // Declared last, so destroyed first: the last steps of calls it runs
  // then still have the gate and the watch.
  WorkerPool pool_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_CALL_RUNTIME_H_
