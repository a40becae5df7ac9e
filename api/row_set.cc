#include "api/row_set.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace lbt {

std::string PrefixSuccessor(std::string_view prefix) {
  std::string s(prefix);
  while (!s.empty()) {
    if (static_cast<uint8_t>(s.back()) != 0xff) {
      s.back() = static_cast<char>(static_cast<uint8_t>(s.back()) + 1);
      return s;
    }
    s.pop_back();
  }
  return s;
}

RowRange RowRange::ClosedOpen(std::string start, std::string end) {
  RowRange r;
  r.start = RowBound::Closed(std::move(start));
  if (!end.empty()) r.end = RowBound::Open(std::move(end));
  return r;
}

RowRange RowRange::Closed(std::string start, std::string end) {
  RowRange r;
  r.start = RowBound::Closed(std::move(start));
  r.end = RowBound::Closed(std::move(end));
  return r;
}

RowRange RowRange::Prefix(std::string_view prefix) {
  RowRange r;
  if (prefix.empty()) return r;
  r.start = RowBound::Closed(std::string(prefix));
  std::string successor = PrefixSuccessor(prefix);
  if (!successor.empty()) r.end = RowBound::Open(std::move(successor));
  return r;
}

bool InBounds(std::string_view v, const Bound& low, const Bound& high) {
  switch (low.kind) {
    case Bound::Kind::kClosed:
      if (v < low.value) return false;
      break;
    case Bound::Kind::kOpen:
      if (v <= low.value) return false;
      break;
    case Bound::Kind::kUnbounded: break;
  }
  switch (high.kind) {
    case Bound::Kind::kClosed: return v <= high.value;
    case Bound::Kind::kOpen: return v < high.value;
    case Bound::Kind::kUnbounded: return true;
  }
  return true;
}

bool RowRange::Contains(std::string_view key) const { return InBounds(key, start, end); }

bool RowRange::IsEmpty() const {
  if (start.kind == RowBound::Kind::kUnbounded || end.kind == RowBound::Kind::kUnbounded) {
    return false;
  }
  if (start.kind == RowBound::Kind::kClosed && end.kind == RowBound::Kind::kClosed) {
    return start.value > end.value;
  }
  if (start.kind == RowBound::Kind::kOpen && end.kind == RowBound::Kind::kOpen) {
    // (a, b) holds a + "\0" when b is longer than it.
    return end.value <= start.value || end.value == start.value + std::string(1, '\0');
  }
  return start.value >= end.value;
}

bool RowRange::IsInverted() const {
  if (start.kind == RowBound::Kind::kUnbounded || end.kind == RowBound::Kind::kUnbounded) return false;
  if (start.value != end.value) return start.value > end.value;
  return start.kind != RowBound::Kind::kClosed || end.kind != RowBound::Kind::kClosed;
}

Status RowSet::Validate() const {
  for (const RowRange& r : row_ranges) {
    if (r.IsInverted()) {
      return Status::InvalidArgument(
          fmt::format("the row range from {:?} to {:?} is inverted: start_key must be less than end_key", r.start.value,
                      r.end.value));
    }
  }
  return Status::OK();
}

Bound TighterLow(const Bound& a, const Bound& b) {
  if (a.kind == Bound::Kind::kUnbounded) return b;
  if (b.kind == Bound::Kind::kUnbounded) return a;
  if (a.value != b.value) return a.value > b.value ? a : b;
  return a.kind == Bound::Kind::kOpen ? a : b;
}

Bound TighterHigh(const Bound& a, const Bound& b) {
  if (a.kind == Bound::Kind::kUnbounded) return b;
  if (b.kind == Bound::Kind::kUnbounded) return a;
  if (a.value != b.value) return a.value < b.value ? a : b;
  return a.kind == Bound::Kind::kOpen ? a : b;
}

}  // namespace lbt
