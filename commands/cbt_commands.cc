// The cbt dialect: each command takes cbt's arguments and prints what cbt
// prints for the same data (see renderer.cc for the formats).

#include <fmt/format.h>

#include <chrono>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "commands/bulk_io.h"
#include "api/version.h"
#include "commands/cbt_args.h"
#include "commands/command_table.h"
#include "commands/filter_json.h"
#include "commands/gc_policy_text.h"
#include "commands/interrupt.h"
#include "commands/lookups.h"
#include "sql/parser.h"
#include "sql/query.h"
#include "commands/progress.h"
#include "commands/read_helpers.h"
#include "filter/row_filter.h"

namespace lbt {

namespace {

Status Ls(CommandContext& ctx, const std::vector<std::string>& args) {
  if (args.empty()) {
    std::vector<std::string> tables;
    if (ctx.session->ExistsOrNote(ctx.err)) {
      LBT_ASSIGN_OR_RETURN(tables, ctx.bigtable()->ListTables());
    }
    ctx.renderer->Tables(tables);
    return Status::OK();
  }
  Bigtable* bigtable = ctx.bigtable();
  LBT_ASSIGN_OR_RETURN(TableSpec spec, bigtable->GetTable(args[0]));
  ctx.renderer->TableInfo(spec);
  return Status::OK();
}

// "<family>[:<gcpolicy>[:<type>]]", as createtable's families= and
// createfamily take it.
Result<FamilySpec> ParseFamilySpec(const std::string& text) {
  FamilySpec family;
  size_t colon = text.find(':');
  family.name = text.substr(0, colon);
  if (colon == std::string::npos) return family;
  std::string rest = text.substr(colon + 1);
  size_t type_colon = rest.find(':');
  std::string policy = rest.substr(0, type_colon);
  LBT_ASSIGN_OR_RETURN(family.gc_rule, ParseGcPolicy(policy));
  if (type_colon != std::string::npos) {
    std::string type = rest.substr(type_colon + 1);
    if (type == "inthll") {
      return Status::InvalidArgument("the inthll value type is not supported by lbt; use intsum, intmin or intmax");
    }
    LBT_ASSIGN_OR_RETURN(family.value_type, ParseValueType(type));
    if (family.value_type == ValueType::kBytes) {
      return Status::InvalidArgument(fmt::format("unknown value type '{}'; expected intsum, intmin or intmax", type));
    }
  }
  return family;
}

Status CreateTable(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 1));
  std::vector<FamilySpec> families;
  if (const std::string* list = parsed.Find("families")) {
    for (const std::string& item : SplitList(*list)) {
      LBT_ASSIGN_OR_RETURN(FamilySpec f, ParseFamilySpec(item));
      families.push_back(std::move(f));
    }
  }
  // splits= shapes a service's tablets; a local database has none to shape.
  std::vector<std::string> splits;
  if (const std::string* list = parsed.Find("splits")) splits = SplitList(*list);
  return ctx.bigtable()->CreateTable(parsed.positional[0], families, splits, /*deletion_protection=*/false);
}

Status CreateFamily(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(FamilySpec family, ParseFamilySpec(args[1]));
  Bigtable* bigtable = ctx.bigtable();
  return bigtable->CreateFamily(args[0], family);
}

Status DeleteFamily(CommandContext& ctx, const std::vector<std::string>& args) {
  Bigtable* bigtable = ctx.bigtable();
  return bigtable->DeleteFamily(args[0], args[1]);
}

Status DeleteTable(CommandContext& ctx, const std::vector<std::string>& args) {
  Bigtable* bigtable = ctx.bigtable();
  return bigtable->DeleteTable(args[0]);
}

Status DeleteAllRows(CommandContext& ctx, const std::vector<std::string>& args) {
  Bigtable* bigtable = ctx.bigtable();
  return bigtable->DropRowRange(args[0], "");
}

Status SetGcPolicy(CommandContext& ctx, const std::vector<std::string>& args) {
  std::vector<std::string> words(args.begin() + 2, args.end());
  // "force" overrides cbt's warning about loosening a replicated policy;
  // there is nothing to override locally.
  if (words.back() == "force") words.pop_back();
  std::string policy;
  for (const std::string& w : words) policy += (policy.empty() ? "" : " ") + w;
  LBT_ASSIGN_OR_RETURN(GcRule rule, ParseGcPolicy(policy));
  Bigtable* bigtable = ctx.bigtable();
  return bigtable->SetGcRule(args[0], args[1], rule);
}

