// Binds a parsed query to its table: resolves names to slots, checks and
// infers types, and finds the aggregates. What the query reads from the
// table is the read planner's to decide (read_planner.h).

#ifndef LBT_SQL_BINDER_H_
#define LBT_SQL_BINDER_H_

#include <memory>
#include <string_view>
#include <vector>

#include "api/schema.h"
#include "sql/ast.h"
#include "sql/bound_query.h"
#include "sql/prepared_query.h"

namespace lbt::sql {

Result<std::unique_ptr<BoundQuery>> Bind(std::unique_ptr<Select> select, const TableSpec& table,
                                         const ParamTypes& params, std::string_view sql,
                                         QueryKind kind = QueryKind::kClient);
// Binds a query whose FROM names logical view `view`, whose query returns
// `columns`. Input rows are [NULL, columns...].
Result<std::unique_ptr<BoundQuery>> BindOverView(std::unique_ptr<Select> select, std::string_view view,
                                                 const std::vector<ResultColumn>& columns, const ParamTypes& params,
                                                 std::string_view sql, QueryKind kind = QueryKind::kClient);

}  // namespace lbt::sql

#endif  // LBT_SQL_BINDER_H_
