#include "sql/operators/window.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "sql/operators/aggregate.h"

namespace lbt::sql {

namespace {

// a < b in the window's order: each key by its direction, NULLs where the
// ORDER BY item puts them.
template <typename KeyOf>
bool OrderedBefore(const std::vector<BoundOrder>& order, KeyOf key_a, KeyOf key_b) {
  for (size_t i = 0; i < order.size(); ++i) {
    const Value& x = key_a(i);
    const Value& y = key_b(i);
    if (x.is_null() != y.is_null()) return x.is_null() == order[i].nulls_first;
    const int c = Compare(x, y);
    if (c != 0) return order[i].descending ? c > 0 : c < 0;
  }
  return false;
}

// The slot each ORDER BY key reads in place, when every key is a column of
// the row (`ORDER BY _key`, a cell column, a group key); empty otherwise.
std::vector<int> KeySlots(const BoundWindow& w) {
  std::vector<int> slots;
  for (const BoundOrder& o : w.order_by) {
    const Expr& e = *o.expr;
    if ((e.kind != ExprKind::kSlot && e.kind != ExprKind::kColumn) || e.slot < 0) return {};
    slots.push_back(e.slot);
  }
  return slots;
}

// About the memory a held row takes.
size_t RowBytes(const Values& row) {
  size_t bytes = sizeof(Values) + row.size() * sizeof(Value);
  for (const Value& v : row) bytes += ValueBytes(v);
  return bytes;
}

}  // namespace

bool Window::Produce(Values* row) {
  if (!held_) {
    held_ = true;
    if (!Hold()) return false;
    for (size_t w = 0; w < windows_.size(); ++w) {
      Status s = Compute(w);
      if (!s.ok()) return Fail(std::move(s));
    }
  }
  if (next_ == rows_.size()) return false;
  *row = std::move(rows_[next_++]);
  return true;
}

bool Window::Hold() {
  size_t bytes = 0;
  for (Values row; input().Next(&row);) {
    row.resize(base_ + windows_.size());
    bytes += RowBytes(row);
    if (bytes > kMaxWindowBytes) {
      return Fail(Status::ResourceExhausted(fmt::format(
          "window functions hold their input in memory, at most {} MiB of rows ({} rows so far): narrow the "
          "WHERE clause to fewer rows",
          kMaxWindowBytes >> 20, rows_.size())));
    }
    rows_.push_back(std::move(row));
  }
  return input().status().ok();
}

Status Window::Compute(size_t index) {
  const BoundWindow& w = windows_[index];
  LBT_ASSIGN_OR_RETURN(std::vector<std::vector<uint32_t>> partitions, Partitions(w));
  for (std::vector<uint32_t>& rows : partitions) {
    WindowPartition p;
    SortedKeys keys;
    keys.slots = KeySlots(w);
    LBT_RETURN_IF_ERROR(Order(w, &rows, &keys, &p));
    Values out(p.size);
    if (w.function == nullptr || w.function->frame) Frames(w, rows, keys, &p);
    if (w.function != nullptr) {
      p.ignore_nulls = w.ignore_nulls;
      p.args.resize(p.size);
      for (size_t i = 0; i < p.size; ++i) {
        Values& args = p.args[i];
        args.resize(w.args.size());
        for (size_t k = 0; k < w.args.size(); ++k)
          LBT_RETURN_IF_ERROR(eval_.EvalTo(*w.args[k], rows_[rows[i]], &args[k]));
      }
      LBT_RETURN_IF_ERROR(w.function->compute(p, &out));
    } else {
      LBT_RETURN_IF_ERROR(Aggregate(w, rows, p, &out));
    }
    for (size_t i = 0; i < p.size; ++i) rows_[rows[i]][base_ + index] = std::move(out[i]);
  }
  return Status::OK();
}

Result<std::vector<std::vector<uint32_t>>> Window::Partitions(const BoundWindow& w) const {
  std::vector<std::vector<uint32_t>> partitions;
  if (w.partition_by.empty()) {
    partitions.emplace_back(rows_.size());
    std::iota(partitions[0].begin(), partitions[0].end(), 0);
    return partitions;
  }
  std::unordered_map<Values, size_t, GroupKeyHash, GroupKeyEqual> ids;
  Values key(w.partition_by.size());
  for (uint32_t r = 0; r < rows_.size(); ++r) {
    for (size_t k = 0; k < key.size(); ++k) LBT_RETURN_IF_ERROR(eval_.EvalTo(*w.partition_by[k], rows_[r], &key[k]));
    auto [it, added] = ids.emplace(key, partitions.size());
    if (added) partitions.emplace_back();
    partitions[it->second].push_back(r);
  }
  return partitions;
}

Status Window::Order(const BoundWindow& w, std::vector<uint32_t>* rows, SortedKeys* keys, WindowPartition* p) const {
  const size_t n = rows->size();
  p->size = n;
  p->peer_begin.assign(n, 0);
  p->peer_end.assign(n, static_cast<uint32_t>(n));
  if (w.order_by.empty()) return Status::OK();  // every row is every other's peer
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (!keys->slots.empty()) {
    // Keys read in place: nothing is copied to sort.
    auto key_of = [&](uint32_t i) {
      return [&, i](size_t k) -> const Value& { return rows_[(*rows)[i]][keys->slots[k]]; };
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return OrderedBefore(w.order_by, key_of(a), key_of(b)); });
  } else {
    std::vector<Values> by_row(n);
    for (size_t i = 0; i < n; ++i) {
      by_row[i].resize(w.order_by.size());
      for (size_t k = 0; k < w.order_by.size(); ++k) {
        LBT_RETURN_IF_ERROR(eval_.EvalTo(*w.order_by[k].expr, rows_[(*rows)[i]], &by_row[i][k]));
      }
    }
    auto key_of = [&](uint32_t i) { return [&, i](size_t k) -> const Value& { return by_row[i][k]; }; };
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return OrderedBefore(w.order_by, key_of(a), key_of(b)); });
    keys->computed.resize(n);
    for (size_t i = 0; i < n; ++i) keys->computed[i] = std::move(by_row[order[i]]);
  }
  std::vector<uint32_t> sorted(n);
  for (size_t i = 0; i < n; ++i) sorted[i] = (*rows)[order[i]];
  *rows = std::move(sorted);
  Peers(w, *rows, *keys, p);
  return Status::OK();
}

