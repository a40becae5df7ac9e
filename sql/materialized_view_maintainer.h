// Keeps a local instance's materialized views up to date: builds each new
// view from its source table (the backfill), then follows the source's
// change stream, re-reading each changed row and recomputing only the view
// rows it touched. Asynchronous, as production's maintenance is: a write
// shows in a view once a pass has caught up with it.
//
// Where it keeps its work: each view's storage (LocalMaintenance::
// OpenMaterializedViewStorage), two hidden tables:
//   rows   the view's rows, as ReadMaterializedView reads them;
//   state  "s"+source key: the view rows the source row contributes to;
//          "g"+view key (aggregate form): one cell per contribution
//          (family c, qualified by source key + '\0' + its number), and
//          the group's key values (family k);
//          "m": where the view's source stream was read up to (token), and
//          the groups a pass had begun to change (pending).
// Every step is idempotent and a pass records its token only once its
// work is written, so a pass cut short (a crash, kill -9) is redone from
// the last token: nothing is lost or counted twice.
//
// WARNING: the state table's layout is part of the on-disk format.
//
// One process maintains a database's views at a time: the one holding the
// lock file "materialized-views.lock" in its directory. Others read the
// views as that one keeps them.
//
// Threading: CatchUp from one thread at a time; Start runs it on a thread
// of its own.

#ifndef LBT_SQL_MATERIALIZED_VIEW_MAINTAINER_H_
#define LBT_SQL_MATERIALIZED_VIEW_MAINTAINER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "api/bigtable.h"
#include "sql/materialized_view.h"

namespace lbt::sql {

class MaterializedViewMaintainer {
 public:
  // Maintains the views of `bigtable`, a local instance (local() set),
  // and of the instances beside it. `bigtable` must outlive this object.
  explicit MaterializedViewMaintainer(Bigtable* bigtable);
  ~MaterializedViewMaintainer();

  // Brings every view up to date with every change its source has
  // committed (following on while changes keep coming). OK without doing anything when another process holds
  // the lock, or when the database is read-only or does not exist.
  Status CatchUp();

  // Runs CatchUp every `interval` on a thread until Stop (or destruction).
  // Errors go to `report` (once per distinct message), and the pass is
  // tried again at the next interval.
  void Start(std::chrono::milliseconds interval, std::function<void(const Status&)> report);
  void Stop();

  // Passes finished since construction: for tests that wait for one.
  int64_t passes() const { return passes_.load(); }

 private:
  struct View;
  // Opens the instances beside the first, now and then.
  void RefreshInstances();
  Status Maintain(Bigtable* instance, const MaterializedViewSpec& spec);
  bool HoldLock();

  Bigtable* const bigtable_;
  std::map<std::string, std::unique_ptr<View>> views_;  // by instance and view id
  std::map<std::string, std::unique_ptr<Bigtable>> instances_;
  int lock_fd_ = -1;
  std::atomic<int64_t> passes_{0};

  std::thread thread_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
};

}  // namespace lbt::sql

#endif  // LBT_SQL_MATERIALIZED_VIEW_MAINTAINER_H_
