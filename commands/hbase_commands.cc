// The HBase shell dialect: create, alter, describe, list, exists, disable,
// enable, drop, truncate, put, get, scan, count, delete, deleteall, incr,
// get_counter and append, with the HBase shell's non-terminal output.
// HBase timestamps are milliseconds: lbt stores ts * 1000 microseconds and
// prints them back in milliseconds, so both dialects agree on a cell.

#include "commands/command_table.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <pwd.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <map>
#include <tuple>
#include <nlohmann/json.hpp>
#include "api/limits.h"

#include "commands/gc_policy_text.h"
#include "commands/hbase_filter.h"
#include "commands/hbase_schema.h"
#include "commands/interrupt.h"
#include "commands/renderer.h"
#include "commands/read_helpers.h"
#include "filter/row_filter.h"

namespace lbt {

namespace {

using json = nlohmann::ordered_json;


Status Usage(CommandContext& ctx, const std::string& message) { return ctx.Usage(message); }

// Bigtable tables are always enabled: disable and enable are local only.
Result<LocalMaintenance*> LocalOnly(CommandContext& ctx, std::string_view command) {
  if (LocalMaintenance* local = ctx.bigtable()->local()) return local;
  return Status::FailedPrecondition(fmt::format(
      "{} works on a local database only; Bigtable tables are always enabled (drop needs no disable)", command));
}

Status UnknownTable(std::string_view table) { return Status::NotFound(fmt::format("Unknown table {}!", table)); }

// ---- argument helpers ----

Result<std::string> StringArg(CommandContext& ctx, const std::vector<HValue>& args, size_t i, const char* what) {
  if (i >= args.size()) return Usage(ctx, fmt::format("missing {}", what));
  const HValue& v = args[i];
  if (v.kind == HValue::Kind::kString) return v.text;
  if (v.kind == HValue::Kind::kInteger) return std::to_string(v.integer);  // Ruby's to_s
  return Usage(ctx, fmt::format("{} must be a string, got {}", what, v.Describe()));
}

Result<int64_t> IntValue(CommandContext& ctx, const HValue& v, const char* what) {
  if (v.kind == HValue::Kind::kInteger) return v.integer;
  return Usage(ctx, fmt::format("{} must be an integer, got {}", what, v.Describe()));
}

// The hash at args[i], or an empty hash when there is none.
Result<HValue> OptionsArg(CommandContext& ctx, const std::vector<HValue>& args, size_t i) {
  if (i >= args.size()) {
    HValue empty;
    empty.kind = HValue::Kind::kHash;
    return empty;
  }
  if (!args[i].IsHash()) return Usage(ctx, fmt::format("expected a hash of options, got {}", args[i].Describe()));
  return args[i];
}

// Refuses a key of `hash` that the command's table entry does not list.
Status CheckKeys(CommandContext& ctx, const HValue& hash) {
  const std::vector<std::string_view>& known = ctx.spec->options;
  for (const auto& [key, value] : hash.entries) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string list;
    for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    return Usage(ctx, fmt::format("unknown option {}; expected one of {}", key, list));
  }
  return Status::OK();
}

// Read options that HBase accepts and a local database has no use for:
// each one given is noted on stderr, as create notes the family options
// it ignores, rather than dropped without a word.
void NoteIgnoredReadOptions(CommandContext& ctx, const HValue& hash) {
  static const std::pair<const char*, const char*> kIgnored[] = {
      {"RAW", "lbt keeps no delete markers, and collected cells are gone"},
      {"CONSISTENCY", "one copy of the data is always consistent"},
      {"AUTHORIZATIONS", "lbt has no cell visibility labels"},
      {"ATTRIBUTES", "no meaning for a local database"},
  };
  for (const auto& [key, why] : kIgnored) {
    if (hash.Find(key) != nullptr) ctx.err->Write(fmt::format("Argument ignored: {} ({})\n", key, why));
  }
}

// 't', 'r', 'f:q' at the front of a data command's arguments.
struct CellAddress {
  std::string table, row, column, family, qualifier;
};

// REQUIRES: the table checked that there are at least three arguments.
Result<CellAddress> CellAddressArgs(CommandContext& ctx, const std::vector<HValue>& args) {
  CellAddress a;
  LBT_ASSIGN_OR_RETURN(a.table, StringArg(ctx, args, 0, "a table name"));
  LBT_ASSIGN_OR_RETURN(a.row, StringArg(ctx, args, 1, "a row key"));
  LBT_ASSIGN_OR_RETURN(a.column, StringArg(ctx, args, 2, "a column"));
  ColumnName name = SplitColumn(a.column);
  a.family = std::move(name.family);
  a.qualifier = std::move(name.qualifier);
  return a;
}

// ---- table helpers ----

// The table's spec, with HBase's wording for a missing or disabled table.
Result<TableSpec> RequireTable(CommandContext& ctx, std::string_view table, bool must_be_enabled) {
  Result<TableSpec> spec = ctx.bigtable()->GetTable(table);
  if (!spec.ok()) return spec.status().IsNotFound() ? UnknownTable(table) : spec.status();
  if (must_be_enabled && !spec->enabled) {
    return Status::FailedPrecondition(fmt::format("Table {} is disabled!", table));
  }
  return spec;
}

// The bigtable for reading or writing `table`'s data, once the table is
// known to exist and be enabled; its spec in *spec if asked.
Result<Bigtable*> DataTable(CommandContext& ctx, std::string_view table, TableSpec* spec = nullptr) {
  LBT_ASSIGN_OR_RETURN(TableSpec s, RequireTable(ctx, table, /*must_be_enabled=*/true));
  if (spec != nullptr) *spec = std::move(s);
  return ctx.bigtable();
}

// Reads NAME/VERSIONS/TTL from a family hash into *family; other keys
// mean nothing locally and are reported on stderr, as HBase reports
// arguments it ignores.
Status ApplyFamilyOptions(CommandContext& ctx, const HValue& hash, FamilySpec* family, HBaseFamilyShape* shape) {
  for (const auto& [key, value] : hash.entries) {
    if (key == "NAME" || key == "METHOD") continue;
    if (key == "VERSIONS") {
      LBT_ASSIGN_OR_RETURN(shape->versions, IntValue(ctx, value, "VERSIONS"));
      if (shape->versions < 1) return Usage(ctx, "VERSIONS must be at least 1");
      if (shape->versions > kMaxGcVersions) {
        return Usage(ctx, fmt::format("VERSIONS must be at most {} (Bigtable keeps the count in 32 bits)",
                                      kMaxGcVersions));
      }
    } else if (key == "TTL") {
      if (value.kind == HValue::Kind::kString && value.text == "FOREVER") {
        shape->ttl_seconds = 0;
      } else {
        LBT_ASSIGN_OR_RETURN(shape->ttl_seconds, IntValue(ctx, value, "TTL"));
        if (shape->ttl_seconds < 1) return Usage(ctx, "TTL must be a positive number of seconds or FOREVER");
        constexpr int64_t kMaxTtlSeconds = kMaxGcAgeMicros / 1000000;
        if (shape->ttl_seconds > kMaxTtlSeconds) {
          return Usage(ctx, fmt::format("TTL must be at most {} seconds (10,000 years, as Bigtable allows)",
                                        kMaxTtlSeconds));
        }
      }
    } else {
      ctx.err->Write(fmt::format("Argument ignored for column family {}: {} (no meaning for a local database)\n",
                                 family->name, key));
    }
  }
  family->gc_rule = RuleFor(*shape);
  return Status::OK();
}

// ---- DDL ----

Status Create(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  std::vector<FamilySpec> families;
  for (size_t i = 1; i < args.size(); ++i) {
    const HValue& a = args[i];
    FamilySpec family;
    HBaseFamilyShape shape;
    if (a.IsString()) {
      family.name = a.text;
      family.gc_rule = RuleFor(shape);
    } else if (a.IsHash() && a.Find("NAME") != nullptr) {
      LBT_ASSIGN_OR_RETURN(family.name, StringArg(ctx, {*a.Find("NAME")}, 0, "NAME"));
      LBT_RETURN_IF_ERROR(ApplyFamilyOptions(ctx, a, &family, &shape));
    } else if (a.IsHash()) {
      for (const auto& [key, value] : a.entries) {
        ctx.err->Write(fmt::format("Argument ignored for table {}: {} (no meaning for a local database)\n", table, key));
      }
      continue;
    } else {
      return Usage(ctx, fmt::format("expected a family name or {{NAME => ...}}, got {}", a.Describe()));
    }
    families.push_back(std::move(family));
  }
  if (families.empty()) return Usage(ctx, "create needs at least one column family");
  Bigtable* bigtable = ctx.bigtable();
  Status s = bigtable->CreateTable(table, families, {}, /*deletion_protection=*/false);
  if (s.IsAlreadyExists()) return Status::AlreadyExists(fmt::format("Table already exists: {}!", table));
  LBT_RETURN_IF_ERROR(s);
  ctx.renderer->TableCreated(table);
  return Status::OK();
}

Status Alter(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  Bigtable* bigtable = ctx.bigtable();
  for (size_t i = 1; i < args.size(); ++i) {
    const HValue& change = args[i];
    if (!change.IsHash()) return Usage(ctx, fmt::format("expected a hash, got {}", change.Describe()));
    LBT_ASSIGN_OR_RETURN(TableSpec spec, RequireTable(ctx, table, false));
    if (const HValue* doomed = change.Find("delete")) {
      LBT_RETURN_IF_ERROR(bigtable->DeleteFamily(table, doomed->text));
      continue;
    }
    const HValue* name = change.Find("NAME");
    if (name == nullptr || !name->IsString()) return Usage(ctx, "alter needs NAME => 'family'");
    const HValue* method = change.Find("METHOD");
    if (method != nullptr && method->text == "delete") {
      LBT_RETURN_IF_ERROR(bigtable->DeleteFamily(table, name->text));
      continue;
    }
    FamilySpec family;
    family.name = name->text;
    HBaseFamilyShape shape;
    if (const FamilySpec* existing = spec.FindFamily(name->text)) {
      family = *existing;
      shape = ShapeOf(existing->gc_rule).value_or(HBaseFamilyShape{});
    }
    LBT_RETURN_IF_ERROR(ApplyFamilyOptions(ctx, change, &family, &shape));
    if (spec.FindFamily(name->text) != nullptr) {
      LBT_RETURN_IF_ERROR(bigtable->SetGcRule(table, family.name, family.gc_rule));
    } else {
      LBT_RETURN_IF_ERROR(bigtable->CreateFamily(table, family));
    }
  }
  ctx.renderer->SchemaAltered();
  return Status::OK();
}

Status Describe(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  LBT_ASSIGN_OR_RETURN(TableSpec spec, RequireTable(ctx, table, false));
  ctx.renderer->TableInfo(spec);
  return Status::OK();
}

Status List(CommandContext& ctx, const std::vector<HValue>& args) {
  std::string pattern = ".*";
  if (!args.empty()) {
    LBT_ASSIGN_OR_RETURN(pattern, StringArg(ctx, args, 0, "a regular expression"));
  }
  RE2 re(pattern);
  if (!re.ok()) return Usage(ctx, fmt::format("invalid regular expression '{}': {}", pattern, re.error()));
  std::vector<std::string> tables;
  if (ctx.session->ExistsOrNote(ctx.err)) {
    LBT_ASSIGN_OR_RETURN(std::vector<std::string> all, ctx.bigtable()->ListTables());
    for (const std::string& t : all) {
      if (RE2::FullMatch(t, re)) tables.push_back(t);
    }
  }
  ctx.renderer->Tables(tables);
  return Status::OK();
}

Status Exists(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  Result<TableSpec> spec = ctx.bigtable()->GetTable(table);
  if (!spec.ok() && !spec.status().IsNotFound()) return spec.status();
  const bool exists = spec.ok();
  ctx.renderer->TableExists(table, exists);
  return Status::OK();
}

// ---- informational commands of the HBase shell ----

Status ShowFilters(CommandContext& ctx, const std::vector<HValue>&) {
  ctx.renderer->Names("filters", HBaseFilterNames());
  return Status::OK();
}

// One namespace: HBase's default, where every table lives.
Status ListNamespace(CommandContext& ctx, const std::vector<HValue>&) {
  ctx.renderer->Names("namespaces", {"default"});
  return Status::OK();
}

Status Whoami(CommandContext& ctx, const std::vector<HValue>&) {
  const passwd* pw = getpwuid(geteuid());
  ctx.renderer->User(pw != nullptr ? pw->pw_name : std::to_string(geteuid()));
  return Status::OK();
}

// A local database is one server holding one region per table.
Status ClusterStatus(CommandContext& ctx, const std::vector<HValue>&) {
  size_t tables = 0;
  if (ctx.session->ExistsOrNote(ctx.err)) {
    LBT_ASSIGN_OR_RETURN(std::vector<std::string> names, ctx.bigtable()->ListTables());
    tables = names.size();
  }
  ctx.renderer->ServerStatus(static_cast<int64_t>(tables));
  return Status::OK();
}

// The table's split keys, as the service samples them (SampleRowKeys, as
// Google's HBase adapter answers getRegionLocations): locally a key about
// every 4 MiB of data.
Status GetSplits(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  LBT_RETURN_IF_ERROR(RequireTable(ctx, table, false).status());
  LBT_ASSIGN_OR_RETURN(std::vector<KeySample> samples, ctx.bigtable()->SampleRowKeys(table, RowRange::All()));
  std::vector<std::string> keys;
  for (KeySample& s : samples) {
    if (!s.row_key.empty()) keys.push_back(std::move(s.row_key));  // the last sample ends the table
  }
  ctx.renderer->Splits(keys);
  return Status::OK();
}

Status SetEnabled(CommandContext& ctx, const std::vector<HValue>& args, bool enabled) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  LBT_RETURN_IF_ERROR(RequireTable(ctx, table, false).status());
  LBT_ASSIGN_OR_RETURN(LocalMaintenance * local, LocalOnly(ctx, enabled ? "enable" : "disable"));
  return local->SetTableEnabled(table, enabled);
}

