#include "filter/row_filter.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "api/limits.h"

namespace lbt {

// ---- evaluation ----

namespace {

constexpr int kMaxDepth = 20;

// A row's families in the order its cells list them: the order storage
// gives them (creation order in lbt's engine, the service's order in remote
// mode). Every cell a filter outputs comes from the row, so this ranks them.
class FamilyOrder {
 public:
  explicit FamilyOrder(const std::vector<Cell>& row) {
    for (const Cell& c : row) {
      if (families_.empty() || families_.back() != c.family) families_.push_back(c.family);
    }
  }
  size_t Rank(const std::string& family) const {
    for (size_t i = 0; i < families_.size(); ++i) {
      if (families_[i] == family) return i;
    }
    return families_.size();
  }

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

void MergeInStorageOrder(const FamilyOrder& order, std::vector<Cell>* cells) {
  std::stable_sort(cells->begin(), cells->end(), StorageLess{&order});
}

// A deterministic per-row draw in [0, 1), so that a sample is repeatable.
double RowDraw(std::string_view row_key) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (char c : row_key) {
    h ^= static_cast<uint8_t>(c);
    h *= 1099511628211ull;
  }
  return static_cast<double>(h >> 11) / static_cast<double>(1ull << 53);
}

// The bytes of cells a filter may copy while it works on one row: the
// branches of interleaves, unions and conditions each take a copy of the
// row, and without a bound a 1 KiB filter could copy a large row hundreds
// of times. lbt's limit, as large as a row may be.
constexpr uint64_t kMaxCopiedBytes = kMaxRowBytes;

uint64_t CellsBytes(const std::vector<Cell>& cells) {
  uint64_t total = 0;
  for (const Cell& c : cells) total += c.family.size() + c.qualifier.size() + c.value.size() + 8;
  return total;
}

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

bool SameColumn(const Cell& a, const Cell& b) { return a.family == b.family && a.qualifier == b.qualifier; }

// Keeps the cells of the columns whose position (0 = first column of the
// row) lies in [first, first + count).
void KeepColumns(std::vector<Cell>* cells, int64_t first, int64_t count) {
  std::vector<Cell> kept;
  int64_t column = -1;
  for (size_t i = 0; i < cells->size(); ++i) {
    if (i == 0 || !SameColumn((*cells)[i - 1], (*cells)[i])) ++column;
    if (column >= first && column < first + count) kept.push_back((*cells)[i]);
  }
  *cells = std::move(kept);
}

class Node {
 public:
  virtual ~Node() = default;
  // Transforms the cells of one row, in place.
  virtual void Eval(const EvalContext& ctx, std::vector<Cell>* cells) const = 0;
};

using NodePtr = std::unique_ptr<Node>;

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

class LambdaNode : public Node {
 public:
  using Fn = std::function<void(const EvalContext&, std::vector<Cell>*)>;
  explicit LambdaNode(Fn fn) : fn_(std::move(fn)) {}
  void Eval(const EvalContext& ctx, std::vector<Cell>* cells) const override { fn_(ctx, cells); }

 private:
  Fn fn_;
};

NodePtr Lambda(LambdaNode::Fn fn) { return std::make_unique<LambdaNode>(std::move(fn)); }

class ChainNode : public Node {
 public:
  explicit ChainNode(std::vector<NodePtr> children) : children_(std::move(children)) {}
  void Eval(const EvalContext& ctx, std::vector<Cell>* cells) const override {
    for (const NodePtr& child : children_) {
      if (cells->empty()) return;
      child->Eval(ctx, cells);
    }
  }

