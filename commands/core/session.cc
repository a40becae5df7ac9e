#include "commands/core/session.h"
#include "api/instance_admin.h"

#include <fmt/format.h>

namespace lbt {

bool Session::ExistsOrNote(Output* err) const {
  if (bigtable()->Exists()) return true;
  const LocalMaintenance* local = bigtable()->local();
  const std::string where = local != nullptr ? local->dir() : bigtable()->Describe();
  if (local != nullptr && local->read_only()) {
    err->Write(fmt::format("note: there is no lbt database at '{}' (and --read-only creates none)\n", where));
    return false;
  }
  err->Write(
      fmt::format("note: there is no lbt database at '{}' yet; the first command that writes creates it\n", where));
  return false;
}

Status Session::UseInstance(const InstanceName& instance) {
  if (instance == home_) {
    elsewhere_reads_.reset();
    elsewhere_.reset();
  } else {
    InstanceAdmin* admin = bigtable_->instance_admin();
    if (admin == nullptr) {
      return Status::FailedPrecondition(
          fmt::format("{} has no other instances: instances cannot be managed there", bigtable_->Describe()));
    }
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Bigtable> tables, admin->OpenTables(instance));
    elsewhere_reads_ = std::make_unique<InterruptibleBigtable>(tables.get());
    elsewhere_ = std::move(tables);
  }
  options_.instance = instance;
  return Status::OK();
}

}  // namespace lbt
