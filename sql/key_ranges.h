// The row keys a query can match, from its WHERE clause's conditions on
// `_key`: comparisons with constants, BETWEEN, IN, STARTS_WITH and LIKE
// with a literal prefix, combined with AND and OR; and on the fields of a
// row-key schema: equality or IN on the leading fields, then (delimited
// and singleton keys) STARTS_WITH or LIKE on the next. Anything else leaves
// the keys unconstrained, and is checked row by row.

#ifndef LBT_SQL_KEY_RANGES_H_
#define LBT_SQL_KEY_RANGES_H_

#include <string>
#include <vector>

#include "api/row_key_schema.h"
#include "api/row_set.h"
#include "sql/ast.h"
#include "sql/evaluator.h"

namespace lbt::sql {

// Disjoint half-open ranges [start, end) of keys in order; an empty `end`
// is no upper bound.
class KeyRangeSet {
 public:
  struct Range {
    std::string start, end;
  };
  static KeyRangeSet All() { return KeyRangeSet(std::vector<Range>{Range{"", ""}}); }
  static KeyRangeSet None() { return KeyRangeSet(std::vector<Range>()); }
  static KeyRangeSet Of(std::string start, std::string end);
  static KeyRangeSet Key(const std::string& key) { return Of(key, key + '\0'); }

  // Any ranges, overlapping or not, in any order.
  static KeyRangeSet FromUnsorted(std::vector<Range> ranges);
  static KeyRangeSet UnionAll(const std::vector<KeyRangeSet>& sets);

  KeyRangeSet Intersect(const KeyRangeSet& other) const;
  bool empty() const { return ranges_.empty(); }
  bool IsAll() const { return ranges_.size() == 1 && ranges_[0].start.empty() && ranges_[0].end.empty(); }
  const std::vector<Range>& ranges() const { return ranges_; }

  RowSet ToRowSet() const;
  // "all rows", "no rows", or "[a, b), [c]" with bytes escaped.
  std::string ToString() const;

 private:
  explicit KeyRangeSet(std::vector<Range> ranges) : ranges_(std::move(ranges)) {}
  std::vector<Range> ranges_;
};

// The fields of a row-key schema as input slots: `slots[i]` holds field i,
// or is -1 when the query leaves the field out.
struct KeyFieldSlots {
  const RowKeySchema* schema = nullptr;
  std::vector<int> slots;
};

// REQUIRES: `where` bound, `_key` at slot 0; nullptr means no WHERE.
Result<KeyRangeSet> KeyRangesOf(const Expr* where, const Evaluator& constants, const KeyFieldSlots& fields = {});

}  // namespace lbt::sql

#endif  // LBT_SQL_KEY_RANGES_H_
