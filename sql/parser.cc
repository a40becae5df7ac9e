#include "sql/parser.h"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>

#include "sql/lexer.h"
#include "sql/parser_internal.h"

namespace lbt::sql {

namespace parsing {

// ---- the query ----
Result<std::unique_ptr<Select>> Parser::Query() {
  LBT_RETURN_IF_ERROR(ExpectWord("SELECT"));
  auto select = std::make_unique<Select>();
  if (IsWord("DISTINCT")) return Unsupported("SELECT DISTINCT queries");
  if (IsWord("AS") && (Ahead(1).kind == TokenKind::kIdent)) return Unsupported("SELECT AS STRUCT/VALUE queries");
  AcceptWord("ALL");
  do {
    LBT_ASSIGN_OR_RETURN(SelectItem item, Item());
    select->items.push_back(std::move(item));
  } while (AcceptOp(","));
  // Without FROM, the select list is computed once, over no table
  // (`SELECT @a AS a`).
  if (AcceptWord("FROM")) {
    LBT_ASSIGN_OR_RETURN(select->from, From());
  }
  if (IsOp(",") || IsWord("JOIN") || IsWord("INNER") || IsWord("LEFT") || IsWord("RIGHT") || IsWord("FULL") ||
      IsWord("CROSS")) {
    return Unsupported("Joins");
  }
  if (AcceptWord("WHERE")) {
    LBT_ASSIGN_OR_RETURN(select->where, Expression());
  }
  if (AcceptWord("GROUP")) {
    LBT_RETURN_IF_ERROR(ExpectWord("BY"));
    do {
      LBT_ASSIGN_OR_RETURN(ExprPtr e, Expression());
      select->group_by.push_back(std::move(e));
    } while (AcceptOp(","));
  }
  if (AcceptWord("HAVING")) {
    LBT_ASSIGN_OR_RETURN(select->having, Expression());
  }
  if (AcceptWord("WINDOW")) LBT_RETURN_IF_ERROR(WindowClause(select.get()));
  if (IsWord("QUALIFY")) return Unsupported("QUALIFY clauses");
  if (AcceptWord("ORDER")) {
    LBT_RETURN_IF_ERROR(ExpectWord("BY"));
    do {
      LBT_ASSIGN_OR_RETURN(OrderItem item, Order());
      select->order_by.push_back(std::move(item));
    } while (AcceptOp(","));
  }
  if (AcceptWord("LIMIT")) {
    LBT_ASSIGN_OR_RETURN(select->limit, Primary());
    if (AcceptWord("OFFSET")) {
      LBT_ASSIGN_OR_RETURN(select->offset, Primary());
    }
  }
  if (IsWord("UNION") || IsWord("INTERSECT") || IsWord("EXCEPT"))
    return Unsupported("Set operations (UNION, INTERSECT, EXCEPT)");
  return select;
}

Result<SelectItem> Parser::Item() {
  SelectItem item;
  item.pos = Current().pos;
  if (AcceptOp("*")) {
    if (AcceptWord("EXCEPT")) {
      LBT_RETURN_IF_ERROR(ExpectOp("("));
      do {
        if (Current().kind != TokenKind::kIdent && Current().kind != TokenKind::kQuotedIdent) {
          return Error(Current().pos, "Expected a column name in SELECT * EXCEPT");
        }
        item.except.push_back(Current().text);
        Advance();
      } while (AcceptOp(","));
      LBT_RETURN_IF_ERROR(ExpectOp(")"));
    }
    if (AcceptWord("REPLACE")) {
      LBT_RETURN_IF_ERROR(ExpectOp("("));
      do {
        LBT_ASSIGN_OR_RETURN(ExprPtr e, Expression());
        LBT_ASSIGN_OR_RETURN(std::string name, Alias());
        if (name.empty()) return Error(Current().pos, "Expected AS and a column name in SELECT * REPLACE");
        item.replace.emplace_back(std::move(e), std::move(name));
      } while (AcceptOp(","));
      LBT_RETURN_IF_ERROR(ExpectOp(")"));
    }
    return item;
  }
  LBT_ASSIGN_OR_RETURN(item.expr, Expression());
  LBT_ASSIGN_OR_RETURN(item.alias, Alias());
  return item;
}

Result<FromClause> Parser::From() {
  FromClause ref;
  ref.pos = Current().pos;
  if (IsOp("(")) return Unsupported("Subqueries");
  if (IsWord("UNNEST")) return Unsupported("UNNEST in FROM");
  if (IsWord("UNPACK") && Ahead(1).kind == TokenKind::kOp && Ahead(1).text == "(") {
    Advance();
    Advance();
    LBT_RETURN_IF_ERROR(ExpectOp("("));
    LBT_ASSIGN_OR_RETURN(ref.unpack, Query());
    LBT_RETURN_IF_ERROR(ExpectOp(")"));
    LBT_RETURN_IF_ERROR(ExpectOp(")"));
    LBT_ASSIGN_OR_RETURN(ref.alias, Alias());
    return ref;
  }
  if (Current().kind != TokenKind::kIdent && Current().kind != TokenKind::kQuotedIdent) {
    return Error(Current().pos, "Expected a table name after FROM");
  }
  ref.table = Current().text;
  Advance();
  if (AcceptOp("(")) {
    if (!IsOp(")")) {
      do {
        if (Current().kind != TokenKind::kIdent || Ahead(1).text != "=>") {
          return Error(Current().pos, "Expected a named option such as with_history => TRUE");
        }
        std::string name = Current().text;
        Advance();
        Advance();
        LBT_ASSIGN_OR_RETURN(ExprPtr value, Expression());
        ref.options.emplace_back(std::move(name), std::move(value));
      } while (AcceptOp(","));
    }
    LBT_RETURN_IF_ERROR(ExpectOp(")"));
  }
  LBT_ASSIGN_OR_RETURN(ref.alias, Alias());
  return ref;
}

Result<ExprPtr> Parser::Word(const Token& t) {
  const std::string upper = Upper(t.text);
  const bool call = Ahead(1).kind == TokenKind::kOp && Ahead(1).text == "(";
  if (upper == "NULL") {
    Advance();
    return Literal(Value::Null(Type::Int64()), t.pos, true);
  }
  if (upper == "TRUE" || upper == "FALSE") {
    Advance();
    return Literal(Value::Bool(upper == "TRUE"), t.pos);
  }
  if ((upper == "DATE" || upper == "TIMESTAMP") && Ahead(1).kind == TokenKind::kString) {
    Advance();
    std::string text = Current().text;
    Advance();
    int64_t v = 0;
    if (upper == "DATE" ? !ParseDate(text, &v) : !ParseTimestamp(text, &v)) {
      return Error(t.pos, fmt::format("Invalid {} literal: '{}'", upper, text));
    }
    return Literal(upper == "DATE" ? Value::Date(v) : Value::Timestamp(v), t.pos);
  }
  if (upper == "CASE") return Case();
  if ((upper == "CAST" || upper == "SAFE_CAST") && call) return Cast(upper == "SAFE_CAST");
  if (upper == "EXTRACT" && call) return Extract();
  if (upper == "INTERVAL") return Interval();
  if (upper == "EXISTS" || (upper == "ARRAY" && call)) return Unsupported("Subqueries");
  if (upper == "STRUCT" && call) return StructConstructor(t.pos);
  if (upper == "ARRAY" && Ahead(1).text == "[") {
    Advance();
    return ArrayLiteral(t.pos);
  }
  if (call) return FunctionCall(t);
  // HLL_COUNT.INIT(...) and kin: a function name with a dot in it.
  if (upper == "HLL_COUNT" && Ahead(1).text == "." && Ahead(2).kind == TokenKind::kIdent &&
      Ahead(3).kind == TokenKind::kOp && Ahead(3).text == "(") {
    Token dotted = Ahead(2);
    dotted.text = t.text + "." + Ahead(2).text;
    dotted.pos = t.pos;
    Advance();
    Advance();
    return FunctionCall(dotted);
  }
  // SAFE.FN(...): the function's own errors become NULL.
  if (upper == "SAFE" && Ahead(1).text == "." && Ahead(2).kind == TokenKind::kIdent &&
      Ahead(3).kind == TokenKind::kOp && Ahead(3).text == "(") {
    Token name = Ahead(2);
    Advance();
    Advance();
    LBT_ASSIGN_OR_RETURN(ExprPtr e, FunctionCall(name));
    e->safe = true;
    return e;
  }
  if (IsReserved(upper)) return Unexpected();
  Advance();
  return Column(t);
}

Result<ExprPtr> Parser::FunctionCall(const Token& t) {
  Advance();
  Advance();
  std::vector<ExprPtr> args;
  std::vector<std::string> arg_names;
  bool named = false;
  const std::string name = Upper(t.text);
  bool distinct = false;
  if (IsOp("*") && Ahead(1).text == ")") {
    Advance();
    auto star = std::make_unique<Expr>();
    star->kind = ExprKind::kStar;
    star->pos = t.pos;
    args.push_back(std::move(star));
  } else if (!IsOp(")")) {
    distinct = AcceptWord("DISTINCT");
    do {
      std::string arg_name;
      if (Current().kind == TokenKind::kIdent && Ahead(1).kind == TokenKind::kOp && Ahead(1).text == "=>") {
        arg_name = Current().text;
        Advance();
        Advance();
      } else if (named) {
        return Error(Current().pos, "A positional argument cannot follow a named one");
      }
      for (char& c : arg_name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (!arg_name.empty() && !named) {
        named = true;
        arg_names.resize(args.size());
      }
      if (named) arg_names.push_back(arg_name);
      LBT_ASSIGN_OR_RETURN(ExprPtr arg, LambdaOrExpression());
      args.push_back(std::move(arg));
    } while (AcceptOp(","));
  }
  NullsMode nulls = NullsMode::kDefault;
  if (IsWord("IGNORE") || IsWord("RESPECT")) {
    nulls = IsWord("IGNORE") ? NullsMode::kIgnore : NullsMode::kRespect;
    Advance();
    LBT_RETURN_IF_ERROR(ExpectWord("NULLS"));
  }
  if (IsWord("ORDER") || IsWord("LIMIT") || IsWord("HAVING")) return Unsupported("Aggregate modifiers");
  LBT_RETURN_IF_ERROR(ExpectOp(")"));
  ExprPtr call = Call(name, t.pos, std::move(args));
  call->arg_names = std::move(arg_names);
  call->distinct = distinct;
  call->nulls = nulls;
  if (AcceptWord("OVER")) {
    LBT_ASSIGN_OR_RETURN(call->window, OverClause());
  }
  return call;
}

// STRUCT(expr [AS name], ...): a STRUCT of the values, fields named by
// their aliases (or a column's own name).
Result<ExprPtr> Parser::StructConstructor(size_t pos) {
  Advance();
  LBT_RETURN_IF_ERROR(ExpectOp("("));
  std::vector<ExprPtr> fields;
  std::vector<std::string> names;
  if (!IsOp(")")) {
    do {
      LBT_ASSIGN_OR_RETURN(ExprPtr field, Expression());
      LBT_ASSIGN_OR_RETURN(std::string name, Alias());
      if (name.empty() && field->kind == ExprKind::kColumn) name = field->name;
      names.push_back(std::move(name));
      fields.push_back(std::move(field));
    } while (AcceptOp(","));
  }
  LBT_RETURN_IF_ERROR(ExpectOp(")"));
  ExprPtr e = Call("$struct", pos, std::move(fields));
  e->field_names = std::move(names);
  return e;
}

// `e -> body`, `(e) -> body` or `(e, i) -> body`, else an expression.
Result<ExprPtr> Parser::LambdaOrExpression() {
  std::vector<std::string> params;
  size_t skip = 0;
  auto ident = [&](size_t n) { return Ahead(n).kind == TokenKind::kIdent || Ahead(n).kind == TokenKind::kQuotedIdent; };
  auto op = [&](size_t n, const char* text) { return Ahead(n).kind == TokenKind::kOp && Ahead(n).text == text; };
  if (ident(0) && op(1, "->")) {
    params = {Current().text};
    skip = 2;
  } else if (op(0, "(") && ident(1) && op(2, ")") && op(3, "->")) {
    params = {Ahead(1).text};
    skip = 4;
  } else if (op(0, "(") && ident(1) && op(2, ",") && ident(3) && op(4, ")") && op(5, "->")) {
    params = {Ahead(1).text, Ahead(3).text};
    skip = 6;
  } else {
    return Expression();
  }
  auto lambda = std::make_unique<Expr>();
  lambda->kind = ExprKind::kLambda;
  lambda->pos = Current().pos;
  for (size_t i = 0; i < skip; ++i) Advance();
  LBT_ASSIGN_OR_RETURN(ExprPtr body, Expression());
  lambda->lambda_params = std::move(params);
  lambda->args.push_back(std::move(body));
  SetHeight(lambda.get());
  return lambda;
}

}  // namespace parsing

using parsing::Parser;
using parsing::Upper;

Result<std::unique_ptr<Select>> Parse(std::string_view sql) {
  if (sql.size() > kMaxQueryBytes) {
    return Status::InvalidArgument(
        fmt::format("The query is {} bytes; a query may have at most {} (1 MiB)", sql.size(), kMaxQueryBytes));
  }
  LBT_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(sql));
  return Parser(sql, std::move(tokens)).Statement();
}

namespace {

// One literal of a parameter binding, starting at tokens[*i].
Result<Value> BindingLiteral(std::string_view text, const std::vector<Token>& tokens, size_t* i) {
  const Token& t = tokens[*i];
  const std::string word = t.kind == TokenKind::kIdent ? Upper(t.text) : "";
  auto bad = [&](const std::string& what) {
    return Status::InvalidArgument(fmt::format("Syntax error: {} {}", what, Location(text, t.pos)));
  };
  ++*i;
  switch (t.kind) {
    case TokenKind::kInt: {
      int64_t v = 0;
      auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
      if (ec != std::errc() || end != t.text.data() + t.text.size()) return bad("Invalid integer literal");
      return Value::Int64(v);
    }
    case TokenKind::kFloat: return Value::Float64(std::strtod(t.text.c_str(), nullptr));
    case TokenKind::kString: return Value::String(t.text);
    case TokenKind::kBytes: return Value::Bytes(t.text);
    default: break;
  }
  if (word == "TRUE" || word == "FALSE") return Value::Bool(word == "TRUE");
  if ((word == "TIMESTAMP" || word == "DATE") && tokens[*i].kind == TokenKind::kString) {
    const std::string& literal = tokens[(*i)++].text;
    int64_t n = 0;
    if (word == "TIMESTAMP" && ParseTimestamp(literal, &n)) return Value::Timestamp(n);
    if (word == "DATE" && ParseDate(literal, &n)) return Value::Date(n);
    return bad(fmt::format("Invalid {} literal", word));
  }
  return bad("Expected a literal for the parameter");
}

}  // namespace

Result<std::vector<ParameterBinding>> ParseParameterBindings(std::string_view text, size_t* query_start) {
  LBT_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(text));
  std::vector<ParameterBinding> out;
  size_t i = 0;
  while (tokens[i].kind == TokenKind::kParam && tokens[i + 1].kind == TokenKind::kOp && tokens[i + 1].text == "=") {
    std::string name = tokens[i].text;
    i += 2;
    const bool negative = tokens[i].kind == TokenKind::kOp && tokens[i].text == "-" &&
                          (tokens[i + 1].kind == TokenKind::kInt || tokens[i + 1].kind == TokenKind::kFloat);
    if (negative) ++i;
    LBT_ASSIGN_OR_RETURN(Value value, BindingLiteral(text, tokens, &i));
    if (negative)
      value = value.kind() == TypeKind::kInt64 ? Value::Int64(-value.int64()) : Value::Float64(-value.float64());
    out.push_back({std::move(name), std::move(value)});
  }
  *query_start = tokens[i].pos;
  return out;
}

}  // namespace lbt::sql
