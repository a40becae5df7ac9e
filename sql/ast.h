// The parsed form of a Bigtable GoogleSQL query, and the binder's notes on
// it. Operators are calls with reserved names ("$and", "$eq", ...), so that
// the binder and the evaluator see one shape for every computation.

#ifndef LBT_SQL_AST_H_
#define LBT_SQL_AST_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sql/value.h"

namespace lbt::sql {

// How deeply an expression may nest through parentheses, function
// arguments, NOT and unary operators (lbt's limit: each level costs stack
// in every pass over the tree).
inline constexpr int kMaxNesting = 200;
// How tall an expression tree may grow, chains of binary operators
// included (`a + b + ... `); AND and OR chains count as one level however
// long. lbt's limit, for the same reason.
inline constexpr int kMaxExpressionHeight = 1000;

struct ProtoCast;  // sql/proto_values.h
struct WindowSpec;

struct Function;
struct Aggregate;

enum class ExprKind {
  kLiteral,    // literal
  kParameter,  // @name
  kColumn,     // name: a column of the table (`_key`, a family, `_timestamp`) or an alias
  kCall,       // name(args): a function, an operator, or an aggregate
  kCast,       // CAST(args[0] AS cast_type), SAFE_CAST when `safe`
  kCase,       // CASE [args[0] if has_operand] WHEN a THEN b ... [ELSE e] END
  kInterval,   // INTERVAL args[0] name (a date part), inside TIMESTAMP_ADD/SUB
  kStar,       // COUNT(*)'s argument
  kSlot,       // bound: slot `slot` of the row being evaluated
  // bound: the result of window call `slot` (BoundQuery::windows), which
  // the WINDOW operator appends to the row it hands on
  kWindowResult,
  // `e -> body` or `(e, i) -> body` (an argument of ARRAY_FILTER and kin):
  // args[0] is the body, lambda_params the names; bound, `slot` is where
  // the first parameter's value goes in the evaluator's lambda frame.
  kLambda,
  kLambdaParam,  // bound: a lambda's parameter, slot `slot` of the frame
};

// `IGNORE NULLS` / `RESPECT NULLS` in a call (FIRST_VALUE(x IGNORE NULLS)).
enum class NullsMode { kDefault, kIgnore, kRespect };

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  size_t pos = 0;  // where it starts in the query text, for errors
  std::string name;
  std::vector<ExprPtr> args;
  Value literal;
  // A string literal or an untyped NULL, which coerce to the other side's
  // type (`_key = 'r1'`, `cf['q'] = 'x'`).
  bool coercible_literal = false;
  TypePtr cast_type;
  // kCast to a schema bundle's message type: "bundle.pkg.Message" in
  // `name` (cast_type unset), then what the binder found for it.
  std::shared_ptr<const ProtoCast> proto;
  bool safe = false;
  bool has_operand = false;               // kCase
  bool has_else = false;                  // kCase
  bool distinct = false;                  // kCall of an aggregate: `COUNT(DISTINCT x)`
  NullsMode nulls = NullsMode::kDefault;  // kCall
  // kCall with an OVER clause: a window function call. Shared by clones;
  // never changed once parsed.
  std::shared_ptr<const WindowSpec> window;
  std::vector<std::string> lambda_params;  // kLambda
  std::vector<std::string> field_names;    // `$struct`: each field's name ("" for none)
  // kCall: each argument's name when passed as `name => value` ("" when
  // positional); empty when none is named.
  std::vector<std::string> arg_names;
  // Levels of the tree from here down (1 for a leaf); the parser bounds it.
  int height = 1;

  // Set by the binder.
  TypePtr type;
  int slot = -1;
  const Function* function = nullptr;

  ExprPtr Clone() const;
};

struct SelectItem {
  ExprPtr expr;  // null for `*`
  std::string alias;
  // `* EXCEPT (a, b)` and `* REPLACE (expr AS a, ...)`: the columns `*`
  // leaves out, and those it computes otherwise (expr, then the name).
  std::vector<std::string> except;
  std::vector<std::pair<ExprPtr, std::string>> replace;
  // Pipe syntax's `|> RENAME a AS b`: columns `*` gives other names.
  std::vector<std::pair<std::string, std::string>> rename;
  // What messages call the EXCEPT or REPLACE list ("pipe DROP", "pipe SET");
  // empty for `SELECT *`'s own.
  std::string clause;
  size_t pos = 0;
};

struct OrderItem {
  ExprPtr expr;
  bool descending = false;
  std::optional<bool> nulls_first;  // default: first ascending, last descending
};

// A window frame's bound: `UNBOUNDED PRECEDING`, `n PRECEDING`,
// `CURRENT ROW`, `n FOLLOWING` or `UNBOUNDED FOLLOWING`.
struct FrameBound {
  enum class Kind { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };
  Kind kind = Kind::kCurrentRow;
  ExprPtr offset;  // kPreceding, kFollowing
};

// `ROWS|RANGE BETWEEN start AND end`, or `ROWS|RANGE start` (to CURRENT ROW).
struct WindowFrame {
  bool rows = true;  // ROWS; RANGE when false
  FrameBound start, end;
  size_t pos = 0;
};

// An OVER clause, or a WINDOW clause's definition: `[base] [PARTITION BY
// ...] [ORDER BY ...] [frame]`, `base` naming a window of the WINDOW clause.
struct WindowSpec {
  std::string base;
  std::vector<ExprPtr> partition_by;
  std::vector<OrderItem> order_by;
  std::shared_ptr<const WindowFrame> frame;
  size_t pos = 0;
};

struct Select;

// FROM: a table, a table with options (`t(with_history => TRUE)`), or
// UNPACK over a select of such a table.
struct FromClause {
  std::string table;
  std::vector<std::pair<std::string, ExprPtr>> options;
  std::string alias;
  std::unique_ptr<Select> unpack;  // UNPACK((SELECT ...)) when set
  // Pipe syntax: the query before a pipe operator that starts a new stage
  // (`FROM t |> AGGREGATE ... |> WHERE n > 1`). Its result columns are
  // this query's input, as a logical view's are. Only the parser makes it:
  // Bigtable has no subqueries.
  std::unique_ptr<Select> pipe_input;
  size_t pos = 0;
};

struct Select {
  std::vector<SelectItem> items;
  FromClause from;
  ExprPtr where;
  std::vector<ExprPtr> group_by;
  ExprPtr having;
  std::vector<OrderItem> order_by;
  ExprPtr limit;
  ExprPtr offset;
  // The WINDOW clause: named windows, in order (one may build on an
  // earlier one).
  std::vector<std::pair<std::string, std::shared_ptr<const WindowSpec>>> windows;
};

// Canonical text of an expression, for matching GROUP BY expressions in the
// select list and for messages.
std::string Unparse(const Expr& e);
// An OVER clause's text, without the parentheses.
std::string UnparseWindow(const WindowSpec& w);

}  // namespace lbt::sql

#endif  // LBT_SQL_AST_H_
