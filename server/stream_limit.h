// StreamLimit bounds how many calls of one kind are open at once. A change
// stream idles for hours, and a read lasts as long as its client takes to
// read it; neither holds a thread meanwhile (stream_reactor.h), but each
// holds memory (a read, up to a response of about 1 MiB), so their number
// is bounded (request_limits.h), and a call over its bound is answered
// RESOURCE_EXHAUSTED at once, naming the bound, while the others go on.
//
// Threading: safe from any thread.

#ifndef LBT_SERVER_STREAM_LIMIT_H_
#define LBT_SERVER_STREAM_LIMIT_H_

#include <fmt/format.h>

#include <mutex>
#include <string>
#include <utility>

#include "api/status.h"

namespace lbt::server {

class StreamLimit {
 public:
  // At most `max` calls at once; `what` names them in the refusal
  // ("change streams").
  StreamLimit(int max, std::string what) : max_(max), what_(std::move(what)) {}
  StreamLimit(const StreamLimit&) = delete;
  StreamLimit& operator=(const StreamLimit&) = delete;

  // Holds one place for as long as it lives, if one was free.
  class Slot {
   public:
    explicit Slot(StreamLimit* limit) : limit_(limit->Take() ? limit : nullptr), refused_by_(limit) {}
    ~Slot() {
      if (limit_ != nullptr) limit_->Give();
    }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    bool taken() const { return limit_ != nullptr; }
    // The answer to a call that found no place.
    Status Refusal() const { return refused_by_->Refusal(); }

   private:
    StreamLimit* limit_;
    const StreamLimit* refused_by_;
  };

 private:
  bool Take() {
    std::lock_guard<std::mutex> lock(mu_);
    if (in_use_ >= max_) return false;
    ++in_use_;
    return true;
  }
  void Give() {
    std::lock_guard<std::mutex> lock(mu_);
    --in_use_;
  }
  Status Refusal() const {
    return Status::ResourceExhausted(
        fmt::format("lbt serve runs at most {} {} at once, and that many are open; retry once one has ended, or end "
                    "one you no longer read",
                    max_, what_));
  }

  std::mutex mu_;
  int in_use_ = 0;
  const int max_;
  const std::string what_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_STREAM_LIMIT_H_
