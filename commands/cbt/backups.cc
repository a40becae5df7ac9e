// lbt's backup commands, named and shaped like cbt's: createbackup,
// listbackups, getbackup, updatebackup, deletebackup, copybackup and
// restoretable, over InstanceAdmin (api/instance.h), in the session's
// instance. The HBase dialect's snapshot commands (hbase/ddl.cc) use the
// same backups.

#include <fmt/format.h>

#include <charconv>

#include "api/backup.h"
#include "api/instance_admin.h"
#include "commands/cbt/args.h"
#include "commands/command_sets.h"
#include "commands/core/command_table.h"

namespace lbt {

namespace {

constexpr int64_t kDefaultBackupLifeMicros = int64_t{7} * 24 * 3600 * 1000000;

const InstanceName& Here(const CommandContext& ctx) { return ctx.session->options().instance; }

// "7d", "36h", "90m": a span from now, in microseconds.
Result<int64_t> ParseSpan(CommandContext& ctx, const std::string& text) {
  int64_t micros = 0;
  if (!ParseSpanMicros(text, &micros) || micros == 0) {
    return ctx.Usage(fmt::format("bad expire '{}': expected a span such as 7d, 36h or 90m", text));
  }
  return micros;
}

// expire=<span> from now, or a week.
Result<int64_t> ExpireOf(CommandContext& ctx, const CbtArgs& args) {
  const std::string* text = args.Find("expire");
  if (text == nullptr) return ctx.bigtable()->NowMicros() + kDefaultBackupLifeMicros;
  LBT_ASSIGN_OR_RETURN(int64_t span, ParseSpan(ctx, *text));
  return ctx.bigtable()->NowMicros() + span;
}

Status CreateBackup(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 3));
  LBT_ASSIGN_OR_RETURN(int64_t expire, ExpireOf(ctx, parsed));
  LBT_ASSIGN_OR_RETURN(BackupSpec made, ctx.bigtable()->CreateBackup(args[0], args[1], args[2], expire));
  ctx.renderer->Backup(made);
  return Status::OK();
}

Status ListBackups(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(std::vector<BackupSpec> backups,
                       ctx.bigtable()->ListBackups(args.empty() ? std::string("-") : args[0]));
  ctx.renderer->Backups(backups);
  return Status::OK();
}

Status GetBackup(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(BackupSpec backup, ctx.bigtable()->GetBackup(args[0], args[1]));
  ctx.renderer->Backup(backup);
  return Status::OK();
}

Status UpdateBackup(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 2));
  if (parsed.Find("expire") == nullptr) return ctx.Usage("updatebackup needs expire=<span>");
  LBT_ASSIGN_OR_RETURN(int64_t expire, ExpireOf(ctx, parsed));
  LBT_ASSIGN_OR_RETURN(BackupSpec updated, ctx.bigtable()->UpdateBackupExpireTime(args[0], args[1], expire));
  ctx.renderer->Backup(updated);
  return Status::OK();
}

Status DeleteBackup(CommandContext& ctx, const std::vector<std::string>& args) {
  return ctx.bigtable()->DeleteBackup(args[0], args[1]);
}

// The tables of this project's instance `instance=` names, or of this one.
Result<std::unique_ptr<Bigtable>> InstanceNamed(CommandContext& ctx, const CbtArgs& parsed) {
  const std::string* instance = parsed.Find("instance");
  if (instance == nullptr || *instance == Here(ctx).instance) return std::unique_ptr<Bigtable>();
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  return admin->OpenTables(InstanceName{Here(ctx).project, *instance});
}

Status CopyBackup(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 4));
  LBT_ASSIGN_OR_RETURN(int64_t expire, ExpireOf(ctx, parsed));
  LBT_ASSIGN_OR_RETURN(BackupSpec source, ctx.bigtable()->GetBackup(args[0], args[1]));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Bigtable> other, InstanceNamed(ctx, parsed));
  Bigtable* to = other != nullptr ? other.get() : ctx.bigtable();
  LBT_ASSIGN_OR_RETURN(BackupSpec copy, to->CopyBackup(source, args[2], args[3], expire));
  ctx.renderer->Backup(copy);
  return Status::OK();
}

Status RestoreTable(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 3));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Bigtable> other, InstanceNamed(ctx, parsed));
  Bigtable* from = other != nullptr ? other.get() : ctx.bigtable();
  LBT_ASSIGN_OR_RETURN(BackupSpec backup, from->GetBackup(args[1], args[2]));
  return ctx.bigtable()->RestoreTable(backup, args[0]);
}

constexpr Arg kClusterArg{.text = "<cluster-id>", .noun = "a cluster id"};
constexpr Arg kBackupArg{.text = "<backup-id>", .noun = "a backup id"};
constexpr Option kExpireOption{.key = "expire", .value = "<span>"};

}  // namespace

std::vector<CommandSpec> BackupCommands() {
  return {
      {.name = "createbackup",
       .summary = "Back up a table into a cluster of the instance",
       .args = {kClusterArg, kBackupArg, {.text = "<table>", .noun = "a table", .kind = ArgKind::kTable}},
       .options = {kExpireOption},
       .details = "  The backup holds the table's schema and cells as they were when it began;\n"
                  "  writes go on meanwhile.\n"
                  "  expire  How long it is kept: 6h to 90d (default 7d); then it is deleted.\n\n"
                  "  Example: createbackup local-c1 before-migration mobile_time_series expire=30d",
       .cbt = CreateBackup},
      {.name = "listbackups",
       .summary = "List the backups of the instance, or of one cluster",
       .args = {{.text = "<cluster-id>", .noun = "a cluster id", .arity = Arity::kOptional}},
       .cbt = ListBackups},
      {.name = "getbackup", .summary = "Show a backup", .args = {kClusterArg, kBackupArg}, .cbt = GetBackup},
      {.name = "updatebackup",
       .summary = "Change when a backup expires",
       .args = {kClusterArg, kBackupArg},
       .options = {kExpireOption},
       .details = "  Example: updatebackup local-c1 before-migration expire=60d",
       .cbt = UpdateBackup},
      {.name = "deletebackup", .summary = "Delete a backup", .args = {kClusterArg, kBackupArg}, .cbt = DeleteBackup},
      {.name = "copybackup",
       .summary = "Copy a backup to another cluster or instance",
       .args = {kClusterArg,
                kBackupArg,
                {.text = "<to-cluster-id>", .noun = "a cluster id"},
                {.text = "<to-backup-id>", .noun = "a backup id"}},
       .options = {{.key = "instance", .value = "<instance-id>"}, kExpireOption},
       .details = "  instance  The instance of <to-cluster-id> (default: this one), in this project.\n\n"
                  "  Example: copybackup local-c1 before-migration my-instance-c1 kept instance=my-instance",
       .cbt = CopyBackup},
      {.name = "restoretable",
       .summary = "Make a new table of the instance from a backup",
       .args = {{.text = "<new-table>", .noun = "a table name"}, kClusterArg, kBackupArg},
       .options = {{.key = "instance", .value = "<instance-id>"}},
       .details = "  instance  The backup's instance (default: this one), in this project.\n\n"
                  "  Example: restoretable mobile_time_series_restored local-c1 before-migration",
       .cbt = RestoreTable},
  };
}

}  // namespace lbt
