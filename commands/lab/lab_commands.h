// The schema lab's explain, which lab_commands.cc declares with advise,
// stats, hotspots and keyviz (LabCommands() in commands/command_sets.h).

#ifndef LBT_COMMANDS_LAB_LAB_COMMANDS_H_
#define LBT_COMMANDS_LAB_LAB_COMMANDS_H_

#include <string>
#include <vector>

#include "commands/core/command_table.h"

namespace lbt {

// explain.cc. args[0] is the rest of the statement as typed, quotes kept,
// so that an HBase statement (`explain scan 't', {LIMIT => 5}`) parses as
// it would alone.
Status Explain(CommandContext& ctx, const std::vector<std::string>& args);

}  // namespace lbt

#endif  // LBT_COMMANDS_LAB_LAB_COMMANDS_H_
