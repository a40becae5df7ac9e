// Continuous materialized views: a GoogleSQL query over one table of the
// instance whose result the service keeps, updating it from the table's
// change stream as the table changes, and which reads like a table
// (ReadRows, and SQL's FROM). Like production's, a view is eventually
// consistent: a write shows in it once maintenance has caught up.
//
// Two forms of query are kept (production's rules, checked by
// sql::CheckMaterializedViewQuery):
//   - aggregate: SELECT keys and aggregates ... GROUP BY keys; one view row
//     per group;
//   - secondary index: SELECT columns ... ORDER BY keys; one view row per
//     source row the WHERE clause keeps, ordered by the keys.

#ifndef LBT_API_MATERIALIZED_VIEW_H_
#define LBT_API_MATERIALIZED_VIEW_H_

#include <memory>
#include <string>
#include <string_view>

#include "api/ids.h"
#include "api/schema.h"
#include "api/status.h"

namespace lbt {

struct MaterializedViewSpec {
  std::string id;
  // GoogleSQL; fixed once the view is created.
  std::string query;
  // The table the query reads (its FROM), as the instance names it. Set by
  // whoever checks the query (sql::CheckMaterializedViewQuery); kept with
  // the view so that the table's change stream and deletion can mind it.
  std::string source_table;
  // False until the view's first build (its backfill) is done: until then
  // reads of it fail with FailedPrecondition, as production's do.
  bool backfilled = false;
  // While on, the view cannot be deleted.
  bool deletion_protection = false;
  // Changes with every update; an update or delete naming another etag
  // fails with Aborted.
  std::string etag;
};

// What UpdateMaterializedView replaces (its update mask): production lets
// only deletion protection change.
struct MaterializedViewUpdate {
  bool deletion_protection = false;
};

// At most this many views read one table (production's limit).
inline constexpr int kMaxMaterializedViewsPerTable = 5;

// The schema a materialized view is read with as a table: its rows have
// one family, "default", qualified by the query's column names.
TableSpec MaterializedViewSchema(std::string_view view_id);

}  // namespace lbt

#endif  // LBT_API_MATERIALIZED_VIEW_H_
