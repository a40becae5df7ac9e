#include "sql/key_ranges.h"

#include <fmt/format.h>

#include <algorithm>

#include "api/row_key_codec.h"
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

// A constant BYTES argument, or nullopt when the argument is not constant
// or not bytes. A NULL constant matches no key.
std::optional<Value> KeyConstant(const Expr& e, const Evaluator& constants) {
  std::optional<Value> v = constants.Constant(e);
  if (!v || v->kind() != TypeKind::kBytes) return std::nullopt;
  return v;
}

bool IsComparison(const std::string& op) {
  return op == "$eq" || op == "$lt" || op == "$le" || op == "$gt" || op == "$ge";
}

// At most this many key prefixes from one AND of IN lists on key fields;
// past it, fewer fields are used.
constexpr size_t kMaxFieldPrefixes = 10000;

// Finds the ranges of one WHERE clause.
class RangeFinder {
 public:
  RangeFinder(const Evaluator& constants, const KeyFieldSlots& fields) : constants_(constants), fields_(fields) {}

  Result<KeyRangeSet> Ranges(const Expr& e) const {
    if (e.kind != ExprKind::kCall) return KeyRangeSet::All();
    LBT_ASSIGN_OR_RETURN(KeyRangeSet ranges, CallRanges(e));
    if (fields_.schema == nullptr || ranges.empty()) return ranges;
    std::vector<const Expr*> conjuncts;
    Conjuncts(e, &conjuncts);
    return ranges.Intersect(FieldRanges(conjuncts));
  }

 private:
  Result<KeyRangeSet> CallRanges(const Expr& e) const;
  Result<KeyRangeSet> KeyCallRanges(const Expr& e) const;

  static void Conjuncts(const Expr& e, std::vector<const Expr*>* out) {
    if (e.kind == ExprKind::kCall && e.name == "$and") {
      for (const ExprPtr& a : e.args) Conjuncts(*a, out);
    } else {
      out->push_back(&e);
    }
  }

  // The field an argument names (a bound slot of one), or -1.
  int FieldOf(const Expr& e) const {
    if ((e.kind != ExprKind::kColumn && e.kind != ExprKind::kSlot) || e.slot < 0) return -1;
    for (size_t i = 0; i < fields_.slots.size(); ++i) {
      if (fields_.slots[i] == e.slot) return static_cast<int>(i);
    }
    return -1;
  }

  // `e` as a constant value of field `f`'s type; nullopt when it is not.
  std::optional<Value> FieldConstant(const Expr& e, int f) const {
    std::optional<Value> v = constants_.Constant(e);
    if (!v) return std::nullopt;
    if (v->is_null()) return v;
    static constexpr TypeKind kKinds[] = {TypeKind::kBytes, TypeKind::kString, TypeKind::kInt64, TypeKind::kTimestamp};
    if (v->kind() != kKinds[static_cast<int>(fields_.schema->fields[f].type)]) return std::nullopt;
    return v;
  }

  static RowKeyFieldValue FieldValue(const Value& v) {
    if (v.kind() == TypeKind::kInt64 || v.kind() == TypeKind::kTimestamp) return RowKeyFieldValue{"", v.int64()};
    return RowKeyFieldValue{v.str(), 0};
  }

  // The values `c` allows field `*f` (set there): `field = constant` or
  // `field IN (constants...)`. nullopt when `c` is neither; an empty list
  // when it allows none (NULL).
  std::optional<std::vector<RowKeyFieldValue>> FieldValues(const Expr& c, int* f) const;
  // The literal prefix `c` gives a BYTES or STRING field: STARTS_WITH or LIKE.
  std::optional<std::string> FieldPrefix(const Expr& c, int f) const;
  KeyRangeSet FieldRanges(const std::vector<const Expr*>& conjuncts) const;

  const Evaluator& constants_;
  const KeyFieldSlots& fields_;
};

std::optional<std::vector<RowKeyFieldValue>> RangeFinder::FieldValues(const Expr& c, int* f) const {
  if (c.kind != ExprKind::kCall || c.args.size() < 2) return std::nullopt;
  std::vector<RowKeyFieldValue> values;
  if (c.name == "$eq") {
    const bool left = FieldOf(*c.args[0]) >= 0;
    *f = FieldOf(*c.args[left ? 0 : 1]);
    if (*f < 0) return std::nullopt;
    std::optional<Value> v = FieldConstant(*c.args[left ? 1 : 0], *f);
    if (!v) return std::nullopt;
    if (!v->is_null()) values.push_back(FieldValue(*v));
    return values;
  }
  if (c.name != "$in" || (*f = FieldOf(*c.args[0])) < 0) return std::nullopt;
  for (size_t i = 1; i < c.args.size(); ++i) {
    std::optional<Value> v = FieldConstant(*c.args[i], *f);
    if (!v) return std::nullopt;
    if (!v->is_null()) values.push_back(FieldValue(*v));
  }
  return values;
}

std::optional<std::string> RangeFinder::FieldPrefix(const Expr& c, int f) const {
  const RowKeyField::Type type = fields_.schema->fields[f].type;
  if (c.kind != ExprKind::kCall || c.args.size() != 2 || FieldOf(*c.args[0]) != f ||
      (type != RowKeyField::Type::kBytes && type != RowKeyField::Type::kString)) {
    return std::nullopt;
  }
  if (c.name != "STARTS_WITH" && c.name != "$like") return std::nullopt;
  std::optional<Value> v = FieldConstant(*c.args[1], f);
  if (!v || v->is_null()) return std::nullopt;
  return c.name == "$like" ? LikePrefix(v->str()) : v->str();
}

