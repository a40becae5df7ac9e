#include "shell/local_services.h"

namespace lbt {

RunningLocalServices::RunningLocalServices(Bigtable* local, const LocalServicesOptions& options)
    : views_(local, options.instance), services_(options.report) {
  if (options.before_start) options.before_start(&views_);
  if (local->local() == nullptr || local->local()->read_only()) return;
  services_.Start(AutomatedBackupsJob(local->local()));
  services_.Start(PurgeDeletedTablesJob(local->local()));
  if (options.views_interval.count() > 0) {
    services_.Start(
        BackgroundJob{.name = "",  // the maintainer's errors name their view
                      .interval = options.views_interval,
                      .run = [this] { return views_.CatchUp(views::MaterializedViewMaintainer::WhenBusy::kSkip); }});
  }
}

std::unique_ptr<RunningLocalServices> StartLocalServices(Bigtable* local, const LocalServicesOptions& options) {
  return std::make_unique<RunningLocalServices>(local, options);
}

}  // namespace lbt
