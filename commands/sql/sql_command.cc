// `sql`: GoogleSQL queries, run where the target runs them (a service's
// own engine, or here over its reads), and EXPLAIN.

#include <fmt/format.h>

#include <cctype>

#include "commands/command_sets.h"
#include "commands/core/interrupt.h"
#include "sql/parser.h"
#include "sql/query.h"

namespace lbt {

namespace {

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

// EXPLAIN's answer: the operators that ran the query, root first and
// indented by depth, with the rows each handed on; then what it read, as
// the query's stats. The detail comes last: the text table does not pad
// its last column.
void RenderPlan(CommandContext& ctx, const sql::QueryPlan& plan, const sql::QueryStats& stats) {
  ctx.renderer->BeginQuery(
      {{"operator", sql::Type::String()}, {"rows", sql::Type::Int64()}, {"detail", sql::Type::String()}});
  for (const sql::PlanNode& node : plan) {
    ctx.renderer->QueryRow({sql::Value::String(std::string(2 * static_cast<size_t>(node.depth), ' ') + node.name),
                            sql::Value::Int64(node.rows), sql::Value::String(node.detail)});
  }
  ctx.renderer->EndQuery(&stats);
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
    // A text value is also a view parameter, for VIEW_PARAMETERS('name')
    // in the logical views the query reads (never spliced into text).
    if (b.value.kind() == sql::TypeKind::kString) statement.params[sql::ViewParameterKey(b.name)] = b.value;
    statement.params[b.name] = std::move(b.value);
  }
  statement.query = text.substr(start);
  const std::string head = statement.query.substr(0, 8);
  statement.explain = statement.query.size() > 8 && (head == "EXPLAIN " || head == "explain ");
  if (statement.explain) statement.query = statement.query.substr(8);
  // EXPLAIN runs the query anyway (its counts are what it read): ANALYZE
  // after it, as other databases take it, changes nothing.
  if (statement.explain && statement.query.size() > 8) {
    std::string next = statement.query.substr(0, 8);
    for (char& c : next) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (next == "ANALYZE ") statement.query = statement.query.substr(8);
  }
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
    RenderPlan(ctx, rows->plan(), rows->stats());
  } else {
    ctx.renderer->EndQuery(nullptr);
  }
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> SqlCommands() {
  return {
      {.name = "sql",
       .summary = "Run a GoogleSQL query (SELECT), as Bigtable runs it",
       .args = {{.text = "@name=<value>", .noun = "a parameter", .arity = Arity::kOptionalRepeated},
                {.text = "EXPLAIN", .noun = "EXPLAIN", .arity = Arity::kOptional},
                {.text = "<query>", .noun = "a query", .arity = Arity::kRest}},
       .details =
           "  The table's row key is _key (BYTES); each column family is a MAP from\n"
           "  qualifier to latest value. In the shell a statement that starts with SELECT\n"
           "  runs too, over several lines until ';', and so does one that starts with\n"
           "  FROM (pipe syntax: FROM t |> WHERE ... |> AGGREGATE ...). EXPLAIN runs the\n"
           "  query and shows its operators (scan, filter, aggregate, window, project,\n"
           "  sort, limit) with the rows each handed on, then the key ranges read and\n"
           "  rows examined.\n"
           "  Every function of Bigtable's GoogleSQL reference runs, window functions and\n"
           "  geography ones included; Tab completes their names. Geographies are read\n"
           "  from WKT or GeoJSON text (ST_GEOGFROM(CAST(f['loc'] AS STRING))) and returned\n"
           "  as text (ST_ASTEXT), as a query cannot return a GEOGRAPHY.\n"
           "  @name=<value> gives query parameter @name a value, whose literal sets its\n"
           "  type: 5 (INT64), 1.5 (FLOAT64), 'text' (STRING), b'bytes' (BYTES), TRUE,\n"
           "  TIMESTAMP '2019-05-01 00:00:00', DATE '2019-05-01'. A 'text' value is also\n"
           "  the view parameter VIEW_PARAMETERS('name') of the logical views read.\n"
           "  A table with a row-key schema (setrowkeyschema) gives each key field as a\n"
           "  column, and _key only by name.\n\n"
           "  Examples:\n"
           "    sql SELECT _key, stats_summary['os_build'] FROM mobile_time_series WHERE _key LIKE 'phone#%'\n"
           "    sql @device=b'phone#4c410523' SELECT _key FROM mobile_time_series WHERE STARTS_WITH(_key, @device)\n"
           "    SELECT COUNT(*) FROM mobile_time_series;\n"
           "    FROM mobile_time_series |> AGGREGATE COUNT(*) AS days GROUP BY SPLIT(CAST(_key AS STRING), "
           "'#')[OFFSET(0)] AS device;",
       .cbt = Sql},
  };
}

}  // namespace lbt
