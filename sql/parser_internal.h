// The parser's class, shared by the files that parse a statement: the
// token helpers and the levels of expressions are inline here; parser.cc
// defines the query and its clauses, words, function calls, STRUCT(...) and
// lambdas; parser_pipes.cc the pipe operators; parser_windows.cc the OVER
// and WINDOW clauses. Internal to sql/; Parse (parser.h) runs it.

#ifndef LBT_SQL_PARSER_INTERNAL_H_
#define LBT_SQL_PARSER_INTERNAL_H_

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sql/ast.h"
#include "sql/lexer.h"

namespace lbt::sql::parsing {

inline std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// Words that end an expression or a select item, so never an alias.
inline bool IsReserved(const std::string& upper) {
  static const char* const kReserved[] = {
      "ALL",      "AND",   "AS",        "ASC",      "BETWEEN", "BY",    "CASE",  "CAST",    "CROSS", "DESC",
      "DISTINCT", "ELSE",  "END",       "EXCEPT",   "EXISTS",  "FALSE", "FROM",  "FULL",    "GROUP", "HAVING",
      "IN",       "INNER", "INTERSECT", "INTERVAL", "IS",      "JOIN",  "LEFT",  "LIKE",    "LIMIT", "NOT",
      "NULL",     "NULLS", "OFFSET",    "ON",       "OR",      "ORDER", "OUTER", "QUALIFY", "RIGHT", "SELECT",
      "THEN",     "TRUE",  "UNION",     "UNNEST",   "USING",   "WHEN",  "WHERE", "WINDOW",  "WITH"};
  for (const char* word : kReserved) {
    if (upper == word) return true;
  }
  return false;
}

class Parser {
 public:
  Parser(std::string_view text, std::vector<Token> tokens) : text_(text), tokens_(std::move(tokens)) {}

  Result<std::unique_ptr<Select>> Statement() {
    if (IsWord("WITH")) return Unsupported("WITH clauses");
    for (const char* dml : {"INSERT", "UPDATE", "DELETE", "MERGE", "CREATE", "DROP", "ALTER"}) {
      if (IsWord(dml)) return Unsupported(fmt::format("{} statements (Bigtable's SQL is read-only: use SELECT)", dml));
    }
    std::unique_ptr<Select> select;
    if (IsWord("FROM")) {
      LBT_ASSIGN_OR_RETURN(select, FromQuery());
    } else {
      LBT_ASSIGN_OR_RETURN(select, Query());
    }
    while (AcceptOp("|>")) {
      LBT_ASSIGN_OR_RETURN(select, Pipe(std::move(select)));
    }
    if (IsOp(";")) Advance();
    if (Current().kind != TokenKind::kEnd) return Unexpected();
    return select;
  }

 private:
  // ---- tokens ----
  const Token& Current() const { return tokens_[index_]; }
  const Token& Ahead(size_t n) const { return tokens_[std::min(index_ + n, tokens_.size() - 1)]; }
  void Advance() {
    if (index_ + 1 < tokens_.size()) ++index_;
  }
  bool IsOp(std::string_view op) const { return Current().kind == TokenKind::kOp && Current().text == op; }
  bool IsWord(std::string_view word) const {
    return Current().kind == TokenKind::kIdent && Upper(Current().text) == word;
  }
  bool AcceptWord(std::string_view word) {
    if (!IsWord(word)) return false;
    Advance();
    return true;
  }
  bool AcceptOp(std::string_view op) {
    if (!IsOp(op)) return false;
    Advance();
    return true;
  }

