// SORT: orders the rows of its input by ORDER BY keys, which are the
// rows' last columns (PROJECT adds them), and removes the keys as it hands
// the rows on. With a LIMIT it keeps only the rows that can still make it;
// without one it holds at most kMaxSortedRows and beyond that fails with
// RESOURCE_EXHAUSTED.

#ifndef LBT_SQL_OPERATORS_SORT_H_
#define LBT_SQL_OPERATORS_SORT_H_

#include <memory>
#include <string>
#include <vector>

#include "sql/binder.h"
#include "sql/operators/operator.h"

namespace lbt::sql {

class Sort final : public Operator {
 public:
  // Input rows are `width` columns, then one key per item of `order`
  // (which must outlive the sort). `keep`: the most rows the sort's reader
  // takes (LIMIT + OFFSET), or kMaxSortedRows for all. `text` lists the
  // keys for EXPLAIN.
  Sort(std::unique_ptr<Operator> input, const std::vector<BoundOrder>& order, size_t width, size_t keep,
       std::string text)
      : Operator(std::move(input)), order_(order), width_(width), keep_(keep), text_(std::move(text)) {}

  const char* name() const override { return "SORT"; }
  std::string detail() const override;

 private:
  bool Produce(Values* row) override;
  // Reads every input row into rows_, in order. False on an error.
  bool SortInput();
  Status Hold(Values row);
  void SortHeld();

  const std::vector<BoundOrder>& order_;
  const size_t width_;
  const size_t keep_;
  const std::string text_;
  std::vector<Values> rows_;
  size_t next_ = 0;
  bool sorted_ = false;
};

}  // namespace lbt::sql

#endif  // LBT_SQL_OPERATORS_SORT_H_
