// Group commit, as RocksDB's write thread: a write of one request runs as
// a step that may share its LMDB transaction (and its fsync) with the steps
// other threads queued meanwhile; it returns once that transaction
// committed. The first write in the queue leads: it takes every write
// queued so far as one group and commits it, while writes that arrive
// meanwhile queue up behind for the next group.
//
// A step must be re-runnable from scratch: when a step fails, the shared
// transaction is aborted and run again without it, so that its partial
// writes vanish. A step that sets *redo keeps its place and runs again in
// the new transaction instead (it has recorded what to leave out). With
// log_writes, each step writes into a ChangeBatch of its own
// (scope.batch), and the group's batches are logged with one sync
// (db_log.cc).
//
// A write may also be submitted without a thread to wait for it (Submit):
// it is called back with its status once its group committed. When such a
// write is at the front of the queue, the queue's own committer thread
// leads its group, so that the thread that submitted it (a server's, which
// serves other calls meanwhile) never waits for a sync.

#ifndef LBT_STORAGE_WRITE_GROUP_H_
#define LBT_STORAGE_WRITE_GROUP_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "api/status.h"
#include "storage/kv/store_view.h"
#include "storage/rows/row_writer.h"

namespace lbt {

// What a step writes through.
struct WriteScope {
  Txn* txn;  // the write transaction; with log_writes, the group's read
  StoreView cells;
  StoreView rows;
  StoreView changes;   // the change log (format/change_log.h)
  ChangeBatch* batch;  // with log_writes, this step's changes; else nullptr
  bool lazy_gc;

  RowWriter Writer(const TableSpec* spec, int64_t now) const {
    return RowWriter(cells, rows, changes, lazy_gc, spec, now);
  }
};

using WriteStep = std::function<Status(WriteScope& scope, bool* redo)>;

// One queued write: its step and, once its group committed, its status.
struct PendingWrite {
  const WriteStep* step;
  Status status;
  bool left_out = false;  // failed: not run again in the group's transaction
  bool done = false;
  std::condition_variable cv;  // wakes the write when done or when it leads
  // A submitted write's: called with its status once its group committed,
  // on the thread that committed it; no thread waits on cv.
  std::function<void(const Status&)> on_done;
  WriteStep own_step;  // a submitted write's step, if it owns it
};

// A group's logged writes: each one's changes and log record (the bytes of
// its batch), in order.
struct LoggedGroup {
  std::vector<ChangeBatch> batches;
  std::vector<std::string_view> records;
  std::vector<PendingWrite*> writes;
};

// The queue of writes waiting to commit.
class WriteGroupQueue {
 public:
  // Commits a group: runs its writes' steps and sets each one's status.
  using CommitGroup = std::function<void(const std::vector<PendingWrite*>& group)>;

  // `commit` commits every group, whoever leads it.
  explicit WriteGroupQueue(CommitGroup commit) : commit_(std::move(commit)) {}
  // REQUIRES: Stop() was called, or no write was ever submitted.
  ~WriteGroupQueue();
  WriteGroupQueue(const WriteGroupQueue&) = delete;
  WriteGroupQueue& operator=(const WriteGroupQueue&) = delete;

  // Queues `write` and waits until its group committed; if it reaches the
  // front of the queue first, it leads: it commits the group of every
  // write queued so far. Returns the write's status.
  Status Run(PendingWrite* write);
  // Queues `write` and returns at once; write->on_done is called once its
  // group committed, and then the write is deleted. REQUIRES: on_done is
  // set, and step points to write->own_step or to what outlives the write.
  void Submit(std::unique_ptr<PendingWrite> write);
  // Commits every write still queued, then stops the committer thread.
  // Submitting after Stop is not allowed.
  void Stop();

 private:
  // Commits the group at the front of the queue, led by `leader`
  // (nullptr: the committer thread), and completes its writes. Called
  // with `lock` held; returns with it held.
  void LeadGroup(std::unique_lock<std::mutex>& lock, PendingWrite* leader);
  // Wakes whoever leads the next group: the front write's thread, or the
  // committer for a submitted write.
  void WakeNextLeader();
  void Commit();

  const CommitGroup commit_;
  std::mutex mu_;                    // guards the members below
  std::deque<PendingWrite*> queue_;  // the front one leads
  std::condition_variable committer_cv_;
  bool committer_leads_ = false;  // the front is a submitted write, not yet led
  bool stopping_ = false;
  std::thread committer_;  // started by the first Submit
};

}  // namespace lbt

#endif  // LBT_STORAGE_WRITE_GROUP_H_
