// lbt's maintenance commands for a local database: gc and compact.

#include "commands/command_sets.h"
#include "commands/core/interrupt.h"
#include "commands/core/progress.h"

namespace lbt {

namespace {

Status CollectGarbage(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(LocalMaintenance * local, ctx.LocalOnly());
  Progress progress(ctx.err, "collecting garbage in " + args[0]);
  LBT_ASSIGN_OR_RETURN(GcStats stats, local->CollectGarbage(args[0], [&](int64_t cells) {
    progress.Update(cells);
    return InterruptRequested() ? Status::Cancelled("interrupted; nothing was collected") : Status::OK();
  }));
  ctx.renderer->GarbageCollected(args[0], stats.cells_deleted, stats.cells_examined);
  return Status::OK();
}

Status Compact(CommandContext& ctx, const std::vector<std::string>&) {
  LBT_ASSIGN_OR_RETURN(LocalMaintenance * local, ctx.LocalOnly());
  LBT_ASSIGN_OR_RETURN(CompactStats stats, local->Compact());
  ctx.renderer->Compacted(local->dir(), stats.bytes_before, stats.bytes_after);
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> MaintenanceCommands() {
  return {
      {.name = "compact",
       .summary = "Rewrite the database file without free space (lbt)",
       .details = "  Needs the database to itself: no other process may have it open.",
       .cbt = Compact},
      {.name = "gc",
       .summary = "Remove the cells GC policies make eligible, now (lbt)",
       .args = {kTableArg},
       .details = "  By default (--gc=eager) reads never return eligible cells, and a write to a\n"
                  "  column removes that column's. With --gc=lazy, as in production, they are read\n"
                  "  until a collection pass removes them: every --gc-interval seconds, or now with\n"
                  "  gc. gc removes them from the whole table at once, in one transaction.",
       .cbt = CollectGarbage},
  };
}

}  // namespace lbt
