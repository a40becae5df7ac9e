// Searching and cutting ARRAYs, as GoogleSQL for Bigtable's array functions
// page gives them: ARRAY_INCLUDES, ARRAY_INCLUDES_ALL, ARRAY_INCLUDES_ANY,
// ARRAY_IS_DISTINCT, ARRAY_OFFSET, ARRAY_OFFSETS and ARRAY_LAST_N, and the
// aggregate ARRAY_CONCAT_AGG. Elements compare as `=` does: a NULL element
// equals nothing (ARRAY_IS_DISTINCT, which groups, counts NULLs as equal).
// The lambda forms (ARRAY_INCLUDES(a, e -> ...), ARRAY_FILTER,
// ARRAY_TRANSFORM) are the evaluator's (sql/evaluator.cc).

#include <fmt/format.h>

#include <unordered_set>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

bool Equal(const Value& a, const Value& b) { return !a.is_null() && !b.is_null() && Compare(a, b) == 0; }

bool Contains(const Values& elements, const Value& target) {
  for (const Value& e : elements) {
    if (Equal(e, target)) return true;
  }
  return false;
}

// An array and a value of its element type (numbers compare across kinds).
bool ArrayAndElement(const Types& a) {
  return a.size() >= 2 && Is(a[0], TypeKind::kArray) &&
         (SameType(a[0]->element, a[1]) || (a[0]->element->IsNumeric() && a[1]->IsNumeric())) && a[1]->IsOrderable();
}

// ---- ARRAY_INCLUDES(array, value) ----

Result<TypePtr> IncludesCheck(const Types& a) {
  if (a.size() != 2 || !ArrayAndElement(a)) return ArgError("ARRAY_INCLUDES", a);
  return Type::Bool();
}
Result<Value> IncludesEval(const Values& a, const EvalContext&) { return Value::Bool(Contains(a[0].elements(), a[1])); }

// ---- ARRAY_INCLUDES_ALL, ARRAY_INCLUDES_ANY(array, values) ----

Result<TypePtr> IncludesSetCheck(const Types& a) {
  if (a.size() != 2 || !Is(a[0], TypeKind::kArray) || !Is(a[1], TypeKind::kArray) ||
      !(SameType(a[0], a[1]) || (a[0]->element->IsNumeric() && a[1]->element->IsNumeric())) ||
      !a[0]->element->IsOrderable()) {
    return ArgError("ARRAY_INCLUDES_ALL", a);
  }
  return Type::Bool();
}
template <bool kAll>
Result<Value> IncludesSetEval(const Values& a, const EvalContext&) {
  for (const Value& v : a[1].elements()) {
    const bool found = Contains(a[0].elements(), v);
    if (kAll && !found) return Value::Bool(false);
    if (!kAll && found) return Value::Bool(true);
  }
  return Value::Bool(kAll);
}

// ---- ARRAY_IS_DISTINCT(array) ----

Result<TypePtr> IsDistinctCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kArray) || !a[0]->element->IsOrderable()) {
    return ArgError("ARRAY_IS_DISTINCT", a);
  }
  return Type::Bool();
}
Result<Value> IsDistinctEval(const Values& a, const EvalContext&) {
  struct HashOf {
    size_t operator()(const Value& v) const { return Hash(v); }
  };
  struct EqualOf {
    bool operator()(const Value& x, const Value& y) const { return GroupEqual(x, y); }
  };
  std::unordered_set<Value, HashOf, EqualOf> seen;
  for (const Value& v : a[0].elements()) {
    if (!seen.insert(v).second) return Value::Bool(false);
  }
  return Value::Bool(true);
}

// ---- ARRAY_OFFSET(array, value [, FIRST | LAST]), ARRAY_OFFSETS(array, value) ----

