// The one retry policy of remote reads, batch mutations and queries: which
// failures it retries, how long it waits, and that neither the retry count
// nor the deadline is ever exceeded.

#include "remote/retry_policy.h"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

namespace lbt {
namespace {

using Clock = RetryPolicy::Clock;
using std::chrono::milliseconds;

// A clock that only the policy's waits move, and the waits it took.
struct FakeTimer {
  Clock::time_point now = Clock::time_point() + std::chrono::hours(24 * 365 * 50);
  std::vector<milliseconds> waits;
  RetryPolicy::Timer Timer() {
    return {.now = [this] { return now; },
            .sleep =
                [this](Clock::duration d) {
                  waits.push_back(std::chrono::duration_cast<milliseconds>(d));
                  now += d;
                }};
  }
};

TEST(RetryPolicyTest, RetriesTransientCodesOnly) {
  EXPECT_TRUE(RetryPolicy::Retryable(Status::Unavailable("tablet moved")));
  EXPECT_TRUE(RetryPolicy::Retryable(Status::Aborted("conflict")));
  EXPECT_TRUE(RetryPolicy::Retryable(Status::FromCode(Status::Code::kDeadlineExceeded, "slow")));
  for (const Status& s : {Status::NotFound("t"), Status::Cancelled("ctrl-c"), Status::InvalidArgument("bad"),
                          Status::FromCode(Status::Code::kPermissionDenied, "no"),
                          Status::FromCode(Status::Code::kInternal, "bug"), Status::OK()}) {
    EXPECT_FALSE(RetryPolicy::Retryable(s)) << s.ToString();
    RetryPolicy policy(Clock::time_point::max());
    EXPECT_FALSE(policy.RetryAfter(s)) << s.ToString();
  }
}

TEST(RetryPolicyTest, BacksOffExponentiallyUpToTwoSeconds) {
  EXPECT_EQ(RetryPolicy::Backoff(1), milliseconds(40));
  EXPECT_EQ(RetryPolicy::Backoff(2), milliseconds(80));
  EXPECT_EQ(RetryPolicy::Backoff(6), milliseconds(1280));
  EXPECT_EQ(RetryPolicy::Backoff(7), milliseconds(2000));
  EXPECT_EQ(RetryPolicy::Backoff(1000), milliseconds(2000));
}

TEST(RetryPolicyTest, WaitsTheBackoffBeforeEachRetry) {
  FakeTimer timer;
  RetryPolicy policy(Clock::time_point::max(), timer.Timer());
  ASSERT_TRUE(policy.RetryAfter(Status::Unavailable("once")));
  ASSERT_TRUE(policy.RetryAfter(Status::Unavailable("twice")));
  EXPECT_EQ(timer.waits, (std::vector<milliseconds>{milliseconds(40), milliseconds(80)}));
}

TEST(RetryPolicyTest, TheRealTimerWaits) {
  RetryPolicy policy(Clock::time_point::max());
  const auto start = Clock::now();
  ASSERT_TRUE(policy.RetryAfter(Status::Unavailable("once")));
  // A lower bound only: a sleep takes at least what it was asked.
  EXPECT_GE(Clock::now() - start, milliseconds(40));
}

TEST(RetryPolicyTest, ProgressStartsTheCountAgain) {
  FakeTimer timer;
  RetryPolicy policy(Clock::time_point::max(), timer.Timer());
  // Failures in a row are limited; with progress between them, they are not.
  for (int i = 0; i < 3 * RetryPolicy::kMaxRetries; ++i) {
    ASSERT_TRUE(policy.WaitBeforeRetry()) << "retry " << i;
    policy.Progressed();
  }
}

TEST(RetryPolicyTest, StopsAfterTheMaximumFailuresInARow) {
  FakeTimer timer;
  RetryPolicy policy(Clock::time_point::max(), timer.Timer());
  for (int i = 0; i < RetryPolicy::kMaxRetries; ++i) ASSERT_TRUE(policy.WaitBeforeRetry()) << "retry " << i;
  EXPECT_FALSE(policy.WaitBeforeRetry());
}

TEST(RetryPolicyTest, NeverWaitsPastTheDeadline) {
  FakeTimer timer;
  RetryPolicy expired(timer.now - milliseconds(1), timer.Timer());
  EXPECT_FALSE(expired.RetryAfter(Status::Unavailable("late")));
  EXPECT_TRUE(timer.waits.empty());

  const Clock::time_point deadline = timer.now + milliseconds(100);
  RetryPolicy policy(deadline, timer.Timer());
  int retries = 0;
  while (policy.WaitBeforeRetry()) ++retries;
  // 40 ms, then the 60 ms left: the 80 ms backoff is cut at the deadline.
  EXPECT_EQ(retries, 2);
  EXPECT_EQ(timer.waits, (std::vector<milliseconds>{milliseconds(40), milliseconds(60)}));
  EXPECT_EQ(timer.now, deadline);
}

}  // namespace
}  // namespace lbt