Status Disable(CommandContext& ctx, const std::vector<HValue>& args) { return SetEnabled(ctx, args, false); }
Status Enable(CommandContext& ctx, const std::vector<HValue>& args) { return SetEnabled(ctx, args, true); }

Status IsEnabledOrDisabled(CommandContext& ctx, const std::vector<HValue>& args, bool ask_enabled) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  LBT_ASSIGN_OR_RETURN(TableSpec spec, RequireTable(ctx, table, false));
  bool answer = ask_enabled ? spec.enabled : !spec.enabled;
  ctx.renderer->TableState(ask_enabled ? "enabled" : "disabled", answer);
  return Status::OK();
}

Status IsEnabled(CommandContext& ctx, const std::vector<HValue>& args) { return IsEnabledOrDisabled(ctx, args, true); }
Status IsDisabled(CommandContext& ctx, const std::vector<HValue>& args) { return IsEnabledOrDisabled(ctx, args, false); }

Status Drop(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  Bigtable* bigtable = ctx.bigtable();
  LBT_ASSIGN_OR_RETURN(TableSpec spec, RequireTable(ctx, table, false));
  // A remote table cannot be disabled (Bigtable has no such state), so
  // HBase's rule applies to local tables only.
  if (spec.enabled && bigtable->local() != nullptr) {
    return Status::FailedPrecondition(fmt::format("Table {} is enabled. Disable it first.", table));
  }
  return bigtable->DeleteTable(table);
}