// Prepares `text` where the target runs SQL: a remote service's own
// engine, or here over its reads (`local`). A service that answers
// UNIMPLEMENTED (the official emulator) gets its queries run here, with a
// note the first time.
Result<std::unique_ptr<sql::PreparedQuery>> PrepareSql(CommandContext& ctx, sql::LocalQueryService* local,
                                                       const std::string& text, const sql::ParamTypes& types) {
  sql::QueryService* service = sql::QueryServiceFor(ctx.bigtable(), local);
  if (service == local || ctx.session->sql_runs_here()) return local->Prepare(text, types);
  Result<std::unique_ptr<sql::PreparedQuery>> query = service->Prepare(text, types);
  if (query.ok() || query.status().code() != Status::Code::kUnimplemented) return query;
  ctx.err->Write(fmt::format("note: {} does not run SQL ({}); lbt runs queries here, over its rows\n",
                             ctx.bigtable()->Describe(), query.status().message()));
  ctx.session->set_sql_runs_here();
  return local->Prepare(text, types);
}

// EXPLAIN's answer, itself a one-row result: what the query read.
void RenderPlan(CommandContext& ctx, const sql::QueryStats& stats) {
  ctx.renderer->BeginQuery({{"table", sql::Type::String()},
                            {"ranges_read", sql::Type::String()},
                            {"rows_examined", sql::Type::Int64()},
                            {"rows_returned", sql::Type::Int64()}});
  ctx.renderer->QueryRow({sql::Value::String(stats.table), sql::Value::String(stats.ranges),
                          sql::Value::Int64(stats.rows_examined), sql::Value::Int64(stats.rows_returned)});
  ctx.renderer->EndQuery(nullptr);
}

// What follows `sql`: [@name=<literal> ...] [EXPLAIN] <query>.
struct SqlStatement {
  std::string query;
  bool explain = false;
  sql::Params params;
  sql::ParamTypes types;
};

Result<SqlStatement> ParseSqlStatement(const std::vector<std::string>& args) {
  std::string text;
  for (const std::string& a : args) text += (text.empty() ? "" : " ") + a;
  SqlStatement statement;
  size_t start = 0;
  LBT_ASSIGN_OR_RETURN(std::vector<sql::ParameterBinding> bindings, sql::ParseParameterBindings(text, &start));
  for (sql::ParameterBinding& b : bindings) {
    statement.types[b.name] = b.value.type();
    statement.params[b.name] = std::move(b.value);
  }
  statement.query = text.substr(start);
  const std::string head = statement.query.substr(0, 8);
  statement.explain = statement.query.size() > 8 && (head == "EXPLAIN " || head == "explain ");
  if (statement.explain) statement.query = statement.query.substr(8);
  return statement;
}

// `sql <query>`: the words joined back into the query, after any parameter
// values. EXPLAIN before a query runs it and shows what it read instead of
// its rows; it always runs here, since only here are the rows read visible.
Status Sql(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(SqlStatement statement, ParseSqlStatement(args));
  sql::LocalQueryService local(ctx.bigtable());
  std::unique_ptr<sql::PreparedQuery> query;
  if (statement.explain) {
    LBT_ASSIGN_OR_RETURN(query, local.Prepare(statement.query, statement.types));
  } else {
    LBT_ASSIGN_OR_RETURN(query, PrepareSql(ctx, &local, statement.query, statement.types));
  }
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<sql::ResultStream> rows, query->Execute(statement.params));
  if (!statement.explain) ctx.renderer->BeginQuery(query->columns());
  for (sql::Values row; rows->Next(&row);) {
    if (InterruptRequested()) return Status::Cancelled("interrupted");
    if (!statement.explain) ctx.renderer->QueryRow(row);
  }
  LBT_RETURN_IF_ERROR(rows->status());
  if (statement.explain) {
    RenderPlan(ctx, rows->stats());
  } else {
    ctx.renderer->EndQuery(nullptr);
  }
  return Status::OK();
}

// cbt's names for setvaluetype. "stringutf8bytes" is sent as cbt sends it,
// under the deprecated encoding, which Bigtable stores as UTF-8 bytes; the
// aggregate names are passed on for the service to refuse (or, on the
// emulator, to accept).
Result<ValueType> ParseSetValueType(const std::string& name) {
  if (name == "stringutf8bytes") return ValueType::kStringUtf8Raw;
  for (ValueType t : {ValueType::kIntSum, ValueType::kIntMin, ValueType::kIntMax}) {
    if (name == ValueTypeName(t)) return t;
  }
  return Status::InvalidArgument(fmt::format("unknown type '{}'; the supported type is stringutf8bytes", name));
}

Status SetValueType(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(ValueType type, ParseSetValueType(args[2]));
  return ctx.bigtable()->SetValueType(args[0], args[1], type);
}

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

