// Comparison operators = != < <= > >=, BETWEEN, IN and LIKE.

#include <fmt/format.h>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

// ---- = != < <= > >= ----

// Numbers compare across INT64 and FLOAT; other types with themselves, by
// order, or, for arrays and structs, by equality.
Result<TypePtr> ComparableCheck(const Types& a) {
  if (a.size() != 2) return ArgError("comparison", a);
  if (a[0]->IsNumeric() && a[1]->IsNumeric()) return Type::Bool();
  if (!SameType(a[0], a[1]) || !a[0]->IsOrderable()) {
    if (SameType(a[0], a[1]) && a[0]->kind != TypeKind::kMap) return Type::Bool();
    return Status::InvalidArgument(fmt::format("No matching signature for operator: cannot compare {} with {}",
                                               a[0]->ToString(), a[1]->ToString()));
  }
  return Type::Bool();
}
Result<Value> EqualEval(const Values& a, const EvalContext&) { return Value::Bool(Compare(a[0], a[1]) == 0); }
Result<Value> NotEqualEval(const Values& a, const EvalContext&) { return Value::Bool(Compare(a[0], a[1]) != 0); }
Result<Value> LessEval(const Values& a, const EvalContext&) { return Value::Bool(Compare(a[0], a[1]) < 0); }
Result<Value> LessOrEqualEval(const Values& a, const EvalContext&) { return Value::Bool(Compare(a[0], a[1]) <= 0); }
Result<Value> GreaterEval(const Values& a, const EvalContext&) { return Value::Bool(Compare(a[0], a[1]) > 0); }
Result<Value> GreaterOrEqualEval(const Values& a, const EvalContext&) { return Value::Bool(Compare(a[0], a[1]) >= 0); }

// ---- BETWEEN ----

Result<TypePtr> BetweenCheck(const Types& a) {
  if (a.size() != 3) return ArgError("BETWEEN", a);
  for (size_t i = 1; i < 3; ++i) LBT_RETURN_IF_ERROR(ComparableCheck({a[0], a[i]}).status());
  return Type::Bool();
}
Result<Value> BetweenEval(const Values& a, const EvalContext&) {
  return Value::Bool(Compare(a[0], a[1]) >= 0 && Compare(a[0], a[2]) <= 0);
}

// ---- IN ----

Result<TypePtr> InCheck(const Types& a) {
  if (a.size() < 2) return ArgError("IN", a);
  for (size_t i = 1; i < a.size(); ++i) LBT_RETURN_IF_ERROR(ComparableCheck({a[0], a[i]}).status());
  return Type::Bool();
}
// x IN (...): TRUE if found; else NULL if x or any item is NULL; else FALSE.
// (The evaluator searches long constant lists itself, sorted once.)
Result<Value> InEval(const Values& a, const EvalContext&) {
  if (a[0].is_null()) return Value::Null(Type::Bool());
  bool saw_null = false;
  for (size_t i = 1; i < a.size(); ++i) {
    if (a[i].is_null()) {
      saw_null = true;
    } else if (Compare(a[0], a[i]) == 0) {
      return Value::Bool(true);
    }
  }
  return saw_null ? Value::Null(Type::Bool()) : Value::Bool(false);
}

// ---- x IN UNNEST(array): an empty or NULL array holds nothing ----

Result<TypePtr> InArrayCheck(const Types& a) {
  if (a.size() != 2 || !Is(a[1], TypeKind::kArray) ||
      !(SameType(a[0], a[1]->element) || (a[0]->IsNumeric() && a[1]->element->IsNumeric())) || !a[0]->IsOrderable()) {
    return ArgError("IN UNNEST", a);
  }
  return Type::Bool();
}
Result<Value> InArrayEval(const Values& a, const EvalContext&) {
  if (a[1].is_null() || a[1].elements().empty()) return Value::Bool(false);
  if (a[0].is_null()) return Value::Null(Type::Bool());
  bool saw_null = false;
  for (const Value& e : a[1].elements()) {
    if (e.is_null()) {
      saw_null = true;
    } else if (Compare(a[0], e) == 0) {
      return Value::Bool(true);
    }
  }
  return saw_null ? Value::Null(Type::Bool()) : Value::Bool(false);
}

// ---- LIKE ----

Result<TypePtr> LikeCheck(const Types& a) {
  if (a.size() != 2 || !IsText(a[0]) || !SameType(a[0], a[1])) return ArgError("LIKE", a);
  return Type::Bool();
}
Result<Value> LikeEval(const Values& a, const EvalContext&) {
  return Value::Bool(Like(a[0].str(), a[1].str(), Utf8(a[0])));
}

}  // namespace

bool Like(std::string_view text, std::string_view pattern, bool utf8) {
  auto t = Chars(text, utf8);
  auto p = Chars(pattern, utf8);
  // Iterative matching with backtracking to the last %.
  size_t ti = 0, pi = 0, star = std::string_view::npos, mark = 0;
  while (ti < t.size()) {
    if (pi < p.size() && p[pi] == "\\" && pi + 1 < p.size()) {
      if (p[pi + 1] == t[ti]) {
        pi += 2;
        ++ti;
        continue;
      }
    } else if (pi < p.size() && (p[pi] == "_" || (p[pi] != "%" && p[pi] == t[ti]))) {
      ++pi;
      ++ti;
      continue;
    } else if (pi < p.size() && p[pi] == "%") {
      star = pi++;
      mark = ti;
      continue;
    }
    if (star == std::string_view::npos) return false;
    pi = star + 1;
    ti = ++mark;
  }
  while (pi < p.size() && p[pi] == "%") ++pi;
  return pi == p.size();
}

void RegisterComparisonFunctions(FunctionRegistry* registry) {
  registry->Add("$eq", ComparableCheck, EqualEval);
  registry->Add("$ne", ComparableCheck, NotEqualEval);
  registry->Add("$lt", ComparableCheck, LessEval);
  registry->Add("$le", ComparableCheck, LessOrEqualEval);
  registry->Add("$gt", ComparableCheck, GreaterEval);
  registry->Add("$ge", ComparableCheck, GreaterOrEqualEval);
  registry->Add("$between", BetweenCheck, BetweenEval);
  registry->Add("$in", InCheck, InEval, FunctionRegistry::Nulls::kWithNulls);
  registry->Add("$in_array", InArrayCheck, InArrayEval, FunctionRegistry::Nulls::kWithNulls);
  registry->Add("$like", LikeCheck, LikeEval);
}

}  // namespace lbt::sql
