// Parses one Bigtable GoogleSQL statement: a SELECT, with an optional
// trailing semicolon. What Bigtable does not allow (joins, set operations,
// subqueries, WITH, DML) is refused here with INVALID_ARGUMENT saying so.

#ifndef LBT_SQL_PARSER_H_
#define LBT_SQL_PARSER_H_

#include <memory>
#include <string_view>
#include <vector>

#include "api/status.h"
#include "sql/ast.h"

namespace lbt::sql {

// The longest query text: its tokens and tree take memory in proportion
// to it (lbt's limit, as BigQuery's GoogleSQL has one of 1 MB).
inline constexpr size_t kMaxQueryBytes = 1 << 20;
// kMaxNesting and kMaxExpressionHeight (ast.h) bound the trees it builds.

// Errors read "Syntax error: <what> [at <line>:<column>]".
Result<std::unique_ptr<Select>> Parse(std::string_view sql);

// Parameter values written before a query, as the shell takes them:
// "@name=<literal> ... SELECT ...". A literal is an integer, a float, a
// 'string', b'bytes', TRUE, FALSE, or TIMESTAMP '<time>' / DATE '<date>';
// its type is the parameter's. Sets *query_start to where the query begins.
struct ParameterBinding {
  std::string name;
  Value value;
};
Result<std::vector<ParameterBinding>> ParseParameterBindings(std::string_view text, size_t* query_start);

// "[at 1:15]" for a byte offset into `sql`.
std::string Location(std::string_view sql, size_t pos);

}  // namespace lbt::sql

#endif  // LBT_SQL_PARSER_H_
