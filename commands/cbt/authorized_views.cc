// lbt's authorized-view commands, named and shaped like cbt's table
// commands: createauthorizedview, listauthorizedviews, getauthorizedview,
// updateauthorizedview and deleteauthorizedview, over the Bigtable
// interface's views (api/authorized_view.h). read, lookup, count, set,
// addtocell and deletecolumn go through a view with authorized-view=.

#include <fmt/format.h>

#include "commands/cbt/args.h"
#include "commands/command_sets.h"
#include "commands/core/command_table.h"

namespace lbt {

namespace {

// columns=fam:qual,fam:prefix*,fam:* into family subsets: a trailing '*'
// makes a qualifier prefix ("fam:*" the whole family).
Status AddColumns(CommandContext& ctx, const std::string& list, SubsetView* subset) {
  for (const std::string& item : SplitList(list)) {
    const size_t colon = item.find(':');
    if (colon == std::string::npos || colon == 0) {
      return ctx.Usage(
          fmt::format("bad column '{}': expected <family>:<qualifier>, <family>:<prefix>* or <family>:*", item));
    }
    FamilySubset& family = subset->family_subsets[item.substr(0, colon)];
    std::string qualifier = item.substr(colon + 1);
    if (!qualifier.empty() && qualifier.back() == '*') {
      qualifier.pop_back();
      family.qualifier_prefixes.push_back(std::move(qualifier));
    } else {
      family.qualifiers.push_back(std::move(qualifier));
    }
  }
  return Status::OK();
}

// The subset the options describe; *named is false when they name none.
Result<SubsetView> SubsetOf(CommandContext& ctx, const CbtArgs& args, bool* named) {
  SubsetView subset;
  *named = false;
  if (const std::string* prefixes = args.Find("row-prefixes")) {
    *named = true;
    // "row-prefixes=" alone is the "" prefix: every row.
    subset.row_prefixes = prefixes->empty() ? std::vector<std::string>{""} : SplitList(*prefixes);
  }
  if (const std::string* columns = args.Find("columns")) {
    *named = true;
    LBT_RETURN_IF_ERROR(AddColumns(ctx, *columns, &subset));
  }
  return subset;
}

Status CreateAuthorizedView(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 2));
  AuthorizedViewSpec view;
  view.id = args[1];
  bool named = false;
  LBT_ASSIGN_OR_RETURN(view.subset, SubsetOf(ctx, parsed, &named));
  if (!named) return ctx.Usage("createauthorizedview needs row-prefixes= or columns= to say what the view covers");
  LBT_ASSIGN_OR_RETURN(view.deletion_protection, BoolOption(ctx, parsed, "deletion-protection"));
  LBT_ASSIGN_OR_RETURN(AuthorizedViewSpec made, ctx.bigtable()->CreateAuthorizedView(args[0], view));
  ctx.renderer->AuthorizedView(args[0], made);
  return Status::OK();
}

Status ListAuthorizedViews(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(std::vector<AuthorizedViewSpec> views, ctx.bigtable()->ListAuthorizedViews(args[0]));
  ctx.renderer->AuthorizedViews(args[0], views);
  return Status::OK();
}

Status GetAuthorizedView(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(AuthorizedViewSpec view, ctx.bigtable()->GetAuthorizedView(args[0], args[1]));
  ctx.renderer->AuthorizedView(args[0], view);
  return Status::OK();
}

Status UpdateAuthorizedView(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 2));
  AuthorizedViewUpdate update;
  bool named = false;
  LBT_ASSIGN_OR_RETURN(SubsetView given, SubsetOf(ctx, parsed, &named));
  update.deletion_protection = parsed.Find("deletion-protection") != nullptr;
  if (!named && !update.deletion_protection) {
    return ctx.Usage("updateauthorizedview needs row-prefixes=, columns= or deletion-protection=");
  }
  // The part of the subset not given stays as it is; the etag read makes
  // the update fail rather than undo a change made meanwhile.
  LBT_ASSIGN_OR_RETURN(AuthorizedViewSpec view, ctx.bigtable()->GetAuthorizedView(args[0], args[1]));
  if (parsed.Find("row-prefixes") != nullptr) view.subset.row_prefixes = std::move(given.row_prefixes);
  if (parsed.Find("columns") != nullptr) view.subset.family_subsets = std::move(given.family_subsets);
  update.subset = named;
  LBT_ASSIGN_OR_RETURN(view.deletion_protection, BoolOption(ctx, parsed, "deletion-protection"));
  LBT_ASSIGN_OR_RETURN(AuthorizedViewSpec updated, ctx.bigtable()->UpdateAuthorizedView(args[0], view, update));
  ctx.renderer->AuthorizedView(args[0], updated);
  return Status::OK();
}

Status DeleteAuthorizedView(CommandContext& ctx, const std::vector<std::string>& args) {
  return ctx.bigtable()->DeleteAuthorizedView(args[0], args[1], {});
}

constexpr Arg kViewArg{.text = "<view-id>", .noun = "an authorized view id"};
constexpr Option kRowPrefixes{.key = "row-prefixes", .value = "<prefix>,..."};
constexpr Option kColumns{.key = "columns", .value = "<family>:<qualifier>|<prefix>*|*,...", .kind = ArgKind::kColumn};
constexpr Option kDeletionProtection{.key = "deletion-protection", .value = "<true|false>"};

}  // namespace

std::vector<CommandSpec> AuthorizedViewCommands() {
  return {
      {.name = "createauthorizedview",
       .summary = "Create an authorized view: a subset of a table granted apart from it",
       .args = {kTableArg, kViewArg},
       .options = {kRowPrefixes, kColumns, kDeletionProtection},
       .details =
           "  row-prefixes=<prefix>,...  The rows it covers; 'row-prefixes=' alone covers every row,\n"
           "                             and without the option the view covers no row\n"
           "  columns=<family>:<qualifier>,...\n"
           "                             The columns it covers: 'cf:q' one qualifier, 'cf:pre*'\n"
           "                             every qualifier starting 'pre', 'cf:*' the whole family\n"
           "  deletion-protection=true   Neither the view nor its table can be deleted\n\n"
           "  Reads through it (read ... authorized-view=<view-id>) see only what it covers;\n"
           "  a write through it outside that is refused with PermissionDenied.\n\n"
           "  Example: createauthorizedview mobile_time_series phones row-prefixes=phone# columns=stats_summary:*",
       .cbt = CreateAuthorizedView},
      {.name = "listauthorizedviews",
       .summary = "List the authorized views of a table",
       .args = {kTableArg},
       .cbt = ListAuthorizedViews},
      {.name = "getauthorizedview",
       .summary = "Show an authorized view",
       .args = {kTableArg, kViewArg},
       .cbt = GetAuthorizedView},
      {.name = "updateauthorizedview",
       .summary = "Change what an authorized view covers, or its deletion protection",
       .args = {kTableArg, kViewArg},
       .options = {kRowPrefixes, kColumns, kDeletionProtection},
       .details = "  The options given replace what the view had; the rest stays (see\n"
                  "  'help createauthorizedview').\n\n"
                  "  Example: updateauthorizedview mobile_time_series phones deletion-protection=false",
       .cbt = UpdateAuthorizedView},
      {.name = "deleteauthorizedview",
       .summary = "Delete an authorized view",
       .args = {kTableArg, kViewArg},
       .cbt = DeleteAuthorizedView},
  };
}

}  // namespace lbt
