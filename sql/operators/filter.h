// FILTER: hands on the rows of its input for which a BOOL expression is
// TRUE (WHERE over input rows, HAVING over grouped ones). Named apart from
// lbt::Filter, the Bigtable filter a read takes.

#ifndef LBT_SQL_OPERATORS_FILTER_H_
#define LBT_SQL_OPERATORS_FILTER_H_

#include <memory>
#include <string>

#include "sql/ast.h"
#include "sql/evaluator.h"
#include "sql/operators/operator.h"

namespace lbt::sql {

class PredicateFilter final : public Operator {
 public:
  // `predicate` and `eval` must outlive the filter; `text` is the
  // predicate's SQL, for EXPLAIN.
  PredicateFilter(std::unique_ptr<Operator> input, const Expr& predicate, const Evaluator& eval, std::string text)
      : Operator(std::move(input)), predicate_(predicate), eval_(eval), text_(std::move(text)) {}

  const char* name() const override { return "FILTER"; }
  std::string detail() const override { return text_; }

 private:
  bool Produce(Values* row) override;

  const Expr& predicate_;
  const Evaluator& eval_;
  const std::string text_;
};

}  // namespace lbt::sql

#endif  // LBT_SQL_OPERATORS_FILTER_H_