void Window::Peers(const BoundWindow& w, const std::vector<uint32_t>& rows, const SortedKeys& keys,
                   WindowPartition* p) const {
  const size_t n = rows.size();
  auto same = [&](size_t a, size_t b) {
    for (size_t k = 0; k < w.order_by.size(); ++k) {
      if (!GroupEqual(Key(rows, keys, a, k), Key(rows, keys, b, k))) return false;
    }
    return true;
  };
  for (size_t i = 0; i < n;) {
    size_t end = i + 1;
    while (end < n && same(i, end)) ++end;
    for (size_t k = i; k < end; ++k) {
      p->peer_begin[k] = static_cast<uint32_t>(i);
      p->peer_end[k] = static_cast<uint32_t>(end);
    }
    i = end;
  }
}

void Window::Frames(const BoundWindow& w, const std::vector<uint32_t>& rows, const SortedKeys& keys,
                    WindowPartition* p) const {
  using Kind = FrameBound::Kind;
  const BoundFrame& f = w.frame;
  const int64_t n = static_cast<int64_t>(p->size);
  p->frame_begin.resize(p->size);
  p->frame_end.resize(p->size);
  // RANGE with an offset: the one numeric key, ascending in `sign`'s
  // direction, over the rows whose key is not NULL.
  const double sign = !w.order_by.empty() && w.order_by[0].descending ? -1 : 1;
  auto first_key = [&](int64_t i) -> const Value& { return Key(rows, keys, static_cast<size_t>(i), 0); };
  auto key = [&](int64_t i) { return sign * first_key(i).AsDouble(); };
  int64_t first_value = 0, end_value = n;  // the non-NULL keys' positions
  if (!f.rows && !w.order_by.empty()) {
    while (first_value < n && first_key(first_value).is_null()) ++first_value;
    while (end_value > first_value && first_key(end_value - 1).is_null()) --end_value;
  }
  // The first position in the non-NULL range whose key is >= x (or > x).
  auto search = [&](double x, bool strictly) {
    int64_t lo = first_value, hi = end_value;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (strictly ? key(mid) <= x : key(mid) < x) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  };
  auto bound = [&](int64_t i, Kind kind, const Value& offset, bool start) -> int64_t {
    switch (kind) {
      case Kind::kUnboundedPreceding: return 0;
      case Kind::kUnboundedFollowing: return n;
      case Kind::kCurrentRow:
        if (f.rows) return start ? i : i + 1;
        return start ? p->peer_begin[i] : p->peer_end[i];
      case Kind::kPreceding:
      case Kind::kFollowing: break;
    }
    const double direction = kind == Kind::kPreceding ? -1 : 1;
    if (f.rows) {
      const int64_t k = std::min<int64_t>(offset.int64(), n + 1);
      return start ? i + static_cast<int64_t>(direction) * k : i + static_cast<int64_t>(direction) * k + 1;
    }
    if (first_key(i).is_null()) return start ? p->peer_begin[i] : p->peer_end[i];
    const double edge = key(i) + direction * offset.AsDouble();
    return search(edge, /*strictly=*/!start);
  };
  for (int64_t i = 0; i < n; ++i) {
    const int64_t begin = std::clamp<int64_t>(bound(i, f.start, f.start_offset, true), 0, n);
    const int64_t end = std::clamp<int64_t>(bound(i, f.end, f.end_offset, false), 0, n);
    p->frame_begin[static_cast<size_t>(i)] = static_cast<uint32_t>(begin);
    p->frame_end[static_cast<size_t>(i)] = static_cast<uint32_t>(std::max(begin, end));
  }
}

