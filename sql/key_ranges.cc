#include "sql/key_ranges.h"

#include <fmt/format.h>

#include <algorithm>

#include "util/bytes.h"

namespace lbt::sql {

namespace {

// Ends compare with "" as no bound, after every key.
bool EndBefore(const std::string& a, const std::string& b) {
  if (a.empty()) return false;
  return b.empty() || a < b;
}
const std::string& MinEnd(const std::string& a, const std::string& b) { return EndBefore(a, b) ? a : b; }

std::string Printable(const std::string& key) { return PrintableBytes(key); }

}  // namespace

KeyRangeSet KeyRangeSet::Of(std::string start, std::string end) {
  if (!end.empty() && end <= start) return None();
  return KeyRangeSet(std::vector<Range>{Range{std::move(start), std::move(end)}});
}

// Both sets are sorted and disjoint, so one pass over each finds every
// overlap: linear in their sizes, however many keys an IN list names.
KeyRangeSet KeyRangeSet::Intersect(const KeyRangeSet& other) const {
  std::vector<Range> out;
  size_t i = 0, j = 0;
  while (i < ranges_.size() && j < other.ranges_.size()) {
    const Range& a = ranges_[i];
    const Range& b = other.ranges_[j];
    std::string start = std::max(a.start, b.start);
    const std::string& end = MinEnd(a.end, b.end);
    if (end.empty() || start < end) out.push_back({std::move(start), end});
    // The range that ends first can overlap nothing further.
    if (EndBefore(a.end, b.end)) {
      ++i;
    } else {
      ++j;
    }
  }
  return KeyRangeSet(std::move(out));
}

KeyRangeSet KeyRangeSet::UnionAll(const std::vector<KeyRangeSet>& sets) {
  std::vector<Range> all;
  for (const KeyRangeSet& set : sets) all.insert(all.end(), set.ranges_.begin(), set.ranges_.end());
  return FromUnsorted(std::move(all));
}

KeyRangeSet KeyRangeSet::FromUnsorted(std::vector<Range> all) {
  std::sort(all.begin(), all.end(), [](const Range& a, const Range& b) { return a.start < b.start; });
  std::vector<Range> out;
  for (Range& r : all) {
    if (!out.empty() && (out.back().end.empty() || r.start <= out.back().end)) {
      if (EndBefore(out.back().end, r.end)) out.back().end = r.end;
    } else {
      out.push_back(std::move(r));
    }
  }
  return KeyRangeSet(std::move(out));
}

RowSet KeyRangeSet::ToRowSet() const {
  RowSet rows;
  if (IsAll()) return rows;
  for (const Range& r : ranges_) {
    if (!r.end.empty() && r.end == r.start + '\0') {
      rows.row_keys.push_back(r.start);
    } else {
      rows.row_ranges.push_back(RowRange::ClosedOpen(r.start, r.end));
    }
  }
  return rows;
}

std::string KeyRangeSet::ToString() const {
  if (IsAll()) return "all rows";
  if (ranges_.empty()) return "no rows";
  std::string out;
  for (const Range& r : ranges_) {
    if (!out.empty()) out += ", ";
    if (!r.end.empty() && r.end == r.start + '\0') {
      out += "[" + Printable(r.start) + "]";
    } else {
      out += "[" + Printable(r.start) + ", " + (r.end.empty() ? std::string("end") : Printable(r.end)) + ")";
    }
  }
  return out;
}

namespace {

bool IsKey(const Expr& e) { return (e.kind == ExprKind::kColumn || e.kind == ExprKind::kSlot) && e.slot == 0; }

// The literal prefix of a LIKE pattern: what comes before its first
// wildcard, with escapes resolved.
std::string LikePrefix(const std::string& pattern) {
  std::string prefix;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '%' || c == '_') break;
    if (c == '\\' && i + 1 < pattern.size()) c = pattern[++i];
    prefix += c;
  }
  return prefix;
}

KeyRangeSet Prefix(const std::string& p) {
  return p.empty() ? KeyRangeSet::All() : KeyRangeSet::Of(p, PrefixSuccessor(p));
}

