// A prepared query as its callers and the engine's parts see it: its
// result columns and parameters, the stream of its result rows with their
// stats, and the plan EXPLAIN shows. query.h prepares them; the binder,
// the evaluator, the planner and the operators work in these terms without
// depending on it.

#ifndef LBT_SQL_PREPARED_QUERY_H_
#define LBT_SQL_PREPARED_QUERY_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "api/status.h"
#include "sql/value.h"

namespace lbt::sql {

// What a query may hold in memory (see query.h): GROUP BY's groups, and
// ORDER BY's rows without a LIMIT.
inline constexpr size_t kMaxGroups = 1'000'000;
inline constexpr size_t kMaxSortedRows = 1'000'000;
// The bytes of rows a query with window functions holds, all of its
// input, and the rows one window call's frames may aggregate in all.
inline constexpr size_t kMaxWindowBytes = size_t{1} << 30;
inline constexpr uint64_t kMaxWindowFrameRows = 200'000'000;

struct ResultColumn {
  std::string name;
  TypePtr type;
};

// OK when every column's type is one of Bigtable's result types; else
// INVALID_ARGUMENT naming the first that holds a GEOGRAPHY (query.cc).
Status CheckResultTypes(const std::vector<ResultColumn>& columns);

using ParamTypes = std::map<std::string, TypePtr, std::less<>>;
using Params = std::map<std::string, Value, std::less<>>;

// What a query did: the key ranges it read, rows examined (read from the
// table, before WHERE) and rows returned.
struct QueryStats {
  std::string table;
  std::string ranges;  // "all rows", or "[a, b), [c]" in key order
  int64_t rows_examined = 0;
  int64_t rows_returned = 0;
};

// One operator of the tree that runs a query, as EXPLAIN shows it.
struct PlanNode {
  int depth = 0;       // 0 for the root; an operator's input follows it, one deeper
  std::string name;    // SCAN, FILTER, AGGREGATE, PROJECT, SORT or LIMIT
  std::string detail;  // what it does, in the query's words
  int64_t rows = -1;   // rows it handed on so far; -1 in a plan not run
};
// The operators, root first, each followed by its input.
using QueryPlan = std::vector<PlanNode>;

class ResultStream {
 public:
  virtual ~ResultStream() = default;
  // Fills *row with the next result row; false at the end or on an error,
  // which status() then tells.
  virtual bool Next(Values* row) = 0;
  virtual Status status() const = 0;
  virtual QueryStats stats() const = 0;
  // The operators running the query, with the rows each has handed on so
  // far. Empty where the query runs elsewhere (a service's own engine).
  virtual QueryPlan plan() const { return {}; }
};

// The values of VIEW_PARAMETERS('name') in a parameterized logical view
// travel with a query's parameter values under ViewParameterKey(name): a
// key no @parameter can have, so the query's text can never name them.
// They are STRING values.
inline constexpr std::string_view kViewParameterPrefix = "$view:";
inline std::string ViewParameterKey(std::string_view name) {
  return std::string(kViewParameterPrefix) + std::string(name);
}
inline bool IsViewParameterKey(std::string_view key) { return key.starts_with(kViewParameterPrefix); }

class PreparedQuery {
 public:
  virtual ~PreparedQuery() = default;
  // The result's columns, in order.
  virtual const std::vector<ResultColumn>& columns() const = 0;
  // The parameters the query uses, with their types.
  virtual const ParamTypes& parameters() const = 0;
  // Runs the query. REQUIRES: a value of the declared type for every
  // parameter; a missing or mistyped one is InvalidArgument.
  virtual Result<std::unique_ptr<ResultStream>> Execute(const Params& params) const = 0;
  // The operators Execute(params) would run, without running them (every
  // node's rows is -1); its errors are Execute's before any row is read.
  // Empty where the query runs elsewhere (a service's own engine).
  virtual Result<QueryPlan> Plan(const Params& params) const {
    (void)params;
    return QueryPlan();
  }
};

}  // namespace lbt::sql

#endif  // LBT_SQL_PREPARED_QUERY_H_
