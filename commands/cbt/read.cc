// cbt's read commands: read, lookup and count, and the batching of many
// lookups in a row (cbt/lookups.h).

#include <fmt/format.h>

#include <algorithm>

#include "commands/cbt/args.h"
#include "commands/cbt/filter_json.h"
#include "commands/cbt/lookups.h"
#include "commands/command_sets.h"
#include "commands/core/read_pipeline.h"
#include "filter/row_filter.h"

namespace lbt {

namespace {

// cbt's columns= list: "fam:qual" (both regexes), "fam:" (family only),
// ":qual" or "qual" (qualifier only), comma separated, interleaved.
Result<Filter> ColumnsFilter(CommandContext& ctx, const std::string& list) {
  std::vector<Filter> filters;
  for (const std::string& column : SplitList(list)) {
    size_t colon = column.find(':');
    if (colon == std::string::npos) {
      filters.push_back(Filter::QualifierRegex(column));
    } else if (column.find(':', colon + 1) != std::string::npos) {
      return ctx.Usage(fmt::format("bad column '{}' in columns=: expected <family>:<qualifier>", column));
    } else if (colon + 1 == column.size()) {
      filters.push_back(Filter::FamilyNameRegex(column.substr(0, colon)));
    } else if (colon == 0) {
      filters.push_back(Filter::QualifierRegex(column.substr(1)));
    } else {
      filters.push_back(Filter::Chain(
          {Filter::FamilyNameRegex(column.substr(0, colon)), Filter::QualifierRegex(column.substr(colon + 1))}));
    }
  }
  if (filters.empty()) return ctx.Usage("columns= needs at least one column");
  if (filters.size() == 1) return filters[0];
  return Filter::Interleave(std::move(filters));
}

// The filter cbt builds from read/lookup options, or nullopt for none.
// The user's filter= runs first, then cbt's options in cbt's order, so
// cells-per-column counts what the filter kept and keys-only strips last.
Result<std::optional<Filter>> ReadFilter(CommandContext& ctx, const CbtArgs& args) {
  std::vector<Filter> chain;
  if (const std::string* json = args.Find("filter")) {
    LBT_ASSIGN_OR_RETURN(Filter f, ParseFilterJson(*json));
    // Checked alone, so that an error's path is the one the user wrote
    // rather than one inside the chain built here.
    LBT_RETURN_IF_ERROR(CompileFilter(f).status());
    chain.push_back(std::move(f));
  }
  LBT_ASSIGN_OR_RETURN(std::optional<int64_t> per_column, PositiveOption(ctx, args, "cells-per-column"));
  if (per_column) chain.push_back(Filter::CellsPerColumnLimit(*per_column));
  // cbt reads `regex=` (empty) as no regex at all.
  const std::string* regex = args.Find("regex");
  if (regex != nullptr && !regex->empty()) chain.push_back(Filter::RowKeyRegex(*regex));
  if (const std::string* columns = args.Find("columns")) {
    LBT_ASSIGN_OR_RETURN(Filter f, ColumnsFilter(ctx, *columns));
    chain.push_back(std::move(f));
  }
  LBT_ASSIGN_OR_RETURN(bool keys_only, BoolOption(ctx, args, "keys-only"));
  if (keys_only) chain.push_back(Filter::StripValue());
  if (chain.empty()) return std::optional<Filter>();
  if (chain.size() == 1) return std::optional<Filter>(std::move(chain[0]));
  return std::optional<Filter>(Filter::Chain(std::move(chain)));
}

Status CheckUnsupported(const CbtArgs& args) {
  if (args.Find("format-file") != nullptr) {
    return Status::InvalidArgument("format-file= is not supported by lbt; use --format json or jsonl");
  }
  return Status::OK();
}

Result<bool> WantStats(CommandContext& ctx, const CbtArgs& args) {
  const std::string* stats = args.Find("include-stats");
  if (stats == nullptr) return false;
  if (*stats != "full") return ctx.Usage(fmt::format("bad include-stats '{}': expected full", *stats));
  return true;
}

Status Lookup(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 2));
  LBT_RETURN_IF_ERROR(CheckUnsupported(parsed));
  LBT_RETURN_IF_ERROR(UseViewIfNamed(ctx, parsed, args[0]));
  ReadRequest request;
  request.rows.row_keys = {args[1]};
  LBT_ASSIGN_OR_RETURN(request.filter, ReadFilter(ctx, parsed));
  LBT_ASSIGN_OR_RETURN(bool with_stats, WantStats(ctx, parsed));
  return StreamRowsToRenderer(ctx, args[0], request,
                              {.single_row = true, .show_absent = true, .with_stats = with_stats});
}