  Status Error(size_t pos, const std::string& what) const {
    return Status::InvalidArgument(fmt::format("Syntax error: {} {}", what, Location(text_, pos)));
  }
  Status Unexpected() const {
    const Token& t = Current();
    switch (t.kind) {
      case TokenKind::kEnd: return Error(t.pos, "Unexpected end of statement");
      case TokenKind::kIdent:
        return Error(t.pos, fmt::format("Unexpected {} \"{}\"", IsReserved(Upper(t.text)) ? "keyword" : "identifier",
                                        IsReserved(Upper(t.text)) ? Upper(t.text) : t.text));
      case TokenKind::kString: return Error(t.pos, "Unexpected string literal");
      default: return Error(t.pos, fmt::format("Unexpected \"{}\"", t.text));
    }
  }
  Status Unsupported(const std::string& what) const {
    return Status::InvalidArgument(
        fmt::format("{} are not supported by Bigtable {}", what, Location(text_, Current().pos)));
  }
  Status ExpectWord(std::string_view word) {
    if (AcceptWord(word)) return Status::OK();
    if (Current().kind == TokenKind::kEnd)
      return Error(Current().pos, fmt::format("Expected keyword {} but got end of statement", word));
    return Error(Current().pos, fmt::format("Expected keyword {} but got \"{}\"", word, Current().text));
  }
  Status ExpectOp(std::string_view op) {
    if (AcceptOp(op)) return Status::OK();
    if (Current().kind == TokenKind::kEnd)
      return Error(Current().pos, fmt::format("Expected \"{}\" but got end of statement", op));
    return Error(Current().pos, fmt::format("Expected \"{}\" but got \"{}\"", op, Current().text));
  }

  // ---- the query ----
  Result<std::unique_ptr<Select>> Query();

  Result<SelectItem> Item();

  // `[AS] name`, or "" when none follows.
  Result<std::string> Alias() {
    const bool as = AcceptWord("AS");
    if (Current().kind == TokenKind::kQuotedIdent ||
        (Current().kind == TokenKind::kIdent && !IsReserved(Upper(Current().text)))) {
      std::string alias = Current().text;
      Advance();
      return alias;
    }
    if (as) return Error(Current().pos, "Expected an alias after AS");
    return std::string();
  }

  Result<FromClause> From();

  Result<OrderItem> Order() {
    OrderItem item;
    LBT_ASSIGN_OR_RETURN(item.expr, Expression());
    LBT_RETURN_IF_ERROR(Direction(&item));
    return item;
  }

  // `[ASC | DESC] [NULLS FIRST | NULLS LAST]` after an ORDER BY key.
  Status Direction(OrderItem* item) {
    if (AcceptWord("DESC")) {
      item->descending = true;
    } else {
      AcceptWord("ASC");
    }
    if (AcceptWord("NULLS")) {
      if (AcceptWord("FIRST")) {
        item->nulls_first = true;
      } else {
        LBT_RETURN_IF_ERROR(ExpectWord("LAST"));
        item->nulls_first = false;
      }
    }
    return Status::OK();
  }

  // ---- expressions, loosest first ----
  //
  // Every pass over an expression (binding, evaluation, key ranges)
  // recurses once per level, so a tree's height is bounded here, where it
  // is built: by kMaxNesting for what nests through the grammar's own
  // recursion (parentheses, arguments, NOT, unary operators, types), and
  // by kMaxExpressionHeight for the left-deep trees that chains of binary
  // operators build in a loop. AND and OR chains stay one node however
  // long (they are associative), so a long list of alternatives is no
  // deeper than one.
  using Level = Result<ExprPtr> (Parser::*)();

  static ExprPtr Call(std::string name, size_t pos, std::vector<ExprPtr> args) {
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::kCall;
    e->name = std::move(name);
    e->pos = pos;
    e->args = std::move(args);
    SetHeight(e.get());
    return e;
  }
  static void SetHeight(Expr* e) {
    int height = 0;
    for (const ExprPtr& a : e->args) height = std::max(height, a->height);
    e->height = height + 1;
  }
  // An error once `e` is taller than the evaluator's stack allows.
  Status CheckHeight(const Expr& e) {
    if (e.height <= kMaxExpressionHeight) return Status::OK();
    return Status::InvalidArgument(fmt::format("Expression nests too deeply: more than {} levels of operators {}",
                                               kMaxExpressionHeight, Location(text_, e.pos)));
  }
  // Counts one level of the grammar's recursion for as long as it lives.
  class Nesting {
   public:
    explicit Nesting(Parser* parser) : parser_(parser) { ++parser_->depth_; }
    ~Nesting() { --parser_->depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    bool too_deep() const { return parser_->depth_ > kMaxNesting; }

   private:
    Parser* parser_;
  };
  Status TooDeep() {
    return Status::InvalidArgument(
        fmt::format("Expression nests too deeply: more than {} levels of parentheses, calls and unary operators {}",
                    kMaxNesting, Location(text_, Current().pos)));
  }
  static ExprPtr Call(std::string name, size_t pos, ExprPtr a, ExprPtr b = nullptr) {
    std::vector<ExprPtr> args;
    args.push_back(std::move(a));
    if (b) args.push_back(std::move(b));
    return Call(std::move(name), pos, std::move(args));
  }

