// Pipe syntax (Bigtable's pipe-syntax page): a query, or `FROM table`, then
// `|> operator ...` steps. Each step is merged into the query it follows
// where the result is the same (a WHERE or SELECT straight after FROM, a
// LIMIT on a query without one, ...); otherwise it starts a new stage that
// reads the previous one's result columns (FromClause::pipe_input), so
// WHERE after AGGREGATE filters groups and SELECT after SELECT projects
// again. Operators Bigtable's SQL has no counterpart for (joins, set
// operations, ...) are refused as standard syntax's are.

#include "sql/functions.h"
#include "sql/parser_internal.h"

namespace lbt::sql::parsing {

namespace {

// How many stages a pipe query may chain (each one's rows pass through the
// next): lbt's limit, as nesting has one.
constexpr int kMaxPipeStages = 64;

// A query that pipe operators may still merge into: `SELECT * FROM t
// [WHERE ...]` and nothing more.
bool IsOpen(const Select& s) {
  return s.items.size() == 1 && !s.items[0].expr && s.items[0].except.empty() && s.items[0].replace.empty() &&
         s.items[0].rename.empty() && s.group_by.empty() && !s.having && s.order_by.empty() && !s.limit &&
         s.windows.empty();
}

// The first aggregate call outside a window in `e`, or null: pipe SELECT,
// EXTEND and SET compute per row, and AGGREGATE groups.
const Expr* FindAggregateCall(const Expr& e) {
  if (e.kind == ExprKind::kCall && e.window == nullptr && FindAggregate(e.name) != nullptr) return &e;
  for (const ExprPtr& a : e.args) {
    if (const Expr* found = FindAggregateCall(*a)) return found;
  }
  return nullptr;
}

bool ContainsWindowCall(const Expr& e) {
  if (e.kind == ExprKind::kCall && e.window != nullptr) return true;
  for (const ExprPtr& a : e.args) {
    if (ContainsWindowCall(*a)) return true;
  }
  return false;
}

// Replaces each window call in *e by a column `$window<n>`, adding
// `call AS $window<n>` to *hidden.
void HoistWindows(ExprPtr* e, std::vector<SelectItem>* hidden) {
  if ((*e)->kind == ExprKind::kCall && (*e)->window != nullptr) {
    SelectItem item;
    item.alias = fmt::format("$window{}", hidden->size() + 1);
    item.pos = (*e)->pos;
    auto column = std::make_unique<Expr>();
    column->kind = ExprKind::kColumn;
    column->name = item.alias;
    column->pos = (*e)->pos;
    item.expr = std::move(*e);
    *e = std::move(column);
    hidden->push_back(std::move(item));
    return;
  }
  for (ExprPtr& a : (*e)->args) HoistWindows(&a, hidden);
}

SelectItem Star(size_t pos) {
  SelectItem star;
  star.pos = pos;
  return star;
}

}  // namespace

Result<std::unique_ptr<Select>> Parser::FromQuery() {
  auto select = std::make_unique<Select>();
  select->items.push_back(Star(Current().pos));
  LBT_RETURN_IF_ERROR(ExpectWord("FROM"));
  LBT_ASSIGN_OR_RETURN(select->from, From());
  if (IsOp(",") || IsWord("JOIN") || IsWord("INNER") || IsWord("LEFT") || IsWord("CROSS")) return Unsupported("Joins");
  return select;
}

Result<std::unique_ptr<Select>> Parser::NewStage(std::unique_ptr<Select> input, size_t pos) {
  if (++pipe_stages_ > kMaxPipeStages) {
    return Status::InvalidArgument(
        fmt::format("A pipe query may chain at most {} stages (operators that read the result of the one before) {}",
                    kMaxPipeStages, Location(text_, pos)));
  }
  auto stage = std::make_unique<Select>();
  stage->items.push_back(Star(pos));
  // The table's name or alias still names the rows (`FROM t |> ... |> SELECT t.x`).
  stage->from.alias = input->from.alias.empty() ? input->from.table : input->from.alias;
  stage->from.pipe_input = std::move(input);
  stage->from.pos = pos;
  return stage;
}

Result<std::vector<SelectItem>> Parser::ItemList(const char* op) {
  std::vector<SelectItem> items;
  do {
    LBT_ASSIGN_OR_RETURN(SelectItem item, Item());
    const Expr* aggregate = item.expr && op != nullptr ? FindAggregateCall(*item.expr) : nullptr;
    if (aggregate != nullptr) {
      return Status::InvalidArgument(fmt::format("Aggregate function {} not allowed in pipe {}; use |> AGGREGATE {}",
                                                 aggregate->name, op, Location(text_, aggregate->pos)));
    }
    items.push_back(std::move(item));
  } while (AcceptOp(","));
  return items;
}

Result<std::string> Parser::ColumnName(const char* what) {
  if (Current().kind != TokenKind::kIdent && Current().kind != TokenKind::kQuotedIdent) {
    return Error(Current().pos, fmt::format("Expected a column name in |> {}", what));
  }
  std::string name = Current().text;
  Advance();
  return name;
}

Result<std::unique_ptr<Select>> Parser::Pipe(std::unique_ptr<Select> s) {
  const size_t pos = Current().pos;
  auto stage = [&]() -> Status {
    if (IsOpen(*s)) return Status::OK();
    LBT_ASSIGN_OR_RETURN(s, NewStage(std::move(s), pos));
    return Status::OK();
  };
  if (AcceptWord("WHERE")) {
    LBT_ASSIGN_OR_RETURN(ExprPtr e, Expression());
    // Window calls in a pipe WHERE (it does QUALIFY's work): computed in a
    // stage of their own as hidden columns, which the WHERE then reads.
    std::vector<SelectItem> hidden;
    HoistWindows(&e, &hidden);
    if (!hidden.empty()) {
      LBT_ASSIGN_OR_RETURN(s, NewStage(std::move(s), pos));
      SelectItem drop = Star(pos);
      for (SelectItem& item : hidden) {
        drop.except.push_back(item.alias);
        s->items.push_back(std::move(item));
      }
      LBT_ASSIGN_OR_RETURN(s, NewStage(std::move(s), pos));
      s->where = std::move(e);
      LBT_ASSIGN_OR_RETURN(s, NewStage(std::move(s), pos));
      s->items.clear();
      s->items.push_back(std::move(drop));
      return s;
    }
    LBT_RETURN_IF_ERROR(stage());
    s->where = s->where ? Call("$and", pos, std::move(s->where), std::move(e)) : std::move(e);
    return s;
  }
  if (IsWord("SELECT") || IsWord("EXTEND") || IsWord("SET") || IsWord("DROP") || IsWord("RENAME")) {
    return PipeColumns(std::move(s), pos);
  }
  if (AcceptWord("AS")) {
    LBT_ASSIGN_OR_RETURN(std::string alias, ColumnName("AS"));
    LBT_ASSIGN_OR_RETURN(s, NewStage(std::move(s), pos));
    s->from.alias = std::move(alias);
    return s;
  }
  if (AcceptWord("ORDER")) {
    LBT_RETURN_IF_ERROR(ExpectWord("BY"));
    std::vector<OrderItem> order;
    do {
      LBT_ASSIGN_OR_RETURN(OrderItem item, Order());
      order.push_back(std::move(item));
    } while (AcceptOp(","));
    if (!s->order_by.empty() || s->limit) {
      LBT_ASSIGN_OR_RETURN(s, NewStage(std::move(s), pos));
    }
    s->order_by = std::move(order);
    return s;
  }
  if (AcceptWord("LIMIT")) {
    LBT_ASSIGN_OR_RETURN(ExprPtr limit, Primary());
    ExprPtr offset;
    if (AcceptWord("OFFSET")) {
      LBT_ASSIGN_OR_RETURN(offset, Primary());
    }
    if (s->limit) {
      LBT_ASSIGN_OR_RETURN(s, NewStage(std::move(s), pos));
    }
    s->limit = std::move(limit);
    s->offset = std::move(offset);
    return s;
  }
  if (AcceptWord("AGGREGATE")) return PipeAggregate(std::move(s));
  for (const char* op : {"JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS"}) {
    if (IsWord(op)) return Unsupported("Joins");
  }
  for (const char* op : {"UNION", "INTERSECT", "EXCEPT"}) {
    if (IsWord(op)) return Unsupported("Set operations (UNION, INTERSECT, EXCEPT)");
  }
  for (const char* op :
       {"DISTINCT", "CALL", "TABLESAMPLE", "PIVOT", "UNPIVOT", "WINDOW", "WITH", "ASSERT", "LOG", "MATCH_RECOGNIZE"}) {
    if (IsWord(op)) return Unsupported(fmt::format("Pipe operators {}", op));
  }
  return Error(Current().pos,
               "Expected a pipe operator after |> (WHERE, SELECT, EXTEND, SET, DROP, RENAME, AS, "
               "AGGREGATE, ORDER BY or LIMIT)");
}

// SELECT, EXTEND, SET, DROP and RENAME: a new select list over the rows of
// the query before, which they join when it is still `SELECT * FROM t`.
Result<std::unique_ptr<Select>> Parser::PipeColumns(std::unique_ptr<Select> s, size_t pos) {
  auto stage = [&]() -> Status {
    if (IsOpen(*s)) return Status::OK();
    LBT_ASSIGN_OR_RETURN(s, NewStage(std::move(s), pos));
    return Status::OK();
  };
  if (AcceptWord("SELECT")) {
    LBT_ASSIGN_OR_RETURN(std::vector<SelectItem> items, ItemList("SELECT"));
    LBT_RETURN_IF_ERROR(stage());
    s->items = std::move(items);
    return s;
  }
  if (AcceptWord("EXTEND")) {
    LBT_ASSIGN_OR_RETURN(std::vector<SelectItem> items, ItemList("EXTEND"));
    LBT_RETURN_IF_ERROR(stage());
    for (SelectItem& item : items) s->items.push_back(std::move(item));
    return s;
  }
  if (AcceptWord("SET")) {
    SelectItem star = Star(pos);
    do {
      LBT_ASSIGN_OR_RETURN(std::string name, ColumnName("SET"));
      LBT_RETURN_IF_ERROR(ExpectOp("="));
      LBT_ASSIGN_OR_RETURN(ExprPtr e, Expression());
      star.replace.emplace_back(std::move(e), std::move(name));
    } while (AcceptOp(","));
    star.clause = "pipe SET";
    LBT_RETURN_IF_ERROR(stage());
    s->items.clear();
    s->items.push_back(std::move(star));
    return s;
  }
  if (IsWord("DROP") || IsWord("RENAME")) {
    const bool drop = IsWord("DROP");
    Advance();
    SelectItem star = Star(pos);
    do {
      LBT_ASSIGN_OR_RETURN(std::string name, ColumnName(drop ? "DROP" : "RENAME"));
      if (drop) {
        star.except.push_back(std::move(name));
        star.clause = "pipe DROP";
        continue;
      }
      AcceptWord("AS");
      LBT_ASSIGN_OR_RETURN(std::string to, ColumnName("RENAME"));
      star.rename.emplace_back(std::move(name), std::move(to));
    } while (AcceptOp(","));
    LBT_RETURN_IF_ERROR(stage());
    s->items.clear();
    s->items.push_back(std::move(star));
    return s;
  }
  return Error(Current().pos, "Expected SELECT, EXTEND, SET, DROP or RENAME");
}

// After a pipe AGGREGATE item or group key: `ASC|DESC [NULLS FIRST|LAST]`,
// ordering the result by it (by its alias, when it has one); nullopt
// without one, unless `always` (GROUP AND ORDER BY orders every key).
Result<std::optional<OrderItem>> Parser::PipeDirection(const SelectItem& item, bool always) {
  if (!always && !IsWord("ASC") && !IsWord("DESC")) return std::optional<OrderItem>();
  OrderItem o;
  if (!item.alias.empty()) {
    o.expr = std::make_unique<Expr>();
    o.expr->kind = ExprKind::kColumn;
    o.expr->name = item.alias;
    o.expr->pos = item.pos;
  } else {
    o.expr = item.expr->Clone();
  }
  LBT_RETURN_IF_ERROR(Direction(&o));
  return std::optional<OrderItem>(std::move(o));
}

// `|> AGGREGATE aggs [GROUP [AND ORDER] BY keys]`: the groups' rows, the
// keys first, then the aggregates, each named by its alias; an item or
// key marked ASC or DESC orders the rows, the keys' marks first.
Result<std::unique_ptr<Select>> Parser::PipeAggregate(std::unique_ptr<Select> s) {
  const size_t pos = tokens_[index_ - 1].pos;
  std::vector<SelectItem> aggregates;
  std::vector<OrderItem> aggregate_order, order;
  if (!IsWord("GROUP")) {
    do {
      LBT_ASSIGN_OR_RETURN(SelectItem item, Item());
      if (!item.expr || FindAggregateCall(*item.expr) == nullptr || ContainsWindowCall(*item.expr)) {
        return Error(item.expr ? item.expr->pos : item.pos,
                     "Each item of |> AGGREGATE must be an aggregate (SUM(x), COUNT(*), ...), with no window function");
      }
      LBT_ASSIGN_OR_RETURN(std::optional<OrderItem> o, PipeDirection(item, false));
      if (o) aggregate_order.push_back(std::move(*o));
      aggregates.push_back(std::move(item));
    } while (AcceptOp(","));
  }
  std::vector<SelectItem> keys;
  if (AcceptWord("GROUP")) {
    const bool ordered = AcceptWord("AND");
    if (ordered) LBT_RETURN_IF_ERROR(ExpectWord("ORDER"));
    LBT_RETURN_IF_ERROR(ExpectWord("BY"));
    do {
      SelectItem key;
      key.pos = Current().pos;
      LBT_ASSIGN_OR_RETURN(key.expr, Expression());
      LBT_ASSIGN_OR_RETURN(key.alias, Alias());
      LBT_ASSIGN_OR_RETURN(std::optional<OrderItem> o, PipeDirection(key, ordered));
      if (o) order.push_back(std::move(*o));
      keys.push_back(std::move(key));
    } while (AcceptOp(","));
  }
  if (aggregates.empty() && keys.empty()) return Error(pos, "Expected aggregates or GROUP BY after |> AGGREGATE");
  if (!IsOpen(*s)) {
    LBT_ASSIGN_OR_RETURN(s, NewStage(std::move(s), pos));
  }
  s->items.clear();
  for (SelectItem& key : keys) {
    s->group_by.push_back(key.expr->Clone());
    s->items.push_back(std::move(key));
  }
  for (SelectItem& aggregate : aggregates) s->items.push_back(std::move(aggregate));
  for (OrderItem& o : aggregate_order) order.push_back(std::move(o));
  s->order_by = std::move(order);
  return s;
}

}  // namespace lbt::sql::parsing
