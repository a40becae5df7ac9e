// A query bound to its table (BoundQuery): what the binder (binder.h)
// makes of a parsed query, and what the read planner, the planner and the
// operators run.

#ifndef LBT_SQL_BOUND_QUERY_H_
#define LBT_SQL_BOUND_QUERY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/row_key_schema.h"
#include "sql/ast.h"
#include "sql/functions.h"
#include "sql/prepared_query.h"

namespace lbt::sql {

// What kind of query is bound: one a client runs, or a logical view's,
// which alone may call VIEW_PARAMETERS('name') (a STRING parameter the
// request gives apart from the query's: ViewParameterKey).
enum class QueryKind { kClient, kLogicalView };

// A family as the query sees it.
struct BoundFamily {
  std::string name;
  TypePtr type;  // MAP<BYTES, BYTES | STRING | INT64 | ARRAY<STRUCT<...>>>
  bool aggregate = false;
  bool string = false;
  bool with_history = false;
  // A field of the table's row-key schema rather than a family: its
  // index there. Its slot holds the field's value, decoded from the key.
  int key_field = -1;
  // A family of a schema bundle's proto or enum type: how its cells decode
  // (its values are the message's STRUCT, or the enum's STRING name).
  std::shared_ptr<const ProtoCast> proto;
};

// The table's options in FROM (`t(with_history => TRUE, ...)`).
struct TableOptions {
  bool with_history = false;
  int64_t latest_n = 0;               // cells per column with history; 0: all
  std::optional<int64_t> start, end;  // only cells at [start, end), in micros
  bool as_of = false;
};

struct BoundAggregate {
  const AggregateFunction* function = nullptr;
  // `COUNT(DISTINCT x)`: each distinct argument list is added once.
  bool distinct = false;
  std::vector<const Expr*> args;  // over the input row
  std::vector<TypePtr> arg_types;
  TypePtr type;
};

struct BoundOrder {
  const Expr* expr = nullptr;  // over the input row, or the grouped row
  bool descending = false;
  bool nulls_first = true;
};

// A window's frame, its offsets evaluated (they are constants).
struct BoundFrame {
  using Kind = FrameBound::Kind;
  bool rows = false;  // ROWS; RANGE (peers count as one) when false
  Kind start = Kind::kUnboundedPreceding;
  Kind end = Kind::kUnboundedFollowing;
  Value start_offset, end_offset;  // INT64 for ROWS; the ORDER BY key's type for RANGE
};

// One window function call (`f(args) OVER (...)`): a window function of
// the registry's, or an aggregate over a frame. Its result is appended
// to the rows the WINDOW operator hands on (ExprKind::kWindowResult).
struct BoundWindow {
  const WindowFunction* function = nullptr;  // null for an aggregate
  BoundAggregate aggregate;                  // when function is null
  std::vector<const Expr*> args;             // the window function's
  bool ignore_nulls = false;
  std::vector<const Expr*> partition_by;
  std::vector<BoundOrder> order_by;
  BoundFrame frame;
  TypePtr type;
  std::string text;  // the call as the query writes it, for EXPLAIN
};

// A query bound to its table. Input rows are [_key, families...] or, for
// UNPACK, [_key, families..., _timestamp], the row-key schema's fields
// first among the families (the read planner may add cell columns after
// the families); grouped rows are [group keys..., aggregate results...].
struct BoundQuery {
  std::unique_ptr<Select> select_ast;  // owns every Expr below
  std::vector<ExprPtr> owned;          // expressions the binder made
  std::string table;
  // Set when FROM names a logical view (a saved query) rather than a
  // table: its result columns are the input's, each in a slot of its own
  // after an unused `_key` slot, as `families` (not maps: of the column's
  // type) so that the rest of the binder needs no second vocabulary.
  std::string view;
  // The families, after the fields of the table's row-key schema when it
  // has one (BoundFamily::key_field).
  std::vector<BoundFamily> families;
  std::optional<RowKeySchema> row_key_schema;
  bool unpack = false;
  TableOptions options;

  const Expr* where = nullptr;
  bool aggregate = false;
  std::vector<const Expr*> group_by;
  std::vector<BoundAggregate> aggregates;
  const Expr* having = nullptr;
  // Window calls, over the input rows or (with aggregates) the grouped
  // rows; their results follow those rows' slots.
  std::vector<BoundWindow> windows;
  std::vector<const Expr*> select;
  std::vector<BoundOrder> order_by;
  int64_t limit = -1;
  int64_t offset = 0;
  // LIMIT @p / OFFSET @p: the INT64 parameter that gives the value at
  // execution instead.
  std::string limit_param;
  std::string offset_param;

  std::vector<ResultColumn> columns;
  ParamTypes parameters;
};

}  // namespace lbt::sql

#endif  // LBT_SQL_BOUND_QUERY_H_
