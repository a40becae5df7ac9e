// The one owner of a local database's background work outside its storage
// core: automated backups, and jobs that others register (materialized-view
// maintenance, which shell/ composes from views/, so that local/ depends on
// neither views/ nor sql/). The storage core's own threads (collection
// passes, memtable folds, change-log pruning) stay with `Database`.
//
// The shell (interactive, commands, scripts) and `lbt serve` start it the
// same way (shell/local_services.h).
//
// Threading: each job runs on a thread of its own, started through
// util/background_thread.h; Start, Stop and the destructor from one
// thread.

#ifndef LBT_LOCAL_BACKGROUND_H_
#define LBT_LOCAL_BACKGROUND_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "api/local_maintenance.h"
#include "api/status.h"

namespace lbt {

// A piece of background work: `run` is called once at once, then every
// `interval` after the previous call returned, until Stop. An error it
// returns is reported and the work is tried again at the next interval.
struct BackgroundJob {
  std::string name;  // what its errors' reports begin with ("automated backups"; empty: nothing)
  std::chrono::milliseconds interval;
  std::function<Status()> run;
};

// The automated backups that tables' policies make due (see
// LocalMaintenance::RunAutomatedBackups), checked every minute. `local`
// must outlive the job.
BackgroundJob AutomatedBackupsJob(LocalMaintenance* local);
// Deleted tables past their undelete retention, deleted for good (see
// LocalMaintenance::PurgeDeletedTables), checked every minute. `local`
// must outlive the job.
BackgroundJob PurgeDeletedTablesJob(LocalMaintenance* local);

class LocalServices {
 public:
  // `report` takes a job's errors, from the job's thread, once per distinct
  // message in a row, prefixed with the job's name; it must be safe to
  // call from several threads at once.
  explicit LocalServices(std::function<void(const Status&)> report);
  // Stops.
  ~LocalServices();
  LocalServices(const LocalServices&) = delete;
  LocalServices& operator=(const LocalServices&) = delete;

  // Starts `job` on a thread of its own. Its first run begins at once and
  // is never skipped, even by a Stop that comes before it.
  // REQUIRES: Stop has not been called.
  void Start(BackgroundJob job);

  // Wakes every job and joins its thread: once it returns, no job runs,
  // and none will. A run under way is finished, not cut short.
  void Stop();

  // Runs finished, of every job: for tests that wait for one.
  int64_t runs() const { return runs_.load(); }

 private:
  void Loop(const BackgroundJob& job);

  const std::function<void(const Status&)> report_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;  // mu_
  std::vector<std::thread> threads_;
  std::atomic<int64_t> runs_{0};
};

}  // namespace lbt

#endif  // LBT_LOCAL_BACKGROUND_H_
