// Arithmetic operators and math functions: + - * / and unary -, their
// SAFE_ forms, ABS, SIGN, MOD, DIV, ROUND, TRUNC, CEIL, FLOOR, SQRT, POW,
// EXP, LN, LOG10, GREATEST and LEAST.

#include <fmt/format.h>

#include <algorithm>

#include <cmath>
#include <limits>
#include <random>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

Result<Value> Overflow(std::string_view op) { return Status::OutOfRange(fmt::format("int64 overflow in {}", op)); }

// A float result: infinities and NaN only from operands that hold them
// already, as GoogleSQL's operators promise; an overflow is an error.
Result<Value> FloatResult(double result, double x, double y, std::string_view op) {
  if (!std::isfinite(result) && std::isfinite(x) && std::isfinite(y)) {
    return Status::OutOfRange(fmt::format("floating point overflow in {}", op));
  }
  return Value::Float64(result);
}

// INT64 arithmetic when both operands are INT64 (overflow is an error),
// FLOAT64 otherwise.
template <typename IntOp, typename FloatOp>
Result<Value> Arith(const Values& a, std::string_view op, IntOp int_op, FloatOp float_op) {
  if (a[0].kind() == TypeKind::kInt64 && a[1].kind() == TypeKind::kInt64) {
    int64_t out;
    if (int_op(a[0].int64(), a[1].int64(), &out)) return Overflow(op);
    return Value::Int64(out);
  }
  const double x = a[0].AsDouble(), y = a[1].AsDouble();
  return FloatResult(float_op(x, y), x, y, op);
}

// DATE plus or minus days, within GoogleSQL's range of dates.
Result<Value> DateShift(int64_t days, int64_t delta) {
  constexpr int64_t kMinDate = -719162;  // 0001-01-01
  constexpr int64_t kMaxDate = 2932896;  // 9999-12-31
  int64_t out;
  if (__builtin_add_overflow(days, delta, &out) || out < kMinDate || out > kMaxDate) {
    return Status::OutOfRange("DATE out of range");
  }
  return Value::Date(out);
}

// ---- + - * / and unary - ----

Result<TypePtr> NumericBinaryCheck(const Types& a) {
  if (a.size() != 2 || !a[0]->IsNumeric() || !a[1]->IsNumeric()) return ArgError("arithmetic", a);
  if (Is(a[0], TypeKind::kInt64) && Is(a[1], TypeKind::kInt64)) return Type::Int64();
  return Type::Float64();
}

// `+` also adds days to a DATE (either side).
Result<TypePtr> AddCheck(const Types& a) {
  if (a.size() == 2 && Is(a[0], TypeKind::kDate) && Is(a[1], TypeKind::kInt64)) return Type::Date();
  if (a.size() == 2 && Is(a[0], TypeKind::kInt64) && Is(a[1], TypeKind::kDate)) return Type::Date();
  return NumericBinaryCheck(a);
}
Result<Value> AddEval(const Values& a, const EvalContext&) {
  if (a[0].kind() == TypeKind::kDate) return DateShift(a[0].int64(), a[1].int64());
  if (a[1].kind() == TypeKind::kDate) return DateShift(a[1].int64(), a[0].int64());
  return Arith(
      a, "+", [](int64_t x, int64_t y, int64_t* o) { return __builtin_add_overflow(x, y, o); },
      [](double x, double y) { return x + y; });
}

// `-` also subtracts days from a DATE.
Result<TypePtr> SubtractCheck(const Types& a) {
  if (a.size() == 2 && Is(a[0], TypeKind::kDate) && Is(a[1], TypeKind::kInt64)) return Type::Date();
  return NumericBinaryCheck(a);
}
Result<Value> SubtractEval(const Values& a, const EvalContext&) {
  if (a[0].kind() == TypeKind::kDate) {
    if (a[1].int64() == std::numeric_limits<int64_t>::min()) return Status::OutOfRange("DATE out of range");
    return DateShift(a[0].int64(), -a[1].int64());
  }
  return Arith(
      a, "-", [](int64_t x, int64_t y, int64_t* o) { return __builtin_sub_overflow(x, y, o); },
      [](double x, double y) { return x - y; });
}

Result<Value> MultiplyEval(const Values& a, const EvalContext&) {
  return Arith(
      a, "*", [](int64_t x, int64_t y, int64_t* o) { return __builtin_mul_overflow(x, y, o); },
      [](double x, double y) { return x * y; });
}

// `/` always divides as FLOAT64.
Result<TypePtr> DivideCheck(const Types& a) {
  if (a.size() != 2 || !a[0]->IsNumeric() || !a[1]->IsNumeric()) return ArgError("/", a);
  return Type::Float64();
}
Result<Value> DivideEval(const Values& a, const EvalContext&) {
  if (a[1].AsDouble() == 0) return Status::OutOfRange("division by zero: " + a[0].ToText() + " / 0");
  const double x = a[0].AsDouble(), y = a[1].AsDouble();
  return FloatResult(x / y, x, y, "/");
}

