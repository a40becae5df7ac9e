#include "sql/operators/aggregate.h"

#include <fmt/format.h>

#include <unordered_set>

namespace lbt::sql {

AggregateSet::AggregateSet(const std::vector<BoundAggregate>& aggregates, const Evaluator& eval)
    : aggregates_(aggregates), eval_(eval), args_(aggregates.size()) {
  for (size_t i = 0; i < aggregates.size(); ++i) args_[i].resize(aggregates[i].args.size());
}

namespace {

// An aggregate called with DISTINCT: each distinct argument list reaches
// the aggregate once. Holds the lists seen, which kMaxGroups bounds.
class DistinctAccumulator final : public Accumulator {
 public:
  explicit DistinctAccumulator(std::unique_ptr<Accumulator> inner) : inner_(std::move(inner)) {}

  Status Add(const Values& args) override {
    if (seen_.contains(args)) return Status::OK();
    if (seen_.size() >= kMaxGroups) {
      return Status::ResourceExhausted(
          fmt::format("an aggregate with DISTINCT holds at most {} distinct values in memory", kMaxGroups));
    }
    seen_.insert(args);
    return inner_->Add(args);
  }
  Value Finish() const override { return inner_->Finish(); }

 private:
  std::unique_ptr<Accumulator> inner_;
  std::unordered_set<Values, GroupKeyHash, GroupKeyEqual> seen_;
};

}  // namespace

std::unique_ptr<Accumulator> NewAccumulator(const BoundAggregate& a) {
  std::unique_ptr<Accumulator> accumulator = a.function->create(a.type, a.arg_types);
  if (a.distinct) return std::make_unique<DistinctAccumulator>(std::move(accumulator));
  return accumulator;
}

Accumulators AggregateSet::NewGroup() const {
  Accumulators group;
  for (const BoundAggregate& a : aggregates_) group.push_back(NewAccumulator(a));
  return group;
}

Status AggregateSet::Add(const Values& input, Accumulators* group) {
  for (size_t i = 0; i < aggregates_.size(); ++i) {
    const std::vector<const Expr*>& exprs = aggregates_[i].args;
    Values& args = args_[i];
    for (size_t k = 0; k < exprs.size(); ++k) LBT_RETURN_IF_ERROR(eval_.EvalTo(*exprs[k], input, &args[k]));
    LBT_RETURN_IF_ERROR((*group)[i]->Add(args));
  }
  return Status::OK();
}

void AggregateSet::Finish(const Accumulators& group, Values* row) {
  for (const auto& accumulator : group) row->push_back(accumulator->Finish());
}

size_t GroupKeyHash::operator()(const Values& key) const {
  size_t h = key.size();
  for (const Value& v : key) h = h * 31 + Hash(v);
  return h;
}

bool GroupKeyEqual::operator()(const Values& a, const Values& b) const {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!GroupEqual(a[i], b[i])) return false;
  }
  return true;
}

bool HashAggregate::Produce(Values* row) {
  if (!built_) {
    built_ = true;
    if (!Build()) return false;
  }
  if (next_ == order_.size()) return false;
  const Values& key = order_[next_++];
  *row = key;
  AggregateSet::Finish(groups_.at(key), row);
  return true;
}

bool HashAggregate::Build() {
  for (Values input_row; input().Next(&input_row);) {
    Status s = AddRow(input_row);
    if (!s.ok()) return Fail(std::move(s));
  }
  return input().status().ok();
}

Status HashAggregate::AddRow(const Values& row) {
  Values key;
  key.reserve(group_by_.size());
  for (const Expr* g : group_by_) {
    LBT_ASSIGN_OR_RETURN(Value v, eval_.Eval(*g, row));
    key.push_back(std::move(v));
  }
  auto it = groups_.find(key);
  if (it == groups_.end()) {
    if (groups_.size() >= kMaxGroups) {
      return Status::ResourceExhausted(fmt::format("GROUP BY holds at most {} groups in memory", kMaxGroups));
    }
    order_.push_back(key);
    it = groups_.emplace(std::move(key), aggregates_.NewGroup()).first;
  }
  return aggregates_.Add(row, &it->second);
}

// No hashing per row: every row is the one group's.
bool UngroupedAggregate::Produce(Values* row) {
  if (emitted_) return false;
  emitted_ = true;
  Accumulators group = aggregates_.NewGroup();
  for (Values input_row; input().Next(&input_row);) {
    Status s = aggregates_.Add(input_row, &group);
    if (!s.ok()) return Fail(std::move(s));
  }
  if (!input().status().ok()) return false;
  row->clear();
  AggregateSet::Finish(group, row);
  return true;
}

}  // namespace lbt::sql
