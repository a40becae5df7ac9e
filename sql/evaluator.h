// Evaluates bound expressions over one row of values.

#ifndef LBT_SQL_EVALUATOR_H_
#define LBT_SQL_EVALUATOR_H_

#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "api/status.h"
#include "sql/ast.h"
#include "sql/functions.h"
#include "sql/prepared_query.h"

namespace lbt::sql {

class Evaluator {
 public:
  // CURRENT_TIMESTAMP is the time of construction for the whole query.
  explicit Evaluator(Params params);

  // REQUIRES: `e` bound; `row` holds the slots it refers to.
  Result<Value> Eval(const Expr& e, const Values& row) const;
  // Eval into *out, for values evaluated row after row into the same place.
  Status EvalTo(const Expr& e, const Values& row, Value* out) const;
  // Evaluates `e` if it refers to no slot (literals, parameters and
  // functions of them); nullopt otherwise.
  std::optional<Value> Constant(const Expr& e) const;
  // Where window call results start in the rows the WINDOW operator hands
  // on: after the input's (or the grouped row's) slots. The planner sets it.
  void set_window_base(size_t base) { window_base_ = base; }

 private:
  // The value of `e` where it already is (a slot of the row, a literal),
  // else evaluated into *scratch.
  Result<const Value*> Ref(const Expr& e, const Values& row, Value* scratch) const;
  Result<Value> Cast(const Expr& e, const Values& row) const;
  // CAST(CAST(b AS STRING) AS T) of BYTES b, with T not STRING.
  static bool IsCastOfBytesText(const Expr& e);
  Status CastBytesText(const Expr& e, const Values& row, Value* out) const;
  Result<Value> Call(const Expr& e, const Values& row) const;
  Result<Value> Logic(const Expr& e, const Values& row) const;
  Result<Value> Conditional(const Expr& e, const Values& row) const;
  // ARRAY_FILTER, ARRAY_TRANSFORM and ARRAY_INCLUDES with a lambda.
  Result<Value> LambdaCall(const Expr& e, const Values& row) const;
  Result<Value> Subscript(const Expr& e, const Values& row) const;
  Result<Value> Case(const Expr& e, const Values& row) const;
  // `x IN (c1, c2, ...)` over a long list of constants of one kind: the
  // list sorted once, each row a binary search. nullptr when `e` is not
  // such a list (it is then evaluated as any call).
  struct SortedList {
    std::vector<Value> values;
    bool has_null = false;
  };
  const SortedList* ConstantInList(const Expr& e) const;

  Params params_;
  EvalContext context_;
  size_t window_base_ = 0;
  // The values of the lambda parameters in scope (Expr::kLambdaParam).
  mutable Values lambda_frame_;
  // Argument lists of the calls being evaluated, one per nesting level,
  // kept from row to row so that a call allocates nothing once warm. A
  // deque, so that a deeper level never moves the ones above it.
  mutable std::deque<Values> call_args_;
  mutable size_t call_depth_ = 0;
  // ConstantInList's lists, built on first use; null for an IN that is not one.
  mutable std::unordered_map<const Expr*, std::unique_ptr<SortedList>> in_lists_;
};

}  // namespace lbt::sql

#endif  // LBT_SQL_EVALUATOR_H_
