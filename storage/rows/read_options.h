// What the engine's reader is asked for: which rows, which columns, in
// which direction, and the compiled filter to apply last.

#ifndef LBT_STORAGE_ROWS_READ_OPTIONS_H_
#define LBT_STORAGE_ROWS_READ_OPTIONS_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "api/authorized_view.h"
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
  // Through an authorized view (ReadRequest::within_view): only the cells
  // it covers are looked at, counted and returned. nullptr: every cell.
  std::shared_ptr<const SubsetView> within_view;

  // For long reads that must not hold back the database (a server's): the
  // reader takes a new snapshot, going on after the last row it looked at,
  // once its snapshot is this old. Each row is still read whole from one
  // snapshot, as Bigtable promises; rows are not read from one snapshot
  // together, as Bigtable does not promise either. 0: one snapshot for
  // the whole read.
  std::chrono::milliseconds max_snapshot_age{0};
  // Asked between rows, also while the filters skip many in a row; once it
  // returns true the read stops with Cancelled. Unset: never.
  std::function<bool()> interrupted;
};

}  // namespace lbt

#endif  // LBT_STORAGE_ROWS_READ_OPTIONS_H_
