#include "engine/read_options.h"

#include "engine/key_codec.h"

namespace lbt {

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

bool RowRange::Contains(std::string_view key) const {
  switch (start.kind) {
    case RowBound::Kind::kClosed:
      if (key < start.key) return false;
      break;
    case RowBound::Kind::kOpen:
      if (key <= start.key) return false;
      break;
    case RowBound::Kind::kUnbounded:
      break;
  }
  switch (end.kind) {
    case RowBound::Kind::kClosed:
      return key <= end.key;
    case RowBound::Kind::kOpen:
      return key < end.key;
    case RowBound::Kind::kUnbounded:
      return true;
  }
  return true;
}

bool RowRange::IsEmpty() const {
  if (start.kind == RowBound::Kind::kUnbounded || end.kind == RowBound::Kind::kUnbounded) {
    return false;
  }
  if (start.kind == RowBound::Kind::kClosed && end.kind == RowBound::Kind::kClosed) {
    return start.key > end.key;
  }
  if (start.kind == RowBound::Kind::kOpen && end.kind == RowBound::Kind::kOpen) {
    // (a, b) holds a + "\0" when b is longer than it.
    return end.key <= start.key || end.key == start.key + std::string(1, '\0');
  }
  return start.key >= end.key;
}

}  // namespace lbt
