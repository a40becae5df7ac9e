// Functions of ARRAYs: ARRAY_LENGTH, ARRAY_FIRST, ARRAY_LAST,
// ARRAY_REVERSE, ARRAY_SLICE, ARRAY_TO_STRING, ARRAY_CONCAT and
// GENERATE_ARRAY. (Array literals and subscripts are the binder's and the
// evaluator's; || is with CONCAT.)

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

bool OneArray(const Types& a) { return a.size() == 1 && Is(a[0], TypeKind::kArray); }

// ---- ARRAY_LENGTH ----

Result<TypePtr> ArrayLengthCheck(const Types& a) {
  if (!OneArray(a)) return ArgError("ARRAY_LENGTH", a);
  return Type::Int64();
}
Result<Value> ArrayLengthEval(const Values& a, const EvalContext&) {
  return Value::Int64(static_cast<int64_t>(a[0].elements().size()));
}

// ---- ARRAY_FIRST, ARRAY_LAST: an error for an empty array ----

Result<TypePtr> ArrayEndCheck(const Types& a) {
  if (!OneArray(a)) return ArgError("ARRAY_FIRST", a);
  return a[0]->element;
}
template <bool kFirst>
Result<Value> ArrayEndEval(const Values& a, const EvalContext&) {
  if (a[0].elements().empty()) {
    return Status::OutOfRange(fmt::format("{} of an empty array", kFirst ? "ARRAY_FIRST" : "ARRAY_LAST"));
  }
  return kFirst ? a[0].elements().front() : a[0].elements().back();
}

// ---- ARRAY_REVERSE ----

Result<TypePtr> ArrayReverseCheck(const Types& a) {
  if (a.empty() || !Is(a[0], TypeKind::kArray)) return ArgError("ARRAY_REVERSE", a);
  return a[0];
}
Result<Value> ArrayReverseEval(const Values& a, const EvalContext&) {
  Values out(a[0].elements().rbegin(), a[0].elements().rend());
  return Value::Array(a[0].type(), std::move(out));
}

// ---- ARRAY_SLICE(array, start, end): zero-based offsets, both inclusive;
// negative offsets count from the end ----

Result<TypePtr> ArraySliceCheck(const Types& a) {
  if (a.size() != 3 || !Is(a[0], TypeKind::kArray) || !Is(a[1], TypeKind::kInt64) || !Is(a[2], TypeKind::kInt64)) {
    return ArgError("ARRAY_SLICE", a);
  }
  return a[0];
}
Result<Value> ArraySliceEval(const Values& a, const EvalContext&) {
  const int64_t n = static_cast<int64_t>(a[0].elements().size());
  auto place = [&](int64_t i) { return i < 0 ? n + i : i; };
  int64_t start = std::max<int64_t>(0, place(a[1].int64()));
  int64_t end = std::min<int64_t>(n - 1, place(a[2].int64()));
  Values out;
  for (int64_t i = start; i <= end; ++i) out.push_back(a[0].elements()[static_cast<size_t>(i)]);
  return Value::Array(a[0].type(), std::move(out));
}

// ---- ARRAY_TO_STRING(array, delimiter [, null_text]): NULLs left out
// unless null_text is given ----

Result<TypePtr> ArrayToStringCheck(const Types& a) {
  if (a.size() < 2 || a.size() > 3 || !Is(a[0], TypeKind::kArray) || !IsText(a[0]->element) ||
      !SameType(a[0]->element, a[1]) || (a.size() == 3 && !SameType(a[1], a[2]))) {
    return ArgError("ARRAY_TO_STRING", a);
  }
  return a[1];
}
Result<Value> ArrayToStringEval(const Values& a, const EvalContext&) {
  double total = 0;
  for (const Value& e : a[0].elements()) {
    total += static_cast<double>((e.is_null() ? (a.size() < 3 ? 0 : a[2].str().size()) : e.str().size()) +
                                 a[1].str().size());
  }
  LBT_RETURN_IF_ERROR(CheckComputedBytes(total, "ARRAY_TO_STRING's result"));
  std::string out;
  bool first = true;
  for (const Value& e : a[0].elements()) {
    if (e.is_null() && a.size() < 3) continue;
    if (!first) out += a[1].str();
    out += e.is_null() ? a[2].str() : e.str();
    first = false;
  }
  return SameKind(a[1], std::move(out));
}