  Result<ExprPtr> Expression() {
    Nesting level(this);
    if (level.too_deep()) return TooDeep();
    LBT_ASSIGN_OR_RETURN(ExprPtr e, Or());
    LBT_RETURN_IF_ERROR(CheckHeight(*e));
    return e;
  }

  // `a OR b OR c` is one call with three arguments, evaluated left to right.
  Result<ExprPtr> Logical(const char* word, const char* name, Level next) {
    LBT_ASSIGN_OR_RETURN(ExprPtr left, (this->*next)());
    if (!IsWord(word)) return left;
    std::vector<ExprPtr> args;
    args.push_back(std::move(left));
    const size_t pos = Current().pos;
    while (AcceptWord(word)) {
      LBT_ASSIGN_OR_RETURN(ExprPtr right, (this->*next)());
      args.push_back(std::move(right));
    }
    return Call(name, pos, std::move(args));
  }
  Result<ExprPtr> Or() { return Logical("OR", "$or", &Parser::And); }
  Result<ExprPtr> And() { return Logical("AND", "$and", &Parser::Not); }

  Result<ExprPtr> Not() {
    if (IsWord("NOT")) {
      Nesting level(this);
      if (level.too_deep()) return TooDeep();
      size_t pos = Current().pos;
      Advance();
      LBT_ASSIGN_OR_RETURN(ExprPtr operand, Not());
      return Call("$not", pos, std::move(operand));
    }
    return Comparison();
  }

  // A comparison, IS test, [NOT] LIKE, [NOT] BETWEEN or [NOT] IN after a
  // bitwise-or operand, or that operand alone.
  Result<ExprPtr> Comparison() {
    LBT_ASSIGN_OR_RETURN(ExprPtr left, BitOr());
    const size_t pos = Current().pos;
    static const std::pair<const char*, const char*> kOps[] = {
        {"=", "$eq"}, {"!=", "$ne"}, {"<>", "$ne"}, {"<", "$lt"}, {"<=", "$le"}, {">", "$gt"}, {">=", "$ge"}};
    for (const auto& [op, name] : kOps) {
      if (AcceptOp(op)) {
        LBT_ASSIGN_OR_RETURN(ExprPtr right, BitOr());
        return Call(name, pos, std::move(left), std::move(right));
      }
    }
    if (AcceptWord("IS")) return IsTest(std::move(left), pos);
    const bool negated = IsWord("NOT") && (Upper(Ahead(1).text) == "LIKE" || Upper(Ahead(1).text) == "IN" ||
                                           Upper(Ahead(1).text) == "BETWEEN");
    if (negated) Advance();
    ExprPtr test;
    if (AcceptWord("LIKE")) {
      LBT_ASSIGN_OR_RETURN(ExprPtr pattern, BitOr());
      test = Call("$like", pos, std::move(left), std::move(pattern));
    } else if (AcceptWord("BETWEEN")) {
      LBT_ASSIGN_OR_RETURN(test, BetweenRest(std::move(left), pos));
    } else if (AcceptWord("IN")) {
      LBT_ASSIGN_OR_RETURN(test, InListRest(std::move(left), pos));
    } else {
      if (negated) return Unexpected();
      return left;
    }
    return negated ? Call("$not", pos, std::move(test)) : std::move(test);
  }

