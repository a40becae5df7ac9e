// Many cbt `lookup` commands in a row, as a script holds them, read in one
// batch: Bigtable::LookupRows, which a local database answers from one
// snapshot with one cursor over the keys in sorted order. Each command
// prints exactly what it prints alone. (Defined in cbt/read.cc, beside
// the lookup command.)

#ifndef LBT_COMMANDS_CBT_LOOKUPS_H_
#define LBT_COMMANDS_CBT_LOOKUPS_H_

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "commands/core/command_table.h"
#include "commands/core/output.h"
#include "commands/core/session.h"

namespace lbt {

// True if `words` (a tokenized cbt command) is a lookup that can join a
// batch: one without filter= or include-stats=full, whose results depend
// on the row alone.
bool IsBatchableLookup(const std::vector<std::string>& words);

// Runs `lookups` (each IsBatchableLookup) in order. Consecutive lookups of
// one table with the same options share one read; a batch that cannot be
// read whole (a bad key, a missing table) runs its lookups one by one, so
// that errors are those of the single command. `before(i)` is called
// before lookup i prints. Returns one outcome per lookup run: with
// `keep_going` false, the first failure is the last.
std::vector<CommandOutcome> RunLookups(Session* session, Output* out, Output* err,
                                       const std::vector<std::vector<std::string>>& lookups, bool keep_going,
                                       const std::function<void(size_t i)>& before);

}  // namespace lbt

#endif  // LBT_COMMANDS_CBT_LOOKUPS_H_
