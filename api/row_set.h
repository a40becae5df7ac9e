// Which rows a read covers: bounds, row ranges and row sets; and what a
// read looked at versus what it returned.

#ifndef LBT_API_ROW_SET_H_
#define LBT_API_ROW_SET_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/cell.h"
#include "api/status.h"

namespace lbt {

// One end of a range of byte strings (row keys, qualifiers, values).
struct Bound {
  enum class Kind { kUnbounded, kClosed, kOpen };
  Kind kind = Kind::kUnbounded;
  std::string value;

  static Bound Unbounded() { return {}; }
  static Bound Closed(std::string v) { return {Kind::kClosed, std::move(v)}; }
  static Bound Open(std::string v) { return {Kind::kOpen, std::move(v)}; }
};
using RowBound = Bound;

// True if `v` lies within [low, high] as their kinds say.
bool InBounds(std::string_view v, const Bound& low, const Bound& high);

// The more restrictive of two lower bounds, and of two upper ones:
// unbounded is the loosest, and at one value an open bound excludes more
// than a closed one.
Bound TighterLow(const Bound& a, const Bound& b);
Bound TighterHigh(const Bound& a, const Bound& b);

// A contiguous range of row keys.
struct RowRange {
  RowBound start;
  RowBound end;

  static RowRange All() { return {}; }
  // [start, end); an empty `end` means no upper bound.
  static RowRange ClosedOpen(std::string start, std::string end);
  // [start, end]
  static RowRange Closed(std::string start, std::string end);
  // Every row key that begins with `prefix`.
  static RowRange Prefix(std::string_view prefix);

  bool Contains(std::string_view row_key) const;
  // True when both ends are unbounded: every row key is inside.
  bool IsAll() const { return start.kind == RowBound::Kind::kUnbounded && end.kind == RowBound::Kind::kUnbounded; }
  // True when no row key can be inside.
  bool IsEmpty() const;
  // True when the start lies after the end, or on it unless both ends are
  // closed: a range Bigtable refuses ("start_key must be less than
  // end_key"), where an empty but well-formed one just reads nothing.
  bool IsInverted() const;
};

// Rows to read: the union of the keys and ranges, in key order.
// A RowSet with neither keys nor ranges means every row.
struct RowSet {
  std::vector<std::string> row_keys;
  std::vector<RowRange> row_ranges;

  bool IsAll() const { return row_keys.empty() && row_ranges.empty(); }
  // InvalidArgument naming the first inverted range, if any.
  Status Validate() const;
};

// The smallest string greater than every string that starts with `prefix`,
// or "" if there is none (prefix empty or all 0xFF).
std::string PrefixSuccessor(std::string_view prefix);

// A family, or one column of it.
struct ColumnSelector {
  std::string family;
  std::optional<std::string> qualifier;
};

// What a read looked at versus what it returned, to show a query's cost.
struct ReadStats {
  int64_t rows_seen = 0;
  int64_t cells_seen = 0;
  int64_t rows_returned = 0;
  int64_t cells_returned = 0;
  // Who counted: the store that read the rows (the local engine, or a
  // remote service's request stats), or, when a remote service sent none,
  // the client from what reached it.
  enum class Source { kStore, kClient };
  Source source = Source::kStore;
};

}  // namespace lbt

#endif  // LBT_API_ROW_SET_H_