// Reads the rows of lookups [first, end), which share a table and options.
// An error means nothing was printed: the lookups then run one by one.
Result<std::vector<std::optional<Row>>> ReadLookupBatch(CommandContext& ctx,
                                                        const std::vector<std::vector<std::string>>& lookups,
                                                        size_t first, size_t end, TableSpec* spec) {
  const std::vector<std::string> args(lookups[first].begin() + 1, lookups[first].end());
  LBT_RETURN_IF_ERROR(CheckArgCount(*ctx.spec, args.size()));
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 2));
  LBT_RETURN_IF_ERROR(CheckUnsupported(parsed));
  ReadRequest request;
  LBT_ASSIGN_OR_RETURN(request.filter, ReadFilter(ctx, parsed));
  LBT_ASSIGN_OR_RETURN(*spec, SchemaForReading(ctx, args[0]));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, ctx.OpenTable(args[0]));
  std::vector<std::string> keys;
  for (size_t i = first; i < end; ++i) keys.push_back(lookups[i][2]);
  return table->LookupRows(keys, request);
}

// Whether two lookups can share a read: one table, the same options.
bool SameLookupBatch(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return a.size() == b.size() && a[1] == b[1] && std::equal(a.begin() + 3, a.end(), b.begin() + 3);
}

Status Read(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 1));
  LBT_RETURN_IF_ERROR(CheckUnsupported(parsed));
  LBT_RETURN_IF_ERROR(UseViewIfNamed(ctx, parsed, args[0]));
  ReadRequest request;
  LBT_ASSIGN_OR_RETURN(request.rows, RowsFromOptions(ctx, parsed));
  int64_t count = -1;
  if (const std::string* text = parsed.Find("count")) {
    if (!ParseInt64(*text, &count) || count < 0) {
      return ctx.Usage(fmt::format("bad count '{}': expected a whole number", *text));
    }
    if (count == 0) {  // cbt reads no rows for count=0
      ctx.renderer->BeginRows(nullptr);
      ctx.renderer->EndRows(nullptr);
      return Status::OK();
    }
  }
  request.rows_limit = std::max<int64_t>(count, 0);
  LBT_ASSIGN_OR_RETURN(request.reversed, BoolOption(ctx, parsed, "reversed"));
  LBT_ASSIGN_OR_RETURN(request.filter, ReadFilter(ctx, parsed));
  LBT_ASSIGN_OR_RETURN(bool with_stats, WantStats(ctx, parsed));
  return StreamRowsToRenderer(ctx, args[0], request, {.with_stats = with_stats});
}

Status Count(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 1));
  LBT_RETURN_IF_ERROR(UseViewIfNamed(ctx, parsed, args[0]));
  RowRange range = RowRange::All();
  if (const std::string* prefix = parsed.Find("prefix")) range = RowRange::Prefix(*prefix);
  const std::string* json = parsed.Find("filter");
  if (json == nullptr) {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, ctx.OpenTable(args[0]));
    LBT_ASSIGN_OR_RETURN(int64_t n, table->CountRows(range));
    ctx.renderer->Count(n);
    return Status::OK();
  }
  // With a filter, a row counts when the filter leaves it a cell.
  ReadRequest request;
  request.rows.row_ranges = {range};
  LBT_ASSIGN_OR_RETURN(Filter filter, ParseFilterJson(*json));
  LBT_RETURN_IF_ERROR(CompileFilter(filter).status());
  request.filter = Filter::Chain({std::move(filter), Filter::StripValue()});
  LBT_ASSIGN_OR_RETURN(int64_t n, CountReadRows(ctx, args[0], request, [](const Row&, int64_t) {}));
  ctx.renderer->Count(n);
  return Status::OK();
}

}  // namespace

bool IsBatchableLookup(const std::vector<std::string>& words) {
  if (words.size() < 3 || words[0] != "lookup") return false;
  for (size_t i = 3; i < words.size(); ++i) {
    if (words[i].rfind("filter=", 0) == 0 || words[i].rfind("include-stats=", 0) == 0 ||
        words[i].rfind("authorized-view=", 0) == 0) {
      return false;
    }
  }
  return true;
}

std::vector<CommandOutcome> RunLookups(Session* session, Output* out, Output* err,
                                       const std::vector<std::vector<std::string>>& lookups, bool keep_going,
                                       const std::function<void(size_t i)>& before) {
  std::vector<CommandOutcome> outcomes;
  for (size_t first = 0; first < lookups.size();) {
    size_t end = first + 1;
    while (end < lookups.size() && SameLookupBatch(lookups[first], lookups[end])) ++end;
    std::unique_ptr<Renderer> probe = Renderer::Create(session->options().format, session->options().bytes, out);
    CommandContext ctx{session, probe.get(), out, err, FindCommand("lookup")};
    TableSpec spec;
    Result<std::vector<std::optional<Row>>> rows = ReadLookupBatch(ctx, lookups, first, end, &spec);
    for (size_t i = first; i < end; ++i) {
      before(i);
      if (!rows.ok()) {
        outcomes.push_back(RunCommand(session, out, err, lookups[i]));
        if (!outcomes.back().status.ok() && !keep_going) return outcomes;
        continue;
      }
      // What StreamRows prints for one lookup, with a renderer of its own.
      std::unique_ptr<Renderer> renderer = Renderer::Create(session->options().format, session->options().bytes, out);
      renderer->BeginRows(&spec);
      if (const std::optional<Row>& row = (*rows)[i - first]) {
        renderer->Row(*row);
      } else {
        renderer->AbsentRow();
      }
      renderer->EndRows(nullptr);
      outcomes.emplace_back();
    }
    out->Flush();
    first = end;
  }
  return outcomes;
}

