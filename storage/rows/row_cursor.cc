#include "storage/rows/row_cursor.h"

#include <algorithm>

#include "storage/format/key_codec.h"

namespace lbt {

namespace {

Status Malformed() { return Status::Corruption("a cell key is malformed"); }

}  // namespace

RowCursor::RowCursor(std::shared_ptr<const TableSpec> table, ReadOptions options, int64_t now)
    : table_(std::move(table)), options_(std::move(options)), now_(now), table_prefix_(TablePrefix(table_->id)) {
  for (const ColumnSelector& c : options_.columns) {
    if (c.qualifier) {
      columns_[c.family].insert(*c.qualifier);
    } else {
      whole_families_.insert(c.family);
    }
  }
}

Result<std::unique_ptr<RowCursor>> RowCursor::Open(Txn* txn, const Stores& stores,
                                                   std::shared_ptr<const TableSpec> table, ReadOptions options,
                                                   int64_t now_micros) {
  return Open(StoreView(txn, &stores.cells, StoreTag::kCells), stores.lazy_gc, std::move(table), std::move(options),
              now_micros);
}

Result<std::unique_ptr<RowCursor>> RowCursor::Open(const StoreView& cells, bool lazy_gc,
                                                   std::shared_ptr<const TableSpec> table, ReadOptions options,
                                                   int64_t now_micros) {
  std::unique_ptr<RowCursor> cursor(new RowCursor(std::move(table), std::move(options), now_micros));
  LBT_ASSIGN_OR_RETURN(cursor->it_, cells.NewIterator());
  cursor->cells_ = cells;
  cursor->hide_eligible_ = !lazy_gc;
  cursor->PlanRanges();
  return cursor;
}

void RowCursor::Suspend() {
  // Next returned after assembling a row of the current range: narrow the
  // range to what lies beyond that row, and seek there on resuming.
  if (positioned_ && range_index_ < ranges_.size()) {
    EncodedRange& range = ranges_[range_index_];
    if (options_.reversed) {
      range.upper = row_prefix_;
    } else {
      range.lower = PrefixSuccessor(row_prefix_);
    }
    positioned_ = false;
  }
  it_.reset();
  cells_.reset();
}

Status RowCursor::Resume(const StoreView& cells) {
  LBT_ASSIGN_OR_RETURN(it_, cells.NewIterator());
  cells_ = cells;
  released_at_ = stats_.cells_seen;
  return Status::OK();
}

EncodedRange EncodeRowRange(TableId table, const RowRange& range) {
  EncodedRange e;
  switch (range.start.kind) {
    case RowBound::Kind::kClosed: e.lower = RowPrefix(table, range.start.value); break;
    case RowBound::Kind::kOpen: e.lower = PrefixSuccessor(RowPrefix(table, range.start.value)); break;
    case RowBound::Kind::kUnbounded: e.lower = TablePrefix(table); break;
  }
  switch (range.end.kind) {
    case RowBound::Kind::kClosed: e.upper = PrefixSuccessor(RowPrefix(table, range.end.value)); break;
    case RowBound::Kind::kOpen: e.upper = RowPrefix(table, range.end.value); break;
    case RowBound::Kind::kUnbounded: e.upper = PrefixSuccessor(TablePrefix(table)); break;
  }
  return e;
}

// Turns the row set into sorted, disjoint ranges of encoded cell keys. The
// key encoding preserves order, so ranges compare and merge as byte strings.
void RowCursor::PlanRanges() {
  const RowSet& rows = options_.rows;
  if (rows.row_keys.size() == 1 && rows.row_ranges.empty() && options_.filter == nullptr) {
    // A point lookup, the most common read: one range, nothing to merge.
    std::string lower = RowPrefix(table_->id, rows.row_keys[0]);
    std::string upper = PrefixSuccessor(lower);
    ranges_.push_back({std::move(lower), std::move(upper)});
    return;
  }
  std::vector<EncodedRange> ranges;
  if (options_.rows.IsAll()) ranges.push_back(EncodeRowRange(table_->id, RowRange::All()));
  for (const std::string& key : options_.rows.row_keys) {
    ranges.push_back(EncodeRowRange(table_->id, RowRange::Closed(key, key)));
  }
  for (const RowRange& r : options_.rows.row_ranges) {
    EncodedRange e = EncodeRowRange(table_->id, r);
    if (e.lower < e.upper) ranges.push_back(std::move(e));
  }
  if (options_.filter != nullptr) {
    if (std::optional<RowRange> hint = options_.filter->RowKeyHint()) {
      // Rows outside the filter's hint cannot pass it: do not read them.
      EncodedRange h = EncodeRowRange(table_->id, *hint);
      std::vector<EncodedRange> narrowed;
      for (EncodedRange& r : ranges) {
        EncodedRange n{std::max(r.lower, h.lower), std::min(r.upper, h.upper)};
        if (n.lower < n.upper) narrowed.push_back(std::move(n));
      }
      ranges = std::move(narrowed);
    }
  }
  std::sort(ranges.begin(), ranges.end(),
            [](const EncodedRange& a, const EncodedRange& b) { return a.lower < b.lower; });
  for (EncodedRange& r : ranges) {
    if (!ranges_.empty() && r.lower <= ranges_.back().upper) {
      ranges_.back().upper = std::max(ranges_.back().upper, r.upper);
    } else {
      ranges_.push_back(std::move(r));
    }
  }
  if (options_.reversed) std::reverse(ranges_.begin(), ranges_.end());
}

bool RowCursor::Selected(const std::string& family, const std::string& qualifier) const {
  if (options_.columns.empty()) return true;
  if (whole_families_.count(family) != 0) return true;
  auto it = columns_.find(family);
  return it != columns_.end() && it->second.count(qualifier) != 0;
}

Status RowCursor::AssembleRow(Row* row) {
  // Cells are assigned into the row's existing storage, so a reader that
  // reuses one Row allocates little once it has warmed up.
  size_t used = 0;
  if (row->cells.capacity() == 0) row->cells.reserve(8);
  std::string_view key = it_->key();
  std::string_view rest = key.substr(table_prefix_.size());
  if (!ConsumeEscaped(&rest, &row->key)) return Malformed();
  row_prefix_.assign(key.substr(0, key.size() - rest.size()));
  const std::string& row_prefix = row_prefix_;
  const int64_t cells_seen_before = stats_.cells_seen;

  std::string column;  // the encoded family id and qualifier of the current column
  std::string qualifier;
  const FamilySpec* family = nullptr;
  bool selected = false;
  bool visible = false;  // the read may look at the column's cells at all
  int64_t index = 0;     // position of the cell in its column, newest first
  int64_t returned = 0;  // cells of the column returned so far
  for (; it_->Valid() && it_->key().starts_with(row_prefix); it_->Next()) {
    rest = it_->key().substr(row_prefix.size());
    if (rest.size() < 8) return Malformed();
    std::string_view this_column = rest.substr(0, rest.size() - 8);
    if (column.empty() || this_column != column) {
      // A new column: decode its qualifier once, and look its family up
      // only when it is not the last one seen (rows repeat their few
      // families).
      if (!DecodeColumn(this_column, &qualifier)) return Malformed();
      column.assign(this_column);
      family = family_;
      selected = family != nullptr && Selected(family->name, qualifier);
      visible = Visible(family, qualifier);
      index = 0;
      returned = 0;
    }
    // Cells outside the view a read goes through are not there for it.
    if (!visible) continue;
    ++stats_.cells_seen;
    std::string_view ts_bytes = rest.substr(rest.size() - 8);
    int64_t timestamp;
    if (!ConsumeTimestamp(&ts_bytes, &timestamp)) return Malformed();
    // Cells of a dropped family are gone. Those the GC rule makes eligible
    // are too, whether or not collected yet, unless GC is lazy (then, as in
    // production, they are read until a collection pass removes them).
    if (family == nullptr) continue;
    if (hide_eligible_ && family->gc_rule.Collects(index++, timestamp, now_)) continue;
    if (!selected) continue;
    if (options_.cells_per_column_limit > 0 && returned >= options_.cells_per_column_limit) continue;
    ++returned;
    if (used == row->cells.size()) row->cells.emplace_back();
    Cell& out = row->cells[used++];
    out.family = family->name;
    out.qualifier = qualifier;
    out.timestamp = timestamp;
    out.value.assign(it_->value());
    out.labels.clear();
  }
  row->cells.resize(used);
  row_seen_ = stats_.cells_seen > cells_seen_before;
  if (row_seen_) ++stats_.rows_seen;
  return FinishRow(row);
}

bool RowCursor::Visible(const FamilySpec* family, const std::string& qualifier) const {
  if (options_.within_view == nullptr) return true;
  return family != nullptr && options_.within_view->CoversColumn(family->name, qualifier);
}

bool RowCursor::DecodeColumn(std::string_view column, std::string* qualifier) {
  FamilyId family_id;
  if (!ConsumeId(&column, &family_id)) return false;
  if (family_ == nullptr || family_id != family_id_) {
    family_id_ = family_id;
    family_ = table_->FindFamilyById(family_id);
  }
  return ConsumeEscaped(&column, qualifier) && column.empty();
}

Status RowCursor::FinishRow(Row* row) {
  LBT_RETURN_IF_ERROR(it_->status());
  // Keep a long scan's resident memory bounded (see ReleaseMappedPages).
  constexpr int64_t kCellsBetweenReleases = 1 << 18;
  if (stats_.cells_seen - released_at_ >= kCellsBetweenReleases && !cells_->txn()->is_write() && it_->Valid() &&
      it_->value_in_map()) {
    cells_->txn()->env()->ReleaseMappedPages(it_->value().data());
    released_at_ = stats_.cells_seen;
  }
  if (options_.filter != nullptr && !row->cells.empty()) {
    LBT_RETURN_IF_ERROR(options_.filter->Apply(row->key, &row->cells));
  }
  return Status::OK();
}

Result<bool> RowCursor::NextForward(Row* row) {
  while (range_index_ < ranges_.size()) {
    const EncodedRange& range = ranges_[range_index_];
    if (!positioned_) {
      it_->Seek(range.lower);
      LBT_RETURN_IF_ERROR(it_->status());
      positioned_ = true;
    }
    if (!it_->Valid() || it_->key() >= range.upper) {
      ++range_index_;
      positioned_ = false;
      continue;
    }
    LBT_RETURN_IF_ERROR(AssembleRow(row));
    if (NoteSkipped(*row)) return true;
    if (options_.filter != nullptr && options_.filter->ScanDone()) return false;
    if (paused_) return false;
  }
  return false;
}

bool RowCursor::NoteSkipped(const Row& row) {
  if (!row.cells.empty()) {
    skipped_tail_key_.clear();
    skipped_in_a_row_ = 0;
    return true;
  }
  // A row with no cell the read may look at is not there for it: its key
  // is not reported either.
  if (row_seen_) skipped_tail_key_ = row.key;
  paused_ = pause_after_skipped_ > 0 && ++skipped_in_a_row_ >= pause_after_skipped_;
  if (paused_) skipped_in_a_row_ = 0;
  return false;
}

Result<bool> RowCursor::NextReversed(Row* row) {
  while (range_index_ < ranges_.size()) {
    const EncodedRange& range = ranges_[range_index_];
    if (!positioned_) {
      it_->SeekForPrev(range.upper);
      if (it_->Valid() && it_->key() >= range.upper) it_->Prev();
      LBT_RETURN_IF_ERROR(it_->status());
      positioned_ = true;
    }
    if (!it_->Valid() || it_->key() < range.lower) {
      ++range_index_;
      positioned_ = false;
      continue;
    }
    // The iterator is on the last cell of a row: go to the row's first cell,
    // read it forward, then step back before it.
    std::string_view rest = it_->key().substr(table_prefix_.size());
    if (!SkipEscaped(&rest)) return Malformed();
    const std::string row_prefix(it_->key().substr(0, it_->key().size() - rest.size()));
    it_->Seek(row_prefix);
    LBT_RETURN_IF_ERROR(it_->status());
    LBT_RETURN_IF_ERROR(AssembleRow(row));
    it_->Seek(row_prefix);
    if (it_->Valid()) {
      it_->Prev();
    } else {
      it_->SeekToLast();
    }
    LBT_RETURN_IF_ERROR(it_->status());
    if (NoteSkipped(*row)) return true;
    if (options_.filter != nullptr && options_.filter->ScanDone()) return false;
    if (paused_) return false;
  }
  return false;
}

Result<bool> RowCursor::ReadRowAt(std::string_view row_key, Row* row) {
  lookup_prefix_.assign(table_prefix_);
  AppendEscaped(&lookup_prefix_, row_key);
  // After the last lookup the iterator sits on the first key after that
  // row: if this row sorts later but not past that key, the key is where
  // a seek would land.
  const bool here = it_->Valid() && !last_lookup_prefix_.empty() && last_lookup_prefix_ < lookup_prefix_ &&
                    lookup_prefix_ <= it_->key();
  if (!here) {
    it_->Seek(lookup_prefix_);
    LBT_RETURN_IF_ERROR(it_->status());
  }
  last_lookup_prefix_.swap(lookup_prefix_);
  if (!it_->Valid() || !it_->key().starts_with(last_lookup_prefix_)) return false;
  LBT_RETURN_IF_ERROR(AssembleRow(row));
  if (row->cells.empty()) return false;
  ++stats_.rows_returned;
  stats_.cells_returned += static_cast<int64_t>(row->cells.size());
  return true;
}

Result<bool> RowCursor::Next(Row* row) {
  paused_ = false;
  if (options_.rows_limit > 0 && stats_.rows_returned >= options_.rows_limit) return false;
  if (options_.filter != nullptr && options_.filter->ScanDone()) return false;
  LBT_ASSIGN_OR_RETURN(bool found, options_.reversed ? NextReversed(row) : NextForward(row));
  if (found) {
    ++stats_.rows_returned;
    stats_.cells_returned += static_cast<int64_t>(row->cells.size());
  }
  return found;
}

}  // namespace lbt