Status Truncate(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  Bigtable* bigtable = ctx.bigtable();
  LBT_RETURN_IF_ERROR(RequireTable(ctx, table, false).status());
  ctx.renderer->Truncating(table);
  LBT_RETURN_IF_ERROR(bigtable->DropRowRange(table, ""));
  // HBase leaves a truncated table enabled.
  if (LocalMaintenance* local = bigtable->local()) return local->SetTableEnabled(table, true);
  return Status::OK();
}

// ---- data ----

Result<int64_t> TimestampArg(CommandContext& ctx, const HValue& v) {
  LBT_ASSIGN_OR_RETURN(int64_t ms, IntValue(ctx, v, "a timestamp (milliseconds)"));
  // Past the year 9999 in milliseconds: almost surely microseconds or nanoseconds.
  constexpr int64_t kYear10000Ms = 253402300800000;
  if (ms < 0 || ms >= kYear10000Ms) {
    return Usage(ctx, fmt::format("timestamp {} is out of range; HBase timestamps are milliseconds since the "
                                  "epoch (1700000000000 is November 2023)",
                                  ms));
  }
  return ms * kMicrosPerMs;
}

Status Put(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  LBT_ASSIGN_OR_RETURN(std::string row, StringArg(ctx, args, 1, "a row key"));
  LBT_ASSIGN_OR_RETURN(std::string column, StringArg(ctx, args, 2, "a column"));
  LBT_ASSIGN_OR_RETURN(std::string value, StringArg(ctx, args, 3, "a value"));
  int64_t ts = kServerTime;
  if (args.size() > 4 && !args[4].IsHash()) {
    LBT_ASSIGN_OR_RETURN(ts, TimestampArg(ctx, args[4]));
  }
  ColumnName name = SplitColumn(column);
  LBT_ASSIGN_OR_RETURN(Bigtable * bigtable, DataTable(ctx, table));
  return bigtable->MutateRow(table, row, {Mutation::SetCell(name.family, name.qualifier, value, ts)});
}

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
  TableSpec spec;
  LBT_ASSIGN_OR_RETURN(Bigtable * bigtable, DataTable(ctx, table, &spec));
  for (const ColumnSelector& c : read.request.columns) {
    if (spec.FindFamily(c.family) == nullptr) {
      return Status::NotFound(fmt::format("Unknown column family '{}' in table {}; its families are: {}", c.family,
                                          table, spec.FamilyList()));
    }
  }
  read.request.rows.row_keys = {row_key};
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, bigtable->ReadRows(table, read.request));
  std::optional<Row> row;
  LBT_RETURN_IF_ERROR(ForEachRow(stream.get(), [&](const Row& r, int64_t) { row = r; }).status());
  read.view.table = &spec;
  read.view.layout = RowsLayout::kHBaseGet;
  ctx.renderer->BeginRows(read.view);
  if (row) ctx.renderer->Row(*row);
  ctx.renderer->EndRows(nullptr);
  return Status::OK();
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
  TableSpec spec;
  LBT_ASSIGN_OR_RETURN(Bigtable * bigtable, DataTable(ctx, table, &spec));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, bigtable->ReadRows(table, read.request));
  read.view.table = &spec;
  read.view.layout = RowsLayout::kHBaseScan;
  ctx.renderer->BeginRows(read.view);
  LBT_RETURN_IF_ERROR(ForEachRow(stream.get(), [&](const Row& row, int64_t) { ctx.renderer->Row(row); }).status());
  ctx.renderer->EndRows(nullptr);
  return Status::OK();
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
  LBT_ASSIGN_OR_RETURN(Bigtable * bigtable, DataTable(ctx, table));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, bigtable->ReadRows(table, read.request));
  LBT_ASSIGN_OR_RETURN(int64_t rows, ForEachRow(stream.get(), [&](const Row& row, int64_t n) {
    if (n % interval == 0) ctx.renderer->CountProgress(n, row.key);
  }));
  ctx.renderer->Count(rows);
  return Status::OK();
}

