// Plans what a query reads from its table. The binder decides what a
// query means; the read planner decides how little of the table answers
// it:
//   - the families and columns the query uses, read through a filter that
//     leaves the others out (PlanRead, once, when the query is prepared);
//   - the rows, as key ranges from the WHERE clause's conditions on `_key`
//     (PlanRowRanges, at each execution, since parameters may set them).

#ifndef LBT_SQL_READ_PLANNER_H_
#define LBT_SQL_READ_PLANNER_H_

#include <set>
#include <string>
#include <vector>

#include "api/bigtable.h"
#include "sql/binder.h"
#include "sql/evaluator.h"
#include "sql/key_ranges.h"

namespace lbt::sql {

// How the scan reads one family of BoundQuery::families.
struct FamilyRead {
  // Whether input rows carry the family's map (a key field: its value);
  // when not, its slot is NULL.
  bool as_map = true;
  // When the map holds only some columns, those the query names by a
  // constant subscript (`cf['q']` of a family read with history); empty
  // for every column.
  std::set<std::string> only_columns;
  // Whether the family's cells are read at all: for its map, or for cell
  // columns (CellColumn). Never for a key field.
  bool read = true;
};

// A column the query names by a constant subscript of a family without
// history (`cf['q']`): an input slot of its own holding the column's latest
// value, or NULL, so that no map is built for it.
struct CellColumn {
  size_t family = 0;  // index into BoundQuery::families
  std::string qualifier;
  TypePtr type;  // the family's value type
};

struct ReadPlan {
  // The table's read, without rows: those come per execution.
  ReadRequest request;
  std::vector<FamilyRead> families;      // one per BoundQuery::families
  std::vector<CellColumn> cell_columns;  // input slots after the families'
  // Whether any expression reads `_key` or a key field; when not, input
  // rows carry NULL there instead of a copy of each key.
  bool key_used = true;
};

// Decides what `q` reads. Rewrites each constant subscript of a family
// without history in `q`'s input expressions into a slot of its own cell
// column, so that input rows become [_key, families..., cell columns...];
// UNPACK's stay [_key, families..., _timestamp] and read whole families,
// since its timestamps come from every cell.
// REQUIRES: `q` freshly bound; called once.
ReadPlan PlanRead(BoundQuery* q);

// The keys one execution reads: the ranges the WHERE clause allows, with
// `constants` holding the execution's parameter values.
Result<KeyRangeSet> PlanRowRanges(const BoundQuery& q, const Evaluator& constants);

// `plan`'s request restricted to `ranges`.
ReadRequest RequestFor(const ReadPlan& plan, const KeyRangeSet& ranges);

// The name of each input slot, as EXPLAIN writes it: `_key`, the families,
// then `cf['q']` per cell column (UNPACK: `_timestamp`).
std::vector<std::string> InputSlotNames(const BoundQuery& q, const ReadPlan& plan);

}  // namespace lbt::sql

#endif  // LBT_SQL_READ_PLANNER_H_