Status Window::Aggregate(const BoundWindow& w, const std::vector<uint32_t>& rows, const WindowPartition& p,
                         Values* out) {
  const BoundAggregate& a = w.aggregate;
  std::vector<Values> args(p.size);
  for (size_t i = 0; i < p.size; ++i) {
    args[i].resize(a.args.size());
    for (size_t k = 0; k < a.args.size(); ++k)
      LBT_RETURN_IF_ERROR(eval_.EvalTo(*a.args[k], rows_[rows[i]], &args[i][k]));
  }
  // Frames that all start at the partition's first row only grow: one
  // running aggregate serves every row.
  if (w.frame.start == FrameBound::Kind::kUnboundedPreceding) {
    std::unique_ptr<Accumulator> running = NewAccumulator(a);
    size_t added = 0;
    for (size_t i = 0; i < p.size; ++i) {
      for (; added < p.frame_end[i]; ++added) LBT_RETURN_IF_ERROR(running->Add(args[added]));
      (*out)[i] = running->Finish();
    }
    return Status::OK();
  }
  uint64_t work = 0;
  for (size_t i = 0; i < p.size; ++i) work += p.frame_end[i] - p.frame_begin[i];
  if (work > kMaxWindowFrameRows) {
    return Status::ResourceExhausted(fmt::format(
        "{}'s frames would aggregate {} rows in all, more than lbt's limit of {}: use a frame that starts at "
        "UNBOUNDED PRECEDING, a shorter frame, or smaller partitions",
        w.text, work, kMaxWindowFrameRows));
  }
  for (size_t i = 0; i < p.size; ++i) {
    std::unique_ptr<Accumulator> frame = NewAccumulator(a);
    for (uint32_t k = p.frame_begin[i]; k < p.frame_end[i]; ++k) LBT_RETURN_IF_ERROR(frame->Add(args[k]));
    (*out)[i] = frame->Finish();
  }
  return Status::OK();
}

}  // namespace lbt::sql
