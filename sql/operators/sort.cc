#include "sql/operators/sort.h"

#include <fmt/format.h>

#include <algorithm>

namespace lbt::sql {

bool Sort::Produce(Values* row) {
  if (!sorted_) {
    sorted_ = true;
    if (!SortInput()) return false;
  }
  if (next_ == rows_.size()) return false;
  *row = std::move(rows_[next_++]);
  row->resize(width_);  // the keys
  return true;
}

bool Sort::SortInput() {
  for (Values row; input().Next(&row); row = Values()) {
    Status s = Hold(std::move(row));
    if (!s.ok()) return Fail(std::move(s));
  }
  if (!input().status().ok()) return false;
  SortHeld();
  return true;
}

Status Sort::Hold(Values row) {
  rows_.push_back(std::move(row));
  // With a LIMIT, keep only the rows that can still make it: sort and cut
  // whenever the buffer doubles.
  if (keep_ < kMaxSortedRows && rows_.size() >= 2 * keep_ + 1024) {
    SortHeld();
    rows_.resize(keep_);
  } else if (rows_.size() > kMaxSortedRows) {
    return Status::ResourceExhausted(fmt::format(
        "ORDER BY holds at most {} rows in memory; add a LIMIT or narrow the WHERE clause", kMaxSortedRows));
  }
  return Status::OK();
}

// Stable, so that rows with equal keys keep their input order.
void Sort::SortHeld() {
  std::stable_sort(rows_.begin(), rows_.end(), [&](const Values& a, const Values& b) {
    for (size_t i = 0; i < order_.size(); ++i) {
      const BoundOrder& o = order_[i];
      const Value& x = a[width_ + i];
      const Value& y = b[width_ + i];
      if (x.is_null() != y.is_null()) return x.is_null() == o.nulls_first;
      int c = Compare(x, y);
      if (c != 0) return o.descending ? c > 0 : c < 0;
    }
    return false;
  });
}

std::string Sort::detail() const {
  if (keep_ < kMaxSortedRows) return fmt::format("{} (keeps the first {})", text_, keep_);
  return text_;
}

}  // namespace lbt::sql
