#include "sql/operators/operator.h"

namespace lbt::sql {

Status Operator::status() const {
  if (!status_.ok() || input_ == nullptr) return status_;
  return input_->status();
}

void Operator::Describe(int depth, QueryPlan* plan) const {
  plan->push_back(PlanNode{depth, name(), detail(), rows_});
  if (input_ != nullptr) input_->Describe(depth + 1, plan);
}

}  // namespace lbt::sql