  // After `left IS`: [NOT] NULL, TRUE or FALSE.
  Result<ExprPtr> IsTest(ExprPtr left, size_t pos) {
    const bool negated = AcceptWord("NOT");
    std::string what;
    if (AcceptWord("NULL")) {
      what = "null";
    } else if (AcceptWord("TRUE")) {
      what = "true";
    } else if (AcceptWord("FALSE")) {
      what = "false";
    } else {
      return Error(Current().pos, "Expected NULL, TRUE or FALSE after IS");
    }
    return Call(std::string(negated ? "$isnot" : "$is") + what, pos, std::move(left));
  }

  // After `left BETWEEN`: low AND high.
  Result<ExprPtr> BetweenRest(ExprPtr left, size_t pos) {
    LBT_ASSIGN_OR_RETURN(ExprPtr low, BitOr());
    LBT_RETURN_IF_ERROR(ExpectWord("AND"));
    LBT_ASSIGN_OR_RETURN(ExprPtr high, BitOr());
    std::vector<ExprPtr> args;
    args.push_back(std::move(left));
    args.push_back(std::move(low));
    args.push_back(std::move(high));
    return Call("$between", pos, std::move(args));
  }

  // After `left IN`: a parenthesized list of expressions (no UNNEST, no
  // subquery, which Bigtable does not run).
  Result<ExprPtr> InListRest(ExprPtr left, size_t pos) {
    // `x IN UNNEST(array)`: x among the array's elements.
    if (AcceptWord("UNNEST")) {
      LBT_RETURN_IF_ERROR(ExpectOp("("));
      if (IsWord("SELECT")) return Unsupported("Subqueries");
      LBT_ASSIGN_OR_RETURN(ExprPtr array, Expression());
      LBT_RETURN_IF_ERROR(ExpectOp(")"));
      return Call("$in_array", pos, std::move(left), std::move(array));
    }
    LBT_RETURN_IF_ERROR(ExpectOp("("));
    if (IsWord("SELECT")) return Unsupported("Subqueries");
    std::vector<ExprPtr> args;
    args.push_back(std::move(left));
    do {
      LBT_ASSIGN_OR_RETURN(ExprPtr item, Expression());
      args.push_back(std::move(item));
    } while (AcceptOp(","));
    LBT_RETURN_IF_ERROR(ExpectOp(")"));
    return Call("$in", pos, std::move(args));
  }

  // One level of left-associative binary operators.
  Result<ExprPtr> Binary(Level next, std::initializer_list<std::pair<const char*, const char*>> ops) {
    LBT_ASSIGN_OR_RETURN(ExprPtr left, (this->*next)());
    while (true) {
      const char* name = nullptr;
      for (const auto& [op, n] : ops) {
        if (IsOp(op)) name = n;
      }
      if (name == nullptr) return left;
      size_t pos = Current().pos;
      Advance();
      LBT_ASSIGN_OR_RETURN(ExprPtr right, (this->*next)());
      left = Call(name, pos, std::move(left), std::move(right));
      LBT_RETURN_IF_ERROR(CheckHeight(*left));
    }
  }
  Result<ExprPtr> BitOr() { return Binary(&Parser::BitXor, {{"|", "$bitor"}}); }
  Result<ExprPtr> BitXor() { return Binary(&Parser::BitAnd, {{"^", "$bitxor"}}); }
  Result<ExprPtr> BitAnd() { return Binary(&Parser::Shift, {{"&", "$bitand"}}); }
  Result<ExprPtr> Shift() { return Binary(&Parser::Additive, {{"<<", "$shl"}, {">>", "$shr"}}); }
  Result<ExprPtr> Additive() { return Binary(&Parser::Multiplicative, {{"+", "$add"}, {"-", "$sub"}}); }
  Result<ExprPtr> Multiplicative() { return Binary(&Parser::Unary, {{"*", "$mul"}, {"/", "$div"}, {"||", "$concat"}}); }

  Result<ExprPtr> Unary() {
    const size_t pos = Current().pos;
    // Only the unary operators recurse here; what they apply to nests
    // through Expression, which counts itself.
    if (IsOp("-") || IsOp("+") || IsOp("~")) {
      Nesting level(this);
      if (level.too_deep()) return TooDeep();
      return UnaryOperator(pos);
    }
    LBT_ASSIGN_OR_RETURN(ExprPtr primary, Primary());
    return Postfix(std::move(primary));
  }

