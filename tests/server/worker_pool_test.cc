// WorkerPool: tasks run on its threads, timers fire in the order of their
// deadlines also when set from a task, and the destructor runs every task
// and timer left, so that no call waiting on one is left without its end.

#include "server/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace lbt::server {
namespace {

using std::chrono::milliseconds;

// Waits up to 10 s for `done`.
template <typename Done>
bool Eventually(Done done) {
  for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
       std::chrono::steady_clock::now() < deadline; std::this_thread::sleep_for(milliseconds(1))) {
    if (done()) return true;
  }
  return done();
}

TEST(WorkerPoolTest, TasksRunOnThePoolsThreadsSideBySide) {
  WorkerPool pool(4);
  std::mutex mu;
  std::condition_variable all_in;
  int inside = 0;
  std::atomic<int> finished{0};
  // Each task waits for all four to be running: only four threads of
  // their own let them finish.
  for (int i = 0; i < 4; ++i) {
    pool.Run([&] {
      std::unique_lock<std::mutex> lock(mu);
      ++inside;
      all_in.notify_all();
      all_in.wait(lock, [&] { return inside == 4; });
      EXPECT_NE(std::this_thread::get_id(), std::thread::id());
      ++finished;
    });
  }
  EXPECT_TRUE(Eventually([&] { return finished == 4; }));
}

TEST(WorkerPoolTest, TimersFireInDeadlineOrderAlsoWhenSetFromATask) {
  WorkerPool pool(2);
  std::mutex mu;
  std::vector<int> fired;
  auto record = [&](int n) {
    std::lock_guard<std::mutex> lock(mu);
    fired.push_back(n);
  };
  // Set later first: the earlier deadline must still fire first.
  pool.RunAfter(milliseconds(60), [&] { record(3); });
  pool.RunAfter(milliseconds(20), [&] { record(1); });
  pool.Run([&] { pool.RunAfter(milliseconds(40), [&] { record(2); }); });
  ASSERT_TRUE(Eventually([&] {
    std::lock_guard<std::mutex> lock(mu);
    return fired.size() == 3;
  }));
  EXPECT_EQ(fired, (std::vector<int>{1, 2, 3}));
}

TEST(WorkerPoolTest, ATaskChainOfTimersKeepsGoing) {
  WorkerPool pool(1);
  std::atomic<int> steps{0};
  std::function<void()> step = [&] {
    if (++steps < 20) pool.RunAfter(milliseconds(1), step);
  };
  pool.Run(step);
  EXPECT_TRUE(Eventually([&] { return steps == 20; }));
}

TEST(WorkerPoolTest, TheDestructorRunsWhatIsLeftAtOnce) {
  std::atomic<int> ran{0};
  const auto started = std::chrono::steady_clock::now();
  {
    WorkerPool pool(1);
    for (int i = 0; i < 10; ++i) pool.Run([&] { ++ran; });
    // Due in an hour: a stopping pool runs it now rather than dropping it.
    pool.RunAfter(std::chrono::hours(1), [&] { ++ran; });
  }
  EXPECT_EQ(ran, 11);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::minutes(1));
}

}  // namespace
}  // namespace lbt::server
