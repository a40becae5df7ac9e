#include "sql/operators/filter.h"

namespace lbt::sql {

// Rows pass through *row itself, so the filter copies nothing.
bool PredicateFilter::Produce(Values* row) {
  while (input().Next(row)) {
    Result<Value> keep = eval_.Eval(predicate_, *row);
    if (!keep.ok()) return Fail(keep.status());
    if (!keep->is_null() && keep->boolean()) return true;
  }
  return false;
}

}  // namespace lbt::sql
