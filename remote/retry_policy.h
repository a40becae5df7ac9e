// Internal to remote/: the one retry policy of RemoteBigtable, shared by
// the calls that retry: reads (resumed after the last row received), batch
// mutations (their failed idempotent entries sent again) and queries
// (resumed from the last resume token).
//
// A failure is retried when its code is transient (UNAVAILABLE,
// DEADLINE_EXCEEDED, ABORTED, as Bigtable's client libraries retry them),
// fewer than kMaxRetries failures in a row have been retried, and the
// deadline has not passed. Between attempts the policy waits 40 ms, 80 ms,
// ... up to 2 s, but never past the deadline, so that -timeout bounds a
// command's time, its retries included.
//
// Threading: one policy belongs to one call and its retries.

#ifndef LBT_REMOTE_RETRY_POLICY_H_
#define LBT_REMOTE_RETRY_POLICY_H_

#include <chrono>
#include <functional>
#include <thread>
#include <utility>

#include "api/status.h"

namespace lbt {

class RetryPolicy {
 public:
  using Clock = std::chrono::system_clock;

  static constexpr int kMaxRetries = 8;

  // How the policy reads the time and waits: the system clock and a real
  // sleep, unless a test passes a clock of its own that the waits move.
  struct Timer {
    std::function<Clock::time_point()> now = [] { return Clock::now(); };
    std::function<void(Clock::duration)> sleep = [](Clock::duration d) { std::this_thread::sleep_for(d); };
  };

  // `deadline` bounds every attempt and every wait; Clock::time_point::max()
  // for none.
  explicit RetryPolicy(Clock::time_point deadline) : deadline_(deadline) {}
  RetryPolicy(Clock::time_point deadline, Timer timer) : deadline_(deadline), timer_(std::move(timer)) {}

  // True for the codes worth trying again.
  static bool Retryable(const Status& status);

  // Counts one more failure in a row. Returns false if the retries are
  // used up or the deadline has passed; otherwise waits the backoff and
  // returns true.
  bool WaitBeforeRetry();

  // Retryable(failure) && WaitBeforeRetry().
  bool RetryAfter(const Status& failure) { return Retryable(failure) && WaitBeforeRetry(); }

  // The call made progress (rows arrived): the next failure is the first
  // in a row again.
  void Progressed() { failures_ = 0; }

  Clock::time_point deadline() const { return deadline_; }
  bool PastDeadline() const { return timer_.now() >= deadline_; }

  // The wait before the retry that follows `failures` failures in a row.
  static std::chrono::milliseconds Backoff(int failures);

 private:
  const Clock::time_point deadline_;
  Timer timer_;
  int failures_ = 0;
};

}  // namespace lbt

#endif  // LBT_REMOTE_RETRY_POLICY_H_