Status Delete(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(CellAddress a, CellAddressArgs(ctx, args));
  const std::string &table = a.table, &row_key = a.row, &family = a.family, &qualifier = a.qualifier;
  LBT_ASSIGN_OR_RETURN(Bigtable * bigtable, DataTable(ctx, table));
  int64_t ts;
  if (args.size() > 3 && !args[3].IsHash()) {
    LBT_ASSIGN_OR_RETURN(ts, TimestampArg(ctx, args[3]));
  } else {
    // Without a timestamp, HBase deletes the newest version only.
    LBT_ASSIGN_OR_RETURN(std::optional<Cell> latest, LatestCell(bigtable, table, row_key, family, qualifier));
    if (!latest) return Status::OK();
    ts = latest->timestamp;
  }
  return bigtable->MutateRow(table, row_key, {Mutation::DeleteFromColumn(family, qualifier, {ts, ts + kMicrosPerMs})});
}

Status DeleteAll(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  if (args.size() == 2 && args[1].IsHash()) {
    const HValue* prefix = args[1].Find("ROWPREFIXFILTER");
    if (prefix == nullptr || !prefix->IsString()) return Usage(ctx, "deleteall takes a row, or {ROWPREFIXFILTER => 'p'}");
    LBT_ASSIGN_OR_RETURN(Bigtable * bigtable, DataTable(ctx, table));
    return bigtable->DropRowRange(table, prefix->text);
  }
  LBT_ASSIGN_OR_RETURN(std::string row_key, StringArg(ctx, args, 1, "a row key"));
  LBT_ASSIGN_OR_RETURN(Bigtable * bigtable, DataTable(ctx, table));
  if (args.size() == 2) return bigtable->MutateRow(table, row_key, {Mutation::DeleteFromRow()});
  LBT_ASSIGN_OR_RETURN(std::string column, StringArg(ctx, args, 2, "a column"));
  ColumnName name = SplitColumn(column);
  TimestampRange range;
  if (args.size() > 3) {
    // With a timestamp: every version at or before it.
    LBT_ASSIGN_OR_RETURN(int64_t ts, TimestampArg(ctx, args[3]));
    range = {0, ts + kMicrosPerMs};
  }
  Mutation m = name.has_colon ? Mutation::DeleteFromColumn(name.family, name.qualifier, range)
                             : Mutation::DeleteFromFamily(name.family);
  return bigtable->MutateRow(table, row_key, {m});
}

