// AGGREGATE: folds the rows of its input into groups and hands on one
// grouped row per group, [group keys..., aggregate results...].
// HashAggregate groups by GROUP BY keys, in the order groups first appear,
// holding at most kMaxGroups; UngroupedAggregate makes the one group of a
// query with aggregates but no GROUP BY, which exists even over no rows.

#ifndef LBT_SQL_OPERATORS_AGGREGATE_H_
#define LBT_SQL_OPERATORS_AGGREGATE_H_

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "sql/binder.h"
#include "sql/evaluator.h"
#include "sql/operators/operator.h"

namespace lbt::sql {

using Accumulators = std::vector<std::unique_ptr<Accumulator>>;

// Hashing and equality of grouping keys (GROUP BY keys, DISTINCT
// arguments), as GROUP BY compares them (GroupEqual: NULLs are equal).
struct GroupKeyHash {
  size_t operator()(const Values& key) const;
};
struct GroupKeyEqual {
  bool operator()(const Values& a, const Values& b) const;
};

// A new running state for one group of `a` (DISTINCT included).
std::unique_ptr<Accumulator> NewAccumulator(const BoundAggregate& a);

// The aggregates of a query and the per-row work of feeding them.
class AggregateSet {
 public:
  // `aggregates` and `eval` must outlive the set.
  AggregateSet(const std::vector<BoundAggregate>& aggregates, const Evaluator& eval);

  // A fresh state for each aggregate: one group's.
  Accumulators NewGroup() const;
  // Adds one input row to each of a group's aggregates.
  Status Add(const Values& input, Accumulators* group);
  // Appends each aggregate's result for a group to *row.
  static void Finish(const Accumulators& group, Values* row);

 private:
  const std::vector<BoundAggregate>& aggregates_;
  const Evaluator& eval_;
  std::vector<Values> args_;  // each aggregate's arguments, evaluated in place row after row
};

class HashAggregate final : public Operator {
 public:
  // `group_by` and what AggregateSet needs must outlive the operator;
  // `text` describes the grouping for EXPLAIN.
  HashAggregate(std::unique_ptr<Operator> input, const std::vector<const Expr*>& group_by,
                const std::vector<BoundAggregate>& aggregates, const Evaluator& eval, std::string text)
      : Operator(std::move(input)),
        group_by_(group_by),
        aggregates_(aggregates, eval),
        eval_(eval),
        text_(std::move(text)) {}

  const char* name() const override { return "AGGREGATE"; }
  std::string detail() const override { return text_; }

 private:
  bool Produce(Values* row) override;
  // Reads every input row into its group. False on an error.
  bool Build();
  Status AddRow(const Values& row);

  const std::vector<const Expr*>& group_by_;
  AggregateSet aggregates_;
  const Evaluator& eval_;
  const std::string text_;
  std::unordered_map<Values, Accumulators, GroupKeyHash, GroupKeyEqual> groups_;
  std::vector<Values> order_;  // the groups' keys, in first-seen order
  size_t next_ = 0;
  bool built_ = false;
};

class UngroupedAggregate final : public Operator {
 public:
  UngroupedAggregate(std::unique_ptr<Operator> input, const std::vector<BoundAggregate>& aggregates,
                     const Evaluator& eval, std::string text)
      : Operator(std::move(input)), aggregates_(aggregates, eval), text_(std::move(text)) {}

  const char* name() const override { return "AGGREGATE"; }
  std::string detail() const override { return text_; }

 private:
  bool Produce(Values* row) override;

  AggregateSet aggregates_;
  const std::string text_;
  bool emitted_ = false;  // the one group
};

}  // namespace lbt::sql

#endif  // LBT_SQL_OPERATORS_AGGREGATE_H_
