#include "filter/compile.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <iterator>

#include "filter/row_filter.h"

namespace lbt::filter_internal {

namespace {

constexpr int kMaxDepth = 20;

// A deterministic per-row draw in [0, 1), so that a sample is repeatable.
double RowDraw(std::string_view row_key) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (char c : row_key) {
    h ^= static_cast<uint8_t>(c);
    h *= 1099511628211ull;
  }
  return static_cast<double>(h >> 11) / static_cast<double>(1ull << 53);
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

// The nodes of the filters that take no other filter, each after its checks.

Result<NodePtr> RowSampleNode(const Filter& f, const std::string& path) {
  if (!(f.probability > 0 && f.probability < 1)) {
    return Status::InvalidArgument(
        fmt::format("{}: a row sample probability must lie strictly between 0 and 1, got {}", path, f.probability));
  }
  double p = f.probability;
  return Lambda([p](const EvalContext& ctx, std::vector<Cell>* cells) {
    if (RowDraw(ctx.row_key) >= p) cells->clear();
  });
}

Result<NodePtr> ColumnRangeNode(const Filter& f, const std::string& path) {
  if (f.family.empty()) {
    return Status::InvalidArgument(fmt::format("{}: a column range needs a family name", path));
  }
  return KeepIf([family = f.family, low = f.low, high = f.high](const Cell& c) {
    return c.family == family && InBounds(c.qualifier, low, high);
  });
}

Result<NodePtr> ValueBitmaskNode(const Filter& f, const std::string& path) {
  if (f.pattern.empty()) {
    return Status::InvalidArgument(fmt::format("{}.valueBitmaskFilter: the mask is required", path));
  }
  return KeepIf([mask = f.pattern](const Cell& c) { return MatchesBitmask(c.value, mask); });
}

Result<NodePtr> TimestampRangeNode(const Filter& f, const std::string& path) {
  if (f.start_micros < 0 || f.end_micros < 0 || (f.end_micros != 0 && f.end_micros < f.start_micros)) {
    return Status::InvalidArgument(
        fmt::format("{}: invalid timestamp range [{}, {}): expected 0 <= start <= end (end 0 = no limit)", path,
                    f.start_micros, f.end_micros));
  }
  return KeepIf([start = f.start_micros, end = f.end_micros](const Cell& c) {
    return c.timestamp >= start && (end == 0 || c.timestamp < end);
  });
}

Result<NodePtr> CellsPerRowOffsetNode(const Filter& f, const std::string& path) {
  LBT_RETURN_IF_ERROR(CheckPositive(f.count, path, "cells_per_row_offset_filter"));
  return Lambda([n = f.count](const EvalContext&, std::vector<Cell>* cells) {
    cells->erase(cells->begin(), cells->begin() + std::min<int64_t>(n, cells->size()));
  });
}

Result<NodePtr> CellsPerRowLimitNode(const Filter& f, const std::string& path) {
  LBT_RETURN_IF_ERROR(CheckPositive(f.count, path, "cells_per_row_limit_filter"));
  return Lambda([n = f.count](const EvalContext&, std::vector<Cell>* cells) {
    if (static_cast<int64_t>(cells->size()) > n) cells->resize(n);
  });
}

Result<NodePtr> CellsPerColumnLimitNode(const Filter& f, const std::string& path) {
  LBT_RETURN_IF_ERROR(CheckPositive(f.count, path, "cells_per_column_limit_filter"));
  return Lambda([n = f.count](const EvalContext&, std::vector<Cell>* cells) {
    // Cells of a column are adjacent; count them in place.
    size_t out = 0;
    int64_t in_column = 0;
    for (size_t i = 0; i < cells->size(); ++i) {
      bool same = out > 0 && SameColumn((*cells)[out - 1], (*cells)[i]);
      in_column = same ? in_column + 1 : 0;
      if (in_column < n) {
        if (out != i) (*cells)[out] = std::move((*cells)[i]);
        ++out;
      }
    }
    cells->resize(out);
  });
}

NodePtr StripValueNode() {
  return Lambda([](const EvalContext&, std::vector<Cell>* cells) {
    for (Cell& c : *cells) c.value.clear();
  });
}

Result<NodePtr> ApplyLabelNode(const Filter& f, const std::string& path) {
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

}  // namespace

std::unique_ptr<RE2> NewLatin1Regex(const std::string& pattern) {
  RE2::Options options;
  options.set_encoding(RE2::Options::EncodingLatin1);
  options.set_log_errors(false);
  options.set_dot_nl(false);
  return std::make_unique<RE2>(pattern, options);
}

Status CheckPositive(int64_t n, const std::string& path, const char* what) {
  if (n <= 0) return Status::InvalidArgument(fmt::format("{}: {} must be positive, got {}", path, what, n));
  return Status::OK();
}

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
  switch (f.kind) {
    case K::kPassAll: return Lambda([](const EvalContext&, std::vector<Cell>*) {});
    case K::kBlockAll: return Lambda([](const EvalContext&, std::vector<Cell>* cells) { cells->clear(); });
    case K::kSink:
      if (in_condition) {
        return Status::InvalidArgument(fmt::format("{}: a sink cannot be used inside a condition", path));
      }
      return NodePtr(std::make_unique<SinkNode>());
    case K::kChain:
    case K::kInterleave: return CompileBranches(f, path, depth, in_condition);
    case K::kCondition: return CompileCondition(f, path, depth);
    case K::kRowKeyRegex: {
      LBT_ASSIGN_OR_RETURN(auto re, Regex(f.pattern, path + ".rowKeyRegexFilter"));
      return Lambda([re](const EvalContext& ctx, std::vector<Cell>* cells) {
        if (!RE2::FullMatch(re2::StringPiece(ctx.row_key.data(), ctx.row_key.size()), *re)) cells->clear();
      });
    }
    case K::kRowSample: return RowSampleNode(f, path);
    case K::kFamilyNameRegex: return CellRegexNode(f.pattern, path + ".familyNameRegexFilter", &Cell::family);
    case K::kQualifierRegex: return CellRegexNode(f.pattern, path + ".columnQualifierRegexFilter", &Cell::qualifier);
    case K::kValueRegex: return CellRegexNode(f.pattern, path + ".valueRegexFilter", &Cell::value);
    case K::kColumnRange: return ColumnRangeNode(f, path);
    case K::kValueBitmask: return ValueBitmaskNode(f, path);
    case K::kValueRange:
      return KeepIf([low = f.low, high = f.high](const Cell& c) { return InBounds(c.value, low, high); });
    case K::kTimestampRange: return TimestampRangeNode(f, path);
    case K::kCellsPerRowOffset: return CellsPerRowOffsetNode(f, path);
    case K::kCellsPerRowLimit: return CellsPerRowLimitNode(f, path);
    case K::kCellsPerColumnLimit: return CellsPerColumnLimitNode(f, path);
    case K::kStripValue: return StripValueNode();
    case K::kApplyLabel: return ApplyLabelNode(f, path);
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

Result<NodePtr> Compiler::CellRegexNode(const std::string& pattern, const std::string& path, std::string Cell::*field) {
  LBT_ASSIGN_OR_RETURN(std::shared_ptr<RE2> re, Regex(pattern, path));
  return KeepIf([re, field](const Cell& c) { return FullMatch(*re, c.*field); });
}

Result<NodePtr> Compiler::CompileBranches(const Filter& f, const std::string& path, int depth, bool in_condition) {
  const bool chain = f.kind == Filter::Kind::kChain;
  const char* name = chain ? "chain" : "interleave";
  if (f.children.size() < 2) {
    return Status::InvalidArgument(
        fmt::format("{}: {} {} needs at least two filters, got {}", path, chain ? "a" : "an", name, f.children.size()));
  }
  if (chain) {
    int labelled = 0;
    for (const Filter& c : f.children) labelled += HasLabel(c) ? 1 : 0;
    if (labelled > 1) {
      return Status::InvalidArgument(fmt::format("{}: a chain may hold at most one label transformer", path));
    }
  }
  std::vector<NodePtr> nodes;
  for (size_t i = 0; i < f.children.size(); ++i) {
    LBT_ASSIGN_OR_RETURN(
        NodePtr n, Compile(f.children[i], fmt::format("{}.{}.filters[{}]", path, name, i), depth + 1, in_condition));
    nodes.push_back(std::move(n));
  }
  if (chain) return NodePtr(std::make_unique<ChainNode>(std::move(nodes)));
  return NodePtr(std::make_unique<InterleaveNode>(std::move(nodes)));
}

Result<NodePtr> Compiler::CompileCondition(const Filter& f, const std::string& path, int depth) {
  if (f.children.size() != 1) {
    return Status::InvalidArgument(fmt::format("{}: a condition needs a predicate filter", path));
  }
  LBT_ASSIGN_OR_RETURN(NodePtr predicate, Compile(f.children[0], path + ".condition.predicateFilter", depth + 1, true));
  NodePtr on_true, on_false;
  if (f.true_filter) {
    LBT_ASSIGN_OR_RETURN(on_true, Compile(*f.true_filter, path + ".condition.trueFilter", depth + 1, true));
  }
  if (f.false_filter) {
    LBT_ASSIGN_OR_RETURN(on_false, Compile(*f.false_filter, path + ".condition.falseFilter", depth + 1, true));
  }
  return NodePtr(std::make_unique<ConditionNode>(std::move(predicate), std::move(on_true), std::move(on_false)));
}

}  // namespace lbt::filter_internal

namespace lbt {

namespace {

using filter_internal::CellsBytes;
using filter_internal::EvalContext;
using filter_internal::FamilyOrder;
using filter_internal::kMaxCopiedBytes;
using filter_internal::MergeInStorageOrder;
using filter_internal::NodePtr;

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
  filter_internal::Compiler compiler;
  LBT_ASSIGN_OR_RETURN(NodePtr root, compiler.Compile(filter, std::string(name), 1, false));
  return std::unique_ptr<RowFilter>(
      std::make_unique<CompiledFilter>(std::move(root), RowKeyHint(filter), MergesBranches(filter)));
}

}  // namespace lbt