  Result<ExprPtr> UnaryOperator(size_t pos) {
    if (AcceptOp("-")) {
      // A negative literal stays a literal, so INT64's minimum parses.
      if (Current().kind == TokenKind::kInt || Current().kind == TokenKind::kFloat) {
        Token t = Current();
        t.text = "-" + t.text;
        t.pos = pos;
        Advance();
        LBT_ASSIGN_OR_RETURN(ExprPtr literal, NumberLiteral(t));
        return Postfix(std::move(literal));
      }
      LBT_ASSIGN_OR_RETURN(ExprPtr operand, Unary());
      return Call("$neg", pos, std::move(operand));
    }
    if (AcceptOp("+")) return Unary();
    AcceptOp("~");  // REQUIRES: Unary saw one of -, + and ~
    LBT_ASSIGN_OR_RETURN(ExprPtr operand, Unary());
    return Call("$bitnot", pos, std::move(operand));
  }

  Result<ExprPtr> Postfix(ExprPtr e) {
    while (true) {
      const size_t pos = Current().pos;
      if (AcceptOp("[")) {
        std::string mode = "key";
        bool wrapped = false;
        for (const char* m : {"OFFSET", "SAFE_OFFSET", "ORDINAL", "SAFE_ORDINAL"}) {
          if (IsWord(m) && Ahead(1).text == "(") {
            mode = Upper(m);
            Advance();
            Advance();
            wrapped = true;
            break;
          }
        }
        LBT_ASSIGN_OR_RETURN(ExprPtr index, Expression());
        if (wrapped) {
          LBT_RETURN_IF_ERROR(ExpectOp(")"));
        }
        LBT_RETURN_IF_ERROR(ExpectOp("]"));
        ExprPtr sub = Call("$subscript", pos, std::move(e), std::move(index));
        sub->literal = Value::String(mode);
        e = std::move(sub);
        LBT_RETURN_IF_ERROR(CheckHeight(*e));
      } else if (IsOp(".") && (Ahead(1).kind == TokenKind::kIdent || Ahead(1).kind == TokenKind::kQuotedIdent)) {
        Advance();
        ExprPtr field = Call("$field", pos, std::move(e));
        field->literal = Value::String(Current().text);
        Advance();
        e = std::move(field);
        LBT_RETURN_IF_ERROR(CheckHeight(*e));
      } else {
        return e;
      }
    }
  }

  Result<ExprPtr> NumberLiteral(const Token& t) {
    auto e = std::make_unique<Expr>();
    e->pos = t.pos;
    errno = 0;
    if (t.kind == TokenKind::kFloat) {
      e->literal = Value::Float64(std::strtod(t.text.c_str(), nullptr));
      return e;
    }
    const bool hex = t.text.find_first_of("xX") != std::string::npos;
    char* end = nullptr;
    long long v = std::strtoll(t.text.c_str(), &end, hex ? 16 : 10);
    if (errno == ERANGE) return Error(t.pos, fmt::format("Invalid integer literal: {}", t.text));
    e->literal = Value::Int64(v);
    return e;
  }

  Result<ExprPtr> Literal(Value v, size_t pos, bool coercible = false) {
    auto e = std::make_unique<Expr>();
    e->pos = pos;
    e->literal = std::move(v);
    e->coercible_literal = coercible;
    return e;
  }

  Result<ExprPtr> Primary() {
    const Token t = Current();
    switch (t.kind) {
      case TokenKind::kInt:
      case TokenKind::kFloat: Advance(); return NumberLiteral(t);
      case TokenKind::kString: Advance(); return Literal(Value::String(t.text), t.pos, true);
      case TokenKind::kBytes: Advance(); return Literal(Value::Bytes(t.text), t.pos);
      case TokenKind::kParam: {
        Advance();
        auto e = std::make_unique<Expr>();
        e->kind = ExprKind::kParameter;
        e->name = t.text;
        e->pos = t.pos;
        return e;
      }
      case TokenKind::kQuotedIdent: Advance(); return Column(t);
      case TokenKind::kOp:
        if (AcceptOp("(")) {
          if (IsWord("SELECT")) return Unsupported("Subqueries");
          LBT_ASSIGN_OR_RETURN(ExprPtr inner, Expression());
          LBT_RETURN_IF_ERROR(ExpectOp(")"));
          return inner;
        }
        if (IsOp("[")) return ArrayLiteral(t.pos);
        return Unexpected();
      case TokenKind::kEnd: return Unexpected();
      case TokenKind::kIdent: break;
    }
    return Word(t);
  }

