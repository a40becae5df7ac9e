#include "commands/session.h"

#include <fmt/format.h>

namespace lbt {

bool Session::ExistsOrNote(Output* err) const {
  if (bigtable_->Exists()) return true;
  const LocalMaintenance* local = bigtable_->local();
  err->Write(fmt::format("note: there is no lbt database at '{}' yet; the first command that writes creates it\n",
                         local != nullptr ? local->dir() : bigtable_->Describe()));
  return false;
}

}  // namespace lbt