// The words after <table> <row> of set/addtocell: options, then cells.
Result<std::vector<CellArg>> CellArgs(CommandContext& ctx, const std::vector<std::string>& args) {
  std::vector<CellArg> cells;
  for (size_t i = 2; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("app-profile=", 0) == 0) continue;  // one local profile
    if (arg.rfind("authorized-view=", 0) == 0) {
      return Status::InvalidArgument("authorized views are not supported by lbt");
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
    mutations.push_back(Mutation::SetCell(c.family, c.qualifier, std::move(v.value), v.timestamp.value_or(kServerTime)));
  }
  Bigtable* bigtable = ctx.bigtable();
  LBT_RETURN_IF_ERROR(bigtable->MutateRow(args[0], args[1], mutations));
  NoteExpiredCells(ctx, bigtable, args[0], mutations);
  return Status::OK();
}

Status AddToCell(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(std::vector<CellArg> cells, CellArgs(ctx, args));
  std::vector<Mutation> mutations;
  for (CellArg& c : cells) {
    ValueAndTimestamp v = SplitTimestamp(c.value);
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
  Bigtable* bigtable = ctx.bigtable();
  return bigtable->MutateRow(args[0], args[1], mutations);
}

Status DeleteRow(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 2));
  Bigtable* bigtable = ctx.bigtable();
  return bigtable->MutateRow(args[0], args[1], {Mutation::DeleteFromRow()});
}

Status DeleteColumn(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 4));
  Bigtable* bigtable = ctx.bigtable();
  return bigtable->MutateRow(args[0], args[1], {Mutation::DeleteFromColumn(args[2], args[3])});
}

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
      filters.push_back(Filter::Chain({Filter::FamilyNameRegex(column.substr(0, colon)),
                                       Filter::QualifierRegex(column.substr(colon + 1))}));
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
  if (args.Find("authorized-view") != nullptr) return Status::InvalidArgument("authorized views are not supported by lbt");
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

// Streams the rows of a read to the renderer.
Status StreamRows(CommandContext& ctx, const std::string& table, const ReadRequest& request, bool with_stats,
                  bool is_lookup) {
  auto start = std::chrono::steady_clock::now();
  Bigtable* bigtable = ctx.bigtable();
  LBT_ASSIGN_OR_RETURN(TableSpec spec, SchemaForReading(bigtable, table));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, bigtable->ReadRows(table, request));
  // A long local read renders on one core while the engine reads ahead on
  // the other.
  if (!is_lookup && bigtable->local() != nullptr) stream = std::make_unique<ReadAheadStream>(std::move(stream));
  ctx.renderer->BeginRows(&spec);
  // Rows printed to a terminal show their own progress.
  Progress progress(ctx.err, "reading " + table, !ctx.out->IsTerminal());
  LBT_ASSIGN_OR_RETURN(int64_t rows, ForEachRow(stream.get(), [&](const Row& row, int64_t n) {
    ctx.renderer->Row(row);
    progress.Update(n);
  }));
  if (is_lookup && rows == 0) ctx.renderer->AbsentRow();
  ReadSummary summary;
  summary.stats = stream->stats();
  summary.filter_placement = stream->FilterPlacement();
  summary.latency_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::steady_clock::now() - start).count();
  ctx.renderer->EndRows(with_stats ? &summary : nullptr);
  return Status::OK();
}

Status Lookup(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 2));
  LBT_RETURN_IF_ERROR(CheckUnsupported(parsed));
  ReadRequest request;
  request.rows.row_keys = {args[1]};
  LBT_ASSIGN_OR_RETURN(request.filter, ReadFilter(ctx, parsed));
  LBT_ASSIGN_OR_RETURN(bool with_stats, WantStats(ctx, parsed));
  return StreamRows(ctx, args[0], request, with_stats, /*is_lookup=*/true);
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
  LBT_ASSIGN_OR_RETURN(*spec, SchemaForReading(ctx.bigtable(), args[0]));
  std::vector<std::string> keys;
  for (size_t i = first; i < end; ++i) keys.push_back(lookups[i][2]);
  return ctx.bigtable()->LookupRows(args[0], keys, request);
}

// Whether two lookups can share a read: one table, the same options.
bool SameLookupBatch(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return a.size() == b.size() && a[1] == b[1] && std::equal(a.begin() + 3, a.end(), b.begin() + 3);
}

Status Read(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 1));
  LBT_RETURN_IF_ERROR(CheckUnsupported(parsed));
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
  return StreamRows(ctx, args[0], request, with_stats, /*is_lookup=*/false);
}

