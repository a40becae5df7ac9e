#include "storage/write_group.h"

namespace lbt {

Status WriteGroupQueue::Run(PendingWrite* write, const CommitGroup& commit) {
  std::unique_lock<std::mutex> lock(mu_);
  queue_.push_back(write);
  // The write at the front of the queue leads; the others sleep until it
  // has committed them, each on its own condition variable, so that a
  // group's end wakes only the writes it committed and the next leader.
  while (!write->done && queue_.front() != write) write->cv.wait(lock);
  if (write->done) return write->status;
  // Lead: commit everything queued so far, this write included, while
  // writes that arrive meanwhile queue up behind for the next group.
  std::vector<PendingWrite*> group(queue_.begin(), queue_.end());
  lock.unlock();
  commit(group);
  lock.lock();
  queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(group.size()));
  for (PendingWrite* w : group) {
    if (w == write) continue;
    w->done = true;
    w->cv.notify_one();
  }
  if (!queue_.empty()) queue_.front()->cv.notify_one();
  return write->status;
}

}  // namespace lbt
