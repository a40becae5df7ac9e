// RowCursor assembles rows from the cells store within one transaction,
// applying garbage collection, column selection, version limits and the
// read's filter (internal to storage/; RowReader is the public face).
//
// It holds one row at a time, so memory is bounded by the largest row.

#ifndef LBT_STORAGE_ROWS_ROW_CURSOR_H_
#define LBT_STORAGE_ROWS_ROW_CURSOR_H_

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/cell.h"
#include "api/schema.h"
#include "api/status.h"
#include "storage/format/stores.h"
#include "storage/kv/lmdb_env.h"
#include "storage/kv/ordered_store.h"
#include "storage/kv/store_view.h"
#include "storage/rows/read_options.h"

namespace lbt {

// The cell keys of the rows in `range`, as [lower, upper) byte strings.
struct EncodedRange {
  std::string lower;
  std::string upper;
};
EncodedRange EncodeRowRange(TableId table, const RowRange& range);

class RowCursor {
 public:
  // Reads stores.cells, hiding the cells GC makes eligible unless
  // stores.lazy_gc. REQUIRES: `txn` and `stores` outlive the cursor.
  static Result<std::unique_ptr<RowCursor>> Open(Txn* txn, const Stores& stores, std::shared_ptr<const TableSpec> table,
                                                 ReadOptions options, int64_t now_micros);
  // Reads the cells through `cells` (LMDB under memtables, say); `lazy_gc`
  // as Stores::lazy_gc. REQUIRES: what the view reads outlives the cursor.
  static Result<std::unique_ptr<RowCursor>> Open(const StoreView& cells, bool lazy_gc,
                                                 std::shared_ptr<const TableSpec> table, ReadOptions options,
                                                 int64_t now_micros);

  // Reads the next row that has cells after filtering. Returns false at
  // the end, or, when pauses are on, after skipping that many rows in a
  // row (paused() then tells; call Next again to go on).
  Result<bool> Next(Row* row);

  // Makes Next return (false, paused()) after `rows` rows that the
  // filters emptied one after the other, so that a caller can check for
  // cancellation or renew its snapshot during a long fruitless scan.
  // 0 (the default): never.
  void set_pause_after_skipped(int64_t rows) { pause_after_skipped_ = rows; }
  bool paused() const { return paused_; }

  // Lets go of the transaction: the cursor keeps only where it is. Resume
  // goes on, in `txn`, from the row after the last one Next looked at;
  // rows written meanwhile are seen there, as a new read would see them.
  // REQUIRES: Suspend before the transaction ends; Resume with a
  // transaction on the same database that outlives the cursor.
  void Suspend();
  Status Resume(const StoreView& cells);

  // Reads the row `row_key` alone, whatever the options' rows say: false
  // if it has no cells after filtering. Lookups in increasing key order
  // are cheapest: when the row would start before the cursor's current
  // key, no seek is needed to find it or to know it is absent.
  // REQUIRES: not mixed with Next on the same cursor.
  Result<bool> ReadRowAt(std::string_view row_key, Row* row);

  const ReadStats& stats() const { return stats_; }
  // The key of the last row looked at and left out (every cell filtered),
  // when no row was returned after it; empty otherwise.
  const std::string& skipped_tail_key() const { return skipped_tail_key_; }

 private:
  RowCursor(std::shared_ptr<const TableSpec> table, ReadOptions options, int64_t now);
  void PlanRanges();
  bool Selected(const std::string& family, const std::string& qualifier) const;
  // False for a column outside the view the read goes through (and for
  // any column of a dropped family then).
  bool Visible(const FamilySpec* family, const std::string& qualifier) const;
  // Reads the row whose cells start under the iterator, leaving it past them.
  Status AssembleRow(Row* row);
  // Decodes a column's encoded family id and qualifier, looking the family
  // up into family_ (null for a dropped family) unless it is the last one
  // seen. False if the key is malformed.
  bool DecodeColumn(std::string_view column, std::string* qualifier);
  // After a row's cells: the cursor's error, memory release and the filter.
  Status FinishRow(Row* row);
  // Records a row the filters emptied; returns true if `row` has cells.
  bool NoteSkipped(const Row& row);
  Result<bool> NextForward(Row* row);
  Result<bool> NextReversed(Row* row);

  std::shared_ptr<const TableSpec> table_;
  ReadOptions options_;
  int64_t now_;
  std::optional<StoreView> cells_;  // unset while suspended
  bool hide_eligible_ = true;       // GC applies as cells are read
  int64_t pause_after_skipped_ = 0;
  int64_t skipped_in_a_row_ = 0;
  bool paused_ = false;
  std::unique_ptr<KeyIterator> it_;
  int64_t released_at_ = 0;  // cells_seen when mapped pages were last released
  std::vector<EncodedRange> ranges_;
  size_t range_index_ = 0;
  bool positioned_ = false;  // the iterator is inside ranges_[range_index_]
  std::set<std::string, std::less<>> whole_families_;
  std::map<std::string, std::set<std::string, std::less<>>, std::less<>> columns_;
  ReadStats stats_;
  std::string skipped_tail_key_;
  bool row_seen_ = false;                           // the last row AssembleRow read had a cell the read may look at
  std::string lookup_prefix_, last_lookup_prefix_;  // ReadRowAt's
  std::string row_prefix_;                          // AssembleRow's, kept to reuse its memory
  std::string table_prefix_;                        // TablePrefix(table_->id)
  // The family of the last column AssembleRow decoded: its id and its
  // spec (nullptr: not in the table, or none decoded yet).
  FamilyId family_id_ = 0;
  const FamilySpec* family_ = nullptr;
};

}  // namespace lbt

#endif  // LBT_STORAGE_ROWS_ROW_CURSOR_H_
