#include "local/background.h"

#include <utility>

#include "api/local_maintenance.h"
#include "util/background_thread.h"

namespace lbt {

BackgroundJob AutomatedBackupsJob(LocalMaintenance* local) {
  return BackgroundJob{.name = "automated backups", .interval = std::chrono::minutes(1), .run = [local] {
                         return local->RunAutomatedBackups();
                       }};
}

BackgroundJob PurgeDeletedTablesJob(LocalMaintenance* local) {
  return BackgroundJob{.name = "purging deleted tables", .interval = std::chrono::minutes(1), .run = [local] {
                         return local->PurgeDeletedTables(/*expired_only=*/true).status();
                       }};
}

LocalServices::LocalServices(std::function<void(const Status&)> report) : report_(std::move(report)) {}

LocalServices::~LocalServices() { Stop(); }

void LocalServices::Start(BackgroundJob job) {
  threads_.push_back(StartBackgroundThread([this, job = std::move(job)] { Loop(job); }));
}

void LocalServices::Loop(const BackgroundJob& job) {
  std::string last_error;
  std::unique_lock<std::mutex> lock(mu_);
  do {
    lock.unlock();
    Status s = job.run();
    if (!s.ok() && s.message() != last_error && report_) {
      report_(job.name.empty() ? s : Status::FromCode(s.code(), job.name + ": " + s.message()));
    }
    last_error = s.ok() ? "" : std::string(s.message());
    runs_.fetch_add(1);
    lock.lock();
    wake_.wait_for(lock, job.interval, [this] { return stopping_; });
  } while (!stopping_);
}

void LocalServices::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
  threads_.clear();
}

}  // namespace lbt
