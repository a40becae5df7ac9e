// Evaluates bound expressions over one row of values.

#ifndef LBT_SQL_EVALUATOR_H_
#define LBT_SQL_EVALUATOR_H_

#include "api/status.h"
#include "sql/ast.h"
#include "sql/functions.h"
#include "sql/query.h"

namespace lbt::sql {

class Evaluator {
 public:
  // CURRENT_TIMESTAMP is the time of construction for the whole query.
  explicit Evaluator(Params params);

  // REQUIRES: `e` bound; `row` holds the slots it refers to.
  Result<Value> Eval(const Expr& e, const Values& row) const;
  // Evaluates `e` if it refers to no slot (literals, parameters and
  // functions of them); nullopt otherwise.
  std::optional<Value> Constant(const Expr& e) const;

 private:
  Result<Value> Call(const Expr& e, const Values& row) const;
  Result<Value> Logic(const Expr& e, const Values& row) const;
  Result<Value> Conditional(const Expr& e, const Values& row) const;
  Result<Value> Subscript(const Expr& e, const Values& row) const;
  Result<Value> Case(const Expr& e, const Values& row) const;

  Params params_;
  EvalContext context_;
};

}  // namespace lbt::sql

#endif  // LBT_SQL_EVALUATOR_H_