// Unary minus, ABS and SIGN keep their operand's type.
Result<TypePtr> NumberToSameCheck(const Types& a) {
  if (a.size() != 1 || !a[0]->IsNumeric()) return ArgError("function", a);
  return a[0];
}
Result<Value> NegateEval(const Values& a, const EvalContext&) {
  if (a[0].kind() == TypeKind::kInt64) {
    if (a[0].int64() == std::numeric_limits<int64_t>::min()) return Overflow("-");
    return Value::Int64(-a[0].int64());
  }
  return Value::Float64(-a[0].float64());
}

// ---- ABS, SIGN ----

Result<Value> AbsEval(const Values& a, const EvalContext&) {
  if (a[0].kind() == TypeKind::kInt64) {
    if (a[0].int64() == std::numeric_limits<int64_t>::min()) return Overflow("ABS");
    return Value::Int64(std::llabs(a[0].int64()));
  }
  return Value{a[0].kind() == TypeKind::kFloat32 ? Value::Float32(static_cast<float>(std::fabs(a[0].float64())))
                                                 : Value::Float64(std::fabs(a[0].float64()))};
}

Result<Value> SignEval(const Values& a, const EvalContext&) {
  double d = a[0].AsDouble();
  int s = d > 0 ? 1 : (d < 0 ? -1 : 0);
  if (a[0].kind() == TypeKind::kInt64) return Value::Int64(s);
  return Value::Float64(s);
}

// ---- MOD, DIV: INT64 only ----

Result<TypePtr> IntBinaryCheck(const Types& a) {
  if (a.size() != 2 || !Is(a[0], TypeKind::kInt64) || !Is(a[1], TypeKind::kInt64)) return ArgError("function", a);
  return Type::Int64();
}
Result<Value> ModEval(const Values& a, const EvalContext&) {
  if (a[1].int64() == 0) return Status::OutOfRange("division by zero: MOD(" + a[0].ToText() + ", 0)");
  if (a[1].int64() == -1) return Value::Int64(0);
  return Value::Int64(a[0].int64() % a[1].int64());
}
Result<Value> IntDivideEval(const Values& a, const EvalContext&) {
  if (a[1].int64() == 0) return Status::OutOfRange("division by zero: DIV(" + a[0].ToText() + ", 0)");
  if (a[1].int64() == -1 && a[0].int64() == std::numeric_limits<int64_t>::min()) return Overflow("DIV");
  return Value::Int64(a[0].int64() / a[1].int64());
}

// ---- FLOAT64 functions of one or two numbers ----

Result<TypePtr> NumberToFloatCheck(const Types& a) {
  if (a.empty() || a.size() > 2) return ArgError("function", a);
  for (const TypePtr& t : a) {
    if (!t->IsNumeric()) return ArgError("function", a);
  }
  return Type::Float64();
}

// ROUND(x [, digits]) and TRUNC(x [, digits]).
template <double (*F)(double)>
Result<Value> AtDigitsEval(const Values& a, const EvalContext&) {
  double scale = a.size() > 1 ? std::pow(10.0, a[1].AsDouble()) : 1.0;
  return Value::Float64(F(a[0].AsDouble() * scale) / scale);
}

Result<Value> PowEval(const Values& a, const EvalContext&) {
  return Value::Float64(std::pow(a[0].AsDouble(), a[1].AsDouble()));
}

Result<Value> SqrtEval(const Values& a, const EvalContext&) {
  if (a[0].AsDouble() < 0) return Status::OutOfRange("SQRT of a negative number: " + a[0].ToText());
  return Value::Float64(std::sqrt(a[0].AsDouble()));
}

Result<Value> LnEval(const Values& a, const EvalContext&) {
  if (a[0].AsDouble() <= 0) return Status::OutOfRange("LN of a number that is not positive: " + a[0].ToText());
  return Value::Float64(std::log(a[0].AsDouble()));
}

Result<Value> Log10Eval(const Values& a, const EvalContext&) {
  if (a[0].AsDouble() <= 0) return Status::OutOfRange("LOG10 of a number that is not positive: " + a[0].ToText());
  return Value::Float64(std::log10(a[0].AsDouble()));
}

// ---- GREATEST, LEAST ----

