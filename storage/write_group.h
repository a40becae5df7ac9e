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

#ifndef LBT_STORAGE_WRITE_GROUP_H_
#define LBT_STORAGE_WRITE_GROUP_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
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
};

// A group's logged writes: each one's changes and log record, in order.
struct LoggedGroup {
  std::vector<ChangeBatch> batches;
  std::vector<std::string> records;
  std::vector<PendingWrite*> writes;
};

// The queue of writes waiting to commit.
class WriteGroupQueue {
 public:
  // Commits a group: runs its writes' steps and sets each one's status.
  using CommitGroup = std::function<void(const std::vector<PendingWrite*>& group)>;

  // Queues `write` and waits until its group committed; if it reaches the
  // front of the queue first, it leads: `commit` runs the group of every
  // write queued so far. Returns the write's status.
  Status Run(PendingWrite* write, const CommitGroup& commit);

 private:
  std::mutex mu_;                    // guards queue_
  std::deque<PendingWrite*> queue_;  // the front one leads
};

}  // namespace lbt

#endif  // LBT_STORAGE_WRITE_GROUP_H_
