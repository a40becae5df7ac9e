#include "sql/expr_text.h"

#include <fmt/format.h>

#include "sql/prepared_query.h"

namespace lbt::sql {

namespace {

// A value as EXPLAIN writes a literal: quoted text, b'bytes', TIMESTAMP
// '...', [arrays], NULL.
std::string ValueLiteralText(const Value& v) {
  if (v.is_null()) return "NULL";
  switch (v.kind()) {
    case TypeKind::kString: return QuotedText(v.str());
    case TypeKind::kBytes: return fmt::format("b{}", QuotedText(v.str()));
    case TypeKind::kTimestamp: return fmt::format("TIMESTAMP {}", QuotedText(v.ToText()));
    case TypeKind::kDate: return fmt::format("DATE {}", QuotedText(v.ToText()));
    case TypeKind::kArray: {
      std::string out = "[";
      for (size_t i = 0; i < v.elements().size(); ++i) out += (i ? ", " : "") + ValueLiteralText(v.elements()[i]);
      return out + "]";
    }
    default: return v.ToText();
  }
}

// Operators written between their operands.
const char* InfixOperator(const std::string& name) {
  static const std::pair<const char*, const char*> kInfix[] = {
      {"$add", "+"},  {"$sub", "-"},     {"$mul", "*"},   {"$div", "/"},    {"$concat", "||"},
      {"$eq", "="},   {"$ne", "!="},     {"$lt", "<"},    {"$le", "<="},    {"$gt", ">"},
      {"$ge", ">="},  {"$bitand", "&"},  {"$bitor", "|"}, {"$bitxor", "^"}, {"$shl", "<<"},
      {"$shr", ">>"}, {"$like", "LIKE"}, {"$and", "AND"}, {"$or", "OR"}};
  for (const auto& [op, text] : kInfix) {
    if (name == op) return text;
  }
  return nullptr;
}

// `x IS [NOT] NULL | TRUE | FALSE`'s words after IS, or nullptr.
const char* IsTest(const std::string& name) {
  static const std::pair<const char*, const char*> kTests[] = {{"$isnull", "NULL"},   {"$isnotnull", "NOT NULL"},
                                                               {"$istrue", "TRUE"},   {"$isnottrue", "NOT TRUE"},
                                                               {"$isfalse", "FALSE"}, {"$isnotfalse", "NOT FALSE"}};
  for (const auto& [op, text] : kTests) {
    if (name == op) return text;
  }
  return nullptr;
}

// Whether `e` reads as an operator expression, which needs parentheses as
// an operand.
bool IsOperator(const Expr& e) {
  if (e.kind != ExprKind::kCall) return false;
  return e.name.starts_with("$") && e.name != "$subscript" && e.name != "$field" && e.name != "$array";
}

class Writer {
 public:
  Writer(const std::vector<std::string>& slot_names, const std::vector<std::string>& window_names)
      : slot_names_(slot_names), window_names_(window_names) {}

  std::string Text(const Expr& e) const {
    switch (e.kind) {
      case ExprKind::kLiteral: return Literal(e.literal);
      case ExprKind::kParameter:
        if (IsViewParameterKey(e.name)) {
          return fmt::format("VIEW_PARAMETERS({})", QuotedText(e.name.substr(kViewParameterPrefix.size())));
        }
        return fmt::format("@{}", e.name);
      case ExprKind::kColumn: return e.name;
      case ExprKind::kSlot: return SlotName(e.slot);
      case ExprKind::kStar: return "*";
      case ExprKind::kInterval: return fmt::format("INTERVAL {} {}", Text(*e.args[0]), e.name);
      case ExprKind::kCast:
        return fmt::format("{}({} AS {})", e.safe ? "SAFE_CAST" : "CAST", Text(*e.args[0]),
                           e.cast_type != nullptr ? e.cast_type->ToString() : e.name);
      case ExprKind::kCase: return Case(e);
      case ExprKind::kCall: return Call(e);
      case ExprKind::kLambdaParam: return e.name;
      case ExprKind::kLambda: {
        std::string params;
        for (const std::string& p : e.lambda_params) params += (params.empty() ? "" : ", ") + p;
        return fmt::format("{} -> {}", e.lambda_params.size() == 1 ? params : "(" + params + ")", Text(*e.args[0]));
      }
      case ExprKind::kWindowResult:
        if (e.slot >= 0 && static_cast<size_t>(e.slot) < window_names_.size()) return window_names_[e.slot];
        return fmt::format("$window{}", e.slot);
    }
    return "?";
  }

