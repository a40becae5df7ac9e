// PROJECT: evaluates the select list over each row of its input, then, when
// a SORT follows, the ORDER BY keys, as extra columns the sort removes.

#ifndef LBT_SQL_OPERATORS_PROJECT_H_
#define LBT_SQL_OPERATORS_PROJECT_H_

#include <memory>
#include <string>
#include <vector>

#include "sql/ast.h"
#include "sql/evaluator.h"
#include "sql/operators/operator.h"

namespace lbt::sql {

class Project final : public Operator {
 public:
  // `exprs` (one per output column) and `eval` must outlive the operator;
  // `text` lists them for EXPLAIN.
  Project(std::unique_ptr<Operator> input, std::vector<const Expr*> exprs, const Evaluator& eval, std::string text)
      : Operator(std::move(input)), exprs_(std::move(exprs)), eval_(eval), text_(std::move(text)) {}

  const char* name() const override { return "PROJECT"; }
  std::string detail() const override { return text_; }

 private:
  bool Produce(Values* row) override;

  const std::vector<const Expr*> exprs_;
  const Evaluator& eval_;
  const std::string text_;
  Values input_row_;  // the input's row, its buffers reused row to row
};

}  // namespace lbt::sql

#endif  // LBT_SQL_OPERATORS_PROJECT_H_
