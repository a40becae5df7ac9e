// Trigonometric and hyperbolic functions, LOG with a base, IEEE_DIVIDE,
// IS_INF and IS_NAN: FLOAT64 results of any numeric argument, as
// GoogleSQL's mathematical functions page gives them (BigQuery's page has
// the same tables where Bigtable's is thin). An argument outside a
// function's domain gives NaN (ACOS(2)); a pole is an error (COT(0)), and
// so is a finite argument whose result overflows (COSH(1000)).

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

Result<TypePtr> OneNumberCheck(const Types& a) {
  if (a.size() != 1 || !a[0]->IsNumeric()) return ArgError("function", a);
  return Type::Float64();
}

Result<TypePtr> TwoNumbersCheck(const Types& a) {
  if (a.size() != 2 || !a[0]->IsNumeric() || !a[1]->IsNumeric()) return ArgError("function", a);
  return Type::Float64();
}

// SINH and COSH: an error where a finite argument overflows.
template <double (*F)(double)>
Result<Value> NoOverflow(const Values& a, const EvalContext&) {
  const double x = a[0].AsDouble();
  const double y = F(x);
  if (std::isinf(y) && std::isfinite(x))
    return Status::OutOfRange(fmt::format("float64 overflow in {}", a[0].ToText()));
  return Value::Float64(y);
}

double Cot(double x) { return 1.0 / std::tan(x); }
double Csc(double x) { return 1.0 / std::sin(x); }
double Sec(double x) { return 1.0 / std::cos(x); }
double Coth(double x) { return 1.0 / std::tanh(x); }
double Csch(double x) { return 1.0 / std::sinh(x); }
double Sech(double x) { return 1.0 / std::cosh(x); }

// The reciprocals with a pole at 0 (COT, CSC, COTH, CSCH): 0 is an error.
template <double (*F)(double)>
Result<Value> PoleAtZero(const Values& a, const EvalContext& ctx) {
  if (a[0].AsDouble() == 0) return Status::OutOfRange("division by zero: the function has a pole at 0");
  return FloatOfNumber<F>(a, ctx);
}

Result<Value> Atan2Eval(const Values& a, const EvalContext&) {
  return Value::Float64(std::atan2(a[0].AsDouble(), a[1].AsDouble()));
}

// ---- LOG(x [, base]): the natural logarithm, or in `base` ----

Result<TypePtr> LogCheck(const Types& a) {
  if (a.empty() || a.size() > 2) return ArgError("LOG", a);
  for (const TypePtr& t : a) {
    if (!t->IsNumeric()) return ArgError("LOG", a);
  }
  return Type::Float64();
}
Result<Value> LogEval(const Values& a, const EvalContext&) {
  const double x = a[0].AsDouble();
  if (x <= 0) return Status::OutOfRange("LOG of a number that is not positive: " + a[0].ToText());
  if (a.size() == 1) return Value::Float64(std::log(x));
  const double base = a[1].AsDouble();
  if (base <= 0 || base == 1) {
    return Status::OutOfRange("LOG's base must be positive and not 1: " + a[1].ToText());
  }
  return Value::Float64(std::log(x) / std::log(base));
}

// ---- IEEE_DIVIDE, IS_INF, IS_NAN ----

// Division as IEEE 754 defines it: by zero gives an infinity or NaN, never
// an error.
Result<Value> IeeeDivideEval(const Values& a, const EvalContext&) {
  return Value::Float64(a[0].AsDouble() / a[1].AsDouble());
}

Result<TypePtr> NumberToBoolCheck(const Types& a) {
  if (a.size() != 1 || !a[0]->IsNumeric()) return ArgError("function", a);
  return Type::Bool();
}
Result<Value> IsInfEval(const Values& a, const EvalContext&) { return Value::Bool(std::isinf(a[0].AsDouble())); }
Result<Value> IsNanEval(const Values& a, const EvalContext&) { return Value::Bool(std::isnan(a[0].AsDouble())); }

}  // namespace

void RegisterTrigonometricFunctions(FunctionRegistry* registry) {
  registry->Add("SIN", OneNumberCheck, FloatOfNumber<std::sin>);
  registry->Add("COS", OneNumberCheck, FloatOfNumber<std::cos>);
  registry->Add("TAN", OneNumberCheck, FloatOfNumber<std::tan>);
  registry->Add("ASIN", OneNumberCheck, FloatOfNumber<std::asin>);
  registry->Add("ACOS", OneNumberCheck, FloatOfNumber<std::acos>);
  registry->Add("ATAN", OneNumberCheck, FloatOfNumber<std::atan>);
  registry->Add("ATAN2", TwoNumbersCheck, Atan2Eval);
  registry->Add("COT", OneNumberCheck, PoleAtZero<Cot>);
  registry->Add("CSC", OneNumberCheck, PoleAtZero<Csc>);
  registry->Add("SEC", OneNumberCheck, FloatOfNumber<Sec>);
  registry->Add("SINH", OneNumberCheck, NoOverflow<std::sinh>);
  registry->Add("COSH", OneNumberCheck, NoOverflow<std::cosh>);
  registry->Add("TANH", OneNumberCheck, FloatOfNumber<std::tanh>);
  registry->Add("ASINH", OneNumberCheck, FloatOfNumber<std::asinh>);
  registry->Add("ACOSH", OneNumberCheck, FloatOfNumber<std::acosh>);
  registry->Add("ATANH", OneNumberCheck, FloatOfNumber<std::atanh>);
  registry->Add("COTH", OneNumberCheck, PoleAtZero<Coth>);
  registry->Add("CSCH", OneNumberCheck, PoleAtZero<Csch>);
  registry->Add("SECH", OneNumberCheck, FloatOfNumber<Sech>);
  registry->Add("LOG", LogCheck, LogEval);
  registry->Add("IEEE_DIVIDE", TwoNumbersCheck, IeeeDivideEval);
  registry->Add("IS_INF", NumberToBoolCheck, IsInfEval);
  registry->Add("IS_NAN", NumberToBoolCheck, IsNanEval);
}

}  // namespace lbt::sql
