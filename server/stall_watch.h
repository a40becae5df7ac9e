// StallWatch ends the calls whose clients stopped reading. A stream's
// response stays pending until the client takes it; a client that never
// reads would keep the call, its place among the open streams and the
// response it holds, forever. Each write is watched by a Guard, from its
// start until it completes (stream_reactor.h): one still alive after the
// timeout gets its call ended with ABORTED, as production ends the
// stream of a client too slow to read ("response was not consumed in
// time"), and the client is told at once: the status travels in HTTP/2
// headers, which flow control does not hold back. Each call ended is one
// line on stderr, saying how many other writes still wait on their clients.
//
// Threading: Guards are made and destroyed on any thread; one thread of
// the watch's own ends stalled calls.

#ifndef LBT_SERVER_STALL_WATCH_H_
#define LBT_SERVER_STALL_WATCH_H_

#include <grpcpp/server_context.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>

namespace lbt::server {

class StallWatch {
 public:
  // `timeout` of zero or less: calls are never ended.
  explicit StallWatch(std::chrono::milliseconds timeout);
  ~StallWatch();
  StallWatch(const StallWatch&) = delete;
  StallWatch& operator=(const StallWatch&) = delete;

  std::chrono::milliseconds timeout() const { return timeout_; }

  // Watches one blocking write of `context`'s call for as long as it lives;
  // with a null `watch`, nothing. REQUIRES: `context` outlives the guard.
  class Guard {
   public:
    Guard(StallWatch* watch, grpc::ServerContextBase* context);
    ~Guard();
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    StallWatch* watch_;
    uint64_t id_ = 0;
  };

 private:
  struct Watched {
    grpc::ServerContextBase* context;
    std::chrono::steady_clock::time_point deadline;
  };
  void Run();

  const std::chrono::milliseconds timeout_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::map<uint64_t, Watched> watched_;  // by id, so in order of their deadlines
  uint64_t next_id_ = 1;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_STALL_WATCH_H_
