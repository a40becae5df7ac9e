// GoogleSQL queries over any Bigtable: prepared once (parsed, bound to the
// table's schema, typed, its read planned), then executed with parameter
// values as a stream of result rows.
//
// Execution reads only the rows the WHERE clause's conditions on `_key`
// allow (see KeyRanges) and only the families the query uses. It runs as a
// tree of operators (scan, filter, aggregate, project, sort, limit), which
// QueryPlan describes for EXPLAIN. Without GROUP BY or ORDER BY, rows
// stream as they are read; GROUP BY keeps at most kMaxGroups groups and
// ORDER BY at most kMaxSortedRows rows (or LIMIT + OFFSET of them), and
// beyond that the query stops with an error naming the limit.

#ifndef LBT_SQL_QUERY_H_
#define LBT_SQL_QUERY_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/bigtable.h"
#include "sql/value.h"

namespace lbt::sql {

inline constexpr size_t kMaxGroups = 1'000'000;
inline constexpr size_t kMaxSortedRows = 1'000'000;

struct ResultColumn {
  std::string name;
  TypePtr type;
};

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

// Where queries are prepared and run: here, over any Bigtable (Prepare
// below), or by a service that runs GoogleSQL itself (a remote Bigtable's
// PrepareQuery and ExecuteQuery; see Bigtable::query_service()).
class QueryService {
 public:
  virtual ~QueryService() = default;
  virtual Result<std::unique_ptr<PreparedQuery>> Prepare(std::string_view sql, const ParamTypes& params) = 0;
};

// Parses and binds `sql` against its table's schema, read from `bigtable`;
// the query then runs here, reading rows from `bigtable`, which must
// outlive it and its streams. Errors are InvalidArgument with the reason
// and, for syntax, the place ("[at 1:15]"); a missing table is NotFound.
// The stats of its streams count the rows read.
Result<std::unique_ptr<PreparedQuery>> Prepare(Bigtable* bigtable, std::string_view sql, const ParamTypes& params);

// Whether `query` may be logical view `view_id`'s: it prepares, and it does
// not read the view itself, directly or through other views.
Status CheckViewQuery(Bigtable* bigtable, std::string_view view_id, std::string_view query);

// The QueryService that Prepare above is.
class LocalQueryService final : public QueryService {
 public:
  explicit LocalQueryService(Bigtable* bigtable) : bigtable_(bigtable) {}
  Result<std::unique_ptr<PreparedQuery>> Prepare(std::string_view sql, const ParamTypes& params) override {
    return sql::Prepare(bigtable_, sql, params);
  }

 private:
  Bigtable* bigtable_;
};

// The service that runs queries on `bigtable`: its own if it has one, else
// `local`, which runs them here over it.
inline QueryService* QueryServiceFor(Bigtable* bigtable, LocalQueryService* local) {
  QueryService* own = bigtable->query_service();
  return own != nullptr ? own : local;
}

}  // namespace lbt::sql

#endif  // LBT_SQL_QUERY_H_