 private:
  std::vector<NodePtr> children_;
};

class InterleaveNode : public Node {
 public:
  explicit InterleaveNode(std::vector<NodePtr> children) : children_(std::move(children)) {}
  void Eval(const EvalContext& ctx, std::vector<Cell>* cells) const override {
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

 private:
  std::vector<NodePtr> children_;
};

class ConditionNode : public Node {
 public:
  ConditionNode(NodePtr predicate, NodePtr on_true, NodePtr on_false)
      : predicate_(std::move(predicate)), on_true_(std::move(on_true)), on_false_(std::move(on_false)) {}
  void Eval(const EvalContext& ctx, std::vector<Cell>* cells) const override {
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

 private:
  NodePtr predicate_, on_true_, on_false_;
};

class SinkNode : public Node {
 public:
  void Eval(const EvalContext& ctx, std::vector<Cell>* cells) const override {
    std::move(cells->begin(), cells->end(), std::back_inserter(*ctx.sunk));
    cells->clear();
  }
};

std::unique_ptr<RE2> NewLatin1Regex(const std::string& pattern) {
  RE2::Options options;
  options.set_encoding(RE2::Options::EncodingLatin1);
  options.set_log_errors(false);
  options.set_dot_nl(false);
  return std::make_unique<RE2>(pattern, options);
}

// Bigtable's value bitmask: every bit of the mask is set in the value, and
// a value of another length never matches.
bool MatchesBitmask(const std::string& value, const std::string& mask) {
  if (value.size() != mask.size()) return false;
  for (size_t i = 0; i < mask.size(); ++i) {
    if ((value[i] & mask[i]) != mask[i]) return false;
  }
  return true;
}

bool FullMatch(const RE2& re, const std::string& bytes) {
  return RE2::FullMatch(re2::StringPiece(bytes.data(), bytes.size()), re);
}

// Compiles one filter; `path` names it in error messages.

class Compiler {
 public:
  Result<NodePtr> Compile(const Filter& f, const std::string& path, int depth, bool in_condition);

