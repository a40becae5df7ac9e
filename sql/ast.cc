#include "sql/ast.h"

#include <fmt/format.h>

namespace lbt::sql {

ExprPtr Expr::Clone() const {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->pos = pos;
  e->name = name;
  for (const ExprPtr& a : args) e->args.push_back(a->Clone());
  e->literal = literal;
  e->coercible_literal = coercible_literal;
  e->cast_type = cast_type;
  e->proto = proto;
  e->safe = safe;
  e->has_operand = has_operand;
  e->has_else = has_else;
  e->distinct = distinct;
  e->nulls = nulls;
  e->window = window;
  e->lambda_params = lambda_params;
  e->field_names = field_names;
  e->arg_names = arg_names;
  e->height = height;
  e->type = type;
  e->slot = slot;
  e->function = function;
  return e;
}

namespace {

std::string UnparseBound(const FrameBound& b) {
  switch (b.kind) {
    case FrameBound::Kind::kUnboundedPreceding: return "UNBOUNDED PRECEDING";
    case FrameBound::Kind::kPreceding: return Unparse(*b.offset) + " PRECEDING";
    case FrameBound::Kind::kCurrentRow: return "CURRENT ROW";
    case FrameBound::Kind::kFollowing: return Unparse(*b.offset) + " FOLLOWING";
    case FrameBound::Kind::kUnboundedFollowing: return "UNBOUNDED FOLLOWING";
  }
  return "";
}

}  // namespace

std::string UnparseWindow(const WindowSpec& w) {
  std::string out = w.base;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : " ") + part; };
  for (size_t i = 0; i < w.partition_by.size(); ++i) {
    add((i ? ", " : "PARTITION BY ") + Unparse(*w.partition_by[i]));
  }
  for (size_t i = 0; i < w.order_by.size(); ++i) {
    const OrderItem& o = w.order_by[i];
    std::string item = (i ? ", " : "ORDER BY ") + Unparse(*o.expr) + (o.descending ? " DESC" : "");
    if (o.nulls_first) item += *o.nulls_first ? " NULLS FIRST" : " NULLS LAST";
    add(item);
  }
  if (w.frame) {
    add(fmt::format("{} BETWEEN {} AND {}", w.frame->rows ? "ROWS" : "RANGE", UnparseBound(w.frame->start),
                    UnparseBound(w.frame->end)));
  }
  return out;
}

std::string Unparse(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kLiteral:
      if (e.literal.is_null()) return "NULL";
      if (e.literal.kind() == TypeKind::kString) return "'" + e.literal.str() + "'";
      if (e.literal.kind() == TypeKind::kBytes) return "b'" + e.literal.str() + "'";
      return e.literal.ToText();
    case ExprKind::kParameter: return "@" + e.name;
    case ExprKind::kColumn: return e.name;
    case ExprKind::kStar: return "*";
    case ExprKind::kSlot: return fmt::format("${}", e.slot);
    case ExprKind::kWindowResult: return fmt::format("$window{}", e.slot);
    case ExprKind::kLambdaParam: return fmt::format("$lambda{}", e.slot);
    case ExprKind::kLambda: {
      std::string params;
      for (const std::string& p : e.lambda_params) params += (params.empty() ? "" : ", ") + p;
      return "(" + params + ") -> " + Unparse(*e.args[0]);
    }
    case ExprKind::kInterval: return "INTERVAL " + Unparse(*e.args[0]) + " " + e.name;
    case ExprKind::kCast:
      return fmt::format("{}({} AS {})", e.safe ? "SAFE_CAST" : "CAST", Unparse(*e.args[0]),
                         e.cast_type != nullptr ? e.cast_type->ToString() : e.name);
    case ExprKind::kCase: {
      std::string out = "CASE";
      for (const ExprPtr& a : e.args) out += " " + Unparse(*a);
      return out + " END";
    }
    case ExprKind::kCall: break;
  }
  std::string out = (e.safe ? "SAFE." : "") + e.name + (e.distinct ? "(DISTINCT " : "(");
  for (size_t i = 0; i < e.args.size(); ++i) out += (i ? ", " : "") + Unparse(*e.args[i]);
  out += ")";
  if (e.name == "$subscript" || e.name == "$field") out += "." + e.literal.ToText();
  if (e.nulls != NullsMode::kDefault)
    out.insert(out.size() - 1, e.nulls == NullsMode::kIgnore ? " IGNORE NULLS" : " RESPECT NULLS");
  if (e.window) out += " OVER (" + UnparseWindow(*e.window) + ")";
  return out;
}

}  // namespace lbt::sql
