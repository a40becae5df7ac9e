// The HBase shell's filters, which Bigtable's API lacks and lbt runs
// itself: comparison filters and their matchers, FilterList's OR, SKIP and
// WHILE, paging, column counts and pages, single-column values and
// dependent columns.

#include "filter/compile.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <cctype>
#include <optional>
#include <set>

namespace lbt::filter_internal {

namespace {

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

// SKIP (keep_going) and WHILE (stop at the first failing row): a row passes
// only if the child keeps every one of its cells.
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
      LBT_RETURN_IF_ERROR(CheckPositive(f.count, path, "a page size"));
      return NodePtr(std::make_unique<PageNode>(f.count));
    case K::kColumnCount:
      LBT_RETURN_IF_ERROR(CheckPositive(f.count, path, "a column count"));
      return Lambda([n = f.count](const EvalContext&, std::vector<Cell>* cells) { KeepColumns(cells, 0, n); });
    case K::kColumnPage:
      LBT_RETURN_IF_ERROR(CheckPositive(f.count, path, "a column page limit"));
      if (f.offset < 0) return Status::InvalidArgument(fmt::format("{}: a column offset cannot be negative", path));
      return Lambda([n = f.count, first = f.offset](const EvalContext&, std::vector<Cell>* cells) {
        KeepColumns(cells, first, n);
      });
    case K::kDependentColumn: return DependentColumnNode(f, path);
    default: break;
  }
  return Status::InvalidArgument(fmt::format("{}: unknown filter", path));
}

}  // namespace lbt::filter_internal
