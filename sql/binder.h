// Binds a parsed query to its table: resolves names to slots, checks and
// infers types, finds the aggregates, and decides what to read.

#ifndef LBT_SQL_BINDER_H_
#define LBT_SQL_BINDER_H_

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "api/bigtable.h"
#include "api/schema.h"
#include "sql/ast.h"
#include "sql/functions.h"
#include "sql/query.h"

namespace lbt::sql {

// A family as the query sees it.
struct BoundFamily {
  std::string name;
  TypePtr type;  // MAP<BYTES, BYTES | STRING | INT64 | ARRAY<STRUCT<...>>>
  bool aggregate = false;
  bool string = false;
  bool with_history = false;
  // Whether the query reads the family as a map (when not, it is NULL in
  // every input row), and, when it reads only some of its columns by a
  // constant subscript (`cf['q']`), which ones: only those become values.
  bool used = true;
  std::set<std::string> only_columns;  // empty: every column
  // Whether the family's cells are read at all: for its map, or for cell
  // columns.
  bool read = true;
};

// A column a query names by a constant subscript of a family without
// history (`cf['q']`): an input slot of its own that holds the column's
// latest value, or NULL, so that no map is built for it.
struct BoundCellColumn {
  size_t family = 0;  // index into BoundQuery::families
  std::string qualifier;
  TypePtr type;  // the family's value type
};

struct BoundAggregate {
  const AggregateFunction* function = nullptr;
  std::vector<const Expr*> args;  // over the input row
  std::vector<TypePtr> arg_types;
  TypePtr type;
};

struct BoundOrder {
  const Expr* expr = nullptr;  // over the input row, or the grouped row
  bool descending = false;
  bool nulls_first = true;
};

// A query ready to run. Input rows are [_key, families..., cell columns...]
// or, for UNPACK, [_key, families..., _timestamp];
// grouped rows are [group keys..., aggregate results...].
struct BoundQuery {
  std::unique_ptr<Select> select_ast;  // owns every Expr below
  std::vector<ExprPtr> owned;          // expressions the binder made
  std::string table;
  std::vector<BoundFamily> families;
  bool unpack = false;
  // Whether any expression reads `_key`; when not, input rows carry NULL
  // there instead of a copy of each key.
  bool key_used = true;
  std::vector<BoundCellColumn> cell_columns;
  ReadRequest read;  // without rows: those come from the WHERE clause per execution

  const Expr* where = nullptr;
  bool aggregate = false;
  std::vector<const Expr*> group_by;
  std::vector<BoundAggregate> aggregates;
  const Expr* having = nullptr;
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

Result<std::unique_ptr<BoundQuery>> Bind(std::unique_ptr<Select> select, const TableSpec& table,
                                         const ParamTypes& params, std::string_view sql);

}  // namespace lbt::sql

#endif  // LBT_SQL_BINDER_H_
