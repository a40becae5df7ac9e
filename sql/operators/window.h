// WINDOW: computes a query's window function calls. It holds every input
// row (at most kMaxWindowBytes of them, else RESOURCE_EXHAUSTED), then per
// call splits the rows into partitions by PARTITION BY, orders each by the
// window's ORDER BY, and computes each row's result from its partition (a
// numbering or navigation function) or from its frame (an aggregate). It
// hands the rows on in their input order, each with the calls' results
// appended after `base` slots (ExprKind::kWindowResult reads them there).

#ifndef LBT_SQL_OPERATORS_WINDOW_H_
#define LBT_SQL_OPERATORS_WINDOW_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sql/binder.h"
#include "sql/evaluator.h"
#include "sql/operators/operator.h"

namespace lbt::sql {

class Window final : public Operator {
 public:
  // `windows` and `eval` must outlive the operator. Input rows have
  // `base` slots. `text` describes the calls for EXPLAIN.
  Window(std::unique_ptr<Operator> input, const std::vector<BoundWindow>& windows, const Evaluator& eval, size_t base,
         std::string text)
      : Operator(std::move(input)), windows_(windows), eval_(eval), base_(base), text_(std::move(text)) {}

  const char* name() const override { return "WINDOW"; }
  std::string detail() const override { return text_; }

 private:
  bool Produce(Values* row) override;
  // Reads every input row. False on an error.
  bool Hold();
  // Call `w`'s result for every row.
  Status Compute(size_t w);
  // The rows of each partition of `w`, in first-seen order.
  Result<std::vector<std::vector<uint32_t>>> Partitions(const BoundWindow& w) const;
  // A partition's ORDER BY keys, by position once it is sorted: read in
  // place from the held rows where every key is a slot of the row, else
  // evaluated once each.
  struct SortedKeys {
    std::vector<int> slots;
    std::vector<Values> computed;
  };
  const Value& Key(const std::vector<uint32_t>& rows, const SortedKeys& keys, size_t position, size_t k) const {
    return keys.slots.empty() ? keys.computed[position][k] : rows_[rows[position]][keys.slots[k]];
  }
  // Orders `rows` by `w`'s ORDER BY (ties in input order), filling the
  // computed keys (if any) and the peers' bounds.
  Status Order(const BoundWindow& w, std::vector<uint32_t>* rows, SortedKeys* keys, WindowPartition* p) const;
  void Peers(const BoundWindow& w, const std::vector<uint32_t>& rows, const SortedKeys& keys, WindowPartition* p) const;
  // Each row's frame, by position in the ordered partition.
  void Frames(const BoundWindow& w, const std::vector<uint32_t>& rows, const SortedKeys& keys,
              WindowPartition* p) const;
  Status Aggregate(const BoundWindow& w, const std::vector<uint32_t>& rows, const WindowPartition& p, Values* out);

  const std::vector<BoundWindow>& windows_;
  const Evaluator& eval_;
  const size_t base_;
  const std::string text_;
  std::vector<Values> rows_;
  size_t next_ = 0;
  bool held_ = false;
};

}  // namespace lbt::sql

#endif  // LBT_SQL_OPERATORS_WINDOW_H_
