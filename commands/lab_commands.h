// The schema lab's commands: advise, stats, hotspots, keyviz and explain,
// in cbt's form (words, then key=value options).

#ifndef LBT_COMMANDS_LAB_COMMANDS_H_
#define LBT_COMMANDS_LAB_COMMANDS_H_

#include <string>
#include <vector>

#include "commands/command_table.h"

namespace lbt {

std::vector<CommandSpec> LabCommands();  // lab_commands.cc

// explain.cc. args[0] is the rest of the statement as typed, quotes kept,
// so that an HBase statement (`explain scan 't', {LIMIT => 5}`) parses as
// it would alone.
Status Explain(CommandContext& ctx, const std::vector<std::string>& args);

}  // namespace lbt

#endif  // LBT_COMMANDS_LAB_COMMANDS_H_
