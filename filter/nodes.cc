#include "filter/nodes.h"

#include <algorithm>
#include <iterator>

namespace lbt::filter_internal {

uint64_t CellsBytes(const std::vector<Cell>& cells) {
  uint64_t total = 0;
  for (const Cell& c : cells) total += c.family.size() + c.qualifier.size() + c.value.size() + 8;
  return total;
}

FamilyOrder::FamilyOrder(const std::vector<Cell>& row) {
  for (const Cell& c : row) {
    if (families_.empty() || families_.back() != c.family) families_.push_back(c.family);
  }
}

size_t FamilyOrder::Rank(const std::string& family) const {
  for (size_t i = 0; i < families_.size(); ++i) {
    if (families_[i] == family) return i;
  }
  return families_.size();
}

void MergeInStorageOrder(const FamilyOrder& order, std::vector<Cell>* cells) {
  std::stable_sort(cells->begin(), cells->end(), StorageLess{&order});
}

void ChainNode::Eval(const EvalContext& ctx, std::vector<Cell>* cells) const {
  for (const NodePtr& child : children_) {
    if (cells->empty()) return;
    child->Eval(ctx, cells);
  }
}

void InterleaveNode::Eval(const EvalContext& ctx, std::vector<Cell>* cells) const {
  std::vector<Cell> merged;
  for (size_t i = 0; i < children_.size(); ++i) {
    const bool last = i + 1 == children_.size();
    if (!last && !ctx.MayCopy(*cells)) {
      cells->clear();
      return;
    }
    // The last branch takes the row itself rather than a copy.
    std::vector<Cell> input = last ? std::move(*cells) : *cells;
    children_[i]->Eval(ctx, &input);
    std::move(input.begin(), input.end(), std::back_inserter(merged));
  }
  // Duplicates stay, in the order of the filters that produced them.
  MergeInStorageOrder(*ctx.order, &merged);
  *cells = std::move(merged);
}

void ConditionNode::Eval(const EvalContext& ctx, std::vector<Cell>* cells) const {
  if (!ctx.MayCopy(*cells)) {
    cells->clear();
    return;
  }
  std::vector<Cell> probe = *cells;
  predicate_->Eval(ctx, &probe);
  const NodePtr& branch = probe.empty() ? on_false_ : on_true_;
  if (branch == nullptr) {
    cells->clear();
  } else {
    branch->Eval(ctx, cells);
  }
}

void SinkNode::Eval(const EvalContext& ctx, std::vector<Cell>* cells) const {
  std::move(cells->begin(), cells->end(), std::back_inserter(*ctx.sunk));
  cells->clear();
}

}  // namespace lbt::filter_internal
