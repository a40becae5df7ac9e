// lbt's materialized-view commands, shaped like the logical-view ones:
// creatematerializedview, listmaterializedviews, getmaterializedview,
// updatematerializedview and deletematerializedview, over the Bigtable
// interface's materialized views (api/materialized_view.h). `sql ... FROM
// <view>` and `read <view>` read one.

#include <fmt/format.h>

#include "api/instance_admin.h"
#include "api/materialized_view.h"
#include "commands/cbt/args.h"
#include "commands/command_sets.h"
#include "commands/core/command_table.h"
#include "sql/materialized_view.h"

namespace lbt {

namespace {

Status CreateMaterializedView(CommandContext& ctx, const std::vector<std::string>& args) {
  MaterializedViewSpec view;
  view.id = args[0];
  view.query = JoinWords(args, 1);
  // A remote service checks the query itself, against the tables it has.
  if (ctx.bigtable()->local() != nullptr) {
    LBT_ASSIGN_OR_RETURN(view.source_table, sql::CheckMaterializedViewQuery(ctx.bigtable(), view.query));
  }
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  LBT_ASSIGN_OR_RETURN(MaterializedViewSpec made, admin->CreateMaterializedView(ctx.bigtable()->instance(), view));
  ctx.renderer->MaterializedView(made);
  return Status::OK();
}

Status ListMaterializedViews(CommandContext& ctx, const std::vector<std::string>&) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  LBT_ASSIGN_OR_RETURN(std::vector<MaterializedViewSpec> views,
                       admin->ListMaterializedViews(ctx.bigtable()->instance()));
  ctx.renderer->MaterializedViews(views);
  return Status::OK();
}

Status GetMaterializedView(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  LBT_ASSIGN_OR_RETURN(MaterializedViewSpec view, admin->GetMaterializedView(ctx.bigtable()->instance(), args[0]));
  ctx.renderer->MaterializedView(view);
  return Status::OK();
}

// updatematerializedview <id> deletion-protection=<true|false>: a view's
// query never changes.
Status UpdateMaterializedView(CommandContext& ctx, const std::vector<std::string>& args) {
  constexpr std::string_view kProtection = "deletion-protection=";
  if (args[1].rfind(kProtection, 0) != 0) {
    return ctx.Usage(fmt::format(
        "bad '{}': only deletion-protection=<true|false> can change (a view's query is fixed: delete the view and "
        "create it again)",
        args[1]));
  }
  const std::string value = args[1].substr(kProtection.size());
  if (value != "true" && value != "false") {
    return ctx.Usage(fmt::format("bad deletion-protection '{}': expected true or false", value));
  }
  MaterializedViewSpec view;
  view.id = args[0];
  view.deletion_protection = value == "true";
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  LBT_ASSIGN_OR_RETURN(MaterializedViewSpec updated,
                       admin->UpdateMaterializedView(ctx.bigtable()->instance(), view,
                                                     MaterializedViewUpdate{.deletion_protection = true}));
  ctx.renderer->MaterializedView(updated);
  return Status::OK();
}

Status DeleteMaterializedView(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, ctx.Instances());
  return admin->DeleteMaterializedView(ctx.bigtable()->instance(), args[0], {});
}

constexpr Arg kViewArg{.text = "<view-id>", .noun = "a materialized view id"};

}  // namespace

std::vector<CommandSpec> MaterializedViewCommands() {
  return {
      {.name = "creatematerializedview",
       .summary = "Keep a query's result up to date as a table changes",
       .args = {kViewArg, {.text = "<query>", .noun = "a query", .arity = Arity::kRest}},
       .details = "  The query reads one table and has GROUP BY (one view row per group, with\n"
                  "  COUNT, SUM, MIN, MAX, AVG or ANY_VALUE) or, for a secondary index, ORDER BY\n"
                  "  columns that include the table's _key (one view row per table row). Every\n"
                  "  column needs a name. The view is built from the table's rows, then kept\n"
                  "  from its change stream (turned on if off): a write shows in it moments\n"
                  "  later, as in Bigtable. Read it with 'sql ... FROM <view-id>' (a WHERE that\n"
                  "  fixes its leading key columns reads only those rows) or 'read <view-id>'.\n"
                  "  Its query cannot change.\n\n"
                  "  Examples:\n"
                  "    creatematerializedview by_os SELECT stats_summary['os_build'] AS os, COUNT(*) AS days\n"
                  "      FROM mobile_time_series GROUP BY os\n"
                  "    creatematerializedview phones_by_os SELECT stats_summary['os_build'] AS os, _key AS phone\n"
                  "      FROM mobile_time_series ORDER BY os, phone",
       .cbt = CreateMaterializedView},
      {.name = "listmaterializedviews",
       .summary = "List the materialized views of the instance",
       .cbt = ListMaterializedViews},
      {.name = "getmaterializedview",
       .summary = "Show a materialized view's query and state",
       .args = {kViewArg},
       .cbt = GetMaterializedView},
      {.name = "updatematerializedview",
       .summary = "Set a materialized view's deletion protection",
       .args = {kViewArg, {.text = "deletion-protection=<true|false>", .noun = "deletion-protection=<true|false>"}},
       .details = "  Example: updatematerializedview by_os deletion-protection=false",
       .cbt = UpdateMaterializedView},
      {.name = "deletematerializedview",
       .summary = "Delete a materialized view and its rows",
       .args = {kViewArg},
       .details = "  Not while protected (updatematerializedview <view-id> deletion-protection=false).\n\n"
                  "  Examples:\n"
                  "    deletematerializedview by_os\n"
                  "    deletematerializedview phones_by_os",
       .cbt = DeleteMaterializedView},
  };
}

}  // namespace lbt
