#include "commands/core/session.h"

#include <fmt/format.h>

namespace lbt {

bool Session::ExistsOrNote(Output* err) const {
  if (bigtable_->Exists()) return true;
  const LocalMaintenance* local = bigtable_->local();
  const std::string where = local != nullptr ? local->dir() : bigtable_->Describe();
  if (local != nullptr && local->read_only()) {
    err->Write(fmt::format("note: there is no lbt database at '{}' (and --read-only creates none)\n", where));
    return false;
  }
  err->Write(
      fmt::format("note: there is no lbt database at '{}' yet; the first command that writes creates it\n", where));
  return false;
}

}  // namespace lbt