// The keys whose leading fields the conjuncts fix: each combination of
// their values as a key prefix (a whole key when every field is fixed).
KeyRangeSet RangeFinder::FieldRanges(const std::vector<const Expr*>& conjuncts) const {
  const RowKeySchema& schema = *fields_.schema;
  std::vector<std::vector<RowKeyFieldValue>> allowed(schema.fields.size());
  std::vector<bool> fixed(schema.fields.size(), false);
  for (const Expr* c : conjuncts) {
    int f = -1;
    std::optional<std::vector<RowKeyFieldValue>> values = FieldValues(*c, &f);
    if (!values || fixed[f]) continue;
    if (values->empty()) return KeyRangeSet::None();
    fixed[f] = true;
    allowed[f] = std::move(*values);
  }
  size_t k = 0, combinations = 1;
  while (k < schema.fields.size() && fixed[k] && combinations * allowed[k].size() <= kMaxFieldPrefixes) {
    combinations *= allowed[k++].size();
  }
  std::optional<std::string> partial;
  if (k < schema.fields.size() && schema.encoding != RowKeySchema::Encoding::kOrderedCodeBytes) {
    for (const Expr* c : conjuncts) {
      if ((partial = FieldPrefix(*c, static_cast<int>(k)))) break;
    }
  }
  if (k == 0 && !partial) return KeyRangeSet::All();
  std::vector<KeyRangeSet::Range> ranges;
  std::vector<RowKeyFieldValue> leading(k);
  // Every combination of the leading fields' values, as an odometer.
  std::vector<size_t> at(k, 0);
  while (true) {
    for (size_t i = 0; i < k; ++i) leading[i] = allowed[i][at[i]];
    if (k == schema.fields.size()) {
      const std::string key = EncodeRowKey(schema, leading);
      ranges.push_back({key, key + '\0'});
    } else {
      const std::string prefix = RowKeyPrefix(schema, leading) + partial.value_or("");
      if (prefix.empty()) return KeyRangeSet::All();
      ranges.push_back({prefix, PrefixSuccessor(prefix)});
    }
    size_t i = k;
    while (i > 0 && ++at[i - 1] == allowed[i - 1].size()) at[--i] = 0;
    if (i == 0) break;
  }
  return KeyRangeSet::FromUnsorted(std::move(ranges));
}

Result<KeyRangeSet> RangeFinder::CallRanges(const Expr& e) const {
  const std::string& op = e.name;
  if (op == "$and") {
    KeyRangeSet out = KeyRangeSet::All();
    for (const ExprPtr& a : e.args) {
      LBT_ASSIGN_OR_RETURN(KeyRangeSet r, Ranges(*a));
      out = out.Intersect(r);
    }
    return out;
  }
  if (op == "$or") {
    std::vector<KeyRangeSet> parts;
    for (const ExprPtr& a : e.args) {
      LBT_ASSIGN_OR_RETURN(KeyRangeSet r, Ranges(*a));
      if (r.IsAll()) return r;
      parts.push_back(std::move(r));
    }
    return KeyRangeSet::UnionAll(parts);
  }
  if (e.args.empty()) return KeyRangeSet::All();
  return KeyCallRanges(e);
}

// Ranges for one condition on `_key`.
Result<KeyRangeSet> RangeFinder::KeyCallRanges(const Expr& e) const {
  const std::string& op = e.name;
  if (IsComparison(op)) {
    const bool key_left = IsKey(*e.args[0]);
    if (!key_left && !IsKey(*e.args[1])) return KeyRangeSet::All();
    std::optional<Value> c = KeyConstant(*e.args[key_left ? 1 : 0], constants_);
    if (!c) return KeyRangeSet::All();
    if (c->is_null()) return KeyRangeSet::None();
    return Compared(key_left ? op : Mirror(op), c->str());
  }
  if (!IsKey(*e.args[0])) return KeyRangeSet::All();
  if (op == "$in_array") {
    // `_key IN UNNEST(@keys)`: the array's keys, known once parameters are.
    std::optional<Value> array = constants_.Constant(*e.args[1]);
    if (!array || array->is_null() || array->kind() != TypeKind::kArray) {
      return array && array->is_null() ? KeyRangeSet::None() : KeyRangeSet::All();
    }
    std::vector<KeyRangeSet::Range> keys;
    for (const Value& v : array->elements()) {
      if (v.is_null()) continue;
      if (v.kind() != TypeKind::kBytes) return KeyRangeSet::All();
      keys.push_back({v.str(), v.str() + '\0'});
    }
    return KeyRangeSet::FromUnsorted(std::move(keys));
  }
  std::vector<Value> values;
  for (size_t i = 1; i < e.args.size(); ++i) {
    std::optional<Value> c = KeyConstant(*e.args[i], constants_);
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

}  // namespace

Result<KeyRangeSet> KeyRangesOf(const Expr* where, const Evaluator& constants, const KeyFieldSlots& fields) {
  if (where == nullptr) return KeyRangeSet::All();
  return RangeFinder(constants, fields).Ranges(*where);
}

}  // namespace lbt::sql
