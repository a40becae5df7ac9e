#include "sql/parser.h"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>

#include "sql/lexer.h"
#include "sql/parser_internal.h"

namespace lbt::sql {

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
