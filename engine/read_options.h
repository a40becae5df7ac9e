// What the engine's reader is asked for: which rows, which columns, in
// which direction, and the compiled filter to apply last.

#ifndef LBT_ENGINE_READ_OPTIONS_H_
#define LBT_ENGINE_READ_OPTIONS_H_

#include <cstdint>
#include <vector>

#include "api/row_set.h"
#include "filter/row_filter.h"

namespace lbt {

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

}  // namespace lbt

#endif  // LBT_ENGINE_READ_OPTIONS_H_
