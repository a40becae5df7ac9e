// WorkerPool runs the parts of calls that may block (a durable batch
// write waiting for its sync, a scan producing its next megabyte, DDL, a
// backup) on a fixed set of threads, so that gRPC's own threads, which
// run every call's callbacks, never wait on the disk. It also keeps
// timers: a task due later (a change stream's next look at the log) waits
// here, holding no thread, until it is due and then runs on the pool.
//
// Threading: Run and RunAfter may be called from any thread, tasks
// included. The destructor runs every task already queued and every timer
// already set (at once, not waiting for its time), then joins: a call
// whose next step waits here is never left without its end.

#ifndef LBT_SERVER_WORKER_POOL_H_
#define LBT_SERVER_WORKER_POOL_H_

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace lbt::server {

class WorkerPool {
 public:
  using Task = std::function<void()>;

  // Starts `threads` workers and one timer thread. REQUIRES: threads > 0.
  explicit WorkerPool(int threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Queues `task` to run on a worker, in the order queued.
  void Run(Task task);
  // Queues `task` once `delay` has passed.
  void RunAfter(std::chrono::steady_clock::duration delay, Task task);

  int threads() const { return static_cast<int>(workers_.size()); }

 private:
  void Work();
  void KeepTime();

  std::mutex mu_;
  std::condition_variable work_ready_;
  std::condition_variable timer_changed_;
  std::deque<Task> queue_;
  std::multimap<std::chrono::steady_clock::time_point, Task> timers_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
  std::thread timer_thread_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_WORKER_POOL_H_
