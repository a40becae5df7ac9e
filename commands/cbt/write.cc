// cbt's write commands: set, addtocell, deleterow, deletecolumn.

#include <fmt/format.h>

#include <ctime>

#include "commands/cbt/args.h"
#include "commands/cbt/gc_policy_text.h"
#include "commands/command_sets.h"

namespace lbt {

namespace {

// "<family>:<column>=<value>" split into its parts.
struct CellArg {
  std::string family, qualifier, value;
};

Result<CellArg> ParseCellArg(CommandContext& ctx, const std::string& arg) {
  size_t colon = arg.find(':');
  size_t eq = colon == std::string::npos ? std::string::npos : arg.find('=', colon);
  if (colon == std::string::npos || eq == std::string::npos) {
    return ctx.Usage(fmt::format("bad cell '{}': expected <family>:<column>=<value>[@<timestamp>]", arg));
  }
  return CellArg{arg.substr(0, colon), arg.substr(colon + 1, eq - colon - 1), arg.substr(eq + 1)};
}

// lbt applies GC at once: a cell written older than its family's maxage is
// never readable. Say so on stderr, since cbt + the emulator would show it.
void NoteExpiredCells(CommandContext& ctx, Bigtable* bigtable, const std::string& table,
                      const std::vector<Mutation>& mutations) {
  Result<TableSpec> spec = bigtable->GetTable(table);
  if (!spec.ok()) return;
  const int64_t now = bigtable->NowMicros();
  const bool lazy = bigtable->local() != nullptr && bigtable->local()->lazy_gc();
  for (const Mutation& m : mutations) {
    const FamilySpec* family = spec->FindFamily(m.family);
    if (family == nullptr || m.timestamp == kServerTime || !family->gc_rule.Collects(0, m.timestamp, now)) continue;
    ctx.err->Write(fmt::format("note: {}:{} at {} is already past its family's GC policy ({}); {}\n", m.family,
                               m.qualifier, m.timestamp, FormatGcPolicy(family->gc_rule),
                               lazy ? "it is read until a collection pass removes it" : "it will not be read"));
  }
}

// The day a timestamp in microseconds falls on, in UTC: 2026-11-26.
std::string DayOf(int64_t micros) {
  const time_t seconds = static_cast<time_t>(micros / 1000000);
  struct tm utc {};
  gmtime_r(&seconds, &utc);
  char day[16];
  std::strftime(day, sizeof day, "%Y-%m-%d", &utc);
  return day;
}

// Timestamps are microseconds, as Bigtable's; one that falls before 2000
// as microseconds but in 2000-2100 as milliseconds (what most clocks and
// HBase give) was almost surely meant as milliseconds. It is written as
// given, and a note says so.
void NoteMillisecondTimestamps(CommandContext& ctx, const std::vector<Mutation>& mutations) {
  constexpr int64_t kYear2000Ms = 946684800000, kYear2100Ms = 4102444800000;
  for (const Mutation& m : mutations) {
    const int64_t t = m.timestamp;
    if (t == kServerTime || t < kYear2000Ms || t >= kYear2100Ms) continue;
    ctx.err->Write(
        fmt::format("note: {}:{}@{} is {} in microseconds, the unit of timestamps; if you meant milliseconds ({}), "
                    "write @{}000\n",
                    m.family, m.qualifier, t, DayOf(t), DayOf(t * 1000), t));
  }
}

// The words after <table> <row> of set/addtocell: options, then cells.
Result<std::vector<CellArg>> CellArgs(CommandContext& ctx, const std::vector<std::string>& args) {
  std::vector<CellArg> cells;
  for (size_t i = 2; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("app-profile=", 0) == 0) continue;  // one local profile
    if (arg.rfind("authorized-view=", 0) == 0) {
      CbtArgs view;
      view.options.emplace("authorized-view", arg.substr(std::string_view("authorized-view=").size()));
      LBT_RETURN_IF_ERROR(UseViewIfNamed(ctx, view, args[0]));
      continue;
    }
    LBT_ASSIGN_OR_RETURN(CellArg cell, ParseCellArg(ctx, arg));
    cells.push_back(std::move(cell));
  }
  if (cells.empty()) return ctx.Usage(fmt::format("{} needs at least one cell", ctx.spec->name));
  return cells;
}

Status Set(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(std::vector<CellArg> cells, CellArgs(ctx, args));
  std::vector<Mutation> mutations;
  for (CellArg& c : cells) {
    ValueAndTimestamp v = SplitTimestamp(c.value);
    mutations.push_back(
        Mutation::SetCell(c.family, c.qualifier, std::move(v.value), v.timestamp.value_or(kServerTime)));
  }
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, ctx.OpenTable(args[0]));
  LBT_RETURN_IF_ERROR(table->MutateRow(args[1], mutations));
  NoteMillisecondTimestamps(ctx, mutations);
  NoteExpiredCells(ctx, ctx.bigtable(), args[0], mutations);
  return Status::OK();
}