Status Incr(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(CellAddress a, CellAddressArgs(ctx, args));
  const std::string &table = a.table, &row_key = a.row, &family = a.family, &qualifier = a.qualifier;
  int64_t delta = 1;
  if (args.size() > 3 && !args[3].IsHash()) {
    LBT_ASSIGN_OR_RETURN(delta, IntValue(ctx, args[3], "the increment"));
  }
  LBT_ASSIGN_OR_RETURN(Bigtable * bigtable, DataTable(ctx, table));
  LBT_ASSIGN_OR_RETURN(Row out, bigtable->ReadModifyWriteRow(table, row_key, {ReadModifyWriteRule::Increment(family, qualifier, delta)}));
  int64_t value = 0;
  DecodeInt64(out.cells.at(0).value, &value);
  ctx.renderer->Counter(value);
  return Status::OK();
}

Status GetCounter(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(CellAddress a, CellAddressArgs(ctx, args));
  const std::string &table = a.table, &row_key = a.row, &column = a.column, &family = a.family,
                    &qualifier = a.qualifier;
  LBT_ASSIGN_OR_RETURN(Bigtable * bigtable, DataTable(ctx, table));
  LBT_ASSIGN_OR_RETURN(std::optional<Cell> latest, LatestCell(bigtable, table, row_key, family, qualifier));
  if (!latest) {
    ctx.renderer->Counter(std::nullopt);
    return Status::OK();
  }
  int64_t value;
  if (!DecodeInt64(latest->value, &value)) {
    return Status::FailedPrecondition(fmt::format("{} holds {} bytes, not an 8-byte counter", column,
                                                  latest->value.size()));
  }
  ctx.renderer->Counter(value);
  return Status::OK();
}

