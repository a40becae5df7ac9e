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

#include <memory>
#include <string_view>

#include "api/bigtable.h"
#include "sql/prepared_query.h"

namespace lbt::sql {

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
