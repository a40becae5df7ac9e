#include "commands/command_sets.h"

namespace lbt {

namespace {

void Append(std::vector<CommandSpec>* all, std::vector<CommandSpec> specs) {
  for (CommandSpec& spec : specs) all->push_back(std::move(spec));
}

}  // namespace

const std::vector<CommandSpec>& AllCommands() {
  static const std::vector<CommandSpec> commands = [] {
    std::vector<CommandSpec> all;
    for (auto* set : {HelpCommands,
                      CbtAdminCommands,
                      CbtInstanceCommands,
                      BackupCommands,
                      AuthorizedViewCommands,
                      SchemaBundleCommands,
                      ChangeStreamCommands,
                      CbtWriteCommands,
                      CbtReadCommands,
                      MaintenanceCommands,
                      FaultCommands,
                      ImportExportCommands,
                      DumpCommands,
                      SqlCommands,
                      LogicalViewCommands,
                      MaterializedViewCommands,
                      LabCommands,
                      hbase::DdlCommands,
                      hbase::SnapshotCommands,
                      hbase::ReadCommands,
                      hbase::WriteCommands}) {
      Append(&all, set());
    }
    // Run by the shell and the script runner around the commands above;
    // here for help, completion and "did you mean".
    all.push_back({.name = "source",
                   .dialect = Dialect::kShell,
                   .summary = "Run the commands in a script file",
                   .args = {{.text = "<file.cbt>", .noun = "one file name", .kind = ArgKind::kFile}},
                   .details = "  A relative path is relative to the sourcing script's folder."});
    all.push_back({.name = "exit", .dialect = Dialect::kShell, .summary = "Leave the shell"});
    all.push_back({.name = "quit", .dialect = Dialect::kShell, .summary = "Leave the shell"});
    return all;
  }();
  return commands;
}

}  // namespace lbt
