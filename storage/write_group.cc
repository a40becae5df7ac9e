#include "storage/write_group.h"

#include "util/background_thread.h"

namespace lbt {

WriteGroupQueue::~WriteGroupQueue() { Stop(); }

Status WriteGroupQueue::Run(PendingWrite* write) {
  std::unique_lock<std::mutex> lock(mu_);
  queue_.push_back(write);
  // The write at the front of the queue leads; the others sleep until it
  // has committed them, each on its own condition variable, so that a
  // group's end wakes only the writes it committed and the next leader.
  while (!write->done && queue_.front() != write) write->cv.wait(lock);
  if (write->done) return write->status;
  LeadGroup(lock, write);
  return write->status;
}

void WriteGroupQueue::Submit(std::unique_ptr<PendingWrite> write) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!committer_.joinable()) committer_ = StartBackgroundThread([this] { Commit(); });
  queue_.push_back(write.release());
  if (queue_.size() == 1) WakeNextLeader();
}

void WriteGroupQueue::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  committer_cv_.notify_all();
  if (committer_.joinable()) committer_.join();
}

void WriteGroupQueue::WakeNextLeader() {
  if (queue_.empty()) return;
  if (queue_.front()->on_done) {
    committer_leads_ = true;
    committer_cv_.notify_one();
  } else {
    queue_.front()->cv.notify_one();
  }
}

void WriteGroupQueue::LeadGroup(std::unique_lock<std::mutex>& lock, PendingWrite* leader) {
  // Lead: commit everything queued so far, while writes that arrive
  // meanwhile queue up behind for the next group.
  std::vector<PendingWrite*> group(queue_.begin(), queue_.end());
  lock.unlock();
  commit_(group);
  lock.lock();
  queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(group.size()));
  std::vector<PendingWrite*> submitted;
  for (PendingWrite* w : group) {
    if (w->on_done) {
      submitted.push_back(w);
    } else if (w != leader) {
      w->done = true;
      w->cv.notify_one();
    }
  }
  WakeNextLeader();
  if (submitted.empty()) return;
  // Their callbacks may take time (they answer calls): not under the lock.
  lock.unlock();
  for (PendingWrite* w : submitted) {
    w->on_done(w->status);
    delete w;
  }
  lock.lock();
}

void WriteGroupQueue::Commit() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    committer_cv_.wait(lock, [this] { return committer_leads_ || (stopping_ && queue_.empty()); });
    if (!committer_leads_) return;  // stopping, and nothing is left
    committer_leads_ = false;
    LeadGroup(lock, nullptr);
  }
}

}  // namespace lbt