Status Count(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 1));
  RowRange range = RowRange::All();
  if (const std::string* prefix = parsed.Find("prefix")) range = RowRange::Prefix(*prefix);
  Bigtable* bigtable = ctx.bigtable();
  const std::string* json = parsed.Find("filter");
  if (json == nullptr) {
    LBT_ASSIGN_OR_RETURN(int64_t n, bigtable->CountRows(args[0], range));
    ctx.renderer->Count(n);
    return Status::OK();
  }
  // With a filter, a row counts when the filter leaves it a cell.
  ReadRequest request;
  request.rows.row_ranges = {range};
  LBT_ASSIGN_OR_RETURN(Filter filter, ParseFilterJson(*json));
  LBT_RETURN_IF_ERROR(CompileFilter(filter).status());
  request.filter = Filter::Chain({std::move(filter), Filter::StripValue()});
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, bigtable->ReadRows(args[0], request));
  LBT_ASSIGN_OR_RETURN(int64_t n, ForEachRow(stream.get(), [](const Row&, int64_t) {}));
  ctx.renderer->Count(n);
  return Status::OK();
}

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// format= if given; for an export, the file's extension (.csv or not).
Result<std::optional<bool>> FormatOption(CommandContext& ctx, const CbtArgs& parsed) {
  const std::string* format = parsed.Find("format");
  if (format == nullptr) return std::optional<bool>();
  if (*format != "csv" && *format != "jsonl") {
    return ctx.Usage(fmt::format("bad format '{}': expected csv or jsonl", *format));
  }
  return std::optional<bool>(*format == "jsonl");
}

Status Import(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 2));
  ImportRequest request;
  request.table = args[0];
  request.name = args[1];
  LBT_ASSIGN_OR_RETURN(request.jsonl, FormatOption(ctx, parsed));
  LBT_ASSIGN_OR_RETURN(request.batch_size, PositiveOption(ctx, parsed, "batch-size"));
  LBT_ASSIGN_OR_RETURN(request.workers, PositiveOption(ctx, parsed, "workers"));
  LBT_ASSIGN_OR_RETURN(request.sort_memory_mib, PositiveOption(ctx, parsed, "sort-memory"));
  if (request.sort_memory_mib && *request.sort_memory_mib > (1 << 20)) {
    return ctx.Usage(fmt::format("bad sort-memory '{}': expected MiB, at most 1048576", *request.sort_memory_mib));
  }
  if (const std::string* family = parsed.Find("column-family")) request.column_family = *family;
  if (const std::string* ts = parsed.Find("timestamp")) {
    if (*ts != "now" && *ts != "value-encoded") {
      return ctx.Usage(fmt::format("bad timestamp '{}': expected now or value-encoded", *ts));
    }
    request.value_encoded_timestamps = *ts == "value-encoded";
    request.timestamps_chosen = true;
  }
  // "-" reads standard input, which is sniffed as a file is but not sized.
  std::ifstream file;
  if (args[1] != "-") {
    std::error_code ec;
    if (std::filesystem::is_directory(args[1], ec)) {
      return Status::InvalidArgument(
          fmt::format("'{}' is a directory; import reads one CSV or JSON-lines file (or - for standard input)", args[1]));
    }
    file.open(args[1], std::ios::binary);
    if (!file) return Status::NotFound(fmt::format("cannot open '{}'", args[1]));
    file.seekg(0, std::ios::end);
    request.input_bytes = file.tellg();
    file.seekg(0);
  }
  return ImportRows(ctx.bigtable(), request, args[1] == "-" ? &std::cin : &file, ctx.err);
}

Status Export(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 2));
  LBT_ASSIGN_OR_RETURN(std::optional<bool> format, FormatOption(ctx, parsed));
  const bool jsonl = format ? *format : !EndsWith(args[1], ".csv");  // jsonl unless .csv
  ReadRequest read;
  LBT_ASSIGN_OR_RETURN(read.rows, RowsFromOptions(ctx, parsed));
  Bigtable* bigtable = ctx.bigtable();
  LBT_RETURN_IF_ERROR(bigtable->GetTable(args[0]).status());
  const bool to_stdout = args[1] == "-";
  FILE* file = to_stdout ? stdout : std::fopen(args[1].c_str(), "wb");
  if (file == nullptr) return Status::IOError(fmt::format("cannot write '{}': {}", args[1], std::strerror(errno)));
  int64_t rows = 0;
  Status status;
  {
    Output out(file);
    Progress progress(ctx.err, "exporting " + args[0]);
    Result<int64_t> written = ExportRows(bigtable, args[0], read, jsonl ? ExportFormat::kJsonl : ExportFormat::kCsv,
                                         ctx.session->options().bytes, &out, [&](int64_t n) {
                                           progress.Update(n);
                                           return InterruptRequested() ? Status::Cancelled("interrupted")
                                                                       : Status::OK();
                                         });
    status = written.status();
    if (written.ok()) rows = *written;
  }
  if (!to_stdout && std::fclose(file) != 0 && status.ok()) {
    status = Status::IOError(fmt::format("cannot write '{}'", args[1]));
  }
  LBT_RETURN_IF_ERROR(status);
  ctx.err->Write(fmt::format("Exported {} row{} to {}.\n", rows, rows == 1 ? "" : "s",
                             to_stdout ? "standard output" : args[1]));
  return Status::OK();
}

