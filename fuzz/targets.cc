#include "fuzz/targets.h"

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string_view>

#include "commands/cbt/filter_json.h"
#include "commands/cbt/gc_policy_text.h"
#include "commands/core/tokenizer.h"
#include "commands/hbase/filter.h"
#include "commands/hbase/syntax.h"
#include "commands/io/bulk_io.h"
#include "commands/io/csv_import.h"
#include "filter/row_filter.h"
#include "local/local_bigtable.h"
#include "sql/parser.h"
#include "sql/query.h"
#include "storage/database.h"
#include "storage/format/key_codec.h"
#include "storage/load/bulk_loader.h"

namespace lbt::fuzz {

namespace {

std::string_view Text(const uint8_t* data, size_t size) { return {reinterpret_cast<const char*>(data), size}; }

void Check(bool invariant) {
  if (!invariant) std::abort();
}

// Runs a compiled filter over a small row with binary bytes.
void RunFilter(const Result<Filter>& filter) {
  if (!filter.ok()) return;
  Result<std::unique_ptr<RowFilter>> compiled = CompileFilter(*filter);
  if (!compiled.ok()) return;
  std::vector<Cell> cells = {
      {"a", "x", 3000, "v\xff", {}}, {"a", "x", 1000, "", {}}, {"b", std::string("\0q", 2), 2000, "value", {}}};
  Check((*compiled)->Apply(std::string_view("r\0w", 3), &cells).ok());
}

}  // namespace

void Tokenizer(const uint8_t* data, size_t size) {
  std::string_view text = Text(data, size);
  Result<std::vector<std::string>> words = Tokenize(text);
  IsIncomplete(text);
  for (const std::string& statement : SplitStatements(text)) Tokenize(statement);
  // A tokenizable line never reports itself incomplete.
  if (words.ok()) Check(!IsIncomplete(text));
}

void HBaseSyntax(const uint8_t* data, size_t size) {
  std::string name, args;
  SplitHBaseCommand(Text(data, size), &name, &args);
  ParseHBaseArgs(Text(data, size));
}

void FilterJson(const uint8_t* data, size_t size) { RunFilter(ParseFilterJson(Text(data, size))); }

void HBaseFilter(const uint8_t* data, size_t size) { RunFilter(ParseHBaseFilter(Text(data, size))); }

void GcPolicy(const uint8_t* data, size_t size) {
  Result<GcRule> rule = ParseGcPolicy(Text(data, size));
  if (!rule.ok()) return;
  // Printing a rule the parser accepts is stable, valid or not (the
  // service judges the values).
  Check(FormatGcPolicy(*rule) == FormatGcPolicy(*rule));
  rule->Validate();
}

void Importers(const uint8_t* data, size_t size) {
  static std::unique_ptr<Database> db = [] {
    std::string dir = (std::filesystem::temp_directory_path() / ("lbt-fuzz-" + std::to_string(getpid()))).string();
    std::filesystem::remove_all(dir);
    auto opened = Database::Open(dir);
    if (!opened.ok()) std::abort();
    (*opened)->CreateTable("t", {{"cf", {}, ValueType::kBytes}, {"meta", {}, ValueType::kBytes}});
    return std::move(opened).value();
  }();
  std::string text(Text(data, size));
  // The rows the parsers produce go through a bulk load, as import sends
  // them: a row it refuses is refused alone.
  for (bool jsonl : {false, true}) {
    auto loader = db->NewBulkLoad("t");
    Check(loader.ok());
    auto sink = [&](RowMutation row, int64_t) {
      Status s = (*loader)->Add(row);
      return s.IsInvalidArgument() || s.IsNotFound() || s.IsOutOfRange() ? Status::OK() : s;
    };
    std::istringstream in(text);
    Status parsed = jsonl ? ImportJsonl(&in, sink, {}).status() : ImportCsv(&in, sink, {}).status();
    (void)parsed;
    Check((*loader)->Finish(nullptr, nullptr).ok());
  }
  Check(db->DropRowRange("t", "").ok());
}

void KeyCodec(const uint8_t* data, size_t size) {
  CellKey key;
  DecodeCellKey(Text(data, size), &key);
  // Split the input into four parts and check the encoding round-trips.
  std::string_view s = Text(data, size);
  size_t q = s.size() / 4;
  std::string row(s.substr(0, q)), qualifier(s.substr(2 * q, q));
  const auto family = static_cast<FamilyId>(std::hash<std::string_view>()(s.substr(q, q)));
  int64_t ts = static_cast<int64_t>(std::hash<std::string_view>()(s.substr(3 * q)));
  std::string encoded = EncodeCellKey(7, row, family, qualifier, ts);
  CellKey back;
  Check(DecodeCellKey(encoded, &back));
  Check(back.table == 7 && back.row == row && back.family == family && back.qualifier == qualifier &&
        back.timestamp == ts);
}

namespace {

// A small table to run parsed queries on: bytes, an aggregate family and
// history, so that binding and evaluation see every kind of column.
Bigtable* SqlTable() {
  static std::unique_ptr<Bigtable> db = [] {
    std::string dir = (std::filesystem::temp_directory_path() / ("lbt-fuzz-sql-" + std::to_string(getpid()))).string();
    std::filesystem::remove_all(dir);
    auto opened = Database::Open(dir);
    if (!opened.ok()) std::abort();
    Database* d = opened->get();
    Check(d->CreateTable("t", {{"cf", {}, ValueType::kBytes}, {"n", {}, ValueType::kIntSum}}).ok());
    Check(d->MutateRow("t", "a#1",
                       {Mutation::SetCell("cf", "q", "v1", 1000), Mutation::SetCell("cf", "q", "v2", 2000),
                        Mutation::SetCell("cf", std::string("\xff", 1), std::string("\0\x01", 2), 3000)})
              .ok());
    Check(d->MutateRow("t", "b#2", {Mutation::AddToCell("n", "c", 5, 1000)}).ok());
    return std::unique_ptr<Bigtable>(std::make_unique<LocalBigtable>(std::move(opened).value(), DatabaseOptions{}));
  }();
  return db.get();
}

}  // namespace

void SqlQuery(const uint8_t* data, size_t size) {
  const std::string_view text = Text(data, size);
  Result<std::unique_ptr<sql::Select>> parsed = sql::Parse(text);
  size_t start = 0;
  (void)sql::ParseParameterBindings(text, &start);
  Check(start <= text.size());
  if (!parsed.ok()) {
    Check(parsed.status().code() == Status::Code::kInvalidArgument);
    return;
  }
  // Whatever parses is bound and run; a query that binds must run to its
  // end or stop with a status, and its rows must be as wide as its columns.
  Result<std::unique_ptr<sql::PreparedQuery>> query = sql::Prepare(SqlTable(), text, {});
  if (!query.ok()) return;
  if (!(*query)->parameters().empty()) return;
  Result<std::unique_ptr<sql::ResultStream>> rows = (*query)->Execute({});
  if (!rows.ok()) return;
  for (sql::Values row; (*rows)->Next(&row);) Check(row.size() == (*query)->columns().size());
}

namespace {

// One way to grow an expression `e`: the text that goes before it and
// after it. Each input byte picks one, so the expression nests as deeply
// as the input is long, past every limit of the parser.
struct Wrapper {
  const char* before;
  const char* after;
};
constexpr Wrapper kWrappers[] = {
    {"NOT ", ""},
    {"(", ")"},
    {"-", ""},
    {"~", ""},
    {"+", ""},
    {"", " + 1"},
    {"", " - _key"},
    {"", " * 2"},
    {"", " || 'x'"},
    {"", " OR TRUE"},
    {"", " AND FALSE"},
    {"", " = 1"},
    {"", " IS NULL"},
    {"", " IN (1, 2, 'a')"},
    {"", " LIKE 'a%'"},
    {"", " BETWEEN 1 AND 2"},
    {"ABS(", ")"},
    {"IF(", ", 1, 2)"},
    {"COALESCE(", ", 0)"},
    {"CASE WHEN ", " THEN 1 ELSE 0 END"},
    {"CAST(", " AS STRING)"},
    {"SAFE_CAST(", " AS INT64)"},
    {"CONCAT(", ", 'y')"},
    {"REPEAT(", ", 3)"},
    {"REPLACE(", ", 'a', 'bb')"},
    {"LENGTH(", ")"},
    {"[", "]"},
    {"", "[OFFSET(0)]"},
    {"cf[", "]"},
    {"ARRAY_LENGTH(", ")"},
    {"CAST(NULL AS ARRAY<", "INT64>)"},
    {"COUNT(", ")"},
    {"COUNT(DISTINCT ", ")"},
    {"SUM(", ") OVER ()"},
    {"LAG(", ") OVER (ORDER BY _key)"},
    {"FIRST_VALUE(", " IGNORE NULLS) OVER (ORDER BY _key ROWS 2 PRECEDING)"},
    {"", " + ROW_NUMBER() OVER (PARTITION BY cf['q'] ORDER BY _key)"},
    {"ST_X(ST_GEOGPOINT(", ", 0))"},
    {"ST_ASTEXT(SAFE.ST_GEOGFROMTEXT(", ", oriented => TRUE))"},
    {"ST_DWITHIN(ST_GEOGPOINT(0, 0), ST_GEOGPOINT(", ", 1), 10)"},
};

}  // namespace

void SqlExpression(const uint8_t* data, size_t size) {
  // The prefixes are collected outside in, the suffixes inside out, so the
  // text is built in one pass however deep it nests.
  std::vector<const char*> befores;
  std::string after;
  static const char* const kAtoms[] = {"1", "_key", "'a'", "b'\\xff'", "NULL", "TRUE", "cf['q']", "n['c']", "1.5"};
  const char* atom = size > 0 ? kAtoms[data[0] % std::size(kAtoms)] : "1";
  for (size_t i = 1; i < size; ++i) {
    const Wrapper& w = kWrappers[data[i] % std::size(kWrappers)];
    befores.push_back(w.before);
    after += w.after;
  }
  std::string expression;
  for (auto it = befores.rbegin(); it != befores.rend(); ++it) expression += *it;
  expression += atom;
  expression += after;
  for (const std::string& text : {"SELECT " + expression + " AS x FROM t", "SELECT _key FROM t WHERE " + expression}) {
    Result<std::unique_ptr<sql::PreparedQuery>> query = sql::Prepare(SqlTable(), text, {});
    if (!query.ok()) {
      // Too deep is a refusal like any other, never a crash.
      Check(query.status().code() == Status::Code::kInvalidArgument ||
            query.status().code() == Status::Code::kNotFound);
      continue;
    }
    Result<std::unique_ptr<sql::ResultStream>> rows = (*query)->Execute({});
    if (!rows.ok()) continue;
    for (sql::Values row; (*rows)->Next(&row);) Check(row.size() == (*query)->columns().size());
  }
}

const std::vector<NamedTarget>& AllTargets() {
  static const std::vector<NamedTarget> targets = {
      {"tokenizer", Tokenizer},      {"hbase_syntax", HBaseSyntax}, {"filter_json", FilterJson},
      {"hbase_filter", HBaseFilter}, {"gc_policy", GcPolicy},       {"importers", Importers},
      {"key_codec", KeyCodec},       {"sql_query", SqlQuery},       {"sql_expression", SqlExpression}};
  return targets;
}

}  // namespace lbt::fuzz
