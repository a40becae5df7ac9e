// The HBase shell's snapshot commands over backups (api/instance.h):
// snapshot, list_snapshots, clone_snapshot, restore_snapshot and
// delete_snapshot. A snapshot is a backup of that name in the instance's
// first cluster, kept for 90 days (HBase's snapshots do not expire;
// Bigtable's backups must, within 90 days).

#include <fmt/format.h>

#include "api/backup.h"
#include "api/instance_admin.h"
#include "commands/command_sets.h"
#include "commands/core/command_table.h"
#include "commands/hbase/args.h"

namespace lbt::hbase {

namespace {

struct SnapshotPlace {
  std::string cluster;
};

Result<SnapshotPlace> PlaceOf(CommandContext& ctx) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  const InstanceName& here = ctx.session->options().instance;
  LBT_ASSIGN_OR_RETURN(InstanceSpec instance, admin->GetInstance(here));
  if (instance.clusters.empty()) return Status::FailedPrecondition("the instance has no cluster to keep snapshots in");
  return SnapshotPlace{instance.clusters.front().id};
}

Status Snapshot(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  LBT_ASSIGN_OR_RETURN(std::string name, StringArg(ctx, args, 1, "a snapshot name"));
  LBT_ASSIGN_OR_RETURN(SnapshotPlace place, PlaceOf(ctx));
  const int64_t expire = ctx.bigtable()->NowMicros() + kMaxBackupLifeMicros;
  return ctx.bigtable()->CreateBackup(place.cluster, name, table, expire).status();
}

Status ListSnapshots(CommandContext& ctx, const std::vector<HValue>&) {
  LBT_ASSIGN_OR_RETURN(SnapshotPlace place, PlaceOf(ctx));
  LBT_ASSIGN_OR_RETURN(std::vector<BackupSpec> backups, ctx.bigtable()->ListBackups(place.cluster));
  ctx.renderer->Backups(backups);
  return Status::OK();
}

Status CloneSnapshot(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string name, StringArg(ctx, args, 0, "a snapshot name"));
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 1, "a table name"));
  LBT_ASSIGN_OR_RETURN(SnapshotPlace place, PlaceOf(ctx));
  LBT_ASSIGN_OR_RETURN(BackupSpec backup, ctx.bigtable()->GetBackup(place.cluster, name));
  return ctx.bigtable()->RestoreTable(backup, table);
}

// HBase's rule: the table must be disabled. It is then made again from the
// snapshot; should that fail, the snapshot is still there to run it again.
Status RestoreSnapshot(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string name, StringArg(ctx, args, 0, "a snapshot name"));
  LBT_ASSIGN_OR_RETURN(SnapshotPlace place, PlaceOf(ctx));
  LBT_ASSIGN_OR_RETURN(BackupSpec backup, ctx.bigtable()->GetBackup(place.cluster, name));
  Bigtable* bigtable = ctx.bigtable();
  Result<TableSpec> current = bigtable->GetTable(backup.source_table);
  if (current.ok()) {
    if (current->enabled && bigtable->local() != nullptr) {
      return Status::FailedPrecondition(fmt::format("Table {} is enabled. Disable it first.", backup.source_table));
    }
    LBT_RETURN_IF_ERROR(bigtable->DeleteTable(backup.source_table));
  } else if (!current.status().IsNotFound()) {
    return current.status();
  }
  return bigtable->RestoreTable(backup, backup.source_table);
}

Status DeleteSnapshot(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string name, StringArg(ctx, args, 0, "a snapshot name"));
  LBT_ASSIGN_OR_RETURN(SnapshotPlace place, PlaceOf(ctx));
  return ctx.bigtable()->DeleteBackup(place.cluster, name);
}

constexpr Arg kSnapshotArg{.text = "'snapshot'", .noun = "a snapshot name"};

}  // namespace

std::vector<CommandSpec> SnapshotCommands() {
  return {
      {.name = "snapshot",
       .dialect = Dialect::kHBase,
       .summary = "Take a snapshot of a table (a backup in the instance's first cluster)",
       .args = {kHBaseTableArg, kSnapshotArg},
       .details = "  Kept 90 days, Bigtable's longest.\n\n  Example: snapshot 'mobile_time_series', "
                  "'mobile_time_series-2019-05'",
       .hbase = Snapshot},
      {.name = "list_snapshots",
       .dialect = Dialect::kHBase,
       .summary = "List the snapshots (backups of the instance's first cluster)",
       .hbase = ListSnapshots},
      {.name = "clone_snapshot",
       .dialect = Dialect::kHBase,
       .summary = "Make a new table from a snapshot",
       .args = {kSnapshotArg, {.text = "'new_table'", .noun = "a table name"}},
       .hbase = CloneSnapshot},
      {.name = "restore_snapshot",
       .dialect = Dialect::kHBase,
       .summary = "Put a disabled table back as a snapshot holds it",
       .args = {kSnapshotArg},
       .hbase = RestoreSnapshot},
      {.name = "delete_snapshot",
       .dialect = Dialect::kHBase,
       .summary = "Delete a snapshot",
       .args = {kSnapshotArg},
       .hbase = DeleteSnapshot},
  };
}

}  // namespace lbt::hbase