 private:
  Result<NodePtr> CompileExtension(const Filter& f, const std::string& path, int depth, bool in_condition);
  Result<std::shared_ptr<RE2>> Regex(const std::string& pattern, const std::string& path);
  static bool HasLabel(const Filter& f);
};

bool Compiler::HasLabel(const Filter& f) {
  if (f.kind == Filter::Kind::kApplyLabel) return true;
  for (const Filter& c : f.children) {
    if (HasLabel(c)) return true;
  }
  return (f.true_filter && HasLabel(*f.true_filter)) || (f.false_filter && HasLabel(*f.false_filter));
}

Result<std::shared_ptr<RE2>> Compiler::Regex(const std::string& pattern, const std::string& path) {
  std::shared_ptr<RE2> re = NewLatin1Regex(pattern);
  if (!re->ok()) {
    return Status::InvalidArgument(fmt::format("{}: invalid regular expression '{}': {}", path, pattern, re->error()));
  }
  return re;
}

Result<NodePtr> Compiler::Compile(const Filter& f, const std::string& path, int depth, bool in_condition) {
  using K = Filter::Kind;
  if (depth > kMaxDepth) {
    return Status::InvalidArgument(fmt::format("{}: filters nest more than {} levels deep", path, kMaxDepth));
  }
  auto positive = [&](const char* what) -> Status {
    if (f.count <= 0) {
      return Status::InvalidArgument(fmt::format("{}: {} must be positive, got {}", path, what, f.count));
    }
    return Status::OK();
  };
  switch (f.kind) {
    case K::kPassAll: return Lambda([](const EvalContext&, std::vector<Cell>*) {});
    case K::kBlockAll: return Lambda([](const EvalContext&, std::vector<Cell>* cells) { cells->clear(); });
    case K::kSink:
      if (in_condition) {
        return Status::InvalidArgument(fmt::format("{}: a sink cannot be used inside a condition", path));
      }
      return NodePtr(std::make_unique<SinkNode>());
    case K::kChain:
    case K::kInterleave: {
      const char* name = f.kind == K::kChain ? "chain" : "interleave";
      if (f.children.size() < 2) {
        return Status::InvalidArgument(fmt::format("{}: {} {} needs at least two filters, got {}", path,
                                                   f.kind == K::kChain ? "a" : "an", name, f.children.size()));
      }
      if (f.kind == K::kChain) {
        int labelled = 0;
        for (const Filter& c : f.children) labelled += HasLabel(c) ? 1 : 0;
        if (labelled > 1) {
          return Status::InvalidArgument(fmt::format("{}: a chain may hold at most one label transformer", path));
        }
      }
      std::vector<NodePtr> nodes;
      for (size_t i = 0; i < f.children.size(); ++i) {
        LBT_ASSIGN_OR_RETURN(NodePtr n, Compile(f.children[i], fmt::format("{}.{}.filters[{}]", path, name, i),
                                                depth + 1, in_condition));
        nodes.push_back(std::move(n));
      }
      if (f.kind == K::kChain) return NodePtr(std::make_unique<ChainNode>(std::move(nodes)));
      return NodePtr(std::make_unique<InterleaveNode>(std::move(nodes)));
    }
    case K::kCondition: {
      if (f.children.size() != 1) {
        return Status::InvalidArgument(fmt::format("{}: a condition needs a predicate filter", path));
      }
      LBT_ASSIGN_OR_RETURN(NodePtr predicate,
                           Compile(f.children[0], path + ".condition.predicateFilter", depth + 1, true));
      NodePtr on_true, on_false;
      if (f.true_filter) {
        LBT_ASSIGN_OR_RETURN(on_true, Compile(*f.true_filter, path + ".condition.trueFilter", depth + 1, true));
      }
      if (f.false_filter) {
        LBT_ASSIGN_OR_RETURN(on_false, Compile(*f.false_filter, path + ".condition.falseFilter", depth + 1, true));
      }
      return NodePtr(std::make_unique<ConditionNode>(std::move(predicate), std::move(on_true), std::move(on_false)));
    }
    case K::kRowKeyRegex: {
      LBT_ASSIGN_OR_RETURN(auto re, Regex(f.pattern, path + ".rowKeyRegexFilter"));
      return Lambda([re](const EvalContext& ctx, std::vector<Cell>* cells) {
        if (!RE2::FullMatch(re2::StringPiece(ctx.row_key.data(), ctx.row_key.size()), *re)) cells->clear();
      });
    }
    case K::kRowSample: {
      if (!(f.probability > 0 && f.probability < 1)) {
        return Status::InvalidArgument(
            fmt::format("{}: a row sample probability must lie strictly between 0 and 1, got {}", path, f.probability));
      }
      double p = f.probability;
      return Lambda([p](const EvalContext& ctx, std::vector<Cell>* cells) {
        if (RowDraw(ctx.row_key) >= p) cells->clear();
      });
    }
    case K::kFamilyNameRegex: {
      LBT_ASSIGN_OR_RETURN(auto re, Regex(f.pattern, path + ".familyNameRegexFilter"));
      return KeepIf([re](const Cell& c) { return FullMatch(*re, c.family); });
    }
    case K::kQualifierRegex: {
      LBT_ASSIGN_OR_RETURN(auto re, Regex(f.pattern, path + ".columnQualifierRegexFilter"));
      return KeepIf([re](const Cell& c) { return FullMatch(*re, c.qualifier); });
    }
    case K::kValueRegex: {
      LBT_ASSIGN_OR_RETURN(auto re, Regex(f.pattern, path + ".valueRegexFilter"));
      return KeepIf([re](const Cell& c) { return FullMatch(*re, c.value); });
    }
    case K::kColumnRange: {
      if (f.family.empty()) {
        return Status::InvalidArgument(fmt::format("{}: a column range needs a family name", path));
      }
      return KeepIf([family = f.family, low = f.low, high = f.high](const Cell& c) {
        return c.family == family && InBounds(c.qualifier, low, high);
      });
    }
    case K::kValueBitmask:
      if (f.pattern.empty()) {
        return Status::InvalidArgument(fmt::format("{}.valueBitmaskFilter: the mask is required", path));
      }
      return KeepIf([mask = f.pattern](const Cell& c) { return MatchesBitmask(c.value, mask); });
    case K::kValueRange:
      return KeepIf([low = f.low, high = f.high](const Cell& c) { return InBounds(c.value, low, high); });
    case K::kTimestampRange: {
      if (f.start_micros < 0 || f.end_micros < 0 || (f.end_micros != 0 && f.end_micros < f.start_micros)) {
        return Status::InvalidArgument(
            fmt::format("{}: invalid timestamp range [{}, {}): expected 0 <= start <= end (end 0 = no limit)", path,
                        f.start_micros, f.end_micros));
      }
      return KeepIf([start = f.start_micros, end = f.end_micros](const Cell& c) {
        return c.timestamp >= start && (end == 0 || c.timestamp < end);
      });
    }
    case K::kCellsPerRowOffset: {
      LBT_RETURN_IF_ERROR(positive("cells_per_row_offset_filter"));
      int64_t n = f.count;
      return Lambda([n](const EvalContext&, std::vector<Cell>* cells) {
        cells->erase(cells->begin(), cells->begin() + std::min<int64_t>(n, cells->size()));
      });
    }
    case K::kCellsPerRowLimit: {
      LBT_RETURN_IF_ERROR(positive("cells_per_row_limit_filter"));
      int64_t n = f.count;
      return Lambda([n](const EvalContext&, std::vector<Cell>* cells) {
        if (static_cast<int64_t>(cells->size()) > n) cells->resize(n);
      });
    }
    case K::kCellsPerColumnLimit: {
      LBT_RETURN_IF_ERROR(positive("cells_per_column_limit_filter"));
      int64_t n = f.count;
      return Lambda([n](const EvalContext&, std::vector<Cell>* cells) {
        // Cells of a column are adjacent; count them in place.
        size_t out = 0;
        int64_t in_column = 0;
        for (size_t i = 0; i < cells->size(); ++i) {
          bool same = out > 0 && (*cells)[out - 1].family == (*cells)[i].family &&
                      (*cells)[out - 1].qualifier == (*cells)[i].qualifier;
          in_column = same ? in_column + 1 : 0;
          if (in_column < n) {
            if (out != i) (*cells)[out] = std::move((*cells)[i]);
            ++out;
          }
        }
        cells->resize(out);
      });
    }
    case K::kStripValue:
      return Lambda([](const EvalContext&, std::vector<Cell>* cells) {
        for (Cell& c : *cells) c.value.clear();
      });
    case K::kApplyLabel: {
      const std::string& label = f.pattern;
      bool valid = !label.empty() && label.size() <= 15 && std::all_of(label.begin(), label.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
      });
      if (!valid) {
        return Status::InvalidArgument(
            fmt::format("{}: invalid label '{}': expected 1 to 15 characters of [a-z0-9-]", path, label));
      }
      return Lambda([label](const EvalContext&, std::vector<Cell>* cells) {
        for (Cell& c : *cells) c.labels.push_back(label);
      });
    }
    case K::kUnion:
    case K::kSkip:
    case K::kWhile:
    case K::kCompare:
    case K::kQualifierRange:
    case K::kColumnValue:
    case K::kTimestamps:
    case K::kPage:
    case K::kColumnCount:
    case K::kColumnPage:
    case K::kDependentColumn: return CompileExtension(f, path, depth, in_condition);
  }
  return Status::InvalidArgument(fmt::format("{}: unknown filter", path));
}

// A byte-string test as HBase's CompareFilter makes it: op(target, comparand).
class Matcher {
 public:
  static Result<Matcher> Make(Filter::CompareOp op, Filter::Comparator comparator, const std::string& comparand,
                              const std::string& path) {
    Matcher m;
    m.op_ = op;
    m.comparator_ = comparator;
    m.comparand_ = comparand;
    using C = Filter::Comparator;
    if (comparator == C::kRegex || comparator == C::kSubstring) {
      if (op != Filter::CompareOp::kEqual && op != Filter::CompareOp::kNotEqual) {
        return Status::InvalidArgument(
            fmt::format("{}: regexstring: and substring: comparators take = or != only", path));
      }
    }
    if (comparator == C::kRegex) {
      m.regex_ = NewLatin1Regex(comparand);
      if (!m.regex_->ok()) {
        return Status::InvalidArgument(
            fmt::format("{}: invalid regular expression '{}': {}", path, comparand, m.regex_->error()));
      }
    }
    if (comparator == C::kSubstring) {
      for (char& c : m.comparand_) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return m;
  }

  bool Matches(std::string_view target) const {
    using C = Filter::Comparator;
    switch (comparator_) {
      case C::kBinary: return Holds(target.compare(comparand_));
      case C::kBinaryPrefix: return Holds(target.substr(0, comparand_.size()).compare(comparand_));
      case C::kRegex: {
        bool found = RE2::PartialMatch(re2::StringPiece(target.data(), target.size()), *regex_);
        return op_ == Filter::CompareOp::kEqual ? found : !found;
      }
      case C::kSubstring: {
        std::string lower(target);
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        bool found = lower.find(comparand_) != std::string::npos;
        return op_ == Filter::CompareOp::kEqual ? found : !found;
      }
    }
    return false;
  }

 private:
  bool Holds(int cmp) const {
    switch (op_) {
      case Filter::CompareOp::kLess: return cmp < 0;
      case Filter::CompareOp::kLessOrEqual: return cmp <= 0;
      case Filter::CompareOp::kEqual: return cmp == 0;
      case Filter::CompareOp::kNotEqual: return cmp != 0;
      case Filter::CompareOp::kGreaterOrEqual: return cmp >= 0;
      case Filter::CompareOp::kGreater: return cmp > 0;
    }
    return false;
  }

  Filter::CompareOp op_ = Filter::CompareOp::kEqual;
  Filter::Comparator comparator_ = Filter::Comparator::kBinary;
  std::string comparand_;
  std::shared_ptr<RE2> regex_;
};

class UnionNode : public Node {
 public:
  explicit UnionNode(std::vector<NodePtr> children) : children_(std::move(children)) {}
  // A cell is kept once if any child keeps it, as the first such child left
  // it; cells are matched to the input by their coordinates.
  void Eval(const EvalContext& ctx, std::vector<Cell>* cells) const override {
    std::vector<std::vector<Cell>> outputs;
    for (const NodePtr& child : children_) {
      if (!ctx.MayCopy(*cells)) {
        cells->clear();
        return;
      }
      std::vector<Cell> copy = *cells;
      child->Eval(ctx, &copy);
      outputs.push_back(std::move(copy));
    }
    std::vector<Cell> result;
    std::vector<size_t> next(outputs.size(), 0);
    for (const Cell& in : *cells) {
      for (size_t k = 0; k < outputs.size(); ++k) {
        // Outputs keep storage order, so a cursor per output suffices.
        auto& out = outputs[k];
        while (next[k] < out.size() && StorageLess{ctx.order}(out[next[k]], in)) ++next[k];
        if (next[k] < out.size() && SameColumn(out[next[k]], in) && out[next[k]].timestamp == in.timestamp) {
          result.push_back(out[next[k]++]);
          for (size_t j = k + 1; j < outputs.size(); ++j) {
            while (next[j] < outputs[j].size() && !StorageLess{ctx.order}(in, outputs[j][next[j]])) ++next[j];
          }
          break;
        }
      }
    }
    *cells = std::move(result);
  }

