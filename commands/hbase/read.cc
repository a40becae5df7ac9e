// The HBase shell's reads: get, scan and count, with their options
// (COLUMNS, TIMERANGE, VERSIONS, FILTER, ...) as one ReadRequest.

#include <fmt/format.h>

#include "commands/command_sets.h"
#include "commands/core/read_pipeline.h"
#include "commands/hbase/args.h"
#include "commands/hbase/filter.h"
#include "filter/row_filter.h"

namespace lbt::hbase {

namespace {

// The read options shared by get and scan: columns, time, versions, filter.
struct HBaseRead {
  ReadRequest request;
  std::vector<Filter> filters;  // chained in order
  int64_t versions = 1;         // HBase returns the newest version unless asked
  RowsView view;                // column formatters and MAXLENGTH, for the renderer
};

Result<ValueFormat> ParseValueFormat(CommandContext& ctx, const std::string& name) {
  if (name == "toString") return ValueFormat::kString;
  if (name == "toInt") return ValueFormat::kInt;
  if (name == "toLong") return ValueFormat::kLong;
  if (name == "toShort") return ValueFormat::kShort;
  return Usage(ctx, fmt::format("unknown column formatter '{}'; lbt knows toString, toInt, toLong and toShort", name));
}

Status AddColumns(CommandContext& ctx, const HValue& v, HBaseRead* read) {
  std::vector<HValue> list = v.kind == HValue::Kind::kArray ? v.items : std::vector<HValue>{v};
  for (const HValue& c : list) {
    if (!c.IsString()) return Usage(ctx, fmt::format("a column must be a string, got {}", c.Describe()));
    ColumnName name = SplitColumn(c.text);
    if (!name.has_colon) {
      read->request.columns.push_back({name.family, std::nullopt});
      continue;
    }
    // As in the HBase shell, a third part names how to print the values.
    if (size_t second = name.qualifier.find(':'); second != std::string::npos) {
      LBT_ASSIGN_OR_RETURN(ValueFormat format, ParseValueFormat(ctx, name.qualifier.substr(second + 1)));
      name.qualifier.resize(second);
      read->view.formats[{name.family, name.qualifier}] = format;
    }
    read->request.columns.push_back({std::move(name.family), std::move(name.qualifier)});
  }
  return Status::OK();
}

// Adds FILTER's value to the request. It is checked alone, so that an
// error names the user's FILTER rather than the chain FinishRequest builds.
Status AddUserFilter(CommandContext& ctx, const HValue& value, HBaseRead* read) {
  if (!value.IsString()) return Usage(ctx, "FILTER takes a filter string such as \"PrefixFilter('p')\"");
  LBT_ASSIGN_OR_RETURN(Filter parsed, ParseHBaseFilter(value.text));
  LBT_RETURN_IF_ERROR(CompileFilter(parsed, "FILTER").status());
  read->filters.push_back(std::move(parsed));
  return Status::OK();
}

Status ReadOptionsFrom(CommandContext& ctx, const HValue& opts, HBaseRead* read) {
  if (const HValue* c = opts.Find("COLUMNS")) LBT_RETURN_IF_ERROR(AddColumns(ctx, *c, read));
  if (const HValue* c = opts.Find("COLUMN")) LBT_RETURN_IF_ERROR(AddColumns(ctx, *c, read));
  if (const HValue* ts = opts.Find("TIMESTAMP")) {
    LBT_ASSIGN_OR_RETURN(int64_t micros, TimestampArg(ctx, *ts));
    read->filters.push_back(Filter::TimestampRange(micros, micros + kMicrosPerMs));
  }
  if (const HValue* range = opts.Find("TIMERANGE")) {
    if (range->kind != HValue::Kind::kArray || range->items.size() != 2) {
      return Usage(ctx, "TIMERANGE takes [start, end] in milliseconds");
    }
    LBT_ASSIGN_OR_RETURN(int64_t start, TimestampArg(ctx, range->items[0]));
    LBT_ASSIGN_OR_RETURN(int64_t end, TimestampArg(ctx, range->items[1]));
    if (end <= start) return Usage(ctx, "TIMERANGE needs start < end");
    read->filters.push_back(Filter::TimestampRange(start, end));
  }
  if (const HValue* v = opts.Find("VERSIONS")) {
    LBT_ASSIGN_OR_RETURN(read->versions, IntValue(ctx, *v, "VERSIONS"));
    if (read->versions < 1) return Usage(ctx, "VERSIONS must be at least 1");
  }
  if (const HValue* f = opts.Find("FILTER")) {
    LBT_RETURN_IF_ERROR(AddUserFilter(ctx, *f, read));
  }
  if (const HValue* m = opts.Find("MAXLENGTH")) {
    LBT_ASSIGN_OR_RETURN(read->view.maxlength, IntValue(ctx, *m, "MAXLENGTH"));
  }
  return Status::OK();
}

// As in HBase, the time range and the filter choose among all versions,
// and VERSIONS then keeps the newest of what they let through.
void FinishRequest(HBaseRead* read) {
  if (read->filters.empty()) {
    read->request.cells_per_column_limit = read->versions;  // the reader applies it cheaply
    return;
  }
  std::vector<Filter> chain = read->filters;
  chain.push_back(Filter::CellsPerColumnLimit(read->versions));
  read->request.filter = Filter::Chain(std::move(chain));
}

Status Get(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  LBT_ASSIGN_OR_RETURN(std::string row_key, StringArg(ctx, args, 1, "a row key"));
  HBaseRead read;
  for (size_t i = 2; i < args.size(); ++i) {
    if (args[i].IsHash()) {
      LBT_RETURN_IF_ERROR(CheckKeys(ctx, args[i]));
      NoteIgnoredReadOptions(ctx, args[i]);
      LBT_RETURN_IF_ERROR(ReadOptionsFrom(ctx, args[i], &read));
    } else {
      LBT_RETURN_IF_ERROR(AddColumns(ctx, args[i], &read));
    }
  }
  FinishRequest(&read);
  LBT_ASSIGN_OR_RETURN(std::optional<TableSpec> schema, DataTableSchema(ctx, table));
  for (const ColumnSelector& c : read.request.columns) {
    if (schema && schema->FindFamily(c.family) == nullptr) {
      return Status::NotFound(fmt::format("Unknown column family '{}' in table {}; its families are: {}", c.family,
                                          table, schema->FamilyList()));
    }
  }
  const TableSpec spec = schema.value_or(TableSpec{});
  read.request.rows.row_keys = {row_key};
  read.view.layout = RowsLayout::kHBaseGet;
  return StreamRowsToRenderer(ctx, table, read.request, {.view = read.view, .single_row = true}, &spec);
}

// The row range of a scan: ROWPREFIXFILTER wins over STARTROW/STOPROW; a
// reversed scan starts at STARTROW (inclusive) and goes down to STOPROW
// (exclusive), as in HBase.
Status ScanRange(CommandContext& ctx, const HValue& opts, bool reversed, RowSet* rows) {
  if (const HValue* prefix = opts.Find("ROWPREFIXFILTER")) {
    LBT_ASSIGN_OR_RETURN(std::string p, StringArg(ctx, {*prefix}, 0, "ROWPREFIXFILTER"));
    rows->row_ranges = {RowRange::Prefix(p)};
    return Status::OK();
  }
  std::string start, stop;
  if (const HValue* s = opts.Find("STARTROW")) {
    LBT_ASSIGN_OR_RETURN(start, StringArg(ctx, {*s}, 0, "STARTROW"));
  }
  if (const HValue* s = opts.Find("STOPROW")) {
    LBT_ASSIGN_OR_RETURN(stop, StringArg(ctx, {*s}, 0, "STOPROW"));
  }
  if (start.empty() && stop.empty()) return Status::OK();
  RowRange range;
  if (!reversed) {
    if (!start.empty()) range.start = Bound::Closed(start);
    if (!stop.empty()) range.end = Bound::Open(stop);
  } else {
    if (!start.empty()) range.end = Bound::Closed(start);
    if (!stop.empty()) range.start = Bound::Open(stop);
  }
  rows->row_ranges = {range};
  return Status::OK();
}

Status Scan(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  LBT_ASSIGN_OR_RETURN(HValue opts, OptionsArg(ctx, args, 1));
  LBT_RETURN_IF_ERROR(CheckKeys(ctx, opts));
  NoteIgnoredReadOptions(ctx, opts);
  HBaseRead read;
  LBT_RETURN_IF_ERROR(ReadOptionsFrom(ctx, opts, &read));
  if (const HValue* r = opts.Find("REVERSED")) {
    if (r->kind != HValue::Kind::kBool) return Usage(ctx, "REVERSED takes true or false");
    read.request.reversed = r->boolean;
  }
  LBT_RETURN_IF_ERROR(ScanRange(ctx, opts, read.request.reversed, &read.request.rows));
  if (const HValue* limit = opts.Find("LIMIT")) {
    LBT_ASSIGN_OR_RETURN(read.request.rows_limit, IntValue(ctx, *limit, "LIMIT"));
    if (read.request.rows_limit < 1) return Usage(ctx, "LIMIT must be at least 1");
  }
  FinishRequest(&read);
  LBT_ASSIGN_OR_RETURN(std::optional<TableSpec> schema, DataTableSchema(ctx, table));
  const TableSpec spec = schema.value_or(TableSpec{});
  read.view.layout = RowsLayout::kHBaseScan;
  return StreamRowsToRenderer(ctx, table, read.request, {.view = read.view}, &spec);
}

Status Count(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  LBT_ASSIGN_OR_RETURN(HValue opts, OptionsArg(ctx, args, 1));
  LBT_RETURN_IF_ERROR(CheckKeys(ctx, opts));
  int64_t interval = 1000;
  if (const HValue* i = opts.Find("INTERVAL")) {
    LBT_ASSIGN_OR_RETURN(interval, IntValue(ctx, *i, "INTERVAL"));
    if (interval < 1) return Usage(ctx, "INTERVAL must be at least 1");
  }
  HBaseRead read;
  LBT_RETURN_IF_ERROR(ScanRange(ctx, opts, false, &read.request.rows));
  if (const HValue* f = opts.Find("FILTER")) {
    LBT_RETURN_IF_ERROR(AddUserFilter(ctx, *f, &read));
  }
  read.filters.push_back(Filter::StripValue());  // counting needs no values
  FinishRequest(&read);
  LBT_RETURN_IF_ERROR(DataTable(ctx, table).status());
  LBT_ASSIGN_OR_RETURN(int64_t rows, CountReadRows(ctx, table, read.request, [&](const Row& row, int64_t n) {
                         if (n % interval == 0) ctx.renderer->CountProgress(n, row.key);
                       }));
  ctx.renderer->Count(rows);
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> ReadCommands() {
  auto shown = [](std::string_view key) { return Option{.key = key}; };
  auto quiet = [](std::string_view key) { return Option{.key = key, .use = OptionUse::kQuiet}; };
  return {
      {.name = "count",
       .dialect = Dialect::kHBase,
       .summary = "Count rows (HBase form: the table in quotes)",
       .args = {kHBaseTableArg},
       .options = {shown("INTERVAL"), shown("STARTROW"), shown("STOPROW"), shown("ROWPREFIXFILTER"), shown("FILTER"),
                   quiet("CACHE")},
       .details = "  Example: count 'mobile_time_series', {INTERVAL => 1000}",
       .hbase = Count},
      {.name = "get",
       .dialect = Dialect::kHBase,
       .summary = "Read one row (HBase form)",
       .args = {kHBaseTableArg,
                kHBaseRowArg,
                {.text = "'f:q'", .noun = "a column", .kind = ArgKind::kColumn, .arity = Arity::kOptionalRepeated}},
       .options = {shown("COLUMN"), shown("COLUMNS"), shown("TIMESTAMP"), shown("TIMERANGE"), shown("VERSIONS"),
                   shown("FILTER"), shown("MAXLENGTH"), quiet("ATTRIBUTES"), quiet("AUTHORIZATIONS"),
                   quiet("CONSISTENCY")},
       .details = "  TIMERANGE => [a, b] in milliseconds; a column may end in :toInt, :toLong,\n"
                  "  :toShort or :toString to print its values so.\n\n"
                  "  Example: get 'mobile_time_series', 'phone#4c410523#20190505', {COLUMN => "
                  "'stats_summary:os_build', VERSIONS => 2}",
       .hbase = Get},
      {.name = "scan",
       .dialect = Dialect::kHBase,
       .summary = "Scan rows (HBase form)",
       .args = {kHBaseTableArg},
       .options = {shown("ROWPREFIXFILTER"), shown("STARTROW"), shown("STOPROW"), shown("LIMIT"), shown("COLUMNS"),
                   quiet("COLUMN"), shown("TIMESTAMP"), shown("TIMERANGE"), shown("VERSIONS"), shown("REVERSED"),
                   shown("FILTER"), shown("MAXLENGTH"), quiet("CACHE"), quiet("CACHE_BLOCKS"), quiet("RAW"),
                   quiet("ATTRIBUTES"), quiet("AUTHORIZATIONS"), quiet("CONSISTENCY")},
       .details = "  Example: scan 'mobile_time_series', {ROWPREFIXFILTER => 'tablet#', LIMIT => 5}\n"
                  "  Example: scan 'mobile_time_series', {FILTER => \"PrefixFilter('phone#') AND ValueFilter(=, "
                  "'substring:PQ2A')\"}",
       .hbase = Scan},
  };
}

}  // namespace lbt::hbase