// ---- ARRAY_CONCAT(array, ...): one array of the same element type ----

Result<TypePtr> ArrayConcatCheck(const Types& a) {
  if (a.empty() || !Is(a[0], TypeKind::kArray)) return ArgError("ARRAY_CONCAT", a);
  for (const TypePtr& t : a) {
    if (!SameType(t, a[0])) return ArgError("ARRAY_CONCAT", a);
  }
  return a[0];
}
Result<Value> ArrayConcatEval(const Values& a, const EvalContext&) {
  double bytes = 0;
  for (const Value& v : a) bytes += static_cast<double>(ValueBytes(v));
  LBT_RETURN_IF_ERROR(CheckComputedBytes(bytes, "ARRAY_CONCAT's result"));
  Values out;
  for (const Value& v : a) out.insert(out.end(), v.elements().begin(), v.elements().end());
  return Value::Array(a[0].type(), std::move(out));
}

// ---- GENERATE_ARRAY(start, end [, step]): start, start + step, ... up to
// end inclusive; INT64 when every argument is, else FLOAT64 ----

// At most this many elements, refused before any is made (8 bytes each:
// the 100 MiB every computed value is held to).
constexpr double kMaxGeneratedElements = 100.0 * (1 << 20) / 8;

Result<TypePtr> GenerateArrayCheck(const Types& a) {
  if (a.size() < 2 || a.size() > 3) return ArgError("GENERATE_ARRAY", a);
  bool ints = true;
  for (const TypePtr& t : a) {
    if (!t->IsNumeric()) return ArgError("GENERATE_ARRAY", a);
    ints = ints && Is(t, TypeKind::kInt64);
  }
  return Type::Array(ints ? Type::Int64() : Type::Float64());
}
Result<Value> GenerateArrayEval(const Values& a, const EvalContext&) {
  const bool ints = std::all_of(a.begin(), a.end(), [](const Value& v) { return v.kind() == TypeKind::kInt64; });
  const TypePtr type = Type::Array(ints ? Type::Int64() : Type::Float64());
  const double start = a[0].AsDouble(), end = a[1].AsDouble();
  const double step = a.size() == 3 ? a[2].AsDouble() : 1.0;
  if (step == 0 || std::isnan(step)) return Status::OutOfRange("GENERATE_ARRAY's step must not be 0 or NaN");
  if (std::isnan(start) || std::isnan(end) || (step > 0 ? start > end : start < end)) return Value::Array(type, {});
  const double count = std::floor((end - start) / step) + 1;
  if (!(count <= kMaxGeneratedElements)) {
    return Status::OutOfRange(
        fmt::format("GENERATE_ARRAY would make {} elements; at most {} fit in 100 MiB", count, kMaxGeneratedElements));
  }
  Values out;
  out.reserve(static_cast<size_t>(count));
  if (ints) {
    // In INT64, exactly: the last value may sit at INT64's edge.
    const int64_t first = a[0].int64(), last = a[1].int64(), by = a.size() == 3 ? a[2].int64() : 1;
    for (int64_t v = first;;) {
      out.push_back(Value::Int64(v));
      int64_t next;
      if (__builtin_add_overflow(v, by, &next) || (by > 0 ? next > last : next < last)) break;
      v = next;
    }
  } else {
    for (int64_t i = 0; i < static_cast<int64_t>(count); ++i) out.push_back(Value::Float64(start + step * i));
  }
  return Value::Array(type, std::move(out));
}

}  // namespace

void RegisterArrayFunctions(FunctionRegistry* registry) {
  registry->Add("ARRAY_LENGTH", ArrayLengthCheck, ArrayLengthEval);
  registry->Add("ARRAY_FIRST", ArrayEndCheck, ArrayEndEval<true>);
  registry->Add("ARRAY_LAST", ArrayEndCheck, ArrayEndEval<false>);
  registry->Add("ARRAY_REVERSE", ArrayReverseCheck, ArrayReverseEval);
  registry->Add("ARRAY_SLICE", ArraySliceCheck, ArraySliceEval);
  registry->Add("ARRAY_TO_STRING", ArrayToStringCheck, ArrayToStringEval);
  registry->Add("ARRAY_CONCAT", ArrayConcatCheck, ArrayConcatEval);
  registry->Add("GENERATE_ARRAY", GenerateArrayCheck, GenerateArrayEval);
}

}  // namespace lbt::sql