std::vector<CommandSpec> CbtReadCommands() {
  const Option columns{.key = "columns", .value = "<family>:<qualifier>,...", .kind = ArgKind::kColumn};
  const Option cells_per_column{.key = "cells-per-column", .value = "<n>"};
  const Option keys_only{.key = "keys-only", .value = "<true|false>"};
  const Option include_stats{.key = "include-stats", .value = "full"};
  const Option filter{.key = "filter", .value = "<json>"};
  const Option app_profile{.key = "app-profile", .value = "<id>", .use = OptionUse::kQuiet};
  const Option format_file{.key = "format-file", .value = "<file>", .use = OptionUse::kRefused};
  const Option authorized_view{.key = "authorized-view", .value = "<view-id>"};
  return {
      {.name = "count",
       .summary = "Count rows in a table",
       .args = {kTableArg},
       .options = {{.key = "prefix", .value = "<row-key-prefix>"}, filter, authorized_view},
       .details = "  With filter=, only rows the filter leaves a cell count (see 'help read');\n"
                  "  with authorized-view=<view-id>, only rows with cells the view covers.\n\n"
                  "  Example: count mobile_time_series prefix=phone#",
       .cbt = Count},
      {.name = "lookup",
       .summary = "Read from a single row",
       .args = {kTableArg, kRowArg},
       .options = {columns, cells_per_column, keys_only, include_stats, filter, app_profile, format_file,
                   authorized_view},
       .details = "  columns=<family>:<qualifier>,...  Read only these columns (regexes; 'fam:' for a family)\n"
                  "  cells-per-column=<n>              Read only this number of cells per column\n"
                  "  keys-only=<true|false>            Print cells without values\n"
                  "  include-stats=full                Print what the read looked at and returned\n"
                  "  authorized-view=<view-id>         Read through this authorized view of the table\n\n"
                  "  Example: lookup mobile_time_series phone#4c410523#20190501 "
                  "columns=stats_summary:os_build,connected_wifi cells-per-column=1\n"
                  "  Example: lookup mobile_time_series $'\\x41\\x42'\n\n"
                  "  Text output lists the families by name, as cbt does; filters count cells\n"
                  "  in storage order (families in creation order, as --format=json shows).",
       .cbt = Lookup},
      {.name = "read",
       .summary = "Read rows",
       .args = {kTableArg},
       .options = {{.key = "start", .value = "<row>"},
                   {.key = "end", .value = "<row>"},
                   {.key = "prefix", .value = "<prefix>"},
                   {.key = "regex", .value = "<regex>"},
                   columns,
                   {.key = "count", .value = "<n>"},
                   cells_per_column,
                   {.key = "reversed", .value = "<true|false>"},
                   keys_only,
                   include_stats,
                   filter,
                   app_profile,
                   format_file,
                   authorized_view},
       .details = "  start=<row>                       Start reading at this row\n"
                  "  end=<row>                         Stop reading before this row\n"
                  "  prefix=<prefix>                   Read rows with this prefix\n"
                  "  regex=<regex>                     Read rows whose whole key matches this regex\n"
                  "  columns=<family>:<qualifier>,...  Read only these columns (regexes; 'fam:' for a family)\n"
                  "  count=<n>                         Read only this many rows\n"
                  "  cells-per-column=<n>              Read only this many cells per column\n"
                  "  reversed=<true|false>             Read rows in reverse order\n"
                  "  keys-only=<true|false>            Print cells without values\n"
                  "  include-stats=full                Print what the read looked at and returned\n"
                  "  filter=<json>                     A Bigtable RowFilter in its JSON form (bytes in base64),\n"
                  "                                    applied before the options above, e.g.\n"
                  "                                    '{\"chain\":{\"filters\":[{\"familyNameRegexFilter\":\"cf\"},\n"
                  "                                    {\"cellsPerColumnLimitFilter\":1}]}}'\n"
                  "  authorized-view=<view-id>         Read through this authorized view of the table: only\n"
                  "                                    the rows and columns it covers\n\n"
                  "  Examples:\n"
                  "    read mobile_time_series prefix=phone columns=stats_summary:os_build,connected_wifi count=10\n"
                  "    read mobile_time_series start=phone#4c410523#20190501 end=phone#4c410523#20190601\n"
                  "    read mobile_time_series regex=\"phone.*\" cells-per-column=1\n\n"
                  "  A regex without start, end, prefix or count reads the whole table.\n\n"
                  "  Text output lists a row's families by name, as cbt does; filters count\n"
                  "  cells in storage order (families in creation order, as --format=json shows).",
       .cbt = Read},
  };
}

}  // namespace lbt
