// Logical views: queries saved in an instance under a name, which a query
// reads as it reads a table (`SELECT ... FROM <view>`). A view keeps its
// query's text; each query over it runs the view's query afresh.

#ifndef LBT_API_LOGICAL_VIEW_H_
#define LBT_API_LOGICAL_VIEW_H_

#include <string>
#include <string_view>

#include "api/ids.h"
#include "api/status.h"

namespace lbt {

struct LogicalViewSpec {
  std::string id;
  std::string query;  // GoogleSQL: a SELECT over a table or another view
  // While on, the view cannot be deleted.
  bool deletion_protection = false;
  // Changes with every update; an update or delete naming another etag
  // fails with Aborted.
  std::string etag;
};

// What UpdateLogicalView replaces (its update mask).
struct LogicalViewUpdate {
  bool query = false;
  bool deletion_protection = false;
};

}  // namespace lbt

#endif  // LBT_API_LOGICAL_VIEW_H_
