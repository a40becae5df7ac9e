// A local database's background work as the shell (interactive, commands,
// scripts) and `lbt serve` run it, started by one call: automated backups
// and materialized-view maintenance, both jobs of one LocalServices
// (local/background.h), stopped together.

#ifndef LBT_SHELL_LOCAL_SERVICES_H_
#define LBT_SHELL_LOCAL_SERVICES_H_

#include <chrono>
#include <functional>
#include <memory>

#include "api/bigtable.h"
#include "api/resource.h"
#include "local/background.h"
#include "views/materialized_view_maintainer.h"

namespace lbt {

struct LocalServicesOptions {
  // The instance the served or opened tables are.
  InstanceName instance = DefaultInstanceName();
  // How often a view pass runs in the background; 0: never (a command or
  // script runs one before each statement instead, through views()).
  std::chrono::milliseconds views_interval{0};
  // A job's errors, from its thread (see LocalServices).
  std::function<void(const Status&)> report;
  // Called with the maintainer before any thread starts: where a server
  // hooks its passes to its reads of views.
  std::function<void(views::MaterializedViewMaintainer*)> before_start;
};

class RunningLocalServices {
 public:
  RunningLocalServices(Bigtable* local, const LocalServicesOptions& options);
  // Stops.
  ~RunningLocalServices() { Stop(); }

  // The database's view maintainer, for passes of the caller's own (before
  // a statement, before a served read of a view).
  views::MaterializedViewMaintainer* views() { return &views_; }
  // Joins every job's thread (LocalServices::Stop).
  void Stop() { services_.Stop(); }

 private:
  views::MaterializedViewMaintainer views_;  // outlives the jobs that call it
  LocalServices services_;
};

// Starts the background work of `local`, a local database's instance
// (local() set), which must outlive the result: automated backups, and
// view passes every options.views_interval. A read-only database gets no
// job (each would only fail), but its views() may still be called.
std::unique_ptr<RunningLocalServices> StartLocalServices(Bigtable* local, const LocalServicesOptions& options);

}  // namespace lbt

#endif  // LBT_SHELL_LOCAL_SERVICES_H_
