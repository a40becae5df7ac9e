#include "server/stall_watch.h"
#include "util/background_thread.h"

#include <fmt/format.h>
#include <grpc/grpc.h>

#include <cstdio>

namespace lbt::server {

StallWatch::StallWatch(std::chrono::milliseconds timeout) : timeout_(timeout) {
  if (timeout_.count() > 0) thread_ = StartBackgroundThread([this] { Run(); });
}

StallWatch::~StallWatch() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

StallWatch::Guard::Guard(StallWatch* watch, grpc::ServerContextBase* context) : watch_(watch) {
  if (watch_ == nullptr || watch_->timeout_.count() <= 0) return;
  std::lock_guard<std::mutex> lock(watch_->mu_);
  id_ = watch_->next_id_++;
  // Every write gets the same timeout, so ids come in deadline order and
  // the watch thread need only look at the first.
  // No wake-up: an idle watch looks again within one timeout, before the
  // deadline of any guard made meanwhile (a wake per write cost a context
  // switch per call).
  watch_->watched_[id_] = {context, std::chrono::steady_clock::now() + watch_->timeout_};
}

StallWatch::Guard::~Guard() {
  if (id_ == 0) return;
  std::lock_guard<std::mutex> lock(watch_->mu_);
  watch_->watched_.erase(id_);
}

void StallWatch::Run() {
  const std::string message = fmt::format(
      "the client did not read the response for {} s, so the server ended the stream (lbt serve --stall-timeout); "
      "read responses as they come, or retry the rest of the read",
      std::chrono::duration<double>(timeout_).count());
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    if (watched_.empty()) {
      changed_.wait_for(lock, timeout_);
      continue;
    }
    auto first = watched_.begin();
    if (std::chrono::steady_clock::now() < first->second.deadline) {
      changed_.wait_until(lock, first->second.deadline);
      continue;
    }
    // The guard is still alive (it takes mu_ to leave), and so is its call.
    grpc_call_cancel_with_status(first->second.context->c_call(), GRPC_STATUS_ABORTED, message.c_str(), nullptr);
    watched_.erase(first);
    // For the operator, and for tests, which learn here that every stalled
    // call has been ended.
    fmt::print(stderr, "lbt serve: ended a call whose client did not read for {} s; {} more wait on their clients\n",
               std::chrono::duration<double>(timeout_).count(), watched_.size());
  }
}

}  // namespace lbt::server