Status Append(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(CellAddress a,
                       CellAddressArgs(ctx, args));
  const std::string &table = a.table, &row_key = a.row, &family = a.family, &qualifier = a.qualifier;
  LBT_ASSIGN_OR_RETURN(std::string value, StringArg(ctx, args, 3, "a value"));
  LBT_ASSIGN_OR_RETURN(Bigtable * bigtable, DataTable(ctx, table));
  LBT_ASSIGN_OR_RETURN(Row out, bigtable->ReadModifyWriteRow(table, row_key, {ReadModifyWriteRule::Append(family, qualifier, value)}));
  ctx.renderer->AppendedRow(out);
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> HBaseCommands() {
  constexpr int kMany = ArgCount::kMany;
  const std::vector<std::string_view> read_keys = {"COLUMN", "COLUMNS", "TIMESTAMP", "TIMERANGE", "VERSIONS",
                                                   "FILTER", "MAXLENGTH", "ATTRIBUTES", "AUTHORIZATIONS",
                                                   "CONSISTENCY"};
  const std::vector<std::string_view> scan_keys = {
      "ROWPREFIXFILTER", "STARTROW", "STOPROW", "LIMIT",        "COLUMNS",    "COLUMN",
      "TIMESTAMP",       "TIMERANGE", "VERSIONS", "REVERSED",   "FILTER",     "MAXLENGTH",
      "CACHE",           "CACHE_BLOCKS", "RAW",   "ATTRIBUTES", "AUTHORIZATIONS", "CONSISTENCY"};
  return {
      HBaseCommand("alter", "alter 't', NAME => 'f', VERSIONS => 5 | alter 't', NAME => 'f', METHOD => 'delete'",
                   "Change, add or delete a column family",
                   "  Example: alter 't', NAME => 'f1', VERSIONS => 5, TTL => 86400", Alter,
                   {2, kMany, "a table and a family change such as NAME => 'f1', VERSIONS => 5"},
                   {"NAME", "VERSIONS", "TTL", "METHOD"}),
      HBaseCommand("append", "append 't', 'r', 'f:q', 'value'", "Append to a cell's value",
                   "  Prints CURRENT VALUE = <the new value>.", Append, {4, 4, "a table, a row, a column and a value"}),
      HBaseCommand("count", "count 't' [, {INTERVAL => n, STARTROW => 'r', STOPROW => 'r', FILTER => \"...\"}]",
                   "Count rows (HBase form: the table in quotes)", "  Example: count 'vehicles', {INTERVAL => 10000}",
                   Count, {1, 2, "a table and one hash of options"},
                   {"INTERVAL", "STARTROW", "STOPROW", "ROWPREFIXFILTER", "FILTER", "CACHE"}),
      HBaseCommand("create", "create 't', 'f1', 'f2' | create 't', {NAME => 'f1', VERSIONS => 3, TTL => 86400}",
                   "Create a table (HBase form)",
                   "  VERSIONS becomes maxversions and TTL (seconds) maxage; with both, either\n"
                   "  collects a cell. Without VERSIONS a family keeps 1 version, as in HBase.\n"
                   "  Options with no local meaning (BLOOMFILTER, COMPRESSION, ...) are ignored.",
                   Create, {2, kMany, "a table and at least one column family"}, {"NAME", "VERSIONS", "TTL"}),
      HBaseCommand("delete", "delete 't', 'r', 'f:q' [, ts]",
                   "Delete one version of a cell (the newest, or the one at ts)", "", Delete,
                   {3, 4, "a table, a row and a column"}),
      HBaseCommand("deleteall", "deleteall 't', 'r' [, 'f:q' [, ts]] | deleteall 't', {ROWPREFIXFILTER => 'p'}",
                   "Delete a row, a column, or every row with a prefix", "", DeleteAll,
                   {2, 4, "a table and a row, or a table and {ROWPREFIXFILTER => 'p'}"},
                   {"ROWPREFIXFILTER"}),
      HBaseCommand("desc", "desc 't'", "Describe a table (HBase form)", "", Describe, {1, 1, "a table"}),
      HBaseCommand("describe", "describe 't'", "Describe a table (HBase form)", "", Describe, {1, 1, "a table"}),
      HBaseCommand("disable", "disable 't'", "Disable a table: it keeps its data but refuses reads and writes", "",
                   Disable, {1, 1, "a table"}),
      HBaseCommand("drop", "drop 't'", "Drop a disabled table", "", Drop, {1, 1, "a table"}),
      HBaseCommand("enable", "enable 't'", "Enable a table", "", Enable, {1, 1, "a table"}),
      HBaseCommand("exists", "exists 't'", "Tell whether a table exists", "", Exists, {1, 1, "a table"}),
      HBaseCommand("get",
                   "get 't', 'r' [, 'f:q', ... | {COLUMN(S) =>, TIMESTAMP =>, TIMERANGE => [a, b], VERSIONS =>, "
                   "FILTER =>}]",
                   "Read one row (HBase form)", "  Example: get 't1', 'r1', {COLUMN => 'f:q', VERSIONS => 3}", Get,
                   {2, kMany, "a table and a row"}, read_keys),
      HBaseCommand("get_counter", "get_counter 't', 'r', 'f:q'", "Print an 8-byte counter", "", GetCounter,
                   {3, 3, "a table, a row and a column"}),
      HBaseCommand("get_splits", "get_splits 't'", "Print a table's split keys (sampled about every 4 MiB locally)", "",
                   GetSplits, {1, 1, "a table"}),
      HBaseCommand("incr", "incr 't', 'r', 'f:q' [, n]", "Increment an 8-byte big-endian counter", "", Incr,
                   {3, 4, "a table, a row and a column"}),
      HBaseCommand("is_disabled", "is_disabled 't'", "Tell whether a table is disabled", "", IsDisabled,
                   {1, 1, "a table"}),
      HBaseCommand("is_enabled", "is_enabled 't'", "Tell whether a table is enabled", "", IsEnabled, {1, 1, "a table"}),
      HBaseCommand("list", "list ['regex']", "List tables (HBase form)", "", List,
                   {0, 1, "at most one regular expression"}),
      HBaseCommand("list_namespace", "list_namespace ['regex']", "List namespaces (only default, locally)", "",
                   ListNamespace, {0, 1, "at most one regular expression"}),
      HBaseCommand("put", "put 't', 'r', 'f:q', 'value' [, ts]", "Write a cell (timestamps in milliseconds)", "", Put,
                   {4, 5, "a table, a row, a column and a value"}),
      HBaseCommand("scan",
                   "scan 't' [, {ROWPREFIXFILTER =>, STARTROW =>, STOPROW =>, LIMIT =>, COLUMNS =>, TIMESTAMP =>, "
                   "TIMERANGE =>, VERSIONS =>, REVERSED =>, FILTER =>, MAXLENGTH =>}]",
                   "Scan rows (HBase form)",
                   "  Example: scan 'vehicles', {ROWPREFIXFILTER => 'STC#22#'}\n"
                   "  Example: scan 't', {FILTER => \"PrefixFilter('user#') AND ValueFilter(=, 'substring:ok')\"}",
                   Scan, {1, 2, "a table and one hash of options"}, scan_keys),
      HBaseCommand("show_filters", "show_filters", "List the filters FILTER => \"...\" knows", "", ShowFilters,
                   {0, 0, "no arguments"}),
      HBaseCommand("status", "status ['simple']", "Show the cluster's status (one local server)", "", ClusterStatus,
                   {0, 1, "at most one of 'simple', 'summary' or 'detailed'"}),
      HBaseCommand("truncate", "truncate 't'", "Delete every row of a table, keeping its schema", "", Truncate,
                   {1, 1, "a table"}),
      HBaseCommand("whoami", "whoami", "Show the current user", "", Whoami, {0, 0, "no arguments"}),
  };
}

}  // namespace lbt
