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
// One pass runs at a time per database: a pass holds an exclusive flock on
// "materialized-views.lock" in its directory while it runs, and only then.
// Any process can run the next pass, so a script that writes and then reads
// a view brings it up to date itself, whoever else has the database open.
//
// Threading: CatchUp from any thread (passes run one at a time): a job of
// the database's background work calls it every so often
// (shell/local_services.h), and a server's requests beside it.

#ifndef LBT_VIEWS_MATERIALIZED_VIEW_MAINTAINER_H_
#define LBT_VIEWS_MATERIALIZED_VIEW_MAINTAINER_H_

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "api/bigtable.h"
#include "api/materialized_view.h"
#include "api/resource.h"

namespace lbt::views {

class MaterializedViewMaintainer {
 public:
  // Maintains the views of `bigtable`, local instance `instance` (local()
  // set), and of the instances beside it. `bigtable` must outlive this object.
  explicit MaterializedViewMaintainer(Bigtable* bigtable, InstanceName instance = DefaultInstanceName());
  ~MaterializedViewMaintainer();

  // What CatchUp does when another process's pass is running.
  enum class WhenBusy {
    kWait,  // waits for it to end, then runs a pass of its own
    kSkip,  // returns OK at once: that pass keeps the views (a background loop)
  };

  // Brings every view up to date with every change its source has
  // committed (following on while changes keep coming). OK without doing
  // anything when the database is read-only, does not exist or has no view.
  // Another thread's pass in this process is waited for, whatever
  // `when_busy` says.
  Status CatchUp(WhenBusy when_busy = WhenBusy::kWait);

  // Passes finished since construction: for tests that wait for one.
  int64_t passes() const { return passes_.load(); }

 private:
  struct View;
  // One instance's tables, and its name.
  struct Instance {
    InstanceName name;
    Bigtable* tables;
  };
  // Opens the instances beside the first, now and then.
  void RefreshInstances();
  Status Maintain(const Instance& instance, const MaterializedViewSpec& spec);
  using Work = std::vector<std::pair<Instance, std::vector<MaterializedViewSpec>>>;
  // Each instance's views (those that have any); the first error to *first.
  Work ListViews(Status* first);

  // CatchUp's pass, pass_mu_ held; *whole: it ran over every view (not
  // skipped for another process's pass) without an error.
  Status CatchUpLocked(WhenBusy when_busy, bool* whole);

  Bigtable* const bigtable_;
  const InstanceName instance_;  // bigtable_'s
  // Held for a pass: it guards views_ and instances_.
  std::mutex pass_mu_;
  std::atomic<int64_t> begun_{0};  // passes begun, numbered from 1
  int64_t last_whole_pass_ = 0;    // the number of the last pass run whole; pass_mu_
  std::map<std::pair<InstanceName, std::string>, std::unique_ptr<View>> views_;  // by instance and view id
  std::map<InstanceName, std::unique_ptr<Bigtable>> instances_;                  // those beside the first
  std::atomic<int64_t> passes_{0};
};

}  // namespace lbt::views

#endif  // LBT_VIEWS_MATERIALIZED_VIEW_MAINTAINER_H_