Status CollectGarbage(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(LocalMaintenance * local, ctx.LocalOnly());
  Progress progress(ctx.err, "collecting garbage in " + args[0]);
  LBT_ASSIGN_OR_RETURN(GcStats stats, local->CollectGarbage(args[0], [&](int64_t cells) {
    progress.Update(cells);
    return InterruptRequested() ? Status::Cancelled("interrupted; nothing was collected") : Status::OK();
  }));
  ctx.out->Write(fmt::format("collected {} of {} cells in {}\n", stats.cells_deleted, stats.cells_examined, args[0]));
  return Status::OK();
}

Status Compact(CommandContext& ctx, const std::vector<std::string>&) {
  LBT_ASSIGN_OR_RETURN(LocalMaintenance * local, ctx.LocalOnly());
  LBT_ASSIGN_OR_RETURN(CompactStats stats, local->Compact());
  auto size = [](uint64_t bytes) {
    if (bytes >= (10u << 20)) return fmt::format("{:.1f} MiB", bytes / 1048576.0);
    if (bytes >= (10u << 10)) return fmt::format("{:.1f} KiB", bytes / 1024.0);
    return fmt::format("{} bytes", bytes);
  };
  ctx.out->Write(fmt::format("compacted {}: {} -> {}\n", local->dir(), size(stats.bytes_before),
                             size(stats.bytes_after)));
  return Status::OK();
}

std::string HelpFor(std::string_view summary, std::string_view usage, std::string_view details) {
  std::string text = fmt::format("{}\n\n  {}\n", summary, usage);
  if (!details.empty()) text += fmt::format("\n{}\n", details);
  return text;
}

Status Help(CommandContext& ctx, const std::vector<std::string>& args) {
  if (args.size() == 1) {
    const CommandSpec* cbt = FindCommand(args[0], Dialect::kCbt);
    const CommandSpec* hbase = FindCommand(args[0], Dialect::kHBase);
    const CommandSpec* shell = FindCommand(args[0], Dialect::kShell);
    if (cbt == nullptr && hbase == nullptr && shell == nullptr) {
      std::string hint = SuggestCommand(args[0]);
      return Status::NotFound(fmt::format("no command '{}'{}", args[0],
                                          hint.empty() ? "" : fmt::format("; did you mean '{}'?", hint)));
    }
    std::string text;
    if (cbt != nullptr) text += HelpFor(cbt->summary, cbt->usage, cbt->details);
    if (cbt != nullptr && hbase != nullptr) text += "\nIn the HBase shell's form:\n\n";
    if (hbase != nullptr) text += HelpFor(hbase->summary, hbase->usage, hbase->details);
    if (shell != nullptr) text += HelpFor(shell->summary, shell->usage, shell->details);
    ctx.out->Write(text);
    return Status::OK();
  }
  std::vector<std::pair<std::string_view, std::string_view>> cbt, hbase;
  std::string shell;
  size_t width = 0;
  for (const CommandSpec& spec : AllCommands()) {
    if (spec.summary.empty()) continue;
    if (spec.dialect == Dialect::kShell) {
      shell += (shell.empty() ? "" : ", ") + std::string(spec.usage);
      continue;
    }
    (spec.dialect == Dialect::kCbt ? cbt : hbase).emplace_back(spec.name, spec.summary);
    width = std::max(width, spec.name.size());
  }
  std::sort(cbt.begin(), cbt.end());
  std::sort(hbase.begin(), hbase.end());
  std::string text = "Commands in cbt's language (`help <command>` for details):\n\n";
  for (const auto& [name, summary] : cbt) text += fmt::format("  {:<{}}  {}\n", name, width, summary);
  text += "\nCommands in the HBase shell's language (arguments quoted: scan 't', {LIMIT => 5}):\n\n";
  for (const auto& [name, summary] : hbase) text += fmt::format("  {:<{}}  {}\n", name, width, summary);
  text += "\nIn the shell and in scripts: " + shell + ".\n";
  ctx.out->Write(text);
  return Status::OK();
}

Status Version(CommandContext& ctx, const std::vector<std::string>&) {
  ctx.out->Write(ctx.session->options().format == OutputFormat::kText ? fmt::format("lbt {}\n", kVersion)
                                                                       : fmt::format("{{\"version\":\"{}\"}}\n", kVersion));
  return Status::OK();
}

Status WaitForReplication(CommandContext& ctx, const std::vector<std::string>& args) {
  Bigtable* bigtable = ctx.bigtable();
  const int64_t now = bigtable->NowMicros();
  ctx.renderer->WaitingForReplication(now);
  LBT_RETURN_IF_ERROR(bigtable->WaitForReplication(args[0]));
  ctx.renderer->Replicated(now);
  return Status::OK();
}

Status NoInstances(CommandContext& ctx, const std::vector<std::string>&) {
  return Status::FailedPrecondition(fmt::format(
      "{} is not available: lbt manages tables, not instances, clusters or app profiles (use cbt or gcloud)",
      ctx.spec->name));
}

}  // namespace

