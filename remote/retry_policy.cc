#include "remote/retry_policy.h"

#include <algorithm>

namespace lbt {

bool RetryPolicy::Retryable(const Status& status) {
  switch (status.code()) {
    case Status::Code::kUnavailable:
    case Status::Code::kDeadlineExceeded:
    case Status::Code::kAborted: return true;
    default: return false;
  }
}

std::chrono::milliseconds RetryPolicy::Backoff(int failures) {
  return std::chrono::milliseconds(std::min(2000, 20 << std::clamp(failures, 0, 7)));
}

bool RetryPolicy::WaitBeforeRetry() {
  if (++failures_ > kMaxRetries || PastDeadline()) return false;
  const Clock::duration left = deadline_ - timer_.now();
  timer_.sleep(std::min<Clock::duration>(Backoff(failures_), left));
  return true;
}

}  // namespace lbt
