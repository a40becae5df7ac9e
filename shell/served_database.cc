#include "shell/served_database.h"

#include <fmt/format.h>

#include "local/local_bigtable.h"
#include "shell/database_options.h"

namespace lbt {

ServedDatabase::ServedDatabase(std::unique_ptr<Bigtable> server, std::string address, LocalOptions local, Locate locate,
                               Connect connect, std::function<void(const std::string&)> note)
    : ForwardingBigtable(server.get()),
      address_(std::move(address)),
      local_(std::move(local)),
      locate_(std::move(locate)),
      connect_(std::move(connect)),
      note_(std::move(note)) {
  targets_.push_back(std::move(server));
}

ServedDatabase::~ServedDatabase() = default;

void ServedDatabase::Follow() {
  std::optional<std::string> now = locate_();
  if (now == address_) return;
  std::unique_ptr<Bigtable> next;
  std::string note;
  if (now) {
    Result<std::unique_ptr<Bigtable>> server = connect_(*now);
    if (!server.ok()) return;
    next = std::move(server).value();
    note = fmt::format("{} is now served by lbt serve on {}; commands go through it", local_.db_dir, *now);
  } else {
    // A local database opens when first used, as the shell's always does.
    next = std::make_unique<LocalBigtable>(local_.db_dir, DatabaseOptionsFor(local_),
                                           local_.instance.value_or(DefaultInstanceName()));
    note = fmt::format("lbt serve on {} has stopped; commands now run on {} itself", *address_, local_.db_dir);
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    set_target(next.get());
    targets_.push_back(std::move(next));
  }
  address_ = std::move(now);
  note_(note);
}

void ServedDatabase::CancelCalls() {
  std::lock_guard<std::mutex> lock(mu_);
  target()->CancelCalls();
}

}  // namespace lbt
