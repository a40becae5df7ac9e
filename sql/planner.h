// Builds the tree of operators (sql/operators/) that runs one execution of
// a bound query, its parameter values known. Each operator pulls from the
// one below it:
//
//   without ORDER BY           with ORDER BY
//   PROJECT                    LIMIT          LIMIT / OFFSET, if any
//     LIMIT                      SORT
//       FILTER                     PROJECT    the select list, then the keys
//         SCAN                       FILTER   WHERE, if any
//                                      SCAN
//
// With aggregates, AGGREGATE, then a FILTER for HAVING, come between the
// WHERE filter and the projection. Without a SORT, the LIMIT sits below the
// projection, so that rows it skips or never reaches are not evaluated.

#ifndef LBT_SQL_PLANNER_H_
#define LBT_SQL_PLANNER_H_

#include <memory>

#include "sql/binder.h"
#include "sql/evaluator.h"
#include "sql/operators/operator.h"
#include "sql/operators/table_scan.h"
#include "sql/operators/view_scan.h"
#include "sql/prepared_query.h"
#include "sql/read_planner.h"

namespace lbt::sql {

struct ExecutionPlan {
  // What the operators evaluate with: parameter values and the query's
  // CURRENT_TIMESTAMP. Declared first, so that it outlives them.
  std::unique_ptr<Evaluator> evaluator;
  std::unique_ptr<Operator> root;
  TableScan* scan = nullptr;  // the tree's leaf, owned through `root`; not opened
  ViewScan* view = nullptr;   // the leaf instead, for a query over a logical view
};

// The operators for `q` read as `read` plans, with `params`. `q` and `read`
// must outlive the plan. REQUIRES: `params` checked against q.parameters.
// Errors: a LIMIT or OFFSET parameter that is NULL or negative, or a key
// range the WHERE clause cannot compute (INVALID_ARGUMENT).
Result<ExecutionPlan> PlanExecution(const BoundQuery& q, const ReadPlan& read, const Params& params);
// The same over logical view q.view, whose prepared query is `view_query`
// (it must outlive the plan), or over a pipe query's previous stage
// (`pipe_stage`), which runs with every parameter of the query's.
Result<ExecutionPlan> PlanViewExecution(const BoundQuery& q, const PreparedQuery* view_query, const Params& params,
                                        bool pipe_stage = false);
// The view parameters (ViewParameterKey) among `params` that `view_query`,
// logical view `view`'s, runs with; InvalidArgument naming those it reads
// and `params` lacks.
Result<Params> ViewParameters(std::string_view view, const PreparedQuery& view_query, const Params& params);

}  // namespace lbt::sql

#endif  // LBT_SQL_PLANNER_H_