  Result<ExprPtr> Word(const Token& t);

  static Result<ExprPtr> Column(const Token& t) {
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::kColumn;
    e->name = t.text;
    e->pos = t.pos;
    return e;
  }

  Result<ExprPtr> FunctionCall(const Token& t);

  // STRUCT(expr [AS name], ...): a STRUCT of the values, fields named by
  // their aliases (or a column's own name).
  Result<ExprPtr> StructConstructor(size_t pos);

  // `e -> body`, `(e) -> body` or `(e, i) -> body`, else an expression.
  Result<ExprPtr> LambdaOrExpression();

  Result<ExprPtr> ArrayLiteral(size_t pos) {
    LBT_RETURN_IF_ERROR(ExpectOp("["));
    std::vector<ExprPtr> items;
    if (!IsOp("]")) {
      do {
        LBT_ASSIGN_OR_RETURN(ExprPtr item, Expression());
        items.push_back(std::move(item));
      } while (AcceptOp(","));
    }
    LBT_RETURN_IF_ERROR(ExpectOp("]"));
    return Call("$array", pos, std::move(items));
  }

  Result<ExprPtr> Case() {
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::kCase;
    e->pos = Current().pos;
    Advance();
    if (!IsWord("WHEN")) {
      e->has_operand = true;
      LBT_ASSIGN_OR_RETURN(ExprPtr operand, Expression());
      e->args.push_back(std::move(operand));
    }
    if (!IsWord("WHEN")) return Error(Current().pos, "Expected WHEN in CASE");
    while (AcceptWord("WHEN")) {
      LBT_ASSIGN_OR_RETURN(ExprPtr when, Expression());
      LBT_RETURN_IF_ERROR(ExpectWord("THEN"));
      LBT_ASSIGN_OR_RETURN(ExprPtr then, Expression());
      e->args.push_back(std::move(when));
      e->args.push_back(std::move(then));
    }
    if (AcceptWord("ELSE")) {
      e->has_else = true;
      LBT_ASSIGN_OR_RETURN(ExprPtr otherwise, Expression());
      e->args.push_back(std::move(otherwise));
    }
    LBT_RETURN_IF_ERROR(ExpectWord("END"));
    SetHeight(e.get());
    return e;
  }

  Result<TypePtr> TypeName() {
    Nesting level(this);
    if (level.too_deep()) return TooDeep();
    const Token t = Current();
    if (t.kind != TokenKind::kIdent) return Error(t.pos, "Expected a type name");
    const std::string upper = Upper(t.text);
    Advance();
    static const std::pair<const char*, TypePtr (*)()> kScalars[] = {
        {"BYTES", Type::Bytes},         {"STRING", Type::String},   {"INT64", Type::Int64},
        {"FLOAT64", Type::Float64},     {"FLOAT32", Type::Float32}, {"BOOL", Type::Bool},
        {"TIMESTAMP", Type::Timestamp}, {"DATE", Type::Date},       {"GEOGRAPHY", Type::Geography}};
    for (const auto& [name, make] : kScalars) {
      if (upper == name) return make();
    }
    if (upper == "ARRAY") {
      LBT_RETURN_IF_ERROR(ExpectOp("<"));
      LBT_ASSIGN_OR_RETURN(TypePtr element, TypeName());
      LBT_RETURN_IF_ERROR(ExpectOp(">"));
      return Type::Array(element);
    }
    return Error(t.pos, fmt::format("Type not found: {}", t.text));
  }

