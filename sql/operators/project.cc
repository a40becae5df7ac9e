#include "sql/operators/project.h"

namespace lbt::sql {

// Each column is evaluated into its place in *row, which the caller
// usually hands back row after row, so a warm query allocates little.
bool Project::Produce(Values* row) {
  if (!input().Next(&input_row_)) return false;
  row->resize(exprs_.size());
  for (size_t i = 0; i < exprs_.size(); ++i) {
    Status s = eval_.EvalTo(*exprs_[i], input_row_, &(*row)[i]);
    if (!s.ok()) return Fail(std::move(s));
  }
  return true;
}

}  // namespace lbt::sql