 private:
  std::vector<NodePtr> children_;
};

// SKIP (keep_going) and WHILE (stop at the first failing row).
// HBase's DependentColumnFilter: the timestamps of the reference column's
// cells (those passing the value test, if any) choose the row's cells.
Result<NodePtr> DependentColumnNode(const Filter& f, const std::string& path) {
  std::optional<Matcher> test;
  if (f.compare_values) {
    LBT_ASSIGN_OR_RETURN(Matcher m, Matcher::Make(f.op, f.comparator, f.comparand, path));
    test = std::move(m);
  }
  return Lambda([f, test](const EvalContext&, std::vector<Cell>* cells) {
    auto is_reference = [&](const Cell& c) { return c.family == f.family && c.qualifier == f.pattern; };
    std::set<int64_t> stamps;
    for (const Cell& c : *cells) {
      if (is_reference(c) && (!test || test->Matches(c.value))) stamps.insert(c.timestamp);
    }
    std::erase_if(*cells, [&](const Cell& c) {
      if (is_reference(c)) return f.exclude_column || (test && !test->Matches(c.value));
      return stamps.count(c.timestamp) == 0;
    });
    if (stamps.empty()) cells->clear();
  });
}

class RowGuardNode : public Node {
 public:
  RowGuardNode(NodePtr child, bool ends_scan) : child_(std::move(child)), ends_scan_(ends_scan) {}
  void Eval(const EvalContext& ctx, std::vector<Cell>* cells) const override {
    if (!ctx.MayCopy(*cells)) {
      cells->clear();
      return;
    }
    std::vector<Cell> out = *cells;
    child_->Eval(ctx, &out);
    if (out.size() == cells->size()) {
      *cells = std::move(out);
      return;
    }
    cells->clear();
    if (ends_scan_) *ctx.scan_done = true;
  }

