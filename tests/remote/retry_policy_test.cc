// The one retry policy of remote reads, batch mutations and queries: which
// failures it retries, how long it waits, and that neither the retry count
// nor the deadline is ever exceeded.

#include "remote/retry_policy.h"

#include <gtest/gtest.h>

#include <chrono>

namespace lbt {
namespace {

using Clock = RetryPolicy::Clock;
using std::chrono::milliseconds;

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
  RetryPolicy policy(Clock::time_point::max());
  const auto start = Clock::now();
  ASSERT_TRUE(policy.RetryAfter(Status::Unavailable("once")));
  ASSERT_TRUE(policy.RetryAfter(Status::Unavailable("twice")));
  EXPECT_GE(Clock::now() - start, milliseconds(40 + 80));
}

TEST(RetryPolicyTest, ProgressStartsTheCountAgain) {
  RetryPolicy policy(Clock::time_point::max());
  // Failures in a row are limited; with progress between them, they are not.
  for (int i = 0; i < 3 * RetryPolicy::kMaxRetries; ++i) {
    ASSERT_TRUE(policy.WaitBeforeRetry()) << "retry " << i;
    policy.Progressed();
  }
}

TEST(RetryPolicyTest, StopsAfterTheMaximumFailuresInARow) {
  RetryPolicy policy(Clock::time_point::max());
  for (int i = 0; i < RetryPolicy::kMaxRetries; ++i) ASSERT_TRUE(policy.WaitBeforeRetry()) << "retry " << i;
  EXPECT_FALSE(policy.WaitBeforeRetry());
}

TEST(RetryPolicyTest, NeverWaitsPastTheDeadline) {
  RetryPolicy expired(Clock::now() - milliseconds(1));
  EXPECT_FALSE(expired.RetryAfter(Status::Unavailable("late")));

  const auto start = Clock::now();
  RetryPolicy policy(start + milliseconds(100));
  int retries = 0;
  while (policy.WaitBeforeRetry()) ++retries;
  const auto elapsed = Clock::now() - start;
  EXPECT_GE(elapsed, milliseconds(100));
  // 40 ms, then the 60 ms left: the 80 ms backoff is cut at the deadline.
  EXPECT_LE(retries, 2);
  EXPECT_LT(elapsed, milliseconds(1000));
}

}  // namespace
}  // namespace lbt
