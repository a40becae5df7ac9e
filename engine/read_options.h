// What a read asks for: which rows, which columns, in which direction.

#ifndef LBT_ENGINE_READ_OPTIONS_H_
#define LBT_ENGINE_READ_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cell.h"
#include "engine/status.h"

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

// A family, or one column of it.
struct ColumnSelector {
  std::string family;
  std::optional<std::string> qualifier;
};

// Narrows the cells of one row after garbage collection and the column and
// version limits of ReadOptions. Implementations must be deterministic.
class RowFilter {
 public:
  virtual ~RowFilter() = default;
  // Rewrites `cells` (in storage order, which the output keeps).
  virtual Status Apply(std::string_view row_key, std::vector<Cell>* cells) const = 0;

  // A range of row keys outside which this filter leaves no cells, if it
  // can tell; the reader then does not look at the rest of the table.
  virtual std::optional<RowRange> RowKeyHint() const { return std::nullopt; }

  // True once the filter will pass no further row (HBase's WHILE and
  // PageFilter); the reader then stops. Apply may set it.
  virtual bool ScanDone() const { return false; }
};

struct ReadOptions {
  RowSet rows;
  bool reversed = false;
  // At most this many rows (0: no limit). Only rows with cells count.
  int64_t rows_limit = 0;
  // At most this many newest cells per column (0: no limit).
  int64_t cells_per_column_limit = 0;
  // Only cells of these families/columns (empty: every column).
  std::vector<ColumnSelector> columns;
  // Applied last; not owned, must outlive the reader. nullptr: none.
  const RowFilter* filter = nullptr;
};

// What a read looked at versus what it returned, to show a query's cost.
struct ReadStats {
  int64_t rows_seen = 0;
  int64_t cells_seen = 0;
  int64_t rows_returned = 0;
  int64_t cells_returned = 0;
};

}  // namespace lbt

#endif  // LBT_ENGINE_READ_OPTIONS_H_