 private:
  NodePtr child_;
  bool ends_scan_;
};

class PageNode : public Node {
 public:
  explicit PageNode(int64_t rows) : rows_(rows) {}
  void Eval(const EvalContext& ctx, std::vector<Cell>* cells) const override {
    if (cells->empty()) return;
    if (passed_ >= rows_) {
      cells->clear();
      *ctx.scan_done = true;
      return;
    }
    if (++passed_ == rows_) *ctx.scan_done = true;
  }

 private:
  int64_t rows_;
  mutable int64_t passed_ = 0;  // state of one scan; a compiled filter serves one read
};

namespace {

// A comparison filter (HBase's RowFilter, FamilyFilter, QualifierFilter,
// ValueFilter): the cells whose row key, family, qualifier or value match.
Result<NodePtr> CompareNode(const Filter& f, const std::string& path) {
  LBT_ASSIGN_OR_RETURN(Matcher m, Matcher::Make(f.op, f.comparator, f.comparand, path));
  switch (f.target) {
    case Filter::Target::kRowKey:
      return Lambda([m](const EvalContext& ctx, std::vector<Cell>* cells) {
        if (!m.Matches(ctx.row_key)) cells->clear();
      });
    case Filter::Target::kFamily: return KeepIf([m](const Cell& c) { return m.Matches(c.family); });
    case Filter::Target::kQualifier: return KeepIf([m](const Cell& c) { return m.Matches(c.qualifier); });
    case Filter::Target::kValue: return KeepIf([m](const Cell& c) { return m.Matches(c.value); });
  }
  return Status::InvalidArgument(fmt::format("{}: unknown comparison target", path));
}

// HBase's SingleColumnValueFilter: the row stays if its column's value
// matches (or the column is missing and filter_if_missing is off).
Result<NodePtr> ColumnValueNode(const Filter& f, const std::string& path) {
  LBT_ASSIGN_OR_RETURN(Matcher m, Matcher::Make(f.op, f.comparator, f.comparand, path));
  return Lambda([m, f](const EvalContext&, std::vector<Cell>* cells) {
    bool found = false, passes = false;
    for (const Cell& c : *cells) {
      if (c.family != f.family || c.qualifier != f.pattern) continue;
      if (found && f.latest_version_only) break;  // newest first: only the latest counts
      found = true;
      passes = passes || m.Matches(c.value);
    }
    if (found ? !passes : f.filter_if_missing) {
      cells->clear();
    } else if (f.exclude_column) {
      std::erase_if(*cells, [&](const Cell& c) { return c.family == f.family && c.qualifier == f.pattern; });
    }
  });
}

}  // namespace

Result<NodePtr> Compiler::CompileExtension(const Filter& f, const std::string& path, int depth, bool in_condition) {
  using K = Filter::Kind;
  auto positive = [&](int64_t n, const char* what) -> Status {
    if (n <= 0) return Status::InvalidArgument(fmt::format("{}: {} must be positive, got {}", path, what, n));
    return Status::OK();
  };
  switch (f.kind) {
    case K::kUnion: {
      std::vector<NodePtr> nodes;
      for (size_t i = 0; i < f.children.size(); ++i) {
        LBT_ASSIGN_OR_RETURN(NodePtr n,
                             Compile(f.children[i], fmt::format("{}.or[{}]", path, i), depth + 1, in_condition));
        nodes.push_back(std::move(n));
      }
      return NodePtr(std::make_unique<UnionNode>(std::move(nodes)));
    }
    case K::kSkip:
    case K::kWhile: {
      LBT_ASSIGN_OR_RETURN(NodePtr n, Compile(f.children.at(0), path + (f.kind == K::kSkip ? ".skip" : ".while"),
                                              depth + 1, in_condition));
      return NodePtr(std::make_unique<RowGuardNode>(std::move(n), f.kind == K::kWhile));
    }
    case K::kCompare: return CompareNode(f, path);
    case K::kQualifierRange:
      return KeepIf([low = f.low, high = f.high](const Cell& c) { return InBounds(c.qualifier, low, high); });
    case K::kColumnValue: return ColumnValueNode(f, path);
    case K::kTimestamps: {
      std::set<int64_t> wanted(f.timestamps.begin(), f.timestamps.end());
      return KeepIf([wanted](const Cell& c) { return wanted.count(c.timestamp) != 0; });
    }
    case K::kPage:
      LBT_RETURN_IF_ERROR(positive(f.count, "a page size"));
      return NodePtr(std::make_unique<PageNode>(f.count));
    case K::kColumnCount:
      LBT_RETURN_IF_ERROR(positive(f.count, "a column count"));
      return Lambda([n = f.count](const EvalContext&, std::vector<Cell>* cells) { KeepColumns(cells, 0, n); });
    case K::kColumnPage:
      LBT_RETURN_IF_ERROR(positive(f.count, "a column page limit"));
      if (f.offset < 0) return Status::InvalidArgument(fmt::format("{}: a column offset cannot be negative", path));
      return Lambda([n = f.count, first = f.offset](const EvalContext&, std::vector<Cell>* cells) {
        KeepColumns(cells, first, n);
      });
    case K::kDependentColumn: return DependentColumnNode(f, path);
    default: break;
  }
  return Status::InvalidArgument(fmt::format("{}: unknown filter", path));
}

// The closed range of row keys a filter can leave cells for, from its
// row key regexes (RE2 knows the smallest and largest string a regex can
// match); nullopt when any row may pass.
std::optional<RowRange> RowKeyHint(const Filter& f) {
  if (f.kind == Filter::Kind::kRowKeyRegex) {
    RE2::Options options;
    options.set_encoding(RE2::Options::EncodingLatin1);
    options.set_log_errors(false);
    RE2 anchored("^(?:" + f.pattern + ")$", options);
    std::string min, max;
    if (!anchored.ok() || !anchored.PossibleMatchRange(&min, &max, 256)) return std::nullopt;
    return RowRange::Closed(min, max);
  }
  if (f.kind == Filter::Kind::kCompare && f.target == Filter::Target::kRowKey) {
    using O = Filter::CompareOp;
    RowRange r;
    if (f.comparator == Filter::Comparator::kBinaryPrefix && f.op == O::kEqual) return RowRange::Prefix(f.comparand);
    if (f.comparator != Filter::Comparator::kBinary) return std::nullopt;
    switch (f.op) {
      case O::kLess: r.end = Bound::Open(f.comparand); break;
      case O::kLessOrEqual: r.end = Bound::Closed(f.comparand); break;
      case O::kEqual: r = RowRange::Closed(f.comparand, f.comparand); break;
      case O::kGreaterOrEqual: r.start = Bound::Closed(f.comparand); break;
      case O::kGreater: r.start = Bound::Open(f.comparand); break;
      case O::kNotEqual: return std::nullopt;
    }
    return r;
  }
  if (f.kind != Filter::Kind::kChain) return std::nullopt;
  // A chain passes a row only if every member does: intersect.
  std::optional<RowRange> hint;
  for (const Filter& child : f.children) {
    std::optional<RowRange> h = RowKeyHint(child);
    if (!h) continue;
    if (!hint) {
      hint = h;
    } else {
      hint->start = TighterLow(hint->start, h->start);
      hint->end = TighterHigh(hint->end, h->end);
    }
  }
  return hint;
}

// Whether evaluating `f` merges cells from several branches, which needs
// the row's family order (interleaves, HBase's OR lists, sinks).
bool MergesBranches(const Filter& f) {
  using K = Filter::Kind;
  if (f.kind == K::kInterleave || f.kind == K::kUnion || f.kind == K::kSink) return true;
  if ((f.true_filter && MergesBranches(*f.true_filter)) || (f.false_filter && MergesBranches(*f.false_filter))) {
    return true;  // a condition's branches
  }
  return std::any_of(f.children.begin(), f.children.end(), MergesBranches);
}

class CompiledFilter : public RowFilter {
 public:
  CompiledFilter(NodePtr root, std::optional<RowRange> hint, bool merges)
      : root_(std::move(root)), hint_(std::move(hint)), merges_(merges) {}
  Status Apply(std::string_view row_key, std::vector<Cell>* cells) const override {
    std::vector<Cell> sunk;
    uint64_t copied = 0;
    // Only a filter that merges branches needs the order, and it is read
    // from the row before the filter changes it.
    std::optional<FamilyOrder> order;
    if (merges_) order.emplace(*cells);
    root_->Eval(EvalContext{row_key, &sunk, &scan_done_, &copied, order ? &*order : nullptr}, cells);
    if (copied > kMaxCopiedBytes) {
      cells->clear();
      return Status::FailedPrecondition(fmt::format(
          "the filter copies more than {} MiB of row '{}' (each branch of an interleave or condition works on a "
          "copy of the row); narrow the filter",
          kMaxCopiedBytes >> 20, PrintableKey(row_key)));
    }
    if (!sunk.empty()) {
      std::move(sunk.begin(), sunk.end(), std::back_inserter(*cells));
      MergeInStorageOrder(*order, cells);
    }
    // Interleaves can return a cell several times, from the copies they
    // made; what one row returns obeys Bigtable's limit on a row read all
    // the same. Without copies it is part of the row, which obeys it.
    if (const uint64_t bytes = copied == 0 ? 0 : CellsBytes(*cells); bytes > kMaxRowBytes) {
      cells->clear();
      return Status::FailedPrecondition(
          fmt::format("the read returned {} MiB from row '{}', over Bigtable's limit of {} MiB for a row read",
                      bytes >> 20, PrintableKey(row_key), kMaxRowBytes >> 20));
    }
    return Status::OK();
  }

  // The key as it may appear in a message: printable bytes, the rest escaped, at most 64 of them.
  static std::string PrintableKey(std::string_view key) {
    std::string out;
    for (unsigned char c : key.substr(0, 64)) {
      if (c >= 0x20 && c < 0x7f) {
        out += static_cast<char>(c);
      } else {
        out += fmt::format("\\x{:02x}", c);
      }
    }
    if (key.size() > 64) out += "...";
    return out;
  }

  std::optional<RowRange> RowKeyHint() const override { return hint_; }
  bool ScanDone() const override { return scan_done_; }

 private:
  NodePtr root_;
  std::optional<RowRange> hint_;
  bool merges_;                     // MergesBranches(the filter)
  mutable bool scan_done_ = false;  // a compiled filter serves one read at a time
};

}  // namespace

Result<std::unique_ptr<RowFilter>> CompileFilter(const Filter& filter, std::string_view name) {
  Compiler compiler;
  LBT_ASSIGN_OR_RETURN(NodePtr root, compiler.Compile(filter, std::string(name), 1, false));
  return std::unique_ptr<RowFilter>(
      std::make_unique<CompiledFilter>(std::move(root), RowKeyHint(filter), MergesBranches(filter)));
}

}  // namespace lbt