// Values of one orderable type, or numbers, which mix into FLOAT64 unless
// all are INT64.
Result<TypePtr> GreatestCheck(const Types& a) {
  if (a.empty()) return ArgError("GREATEST", a);
  bool all_int = true;
  for (const TypePtr& t : a) {
    if (!t->IsOrderable() || (!SameType(t, a[0]) && !(t->IsNumeric() && a[0]->IsNumeric()))) {
      return ArgError("GREATEST", a);
    }
    all_int = all_int && Is(t, TypeKind::kInt64);
  }
  return a[0]->IsNumeric() && !all_int ? Type::Float64() : a[0];
}
template <bool kGreatest>
Result<Value> ExtremeEval(const Values& a, const EvalContext&) {
  Value best = a[0];
  for (const Value& v : a) {
    int c = Compare(v, best);
    if (kGreatest ? c > 0 : c < 0) best = v;
  }
  if (best.type()->IsNumeric() && best.kind() == TypeKind::kInt64) {
    for (const Value& v : a) {
      if (v.kind() != TypeKind::kInt64) return Value::Float64(best.AsDouble());
    }
  }
  return best;
}

// ---- SAFE_ADD, SAFE_SUBTRACT, SAFE_MULTIPLY, SAFE_DIVIDE, SAFE_NEGATE ----
// The operator's result, or NULL where the operator fails (an overflow, a
// division by zero). Numbers only: the operators' DATE forms are not theirs.

Result<TypePtr> SafeBinaryCheck(const Types& a) {
  if (a.size() != 2 || !a[0]->IsNumeric() || !a[1]->IsNumeric()) return ArgError("function", a);
  return NumericBinaryCheck(a);
}
template <EvalFunction F, bool kFloatResult>
Result<Value> SafeEval(const Values& a, const EvalContext& ctx) {
  Result<Value> out = F(a, ctx);
  if (out.ok() || out.status().code() != Status::Code::kOutOfRange) return out;
  const bool ints = std::all_of(a.begin(), a.end(), [](const Value& v) { return v.kind() == TypeKind::kInt64; });
  return Value::Null(ints && !kFloatResult ? Type::Int64() : Type::Float64());
}

// ---- RAND(): uniform in [0, 1), a new value per call ----

Result<TypePtr> RandCheck(const Types& a) {
  if (!a.empty()) return ArgError("RAND", a);
  return Type::Float64();
}
Result<Value> RandEval(const Values&, const EvalContext&) {
  thread_local std::mt19937_64 generator{std::random_device{}()};
  return Value::Float64(std::uniform_real_distribution<double>(0.0, 1.0)(generator));
}

}  // namespace

void RegisterMathFunctions(FunctionRegistry* registry) {
  registry->Add("$add", AddCheck, AddEval);
  registry->Add("$sub", SubtractCheck, SubtractEval);
  registry->Add("$mul", NumericBinaryCheck, MultiplyEval);
  registry->Add("SAFE_ADD", SafeBinaryCheck, SafeEval<AddEval, false>);
  registry->Add("SAFE_SUBTRACT", SafeBinaryCheck, SafeEval<SubtractEval, false>);
  registry->Add("SAFE_MULTIPLY", SafeBinaryCheck, SafeEval<MultiplyEval, false>);
  registry->Add("SAFE_DIVIDE", DivideCheck, SafeEval<DivideEval, true>);
  registry->Add("SAFE_NEGATE", NumberToSameCheck, SafeEval<NegateEval, false>);
  registry->Add("$div", DivideCheck, DivideEval);
  registry->Add("$neg", NumberToSameCheck, NegateEval);
  registry->Add("ABS", NumberToSameCheck, AbsEval);
  registry->Add("RAND", RandCheck, RandEval);
  registry->Add("SIGN", NumberToSameCheck, SignEval);
  registry->Add("MOD", IntBinaryCheck, ModEval);
  registry->Add("DIV", IntBinaryCheck, IntDivideEval);
  registry->Add("ROUND", NumberToFloatCheck, AtDigitsEval<std::round>);
  registry->Add("TRUNC", NumberToFloatCheck, AtDigitsEval<std::trunc>);
  registry->Add("CEIL", NumberToFloatCheck, FloatOfNumber<std::ceil>);
  registry->Add("CEILING", NumberToFloatCheck, FloatOfNumber<std::ceil>);
  registry->Add("FLOOR", NumberToFloatCheck, FloatOfNumber<std::floor>);
  registry->Add("SQRT", NumberToFloatCheck, SqrtEval);
  registry->Add("POW", NumberToFloatCheck, PowEval);
  registry->Add("POWER", NumberToFloatCheck, PowEval);
  registry->Add("EXP", NumberToFloatCheck, FloatOfNumber<std::exp>);
  registry->Add("LN", NumberToFloatCheck, LnEval);
  registry->Add("LOG10", NumberToFloatCheck, Log10Eval);
  registry->Add("GREATEST", GreatestCheck, ExtremeEval<true>);
  registry->Add("LEAST", GreatestCheck, ExtremeEval<false>);
}

}  // namespace lbt::sql
