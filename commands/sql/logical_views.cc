// lbt's logical-view commands, named and shaped like the backup commands:
// createlogicalview, listlogicalviews, getlogicalview, updatelogicalview
// and deletelogicalview, over the Bigtable interface's logical views
// (api/logical_view.h). `sql ... FROM <view>` reads one.

#include <fmt/format.h>

#include "api/instance_admin.h"
#include "api/logical_view.h"
#include "commands/cbt/args.h"
#include "commands/command_sets.h"
#include "commands/core/command_table.h"
#include "sql/query.h"

namespace lbt {

namespace {

// A query view `view_id` may keep: one that prepares here and does not read
// the view itself. A remote service checks it itself, against the tables
// it has.
Status CheckQuery(CommandContext& ctx, const std::string& view_id, const std::string& query) {
  if (ctx.bigtable()->local() == nullptr) return Status::OK();
  return sql::CheckViewQuery(ctx.bigtable(), view_id, query);
}

Status CreateLogicalView(CommandContext& ctx, const std::vector<std::string>& args) {
  LogicalViewSpec view;
  view.id = args[0];
  view.query = JoinWords(args, 1);
  LBT_RETURN_IF_ERROR(CheckQuery(ctx, view.id, view.query));
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  LBT_ASSIGN_OR_RETURN(LogicalViewSpec made, admin->CreateLogicalView(ctx.bigtable()->instance(), view));
  ctx.renderer->LogicalView(made);
  return Status::OK();
}

Status ListLogicalViews(CommandContext& ctx, const std::vector<std::string>&) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  LBT_ASSIGN_OR_RETURN(std::vector<LogicalViewSpec> views, admin->ListLogicalViews(ctx.bigtable()->instance()));
  ctx.renderer->LogicalViews(views);
  return Status::OK();
}

Status GetLogicalView(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  LBT_ASSIGN_OR_RETURN(LogicalViewSpec view, admin->GetLogicalView(ctx.bigtable()->instance(), args[0]));
  ctx.renderer->LogicalView(view);
  return Status::OK();
}

// updatelogicalview <id> <query> | deletion-protection=<true|false>
Status UpdateLogicalView(CommandContext& ctx, const std::vector<std::string>& args) {
  LogicalViewSpec view;
  view.id = args[0];
  LogicalViewUpdate update;
  const std::string rest = JoinWords(args, 1);
  constexpr std::string_view kProtection = "deletion-protection=";
  if (rest.rfind(kProtection, 0) == 0) {
    const std::string value = rest.substr(kProtection.size());
    if (value != "true" && value != "false") {
      return ctx.Usage(fmt::format(
          "bad deletion-protection '{}': expected true or false, alone (a query is replaced by an update of its own)",
          value));
    }
    update.deletion_protection = true;
    view.deletion_protection = value == "true";
  } else {
    update.query = true;
    view.query = rest;
    LBT_RETURN_IF_ERROR(CheckQuery(ctx, view.id, view.query));
  }
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  LBT_ASSIGN_OR_RETURN(LogicalViewSpec updated, admin->UpdateLogicalView(ctx.bigtable()->instance(), view, update));
  ctx.renderer->LogicalView(updated);
  return Status::OK();
}

Status DeleteLogicalView(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  return admin->DeleteLogicalView(ctx.bigtable()->instance(), args[0], {});
}

constexpr Arg kViewArg{.text = "<view-id>", .noun = "a logical view id"};

}  // namespace

std::vector<CommandSpec> LogicalViewCommands() {
  return {
      {.name = "createlogicalview",
       .summary = "Save a query under a name that queries read as a table",
       .args = {kViewArg, {.text = "<query>", .noun = "a query", .arity = Arity::kRest}},
       .details = "  The query must run (see 'help sql') and may read other views, but not this\n"
                  "  one; each query over the view runs it afresh. A view cannot take a table's\n"
                  "  name. Protect it with 'updatelogicalview <view-id> deletion-protection=true'.\n\n"
                  "  Example:\n"
                  "    createlogicalview recent SELECT _key, stats_summary['os_build'] AS os FROM mobile_time_series\n"
                  "    sql SELECT os, COUNT(*) AS days FROM recent GROUP BY os",
       .cbt = CreateLogicalView},
      {.name = "listlogicalviews", .summary = "List the logical views of the instance", .cbt = ListLogicalViews},
      {.name = "getlogicalview", .summary = "Show a logical view's query", .args = {kViewArg}, .cbt = GetLogicalView},
      {.name = "updatelogicalview",
       .summary = "Replace a logical view's query, or set its deletion protection",
       .args = {kViewArg,
                {.text = "<query> | deletion-protection=<true|false>", .noun = "a query", .arity = Arity::kRest}},
       .details = "  Example: updatelogicalview recent deletion-protection=true",
       .cbt = UpdateLogicalView},
      {.name = "deletelogicalview", .summary = "Delete a logical view", .args = {kViewArg}, .cbt = DeleteLogicalView},
  };
}

}  // namespace lbt