 private:
  static std::string Literal(const Value& v) { return ValueLiteralText(v); }

  std::string SlotName(int slot) const {
    if (slot >= 0 && static_cast<size_t>(slot) < slot_names_.size()) return slot_names_[static_cast<size_t>(slot)];
    return fmt::format("${}", slot);
  }

  std::string Operand(const Expr& e) const { return IsOperator(e) ? fmt::format("({})", Text(e)) : Text(e); }

  std::string List(const std::vector<ExprPtr>& args, size_t from) const {
    std::string out;
    for (size_t i = from; i < args.size(); ++i) {
      if (i > from) out += ", ";
      out += Text(*args[i]);
    }
    return out;
  }

  std::string Call(const Expr& e) const {
    if (const char* op = InfixOperator(e.name)) {
      std::string out;
      for (size_t i = 0; i < e.args.size(); ++i) {
        if (i > 0) out += fmt::format(" {} ", op);
        out += Operand(*e.args[i]);
      }
      return out;
    }
    if (const char* test = IsTest(e.name)) return fmt::format("{} IS {}", Operand(*e.args[0]), test);
    if (e.name == "$neg") return fmt::format("-{}", Operand(*e.args[0]));
    if (e.name == "$bitnot") return fmt::format("~{}", Operand(*e.args[0]));
    if (e.name == "$not") return fmt::format("NOT {}", Operand(*e.args[0]));
    if (e.name == "$between") {
      return fmt::format("{} BETWEEN {} AND {}", Operand(*e.args[0]), Operand(*e.args[1]), Operand(*e.args[2]));
    }
    if (e.name == "$in") return fmt::format("{} IN ({})", Operand(*e.args[0]), List(e.args, 1));
    if (e.name == "$in_array") return fmt::format("{} IN UNNEST({})", Operand(*e.args[0]), Text(*e.args[1]));
    if (e.name == "$array") return fmt::format("[{}]", List(e.args, 0));
    if (e.name == "$struct") {
      std::string out;
      for (size_t i = 0; i < e.args.size(); ++i) {
        out += (i ? ", " : "") + Text(*e.args[i]);
        if (i < e.field_names.size() && !e.field_names[i].empty()) out += " AS " + e.field_names[i];
      }
      return "STRUCT(" + out + ")";
    }
    if (e.name == "$field") return fmt::format("{}.{}", Operand(*e.args[0]), e.literal.str());
    if (e.name == "$subscript") return Subscript(e);
    if (!e.arg_names.empty()) {
      std::string args;
      for (size_t i = 0; i < e.args.size(); ++i) {
        args += (i ? ", " : "") + (e.arg_names[i].empty() ? "" : e.arg_names[i] + " => ") + Text(*e.args[i]);
      }
      return fmt::format("{}{}({})", e.safe ? "SAFE." : "", e.name, args);
    }
    return fmt::format("{}{}({})", e.safe ? "SAFE." : "", e.name, List(e.args, 0));
  }

  // map[key], or array[OFFSET(n)] and kin.
  std::string Subscript(const Expr& e) const {
    const std::string& mode = e.literal.str();
    const std::string index = Text(*e.args[1]);
    if (mode == "key") return fmt::format("{}[{}]", Operand(*e.args[0]), index);
    return fmt::format("{}[{}({})]", Operand(*e.args[0]), mode, index);
  }

  std::string Case(const Expr& e) const {
    std::string out = "CASE";
    size_t i = 0;
    if (e.has_operand) out += fmt::format(" {}", Text(*e.args[i++]));
    const size_t pairs_end = e.args.size() - (e.has_else ? 1 : 0);
    for (; i + 1 < pairs_end; i += 2) out += fmt::format(" WHEN {} THEN {}", Text(*e.args[i]), Text(*e.args[i + 1]));
    if (e.has_else) out += fmt::format(" ELSE {}", Text(*e.args.back()));
    return out + " END";
  }

  const std::vector<std::string>& slot_names_;
  const std::vector<std::string>& window_names_;
};

}  // namespace

std::string ExprText(const Expr& e, const std::vector<std::string>& slot_names,
                     const std::vector<std::string>& window_names) {
  return Writer(slot_names, window_names).Text(e);
}

std::string QuotedText(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

}  // namespace lbt::sql