Result<TypePtr> OffsetCheck(const Types& a) {
  if ((a.size() != 2 && a.size() != 3) || !ArrayAndElement(a) || (a.size() == 3 && !Is(a[2], TypeKind::kString))) {
    return ArgError("ARRAY_OFFSET", a);
  }
  return Type::Int64();
}
Result<Value> OffsetEval(const Values& a, const EvalContext&) {
  const std::string mode = a.size() == 3 ? a[2].str() : "FIRST";
  if (mode != "FIRST" && mode != "LAST") {
    return Status::OutOfRange(fmt::format("ARRAY_OFFSET's mode is FIRST or LAST, not {}", mode));
  }
  const Values& e = a[0].elements();
  for (size_t k = 0; k < e.size(); ++k) {
    const size_t i = mode == "FIRST" ? k : e.size() - 1 - k;
    if (Equal(e[i], a[1])) return Value::Int64(static_cast<int64_t>(i));
  }
  return Value::Null(Type::Int64());
}

Result<TypePtr> OffsetsCheck(const Types& a) {
  if (a.size() != 2 || !ArrayAndElement(a)) return ArgError("ARRAY_OFFSETS", a);
  return Type::Array(Type::Int64());
}
Result<Value> OffsetsEval(const Values& a, const EvalContext&) {
  Values out;
  const Values& e = a[0].elements();
  for (size_t i = 0; i < e.size(); ++i) {
    if (Equal(e[i], a[1])) out.push_back(Value::Int64(static_cast<int64_t>(i)));
  }
  return Value::Array(Type::Array(Type::Int64()), std::move(out));
}

// ---- ARRAY_LAST_N(array, n) ----

Result<TypePtr> LastNCheck(const Types& a) {
  if (a.size() != 2 || !Is(a[0], TypeKind::kArray) || !Is(a[1], TypeKind::kInt64)) return ArgError("ARRAY_LAST_N", a);
  return a[0];
}
Result<Value> LastNEval(const Values& a, const EvalContext&) {
  if (a[1].int64() < 0) return Status::OutOfRange("ARRAY_LAST_N's n must not be negative");
  const Values& e = a[0].elements();
  const size_t n = std::min<size_t>(e.size(), static_cast<size_t>(a[1].int64()));
  return Value::Array(a[0].type(), Values(e.end() - static_cast<std::ptrdiff_t>(n), e.end()));
}

// ---- ARRAY_CONCAT_AGG(array): the group's arrays end to end; NULLs pass ----

class ConcatAggAccumulator final : public Accumulator {
 public:
  explicit ConcatAggAccumulator(TypePtr result) : result_(std::move(result)) {}
  Status Add(const Values& a) override {
    if (a[0].is_null()) return Status::OK();
    bytes_ += static_cast<double>(ValueBytes(a[0]));
    LBT_RETURN_IF_ERROR(CheckComputedBytes(bytes_, "ARRAY_CONCAT_AGG's result"));
    any_ = true;
    values_.insert(values_.end(), a[0].elements().begin(), a[0].elements().end());
    return Status::OK();
  }
  Value Finish() const override { return any_ ? Value::Array(result_, values_) : Value::Null(result_); }

 private:
  TypePtr result_;
  Values values_;
  double bytes_ = 0;
  bool any_ = false;
};
Result<TypePtr> ConcatAggCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kArray)) return ArgError("ARRAY_CONCAT_AGG", a);
  return a[0];
}
std::unique_ptr<Accumulator> CreateConcatAgg(const TypePtr& result, const Types&) {
  return std::make_unique<ConcatAggAccumulator>(result);
}

}  // namespace

void RegisterArraySearchFunctions(FunctionRegistry* registry) {
  registry->Add("ARRAY_INCLUDES", IncludesCheck, IncludesEval);
  registry->Add("ARRAY_INCLUDES_ALL", IncludesSetCheck, IncludesSetEval<true>);
  registry->Add("ARRAY_INCLUDES_ANY", IncludesSetCheck, IncludesSetEval<false>);
  registry->Add("ARRAY_IS_DISTINCT", IsDistinctCheck, IsDistinctEval);
  registry->Add("ARRAY_OFFSET", OffsetCheck, OffsetEval);
  registry->Add("ARRAY_OFFSETS", OffsetsCheck, OffsetsEval);
  registry->Add("ARRAY_LAST_N", LastNCheck, LastNEval);
  registry->AddAggregate("ARRAY_CONCAT_AGG", ConcatAggCheck, CreateConcatAgg);
}

}  // namespace lbt::sql