bool IsBatchableLookup(const std::vector<std::string>& words) {
  if (words.size() < 3 || words[0] != "lookup") return false;
  for (size_t i = 3; i < words.size(); ++i) {
    if (words[i].rfind("filter=", 0) == 0 || words[i].rfind("include-stats=", 0) == 0) return false;
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

std::vector<CommandSpec> CbtCommands() {
  constexpr int kMany = ArgCount::kMany;
  const ArgCount table{1, 1, "a table"};
  return {
      CbtCommand("addtocell", "addtocell <table> <row> <family>:<column>=<int>[@<timestamp>] ...",
       "Add a value to an aggregate cell (write)",
       "  The family must be of type intsum, intmin or intmax. Cells at the same\n"
       "  timestamp merge; <timestamp> is in microseconds (a multiple of 1000).\n\n"
       "  Example: addtocell stats user1 clicks:total=1@1700000000000000",
       AddToCell, {3, kMany, "a table, a row and at least one cell"}, {"app-profile"}),
      CbtCommand("compact", "compact", "Rewrite the database file without free space (lbt)",
       "  Needs the database to itself: no other process may have it open.", Compact, {0, 0, "no arguments"}),
      CbtCommand("count", "count <table> [prefix=<row-key-prefix>] [filter=<json>]", "Count rows in a table",
       "  With filter=, only rows the filter leaves a cell count (see 'help read').\n\n"
       "  Example: count mobile-time-series prefix=phone#", Count, {1, 3, "a table, then prefix= and filter="}, {"prefix", "filter"}),
      CbtCommand("createfamily", "createfamily <table> <family>[:<gcpolicy>[:<type>]]", "Create a column family",
       "  A row's cells come family by family in creation order: a new family\n"
       "  comes after the table's others (a family created again, too).\n\n"
       "  Example: createfamily mobile-time-series stats_summary:maxversions=1", CreateFamily, {2, 2, "a table and a family"}),
      CbtCommand("createtable", "createtable <table> [families=<family>:<gcpolicy>:<type>,...] [splits=<row>,...]",
       "Create a table",
       "  families  Column families with optional GC policies (see setgcpolicy) and\n"
       "            value types (intsum, intmin, intmax).\n"
       "  splits    Accepted for compatibility; a local table has no tablets.\n"
       "  The families are created in the order listed: a row's cells come in it.\n\n"
       "  Example: createtable mobile-time-series \"families=stats_summary:maxage=10d||maxversions=1,stats_detail\"",
       CreateTable, {1, 3, "a table, then families= and splits="}, {"families", "splits"}),
      CbtCommand("deleteallrows", "deleteallrows <table>", "Delete all rows", "  Example: deleteallrows mobile-time-series",
       DeleteAllRows, table),
      CbtCommand("deletecolumn", "deletecolumn <table> <row> <family> <column>", "Delete all cells in a column",
       "  Example: deletecolumn mobile-time-series phone#4c410523#20190501 stats_summary os_name", DeleteColumn, {4, 5, "a table, a row, a family and a column"}, {"app-profile"}),
      CbtCommand("deletefamily", "deletefamily <table> <family>", "Delete a column family and its data",
       "  Example: deletefamily mobile-time-series stats_summary", DeleteFamily, {2, 2, "a table and a family"}),
      CbtCommand("deleterow", "deleterow <table> <row>", "Delete a row",
       "  Example: deleterow mobile-time-series phone#4c410523#20190501", DeleteRow, {2, 3, "a table and a row"}, {"app-profile"}),
      CbtCommand("deletetable", "deletetable <table>", "Delete a table and its data",
       "  Example: deletetable mobile-time-series", DeleteTable, table),
      CbtCommand("gc", "gc <table>", "Remove the cells GC policies make eligible, now (lbt)",
       "  By default (--gc=eager) reads never return eligible cells, and a write to a\n"
       "  column removes that column's. With --gc=lazy, as in production, they are read\n"
       "  until a collection pass removes them: every --gc-interval seconds, or now with\n"
       "  gc. gc removes them from the whole table at once, in one transaction.",
       CollectGarbage, table),
      CbtCommand("help", "help [command]", "Print help text", "  Example: help read", Help, {0, 1, "at most one command name"}),
      CbtCommand("export", "export <table> <file> [format=jsonl|csv] [prefix=<prefix> | start=<row> end=<row>]",
       "Write a table's rows to a file",
       "  jsonl (the default, unless the file ends in .csv) writes every cell as the\n"
       "  row objects of --format jsonl, and import reads them back exactly. csv writes\n"
       "  cbt's CSV layout with the newest cell of each column as <value>@<timestamp>\n"
       "  (import it with timestamp=value-encoded). A file of - is standard output.\n\n"
       "  Example: export metrics metrics.jsonl prefix=host0137#",
       Export, {2, kMany, "a table and a file"}, {"format", "prefix", "start", "end"}),
      CbtCommand("import",
       "import <table> <file> [format=csv|jsonl] [column-family=<family>] [batch-size=<n>] [workers=<n>] "
       "[timestamp=<now|value-encoded>] [sort-memory=<MiB>]",
       "Batch write many rows from a CSV or JSON lines file",
       "  The file may start with a column family row and must have a qualifier row;\n"
       "  the first column holds row keys and is empty in the header rows:\n\n"
       "      ,stats,,meta\n"
       "      ,cpu,mem,os\n"
       "      host1,0.5,12,linux\n\n"
       "  Without a family row, name the family with column-family=. With\n"
       "  timestamp=value-encoded a cell may be written <value>@<micros>. A file\n"
       "  whose first row's values all end in @<micros>, as export writes them, is\n"
       "  refused unless timestamp= says how to take them (now keeps the values).\n\n"
       "  An input that starts with '{' holds JSON lines (the row objects of --format\n"
       "  jsonl; a cell without \"timestamp\" gets the current time); format=\n"
       "  overrides the guess. A file of - is standard input.\n\n"
       "  Locally, rows are sorted in sort-memory MiB (32; beyond it, sorted runs\n"
       "  go to a temporary file in the database's folder) and written in key\n"
       "  order once the input is read, in transactions of about 4 MiB (or of\n"
       "  batch-size rows). To a remote Bigtable they go in batches of batch-size\n"
       "  (1000), workers batches in flight (4). Each row applies on its own: a row\n"
       "  that fails is reported with its line and key, the others are written,\n"
       "  and the exit status is 1.\n\n"
       "  Example: import metrics data.csv batch-size=1000",
       Import, {2, kMany, "a table and a file"},
       {"format", "column-family", "batch-size", "workers", "timestamp", "sort-memory", "app-profile"}),
      CbtCommand("lookup",
       "lookup <table> <row> [columns=<family>:<qualifier>,...] [cells-per-column=<n>] [keys-only=<true|false>] "
       "[include-stats=full] [filter=<json>]",
       "Read from a single row",
       "  columns=<family>:<qualifier>,...  Read only these columns (regexes; 'fam:' for a family)\n"
       "  cells-per-column=<n>              Read only this number of cells per column\n"
       "  keys-only=<true|false>            Print cells without values\n"
       "  include-stats=full                Print what the read looked at and returned\n\n"
       "  Example: lookup mobile-time-series phone#4c410523#20190501 columns=stats_summary:os_build,os_name "
       "cells-per-column=1\n"
       "  Example: lookup mobile-time-series $'\\x41\\x42'\n\n"
       "  Text output lists the families by name, as cbt does; filters count cells\n"
       "  in storage order (families in creation order, as --format=json shows).",
       Lookup, {2, kMany, "a table and a row"}, {"columns", "cells-per-column", "keys-only", "include-stats", "filter", "app-profile", "format-file",
                "authorized-view"}),
      CbtCommand("ls", "ls [table]", "List tables, or a table's column families",
       "  Example: ls mobile-time-series", Ls, {0, 1, "at most one table name"}),
      CbtCommand("read",
       "read <table> [start=<row>] [end=<row>] [prefix=<prefix>] [regex=<regex>] [columns=<family>:<qualifier>,...] "
       "[count=<n>] [cells-per-column=<n>] [reversed=<true|false>] [keys-only=<true|false>] [include-stats=full] "
       "[filter=<json>]",
       "Read rows",
       "  start=<row>                       Start reading at this row\n"
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
       "                                    {\"cellsPerColumnLimitFilter\":1}]}}'\n\n"
       "  Examples:\n"
       "    read mobile-time-series prefix=phone columns=stats_summary:os_build,os_name count=10\n"
       "    read mobile-time-series start=phone#4c410523#20190501 end=phone#4c410523#20190601\n"
       "    read mobile-time-series regex=\"phone.*\" cells-per-column=1\n\n"
       "  A regex without start, end, prefix or count reads the whole table.\n\n"
       "  Text output lists a row's families by name, as cbt does; filters count\n"
       "  cells in storage order (families in creation order, as --format=json shows).",
       Read, {1, kMany, "a table"}, {"start", "end", "prefix", "regex", "columns", "count", "cells-per-column", "reversed", "keys-only",
              "include-stats", "filter", "app-profile", "format-file", "authorized-view"}),
      CbtCommand("set", "set <table> <row> <family>:<column>=<value>[@<timestamp>] ...", "Set value of a cell (write)",
       "  <timestamp> is in microseconds since the epoch and must be a multiple of 1000;\n"
       "  if it is not an integer, '@<timestamp>' is part of the value. Without it the\n"
       "  current time is used. Quote binary bytes as $'\\x00\\xff'.\n\n"
       "  Example: set mobile-time-series phone#4c410523#20190501 stats_summary:connected_cell=1@1570041766000000",
       Set, {3, kMany, "a table, a row and at least one cell"}, {"app-profile", "authorized-view"}),
      CbtCommand("setgcpolicy",
       "setgcpolicy <table> <family> ((maxage=<d> | maxversions=<n>) [(and|or) (maxage=<d> | maxversions=<n>),...] "
       "| never)",
       "Set the garbage-collection policy (age, versions) for a column family",
       "  maxage=<d>       Maximum age to keep; units ms, s, m, h, d\n"
       "  maxversions=<n>  Maximum number of versions to keep\n\n"
       "  Cells the policy makes eligible disappear from reads at once; with\n"
       "  --gc=lazy, as in production, only once a collection pass removes them.\n\n"
       "  Examples:\n"
       "    setgcpolicy mobile-time-series stats_detail maxage=10d\n"
       "    setgcpolicy mobile-time-series stats_summary maxage=10d or maxversions=1",
       SetGcPolicy, {3, kMany, "a table, a family and a policy"}),
      CbtCommand("sql", "sql [@name=<value> ...] [EXPLAIN] <query>", "Run a GoogleSQL query (SELECT), as Bigtable runs it",
       "  The table's row key is _key (BYTES); each column family is a MAP from\n"
       "  qualifier to latest value. In the shell a statement that starts with SELECT\n"
       "  runs too, over several lines until ';'. EXPLAIN shows the key ranges read\n"
       "  and rows examined against rows returned.\n"
       "  @name=<value> gives query parameter @name a value, whose literal sets its\n"
       "  type: 5 (INT64), 1.5 (FLOAT64), 'text' (STRING), b'bytes' (BYTES), TRUE,\n"
       "  TIMESTAMP '2019-05-01 00:00:00', DATE '2019-05-01'.\n\n"
       "  Examples:\n"
       "    sql SELECT _key, stats_summary['os_build'] FROM mobile WHERE _key LIKE 'phone#%'\n"
       "    sql @device=b'phone#4c410523' SELECT _key FROM mobile WHERE STARTS_WITH(_key, @device)\n"
       "    SELECT COUNT(*) FROM mobile;",
       Sql, {1, kMany, "a query"}),
      CbtCommand("setvaluetype", "setvaluetype <table> <family> <type>", "Set the value type of a column family",
       "  <type>  stringutf8bytes: a UTF-8 encoded string\n\n"
       "  Cells are kept as they are. Changing to or from an aggregate type\n"
       "  (intsum, intmin, intmax) is refused, as Bigtable refuses it.\n\n"
       "  Example: setvaluetype mobile-time-series vendor-info stringutf8bytes",
       SetValueType, {3, 3, "a table, a family and a type"}),
      CbtCommand("version", "version", "Print the lbt version", "", Version, {0, 0, "no arguments"}),
      CbtCommand("waitforreplication", "waitforreplication <table>", "Return once writes are replicated (at once, locally)",
       "  Waits until every write to the table made before the command has reached\n"
       "  all of the instance's clusters. A local database has one copy, always caught up.",
       WaitForReplication, table),
      // Instance-level commands have no meaning for a local database.
      CbtCommand("createinstance", "createinstance ...", "", "", NoInstances, {0, kMany, "its arguments"}),
      CbtCommand("deleteinstance", "deleteinstance ...", "", "", NoInstances, {0, kMany, "its arguments"}),
      CbtCommand("listinstances", "listinstances", "", "", NoInstances, {0, kMany, "its arguments"}),
      CbtCommand("createcluster", "createcluster ...", "", "", NoInstances, {0, kMany, "its arguments"}),
      CbtCommand("deletecluster", "deletecluster ...", "", "", NoInstances, {0, kMany, "its arguments"}),
      CbtCommand("updatecluster", "updatecluster ...", "", "", NoInstances, {0, kMany, "its arguments"}),
      CbtCommand("listclusters", "listclusters", "", "", NoInstances, {0, kMany, "its arguments"}),
      CbtCommand("createappprofile", "createappprofile ...", "", "", NoInstances, {0, kMany, "its arguments"}),
      CbtCommand("getappprofile", "getappprofile ...", "", "", NoInstances, {0, kMany, "its arguments"}),
      CbtCommand("listappprofile", "listappprofile", "", "", NoInstances, {0, kMany, "its arguments"}),
      CbtCommand("updateappprofile", "updateappprofile ...", "", "", NoInstances, {0, kMany, "its arguments"}),
      CbtCommand("deleteappprofile", "deleteappprofile ...", "", "", NoInstances, {0, kMany, "its arguments"}),
  };
}

}  // namespace lbt
