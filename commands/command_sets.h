// The commands lbt knows, each set declared by the module that handles it.
// A module's handlers live beside their CommandSpecs; AllCommands()
// (core/command_table.h) gathers the sets here.

#ifndef LBT_COMMANDS_COMMAND_SETS_H_
#define LBT_COMMANDS_COMMAND_SETS_H_

#include <vector>

#include "commands/core/command_table.h"

namespace lbt {

std::vector<CommandSpec> HelpCommands();              // core/help.cc: help, version
std::vector<CommandSpec> CbtAdminCommands();          // cbt/admin.cc: ls, createtable, setgcpolicy, ...
std::vector<CommandSpec> CbtInstanceCommands();       // cbt/instances.cc: createinstance, listclusters, ...
std::vector<CommandSpec> BackupCommands();            // cbt/backups.cc: createbackup, restoretable, ...
std::vector<CommandSpec> AuthorizedViewCommands();    // cbt/authorized_views.cc: createauthorizedview, ...
std::vector<CommandSpec> SchemaBundleCommands();      // cbt/schema_bundles.cc: createschemabundle, ...
std::vector<CommandSpec> ChangeStreamCommands();      // cbt/change_streams.cc: setchangestream, watch
std::vector<CommandSpec> CbtWriteCommands();          // cbt/write.cc: set, addtocell, deleterow, deletecolumn
std::vector<CommandSpec> CbtReadCommands();           // cbt/read.cc: read, lookup, count
std::vector<CommandSpec> MaintenanceCommands();       // cbt/maintenance.cc: gc, compact
std::vector<CommandSpec> FaultCommands();             // cbt/faults.cc: faults
std::vector<CommandSpec> ImportExportCommands();      // io/import_export.cc: import, export
std::vector<CommandSpec> DumpCommands();              // io/dump.cc: dump, schema
std::vector<CommandSpec> SqlCommands();               // sql/sql_command.cc: sql
std::vector<CommandSpec> LogicalViewCommands();       // sql/logical_views.cc: createlogicalview, ...
std::vector<CommandSpec> MaterializedViewCommands();  // sql/materialized_views.cc: creatematerializedview, ...
std::vector<CommandSpec> LabCommands();               // lab/lab_commands.cc: advise, stats, hotspots, keyviz, explain

namespace hbase {
std::vector<CommandSpec> DdlCommands();       // hbase/ddl.cc: create, alter, describe, list, drop, ...
std::vector<CommandSpec> SnapshotCommands();  // hbase/snapshots.cc: snapshot, clone_snapshot, ...
std::vector<CommandSpec> ReadCommands();      // hbase/read.cc: get, scan, count
std::vector<CommandSpec> WriteCommands();     // hbase/write.cc: put, delete, deleteall, incr, append, ...
}  // namespace hbase

}  // namespace lbt

#endif  // LBT_COMMANDS_COMMAND_SETS_H_
