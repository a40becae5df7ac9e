// The tests' way to run a query and read its rows: each row as "a|b|c" in
// the shell's text form.

#ifndef LBT_TESTS_SQL_QUERY_LINES_H_
#define LBT_TESTS_SQL_QUERY_LINES_H_

#include <memory>
#include <string>
#include <vector>

#include "sql/query.h"

namespace lbt::testing {

struct QueryResult {
  std::vector<sql::ResultColumn> columns;
  std::vector<std::string> lines;
  sql::QueryStats stats;
};

// Prepares `query` on `bigtable` (parameters typed by their values), runs
// it and collects its rows; the first error, at prepare or while running.
inline Result<QueryResult> RunQuery(Bigtable* bigtable, const std::string& query, const sql::Params& params = {}) {
  sql::ParamTypes types;
  for (const auto& [name, v] : params) types[name] = v.type();
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<sql::PreparedQuery> q, sql::Prepare(bigtable, query, types));
  QueryResult result;
  result.columns = q->columns();
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<sql::ResultStream> stream, q->Execute(params));
  for (sql::Values row; stream->Next(&row);) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) line += (i ? "|" : "") + row[i].ToText();
    result.lines.push_back(line);
  }
  LBT_RETURN_IF_ERROR(stream->status());
  result.stats = stream->stats();
  return result;
}

}  // namespace lbt::testing

#endif  // LBT_TESTS_SQL_QUERY_LINES_H_
