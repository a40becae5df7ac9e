// The evaluation side of a compiled filter (row_filter.h): the context one
// row is filtered in, and the nodes a filter compiles to. Each node
// rewrites a row's cells in place; composite nodes run their children on
// the row or on copies of it, within the row's copy budget. Internal to
// filter/: compile.cc builds the tree, hbase_extensions.cc adds HBase's
// nodes.

#ifndef LBT_FILTER_NODES_H_
#define LBT_FILTER_NODES_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/cell.h"
#include "api/limits.h"

namespace lbt::filter_internal {

// The bytes of cells a filter may copy while it works on one row: the
// branches of interleaves, unions and conditions each take a copy of the
// row, and without a bound a 1 KiB filter could copy a large row hundreds
// of times. lbt's limit, as large as a row may be.
inline constexpr uint64_t kMaxCopiedBytes = kMaxRowBytes;

// The bytes `cells` count for against kMaxCopiedBytes and the row read limit.
uint64_t CellsBytes(const std::vector<Cell>& cells);

// A row's families in the order its cells list them: the order storage
// gives them (creation order in lbt's engine, the service's order in remote
// mode). Every cell a filter outputs comes from the row, so this ranks them.
class FamilyOrder {
 public:
  explicit FamilyOrder(const std::vector<Cell>& row);
  // The family's place in the row; families the row lacks rank last.
  size_t Rank(const std::string& family) const;

 private:
  std::vector<std::string> families_;  // a family may repeat; its first place counts
};

// Storage order: family, qualifier, newest first.
struct StorageLess {
  const FamilyOrder* order;
  bool operator()(const Cell& a, const Cell& b) const {
    if (a.family != b.family) return order->Rank(a.family) < order->Rank(b.family);
    if (a.qualifier != b.qualifier) return a.qualifier < b.qualifier;
    return a.timestamp > b.timestamp;
  }
};

// Sorts `cells` into storage order, keeping equal cells in their order.
void MergeInStorageOrder(const FamilyOrder& order, std::vector<Cell>* cells);

inline bool SameColumn(const Cell& a, const Cell& b) { return a.family == b.family && a.qualifier == b.qualifier; }

// What every node of one filter shares while it filters one row.
struct EvalContext {
  std::string_view row_key;
  std::vector<Cell>* sunk;   // cells a Sink sent to the final output
  bool* scan_done;           // set when no later row can pass
  uint64_t* copied;          // bytes copied so far for this row
  const FamilyOrder* order;  // the row's families in storage order; set when the filter merges branches

  // Accounts for a copy of `cells`; false once the row's budget is spent,
  // and the caller then stops copying.
  bool MayCopy(const std::vector<Cell>& cells) const {
    *copied += CellsBytes(cells);
    return *copied <= kMaxCopiedBytes;
  }
};

class Node {
 public:
  virtual ~Node() = default;
  // Transforms the cells of one row, in place, keeping storage order.
  virtual void Eval(const EvalContext& ctx, std::vector<Cell>* cells) const = 0;
};

using NodePtr = std::unique_ptr<Node>;

// Keeps the cells for which `keep(cell)` holds.
template <typename Fn>
class CellPredicateNode : public Node {
 public:
  explicit CellPredicateNode(Fn keep) : keep_(std::move(keep)) {}
  void Eval(const EvalContext&, std::vector<Cell>* cells) const override {
    std::erase_if(*cells, [&](const Cell& c) { return !keep_(c); });
  }

 private:
  Fn keep_;
};

template <typename Fn>
NodePtr KeepIf(Fn keep) {
  return std::make_unique<CellPredicateNode<Fn>>(std::move(keep));
}

// Runs a function over the row's cells: for filters that look at the row
// as a whole (limits, offsets, row tests, labels).
class LambdaNode : public Node {
 public:
  using Fn = std::function<void(const EvalContext&, std::vector<Cell>*)>;
  explicit LambdaNode(Fn fn) : fn_(std::move(fn)) {}
  void Eval(const EvalContext& ctx, std::vector<Cell>* cells) const override { fn_(ctx, cells); }

 private:
  Fn fn_;
};

inline NodePtr Lambda(LambdaNode::Fn fn) { return std::make_unique<LambdaNode>(std::move(fn)); }

// Each child filters what the one before it left; an empty row ends the chain.
class ChainNode : public Node {
 public:
  explicit ChainNode(std::vector<NodePtr> children) : children_(std::move(children)) {}
  void Eval(const EvalContext& ctx, std::vector<Cell>* cells) const override;

 private:
  std::vector<NodePtr> children_;
};

// Each child filters the row; their outputs merge in storage order,
// duplicates kept. Needs ctx.order.
class InterleaveNode : public Node {
 public:
  explicit InterleaveNode(std::vector<NodePtr> children) : children_(std::move(children)) {}
  void Eval(const EvalContext& ctx, std::vector<Cell>* cells) const override;

 private:
  std::vector<NodePtr> children_;
};

// The row goes through on_true if the predicate leaves any cell of it,
// else through on_false; a missing branch leaves nothing.
class ConditionNode : public Node {
 public:
  ConditionNode(NodePtr predicate, NodePtr on_true, NodePtr on_false)
      : predicate_(std::move(predicate)), on_true_(std::move(on_true)), on_false_(std::move(on_false)) {}
  void Eval(const EvalContext& ctx, std::vector<Cell>* cells) const override;

 private:
  NodePtr predicate_, on_true_, on_false_;
};

// Sends the row's cells straight to the final output (ctx.sunk).
class SinkNode : public Node {
 public:
  void Eval(const EvalContext& ctx, std::vector<Cell>* cells) const override;
};

}  // namespace lbt::filter_internal

#endif  // LBT_FILTER_NODES_H_