  Result<ExprPtr> Cast(bool safe) {
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::kCast;
    e->safe = safe;
    e->pos = Current().pos;
    Advance();
    Advance();
    LBT_ASSIGN_OR_RETURN(ExprPtr operand, Expression());
    e->args.push_back(std::move(operand));
    LBT_RETURN_IF_ERROR(ExpectWord("AS"));
    if (Current().kind == TokenKind::kIdent && Ahead(1).kind == TokenKind::kOp && Ahead(1).text == ".") {
      // A schema bundle's message type: bundle.pkg.Message.
      e->name = Current().text;
      Advance();
      while (IsOp(".") && Ahead(1).kind == TokenKind::kIdent) {
        Advance();
        e->name += "." + Current().text;
        Advance();
      }
    } else {
      LBT_ASSIGN_OR_RETURN(e->cast_type, TypeName());
    }
    LBT_RETURN_IF_ERROR(ExpectOp(")"));
    SetHeight(e.get());
    return e;
  }

  Result<ExprPtr> Extract() {
    const size_t pos = Current().pos;
    Advance();
    Advance();
    if (Current().kind != TokenKind::kIdent) return Error(Current().pos, "Expected a date part in EXTRACT");
    LBT_ASSIGN_OR_RETURN(ExprPtr part, Literal(Value::String(Upper(Current().text)), Current().pos));
    Advance();
    LBT_RETURN_IF_ERROR(ExpectWord("FROM"));
    LBT_ASSIGN_OR_RETURN(ExprPtr operand, Expression());
    LBT_RETURN_IF_ERROR(ExpectOp(")"));
    return Call("EXTRACT", pos, std::move(part), std::move(operand));
  }

  Result<ExprPtr> Interval() {
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::kInterval;
    e->pos = Current().pos;
    Advance();
    LBT_ASSIGN_OR_RETURN(ExprPtr amount, Additive());
    e->args.push_back(std::move(amount));
    if (Current().kind != TokenKind::kIdent) return Error(Current().pos, "Expected a date part after INTERVAL");
    e->name = Upper(Current().text);
    Advance();
    SetHeight(e.get());
    return e;
  }

  // ---- pipe syntax (parser_pipes.cc) ----
  // A query that starts with FROM: `SELECT *` of it.
  Result<std::unique_ptr<Select>> FromQuery();
  // One pipe operator after `|>` applied to `select`: merged into it where
  // that gives the same rows, else a new stage reading it.
  Result<std::unique_ptr<Select>> Pipe(std::unique_ptr<Select> select);
  Result<std::unique_ptr<Select>> PipeAggregate(std::unique_ptr<Select> select);
  Result<std::optional<OrderItem>> PipeDirection(const SelectItem& item, bool always);
  Result<std::unique_ptr<Select>> PipeColumns(std::unique_ptr<Select> select, size_t pos);
  // A new stage reading `input`'s result: `SELECT * FROM (input)`.
  Result<std::unique_ptr<Select>> NewStage(std::unique_ptr<Select> input, size_t pos);
  // `item [AS alias], ...`, as in a select list.
  // A SELECT or EXTEND (`op`) list computes per row: no aggregates.
  Result<std::vector<SelectItem>> ItemList(const char* op);
  Result<std::string> ColumnName(const char* what);

  // ---- window function calls (parser_windows.cc) ----
  // After OVER: `name` or `([name] [PARTITION BY ...] [ORDER BY ...] [frame])`.
  Result<std::shared_ptr<const WindowSpec>> OverClause();
  // The parenthesized specification, with the parentheses.
  Result<std::shared_ptr<const WindowSpec>> WindowSpecification();
  // `ROWS|RANGE ...`, at either word.
  Result<std::shared_ptr<const WindowFrame>> Frame();
  Result<FrameBound> Bound();
  // After WINDOW: `name AS (spec) [, ...]`.
  Status WindowClause(Select* select);

  std::string_view text_;
  std::vector<Token> tokens_;
  size_t index_ = 0;
  int depth_ = 0;
  int pipe_stages_ = 0;
};

}  // namespace lbt::sql::parsing

#endif  // LBT_SQL_PARSER_INTERNAL_H_