// A family that counts raw bytes (rawhll) takes addtocell's value as
// bytes; every other aggregate, as an integer. Read from the table's
// schema once a command; a table it cannot read leaves the write to say
// what is wrong.
bool CountsRawBytes(const Result<TableSpec>& table, const std::string& family) {
  const FamilySpec* f = table.ok() ? table->FindFamily(family) : nullptr;
  return f != nullptr && f->value_type == ValueType::kHllBytes;
}

Status AddToCell(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(std::vector<CellArg> cells, CellArgs(ctx, args));
  const Result<TableSpec> schema = ctx.bigtable()->GetTable(args[0]);
  std::vector<Mutation> mutations;
  for (CellArg& c : cells) {
    ValueAndTimestamp v = SplitTimestamp(c.value);
    if (CountsRawBytes(schema, c.family)) {
      mutations.push_back(
          Mutation::AddBytesToCell(c.family, c.qualifier, std::move(v.value), v.timestamp.value_or(kServerTime)));
      continue;
    }
    int64_t n;
    if (!ParseInt64(v.value, &n)) {
      const std::string_view digits = std::string_view(v.value).substr(!v.value.empty() && v.value[0] == '-');
      if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos) {
        return Status::InvalidArgument(fmt::format(
            "addtocell: '{}' does not fit in a 64-bit integer (from -9223372036854775808 to 9223372036854775807)",
            v.value));
      }
      return Status::InvalidArgument(fmt::format("addtocell takes whole numbers only, got '{}'", v.value));
    }
    mutations.push_back(Mutation::AddToCell(c.family, c.qualifier, n, v.timestamp.value_or(kServerTime)));
  }
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, ctx.OpenTable(args[0]));
  LBT_RETURN_IF_ERROR(table->MutateRow(args[1], mutations));
  NoteMillisecondTimestamps(ctx, mutations);
  return Status::OK();
}

Status DeleteRow(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 2));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, ctx.OpenTable(args[0]));
  return table->MutateRow(args[1], {Mutation::DeleteFromRow()});
}

Status DeleteColumn(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 4));
  LBT_RETURN_IF_ERROR(UseViewIfNamed(ctx, parsed, args[0]));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, ctx.OpenTable(args[0]));
  return table->MutateRow(args[1], {Mutation::DeleteFromColumn(args[2], args[3])});
}

}  // namespace

std::vector<CommandSpec> CbtWriteCommands() {
  const Option app_profile{.key = "app-profile", .value = "<id>", .use = OptionUse::kQuiet};
  const Option authorized_view{.key = "authorized-view", .value = "<view-id>"};
  return {
      {.name = "addtocell",
       .summary = "Add a value to an aggregate cell (write)",
       .args = {kTableArg,
                kRowArg,
                {.text = "<family>:<column>=<int>[@<timestamp>]",
                 .noun = "at least one cell",
                 .kind = ArgKind::kColumn,
                 .arity = Arity::kRepeated}},
       .options = {app_profile, authorized_view},
       .details = "  The family must be of type intsum, intmin, intmax, inthll (distinct\n"
                  "  integers) or rawhll (distinct values, taken as bytes). Cells at the same\n"
                  "  timestamp merge; <timestamp> is in microseconds (a multiple of 1000).\n"
                  "  SQL's HLL_COUNT.EXTRACT counts an HLL family's cell.\n"
                  "  authorized-view=<view-id>  Write through this authorized view of the table.\n\n"
                  "  Example: addtocell page_views /docs/quickstart total:views=1@0",
       .cbt = AddToCell},
      {.name = "deletecolumn",
       .summary = "Delete all cells in a column",
       .args = {kTableArg, kRowArg, kFamilyArg, {.text = "<column>", .noun = "a column"}},
       .options = {app_profile, authorized_view},
       .details = "  authorized-view=<view-id>  Delete through this authorized view of the table.\n\n"
                  "  Example: deletecolumn mobile_time_series phone#4c410523#20190501 stats_summary os_build",
       .cbt = DeleteColumn},
      {.name = "deleterow",
       .summary = "Delete a row",
       .args = {kTableArg, kRowArg},
       .options = {app_profile},
       .details = "  Example: deleterow mobile_time_series phone#4c410523#20190501",
       .cbt = DeleteRow},
      {.name = "set",
       .summary = "Set value of a cell (write)",
       .args = {kTableArg,
                kRowArg,
                {.text = "<family>:<column>=<value>[@<timestamp>]",
                 .noun = "at least one cell",
                 .kind = ArgKind::kColumn,
                 .arity = Arity::kRepeated}},
       .options = {app_profile, authorized_view},
       .details = "  <timestamp> is in microseconds since the epoch and must be a multiple of 1000;\n"
                  "  if it is not an integer, '@<timestamp>' is part of the value. Without it the\n"
                  "  current time is used. Quote binary bytes as $'\\x00\\xff'.\n"
                  "  authorized-view=<view-id>  Write through this authorized view of the table: a\n"
                  "  cell outside it is refused (PermissionDenied) and nothing is written.\n\n"
                  "  Example: set mobile_time_series phone#4c410523#20190501 "
                  "stats_summary:connected_cell=1@1570041766000000",
       .cbt = Set},
  };
}

}  // namespace lbt