// Ranges for `_key <op> c`.
KeyRangeSet Compared(const std::string& op, const std::string& c) {
  if (op == "$eq") return KeyRangeSet::Key(c);
  if (op == "$lt") return c.empty() ? KeyRangeSet::None() : KeyRangeSet::Of("", c);
  if (op == "$le") return KeyRangeSet::Of("", c + '\0');
  if (op == "$gt") return KeyRangeSet::Of(c + '\0', "");
  if (op == "$ge") return KeyRangeSet::Of(c, "");
  return KeyRangeSet::All();
}

std::string Mirror(const std::string& op) {
  if (op == "$lt") return "$gt";
  if (op == "$le") return "$ge";
  if (op == "$gt") return "$lt";
  if (op == "$ge") return "$le";
  return op;
}

Result<KeyRangeSet> Ranges(const Expr& e, const Evaluator& constants);

// A constant BYTES argument, or nullopt when the argument is not constant
// or not bytes. A NULL constant matches no key.
std::optional<Value> KeyConstant(const Expr& e, const Evaluator& constants) {
  std::optional<Value> v = constants.Constant(e);
  if (!v || v->kind() != TypeKind::kBytes) return std::nullopt;
  return v;
}

Result<KeyRangeSet> CallRanges(const Expr& e, const Evaluator& constants) {
  const std::string& op = e.name;
  if (op == "$and") {
    KeyRangeSet out = KeyRangeSet::All();
    for (const ExprPtr& a : e.args) {
      LBT_ASSIGN_OR_RETURN(KeyRangeSet r, Ranges(*a, constants));
      out = out.Intersect(r);
    }
    return out;
  }
  if (op == "$or") {
    std::vector<KeyRangeSet> parts;
    for (const ExprPtr& a : e.args) {
      LBT_ASSIGN_OR_RETURN(KeyRangeSet r, Ranges(*a, constants));
      if (r.IsAll()) return r;
      parts.push_back(std::move(r));
    }
    return KeyRangeSet::UnionAll(parts);
  }
  if (e.args.empty()) return KeyRangeSet::All();
  if (op == "$eq" || op == "$lt" || op == "$le" || op == "$gt" || op == "$ge") {
    const bool key_left = IsKey(*e.args[0]);
    if (!key_left && !IsKey(*e.args[1])) return KeyRangeSet::All();
    std::optional<Value> c = KeyConstant(*e.args[key_left ? 1 : 0], constants);
    if (!c) return KeyRangeSet::All();
    if (c->is_null()) return KeyRangeSet::None();
    return Compared(key_left ? op : Mirror(op), c->str());
  }
  if (!IsKey(*e.args[0])) return KeyRangeSet::All();
  std::vector<Value> values;
  for (size_t i = 1; i < e.args.size(); ++i) {
    std::optional<Value> c = KeyConstant(*e.args[i], constants);
    if (!c) return KeyRangeSet::All();
    values.push_back(*c);
  }
  if (op == "$in") {
    std::vector<KeyRangeSet::Range> keys;
    for (const Value& v : values) {
      if (!v.is_null()) keys.push_back({v.str(), v.str() + '\0'});
    }
    return KeyRangeSet::FromUnsorted(std::move(keys));  // sorted once, not once per item
  }
  for (const Value& v : values) {
    if (v.is_null()) return KeyRangeSet::None();
  }
  if (op == "$between") return KeyRangeSet::Of(values[0].str(), values[1].str() + '\0');
  if (op == "STARTS_WITH") return Prefix(values[0].str());
  if (op == "$like") return Prefix(LikePrefix(values[0].str()));
  return KeyRangeSet::All();
}

Result<KeyRangeSet> Ranges(const Expr& e, const Evaluator& constants) {
  if (e.kind != ExprKind::kCall) return KeyRangeSet::All();
  return CallRanges(e, constants);
}

}  // namespace

Result<KeyRangeSet> KeyRangesOf(const Expr* where, const Evaluator& constants) {
  if (where == nullptr) return KeyRangeSet::All();
  return Ranges(*where, constants);
}

}  // namespace lbt::sql
