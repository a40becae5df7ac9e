#include "server/worker_pool.h"

#include "util/background_thread.h"

namespace lbt::server {

WorkerPool::WorkerPool(int threads) {
  for (int i = 0; i < threads; ++i) workers_.push_back(StartBackgroundThread([this] { Work(); }));
  timer_thread_ = StartBackgroundThread([this] { KeepTime(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  timer_changed_.notify_all();
  timer_thread_.join();  // it hands every timer left to the workers
  work_ready_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void WorkerPool::Run(Task task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(task));
  }
  work_ready_.notify_one();
}

void WorkerPool::RunAfter(std::chrono::steady_clock::duration delay, Task task) {
  const auto due = std::chrono::steady_clock::now() + delay;
  bool first = false;
  bool now = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) {  // the timer thread may be gone: run it now
      queue_.push_back(std::move(task));
      now = true;
    } else {
      auto added = timers_.emplace(due, std::move(task));
      first = added == timers_.begin();
    }
  }
  if (first) timer_changed_.notify_one();
  if (now) work_ready_.notify_one();
}

void WorkerPool::Work() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    work_ready_.wait(lock, [this] { return !queue_.empty() || (stopping_ && timers_.empty()); });
    if (queue_.empty()) return;  // stopping, and nothing is left to run
    Task task = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    task();
    task = nullptr;  // what it held goes before the lock is taken again
    lock.lock();
  }
}

void WorkerPool::KeepTime() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    const auto now = std::chrono::steady_clock::now();
    bool moved = false;
    // Due timers, or every timer once stopping, go to the workers.
    while (!timers_.empty() && (stopping_ || timers_.begin()->first <= now)) {
      queue_.push_back(std::move(timers_.begin()->second));
      timers_.erase(timers_.begin());
      moved = true;
    }
    if (moved) work_ready_.notify_all();
    if (stopping_) return;
    if (timers_.empty()) {
      timer_changed_.wait(lock);
    } else {
      timer_changed_.wait_until(lock, timers_.begin()->first);
    }
  }
}

}  // namespace lbt::server
