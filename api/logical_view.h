// Logical views: queries saved in an instance under a name, which a query
// reads as it reads a table (`SELECT ... FROM <view>`). A view keeps its
// query's text; each query over it runs the view's query afresh.

#ifndef LBT_API_LOGICAL_VIEW_H_
#define LBT_API_LOGICAL_VIEW_H_

#include <string>
#include <string_view>

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

// lbt takes table ids' rules for view ids, so that a query names a view as
// it names a table: [_a-zA-Z0-9][-_.a-zA-Z0-9]*, at most 50 characters.
// InvalidArgument naming `field`.
Status ValidateLogicalViewId(std::string_view id, std::string_view field);

}  // namespace lbt

#endif  // LBT_API_LOGICAL_VIEW_H_
