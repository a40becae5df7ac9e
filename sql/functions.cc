#include "sql/functions.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include "api/cell.h"

namespace lbt::sql {

namespace {

using Types = std::vector<TypePtr>;

}  // namespace

size_t ValueBytes(const Value& v) {
  if (v.is_null()) return 1;
  switch (v.kind()) {
    case TypeKind::kBytes:
    case TypeKind::kString: return v.str().size();
    case TypeKind::kArray:
    case TypeKind::kStruct: {
      size_t total = 0;
      for (const Value& e : v.elements()) total += ValueBytes(e);
      return total;
    }
    case TypeKind::kMap: {
      size_t total = 0;
      for (const auto& [key, value] : v.entries()) total += ValueBytes(key) + ValueBytes(value);
      return total;
    }
    default: return 8;
  }
}

Status CheckComputedBytes(double bytes, std::string_view what) {
  if (bytes <= static_cast<double>(kMaxComputedBytes)) return Status::OK();
  return Status::OutOfRange(fmt::format("{} would exceed {} MiB ({:.0f} bytes)", what, kMaxComputedBytes >> 20, bytes));
}

namespace {

Status ArgError(std::string_view fn, const Types& args) {
  std::string list;
  for (size_t i = 0; i < args.size(); ++i) list += (i ? ", " : "") + args[i]->ToString();
  return Status::InvalidArgument(
      fmt::format("No matching signature for function {} for argument types: {}", fn, list.empty() ? "(none)" : list));
}

bool IsText(const TypePtr& t) { return t->kind == TypeKind::kString || t->kind == TypeKind::kBytes; }
bool Is(const TypePtr& t, TypeKind k) { return t->kind == k; }

// ---- checks shared by many functions ----

#define LBT_FN_CHECK(Name) Result<TypePtr> Name(const Types& a)

LBT_FN_CHECK(NumericBinary) {
  if (a.size() != 2 || !a[0]->IsNumeric() || !a[1]->IsNumeric()) return ArgError("arithmetic", a);
  if (Is(a[0], TypeKind::kInt64) && Is(a[1], TypeKind::kInt64)) return Type::Int64();
  return Type::Float64();
}
// `+` also adds days to a DATE (either side); `-` subtracts them from one.
LBT_FN_CHECK(PlusCheck) {
  if (a.size() == 2 && Is(a[0], TypeKind::kDate) && Is(a[1], TypeKind::kInt64)) return Type::Date();
  if (a.size() == 2 && Is(a[0], TypeKind::kInt64) && Is(a[1], TypeKind::kDate)) return Type::Date();
  return NumericBinary(a);
}
LBT_FN_CHECK(MinusCheck) {
  if (a.size() == 2 && Is(a[0], TypeKind::kDate) && Is(a[1], TypeKind::kInt64)) return Type::Date();
  return NumericBinary(a);
}
LBT_FN_CHECK(Comparable) {
  if (a.size() != 2) return ArgError("comparison", a);
  if (a[0]->IsNumeric() && a[1]->IsNumeric()) return Type::Bool();
  if (!SameType(a[0], a[1]) || !a[0]->IsOrderable()) {
    if (SameType(a[0], a[1]) && a[0]->kind != TypeKind::kMap) return Type::Bool();  // arrays and structs: equality
    return Status::InvalidArgument(
        fmt::format("No matching signature for operator: cannot compare {} with {}", a[0]->ToString(), a[1]->ToString()));
  }
  return Type::Bool();
}
LBT_FN_CHECK(TextToSame) {
  if (a.size() != 1 || !IsText(a[0])) return ArgError("function", a);
  return a[0];
}
LBT_FN_CHECK(TextToInt) {
  if (a.size() != 1 || !IsText(a[0])) return ArgError("function", a);
  return Type::Int64();
}
LBT_FN_CHECK(TwoTextToBool) {
  if (a.size() != 2 || !IsText(a[0]) || !SameType(a[0], a[1])) return ArgError("function", a);
  return Type::Bool();
}
LBT_FN_CHECK(TimestampToInt) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kTimestamp)) return ArgError("function", a);
  return Type::Int64();
}
LBT_FN_CHECK(IntToTimestamp) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kInt64)) return ArgError("function", a);
  return Type::Timestamp();
}
LBT_FN_CHECK(NumberToSame) {
  if (a.size() != 1 || !a[0]->IsNumeric()) return ArgError("function", a);
  return a[0];
}
LBT_FN_CHECK(NumberToFloat) {
  if (a.empty() || a.size() > 2) return ArgError("function", a);
  for (const TypePtr& t : a) {
    if (!t->IsNumeric()) return ArgError("function", a);
  }
  return Type::Float64();
}
LBT_FN_CHECK(AnyToBool) {
  (void)a;
  return Type::Bool();
}

// ---- arithmetic ----

Result<Value> Overflow(std::string_view op) {
  return Status::OutOfRange(fmt::format("int64 overflow in {}", op));
}

// A float result: infinities and NaN only from operands that hold them
// already, as GoogleSQL's operators promise; an overflow is an error.
Result<Value> FloatResult(double result, double x, double y, std::string_view op) {
  if (!std::isfinite(result) && std::isfinite(x) && std::isfinite(y)) {
    return Status::OutOfRange(fmt::format("floating point overflow in {}", op));
  }
  return Value::Float64(result);
}

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

Result<Value> Add(const Values& a, const EvalContext&) {
  if (a[0].kind() == TypeKind::kDate) return DateShift(a[0].int64(), a[1].int64());
  if (a[1].kind() == TypeKind::kDate) return DateShift(a[1].int64(), a[0].int64());
  return Arith(a, "+", [](int64_t x, int64_t y, int64_t* o) { return __builtin_add_overflow(x, y, o); },
               [](double x, double y) { return x + y; });
}
Result<Value> Sub(const Values& a, const EvalContext&) {
  if (a[0].kind() == TypeKind::kDate) {
    if (a[1].int64() == std::numeric_limits<int64_t>::min()) return Status::OutOfRange("DATE out of range");
    return DateShift(a[0].int64(), -a[1].int64());
  }
  return Arith(a, "-", [](int64_t x, int64_t y, int64_t* o) { return __builtin_sub_overflow(x, y, o); },
               [](double x, double y) { return x - y; });
}
Result<Value> Mul(const Values& a, const EvalContext&) {
  return Arith(a, "*", [](int64_t x, int64_t y, int64_t* o) { return __builtin_mul_overflow(x, y, o); },
               [](double x, double y) { return x * y; });
}
LBT_FN_CHECK(DivCheck) {
  if (a.size() != 2 || !a[0]->IsNumeric() || !a[1]->IsNumeric()) return ArgError("/", a);
  return Type::Float64();
}
Result<Value> Div(const Values& a, const EvalContext&) {
  if (a[1].AsDouble() == 0) return Status::OutOfRange("division by zero: " + a[0].ToText() + " / 0");
  const double x = a[0].AsDouble(), y = a[1].AsDouble();
  return FloatResult(x / y, x, y, "/");
}
Result<Value> Neg(const Values& a, const EvalContext&) {
  if (a[0].kind() == TypeKind::kInt64) {
    if (a[0].int64() == std::numeric_limits<int64_t>::min()) return Overflow("-");
    return Value::Int64(-a[0].int64());
  }
  return Value::Float64(-a[0].float64());
}
LBT_FN_CHECK(IntBinary) {
  if (a.size() != 2 || !Is(a[0], TypeKind::kInt64) || !Is(a[1], TypeKind::kInt64)) return ArgError("function", a);
  return Type::Int64();
}
Result<Value> Mod(const Values& a, const EvalContext&) {
  if (a[1].int64() == 0) return Status::OutOfRange("division by zero: MOD(" + a[0].ToText() + ", 0)");
  if (a[1].int64() == -1) return Value::Int64(0);
  return Value::Int64(a[0].int64() % a[1].int64());
}
Result<Value> IntDiv(const Values& a, const EvalContext&) {
  if (a[1].int64() == 0) return Status::OutOfRange("division by zero: DIV(" + a[0].ToText() + ", 0)");
  if (a[1].int64() == -1 && a[0].int64() == std::numeric_limits<int64_t>::min()) return Overflow("DIV");
  return Value::Int64(a[0].int64() / a[1].int64());
}
Result<Value> Abs(const Values& a, const EvalContext&) {
  if (a[0].kind() == TypeKind::kInt64) {
    if (a[0].int64() == std::numeric_limits<int64_t>::min()) return Overflow("ABS");
    return Value::Int64(std::llabs(a[0].int64()));
  }
  return Value{a[0].kind() == TypeKind::kFloat32 ? Value::Float32(static_cast<float>(std::fabs(a[0].float64())))
                                                  : Value::Float64(std::fabs(a[0].float64()))};
}
Result<Value> Sign(const Values& a, const EvalContext&) {
  double d = a[0].AsDouble();
  int s = d > 0 ? 1 : (d < 0 ? -1 : 0);
  if (a[0].kind() == TypeKind::kInt64) return Value::Int64(s);
  return Value::Float64(s);
}
template <double (*F)(double)>
Result<Value> FloatFn(const Values& a, const EvalContext&) {
  return Value::Float64(F(a[0].AsDouble()));
}
Result<Value> Round(const Values& a, const EvalContext&) {
  double scale = a.size() > 1 ? std::pow(10.0, a[1].AsDouble()) : 1.0;
  return Value::Float64(std::round(a[0].AsDouble() * scale) / scale);
}
Result<Value> Trunc(const Values& a, const EvalContext&) {
  double scale = a.size() > 1 ? std::pow(10.0, a[1].AsDouble()) : 1.0;
  return Value::Float64(std::trunc(a[0].AsDouble() * scale) / scale);
}
Result<Value> Pow(const Values& a, const EvalContext&) { return Value::Float64(std::pow(a[0].AsDouble(), a[1].AsDouble())); }
Result<Value> Sqrt(const Values& a, const EvalContext&) {
  if (a[0].AsDouble() < 0) return Status::OutOfRange("SQRT of a negative number: " + a[0].ToText());
  return Value::Float64(std::sqrt(a[0].AsDouble()));
}
Result<Value> Ln(const Values& a, const EvalContext&) {
  if (a[0].AsDouble() <= 0) return Status::OutOfRange("LN of a number that is not positive: " + a[0].ToText());
  return Value::Float64(std::log(a[0].AsDouble()));
}
Result<Value> Log10(const Values& a, const EvalContext&) {
  if (a[0].AsDouble() <= 0) return Status::OutOfRange("LOG10 of a number that is not positive: " + a[0].ToText());
  return Value::Float64(std::log10(a[0].AsDouble()));
}
LBT_FN_CHECK(GreatestCheck) {
  if (a.empty()) return ArgError("GREATEST", a);
  bool all_int = true;
  for (const TypePtr& t : a) {
    if (!t->IsOrderable() || (!SameType(t, a[0]) && !(t->IsNumeric() && a[0]->IsNumeric()))) return ArgError("GREATEST", a);
    all_int = all_int && Is(t, TypeKind::kInt64);
  }
  return a[0]->IsNumeric() && !all_int ? Type::Float64() : a[0];
}
template <bool kGreatest>
Result<Value> Extreme(const Values& a, const EvalContext&) {
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

// ---- bitwise operators: INT64, or BYTES as one big-endian bit string ----

LBT_FN_CHECK(BitwiseCheck) {
  if (a.size() != 2 || !SameType(a[0], a[1]) || !(Is(a[0], TypeKind::kInt64) || Is(a[0], TypeKind::kBytes))) {
    return ArgError("bitwise", a);
  }
  return a[0];
}
LBT_FN_CHECK(BitNotCheck) {
  if (a.size() != 1 || !(Is(a[0], TypeKind::kInt64) || Is(a[0], TypeKind::kBytes))) return ArgError("~", a);
  return a[0];
}
LBT_FN_CHECK(ShiftCheck) {
  if (a.size() != 2 || !(Is(a[0], TypeKind::kInt64) || Is(a[0], TypeKind::kBytes)) || !Is(a[1], TypeKind::kInt64)) {
    return ArgError("shift", a);
  }
  return a[0];
}

template <typename Op>
Result<Value> Bitwise(const Values& a, std::string_view op, Op apply) {
  if (a[0].kind() == TypeKind::kInt64) {
    return Value::Int64(static_cast<int64_t>(apply(static_cast<uint64_t>(a[0].int64()), static_cast<uint64_t>(a[1].int64()))));
  }
  const std::string& x = a[0].str();
  const std::string& y = a[1].str();
  if (x.size() != y.size()) {
    return Status::OutOfRange(fmt::format("Bitwise operator {} needs BYTES of the same length, not {} and {}", op,
                                          x.size(), y.size()));
  }
  std::string out(x.size(), '\0');
  for (size_t i = 0; i < x.size(); ++i) {
    out[i] = static_cast<char>(apply(static_cast<unsigned char>(x[i]), static_cast<unsigned char>(y[i])));
  }
  return Value::Bytes(std::move(out));
}
Result<Value> BitAnd(const Values& a, const EvalContext&) {
  return Bitwise(a, "&", [](uint64_t x, uint64_t y) { return x & y; });
}
Result<Value> BitOr(const Values& a, const EvalContext&) {
  return Bitwise(a, "|", [](uint64_t x, uint64_t y) { return x | y; });
}
Result<Value> BitXor(const Values& a, const EvalContext&) {
  return Bitwise(a, "^", [](uint64_t x, uint64_t y) { return x ^ y; });
}
Result<Value> BitNot(const Values& a, const EvalContext&) {
  if (a[0].kind() == TypeKind::kInt64) return Value::Int64(~a[0].int64());
  std::string out = a[0].str();
  for (char& c : out) c = static_cast<char>(~static_cast<unsigned char>(c));
  return Value::Bytes(std::move(out));
}

// Shifts fill with zeros, never with the sign bit; a shift by the operand's
// width or more leaves only zeros.
template <bool kLeft>
Result<Value> Shift(const Values& a, const EvalContext&) {
  const int64_t by = a[1].int64();
  if (by < 0) return Status::OutOfRange(fmt::format("Bit shift by a negative amount: {}", by));
  if (a[0].kind() == TypeKind::kInt64) {
    if (by >= 64) return Value::Int64(0);
    const uint64_t x = static_cast<uint64_t>(a[0].int64());
    return Value::Int64(static_cast<int64_t>(kLeft ? x << by : x >> by));
  }
  const std::string& x = a[0].str();
  const int64_t n = static_cast<int64_t>(x.size());
  std::string out(x.size(), '\0');
  if (by >= 8 * n) return Value::Bytes(std::move(out));
  const int64_t bytes = by / 8;
  const int bits = static_cast<int>(by % 8);
  auto byte_at = [&](int64_t i) -> unsigned { return i >= 0 && i < n ? static_cast<unsigned char>(x[static_cast<size_t>(i)]) : 0u; };
  for (int64_t i = 0; i < n; ++i) {
    // The 16 bits around the source byte, shifted into place.
    const unsigned v = kLeft ? ((byte_at(i + bytes) << 8 | byte_at(i + bytes + 1)) << bits) >> 8
                             : ((byte_at(i - bytes - 1) << 8 | byte_at(i - bytes)) >> bits);
    out[static_cast<size_t>(i)] = static_cast<char>(v & 0xFF);
  }
  return Value::Bytes(std::move(out));
}
Result<Value> ShiftLeft(const Values& a, const EvalContext& ctx) { return Shift<true>(a, ctx); }
Result<Value> ShiftRight(const Values& a, const EvalContext& ctx) { return Shift<false>(a, ctx); }

// ---- comparison ----

Result<Value> Eq(const Values& a, const EvalContext&) { return Value::Bool(Compare(a[0], a[1]) == 0); }
Result<Value> Ne(const Values& a, const EvalContext&) { return Value::Bool(Compare(a[0], a[1]) != 0); }
Result<Value> Lt(const Values& a, const EvalContext&) { return Value::Bool(Compare(a[0], a[1]) < 0); }
Result<Value> Le(const Values& a, const EvalContext&) { return Value::Bool(Compare(a[0], a[1]) <= 0); }
Result<Value> Gt(const Values& a, const EvalContext&) { return Value::Bool(Compare(a[0], a[1]) > 0); }
Result<Value> Ge(const Values& a, const EvalContext&) { return Value::Bool(Compare(a[0], a[1]) >= 0); }

LBT_FN_CHECK(BetweenCheck) {
  if (a.size() != 3) return ArgError("BETWEEN", a);
  for (int i = 1; i < 3; ++i) LBT_RETURN_IF_ERROR(Comparable({a[0], a[static_cast<size_t>(i)]}).status());
  return Type::Bool();
}
Result<Value> Between(const Values& a, const EvalContext&) {
  return Value::Bool(Compare(a[0], a[1]) >= 0 && Compare(a[0], a[2]) <= 0);
}
LBT_FN_CHECK(InCheck) {
  if (a.size() < 2) return ArgError("IN", a);
  for (size_t i = 1; i < a.size(); ++i) LBT_RETURN_IF_ERROR(Comparable({a[0], a[i]}).status());
  return Type::Bool();
}
// x IN (...): TRUE if found; else NULL if x or any item is NULL; else FALSE.
Result<Value> In(const Values& a, const EvalContext&) {
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

LBT_FN_CHECK(LikeCheck) {
  if (a.size() != 2 || !IsText(a[0]) || !SameType(a[0], a[1])) return ArgError("LIKE", a);
  return Type::Bool();
}
Result<Value> LikeFn(const Values& a, const EvalContext&) {
  return Value::Bool(Like(a[0].str(), a[1].str(), a[0].kind() == TypeKind::kString));
}

// ---- strings and bytes ----

// Splits UTF-8 text into characters (bytes for BYTES).
std::vector<std::string_view> Chars(std::string_view s, bool utf8) {
  std::vector<std::string_view> out;
  for (size_t i = 0; i < s.size();) {
    size_t n = 1;
    if (utf8) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
      n = std::min(n, s.size() - i);
    }
    out.push_back(s.substr(i, n));
    i += n;
  }
  return out;
}
bool Utf8(const Value& v) { return v.kind() == TypeKind::kString; }
Value SameKind(const Value& like, std::string s) {
  return like.kind() == TypeKind::kString ? Value::String(std::move(s)) : Value::Bytes(std::move(s));
}

LBT_FN_CHECK(ConcatCheck) {
  if (a.empty() || !IsText(a[0])) return ArgError("CONCAT", a);
  for (const TypePtr& t : a) {
    if (!SameType(t, a[0])) return ArgError("CONCAT", a);
  }
  return a[0];
}
Result<Value> Concat(const Values& a, const EvalContext&) {
  double total = 0;
  for (const Value& v : a) total += static_cast<double>(v.str().size());
  LBT_RETURN_IF_ERROR(CheckComputedBytes(total, "CONCAT's result"));
  std::string out;
  out.reserve(static_cast<size_t>(total));
  for (const Value& v : a) out += v.str();
  return SameKind(a[0], std::move(out));
}
// The `||` operator: CONCAT's texts, or two arrays of one type.
LBT_FN_CHECK(ConcatOperatorCheck) {
  if (a.size() == 2 && Is(a[0], TypeKind::kArray) && SameType(a[0], a[1])) return a[0];
  return ConcatCheck(a);
}
Result<Value> ConcatOperator(const Values& a, const EvalContext& ctx) {
  if (a[0].kind() != TypeKind::kArray) return Concat(a, ctx);
  LBT_RETURN_IF_ERROR(CheckComputedBytes(static_cast<double>(ValueBytes(a[0])) + static_cast<double>(ValueBytes(a[1])),
                                         "The result of ||"));
  Values out = a[0].elements();
  out.insert(out.end(), a[1].elements().begin(), a[1].elements().end());
  return Value::Array(a[0].type(), std::move(out));
}
Result<Value> Length(const Values& a, const EvalContext&) {
  return Value::Int64(static_cast<int64_t>(Utf8(a[0]) ? Chars(a[0].str(), true).size() : a[0].str().size()));
}
Result<Value> ByteLength(const Values& a, const EvalContext&) { return Value::Int64(static_cast<int64_t>(a[0].str().size())); }
Result<Value> Lower(const Values& a, const EvalContext&) {
  std::string s = a[0].str();
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return SameKind(a[0], std::move(s));
}
Result<Value> UpperFn(const Values& a, const EvalContext&) {
  std::string s = a[0].str();
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return SameKind(a[0], std::move(s));
}
Result<Value> Reverse(const Values& a, const EvalContext&) {
  auto chars = Chars(a[0].str(), Utf8(a[0]));
  std::string out;
  for (auto it = chars.rbegin(); it != chars.rend(); ++it) out += *it;
  return SameKind(a[0], std::move(out));
}
Result<Value> StartsWith(const Values& a, const EvalContext&) {
  return Value::Bool(a[0].str().compare(0, a[1].str().size(), a[1].str()) == 0);
}
Result<Value> EndsWith(const Values& a, const EvalContext&) {
  const std::string& s = a[0].str();
  const std::string& x = a[1].str();
  return Value::Bool(s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0);
}
LBT_FN_CHECK(StrposCheck) {
  if (a.size() != 2 || !IsText(a[0]) || !SameType(a[0], a[1])) return ArgError("STRPOS", a);
  return Type::Int64();
}
Result<Value> Strpos(const Values& a, const EvalContext&) {
  size_t at = a[0].str().find(a[1].str());
  if (at == std::string::npos) return Value::Int64(0);
  return Value::Int64(static_cast<int64_t>(Utf8(a[0]) ? Chars(a[0].str().substr(0, at), true).size() : at) + 1);
}
LBT_FN_CHECK(SubstrCheck) {
  if (a.size() < 2 || a.size() > 3 || !IsText(a[0]) || !Is(a[1], TypeKind::kInt64) ||
      (a.size() == 3 && !Is(a[2], TypeKind::kInt64))) {
    return ArgError("SUBSTR", a);
  }
  return a[0];
}
Result<Value> Substr(const Values& a, const EvalContext&) {
  auto chars = Chars(a[0].str(), Utf8(a[0]));
  const int64_t n = static_cast<int64_t>(chars.size());
  int64_t start = a[1].int64();
  if (start > 0) {
    start -= 1;
  } else if (start < 0) {
    start = std::max<int64_t>(0, n + start);
  }
  int64_t length = n;
  if (a.size() == 3) {
    if (a[2].int64() < 0) return Status::OutOfRange("SUBSTR's length must not be negative");
    length = a[2].int64();
  }
  std::string out;
  for (int64_t i = start; i < n && i - start < length; ++i) out += chars[static_cast<size_t>(i)];
  return SameKind(a[0], std::move(out));
}
LBT_FN_CHECK(TrimCheck) {
  if (a.empty() || a.size() > 2 || !IsText(a[0]) || (a.size() == 2 && !SameType(a[0], a[1]))) return ArgError("TRIM", a);
  return a[0];
}
template <bool kLeft, bool kRight>
Result<Value> Trim(const Values& a, const EvalContext&) {
  const std::string set = a.size() > 1 ? a[1].str() : std::string(" \t\n\r\v\f");
  std::string_view s = a[0].str();
  if (kLeft) {
    size_t start = s.find_first_not_of(set);
    s = start == std::string_view::npos ? std::string_view() : s.substr(start);
  }
  if (kRight) {
    size_t end = s.find_last_not_of(set);
    s = end == std::string_view::npos ? std::string_view() : s.substr(0, end + 1);
  }
  return SameKind(a[0], std::string(s));
}
LBT_FN_CHECK(SplitCheck) {
  if (a.empty() || a.size() > 2 || !IsText(a[0]) || (a.size() == 2 && !SameType(a[0], a[1]))) return ArgError("SPLIT", a);
  return Type::Array(a[0]);
}
Result<Value> Split(const Values& a, const EvalContext&) {
  const std::string delimiter = a.size() > 1 ? a[1].str() : ",";
  const std::string& s = a[0].str();
  Values parts;
  if (delimiter.empty()) {
    for (std::string_view c : Chars(s, Utf8(a[0]))) parts.push_back(SameKind(a[0], std::string(c)));
  } else {
    size_t start = 0;
    while (true) {
      size_t at = s.find(delimiter, start);
      parts.push_back(SameKind(a[0], s.substr(start, at == std::string::npos ? std::string::npos : at - start)));
      if (at == std::string::npos) break;
      start = at + delimiter.size();
    }
  }
  return Value::Array(Type::Array(a[0].type()), std::move(parts));
}
LBT_FN_CHECK(RepeatCheck) {
  if (a.size() != 2 || !IsText(a[0]) || !Is(a[1], TypeKind::kInt64)) return ArgError("REPEAT", a);
  return a[0];
}
Result<Value> Repeat(const Values& a, const EvalContext&) {
  if (a[1].int64() < 0) return Status::OutOfRange("REPEAT's count must not be negative");
  LBT_RETURN_IF_ERROR(CheckComputedBytes(static_cast<double>(a[0].str().size()) * static_cast<double>(a[1].int64()),
                                         "REPEAT's result"));
  std::string out;
  out.reserve(a[0].str().size() * static_cast<size_t>(a[1].int64()));
  for (int64_t i = 0; i < a[1].int64(); ++i) out += a[0].str();
  return SameKind(a[0], std::move(out));
}
LBT_FN_CHECK(ReplaceCheck) {
  if (a.size() != 3 || !IsText(a[0]) || !SameType(a[0], a[1]) || !SameType(a[0], a[2])) return ArgError("REPLACE", a);
  return a[0];
}
Result<Value> Replace(const Values& a, const EvalContext&) {
  const std::string& s = a[0].str();
  const std::string& from = a[1].str();
  const std::string& to = a[2].str();
  if (from.empty()) return a[0];
  // Count first, so that a result too large is refused before it is built.
  size_t matches = 0;
  for (size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += from.size()) ++matches;
  const double size = static_cast<double>(s.size()) +
                      static_cast<double>(matches) * (static_cast<double>(to.size()) - static_cast<double>(from.size()));
  LBT_RETURN_IF_ERROR(CheckComputedBytes(size, "REPLACE's result"));
  std::string out;
  out.reserve(static_cast<size_t>(size));
  size_t start = 0;
  for (size_t at; (at = s.find(from, start)) != std::string::npos; start = at + from.size()) {
    out.append(s, start, at - start).append(to);
  }
  out.append(s, start);
  return SameKind(a[0], std::move(out));
}

// ---- regular expressions (RE2) ----

Result<std::shared_ptr<RE2>> CompileRegex(const Value& pattern) {
  RE2::Options options;
  options.set_log_errors(false);
  if (pattern.kind() == TypeKind::kBytes) options.set_encoding(RE2::Options::EncodingLatin1);
  auto re = std::make_shared<RE2>(pattern.str(), options);
  if (!re->ok()) return Status::OutOfRange(fmt::format("Cannot parse regular expression: {}", re->error()));
  return re;
}
LBT_FN_CHECK(RegexpBoolCheck) {
  if (a.size() != 2 || !IsText(a[0]) || !SameType(a[0], a[1])) return ArgError("REGEXP_CONTAINS", a);
  return Type::Bool();
}
Result<Value> RegexpContains(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(auto re, CompileRegex(a[1]));
  return Value::Bool(RE2::PartialMatch(a[0].str(), *re));
}
LBT_FN_CHECK(RegexpExtractCheck) {
  if (a.size() != 2 || !IsText(a[0]) || !SameType(a[0], a[1])) return ArgError("REGEXP_EXTRACT", a);
  return a[0];
}
Result<Value> RegexpExtract(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(auto re, CompileRegex(a[1]));
  if (re->NumberOfCapturingGroups() > 1) return Status::OutOfRange("REGEXP_EXTRACT's pattern has more than one group");
  re2::StringPiece match;
  re2::StringPiece input(a[0].str());
  std::vector<re2::StringPiece> groups(static_cast<size_t>(re->NumberOfCapturingGroups()) + 1);
  if (!re->Match(input, 0, input.size(), RE2::UNANCHORED, groups.data(), static_cast<int>(groups.size()))) {
    return Value::Null(a[0].type());
  }
  match = groups.back();
  if (match.data() == nullptr) return Value::Null(a[0].type());
  return SameKind(a[0], std::string(match));
}
LBT_FN_CHECK(RegexpReplaceCheck) {
  if (a.size() != 3 || !IsText(a[0]) || !SameType(a[0], a[1]) || !SameType(a[0], a[2])) return ArgError("REGEXP_REPLACE", a);
  return a[0];
}
Result<Value> RegexpReplace(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(auto re, CompileRegex(a[1]));
  std::string s = a[0].str();
  const std::string& rewrite = a[2].str();
  // The result is at most the input, plus the rewrite's own text once per
  // match, plus each \N in it once per match: the groups it names are parts
  // of matches, which together are no longer than the input.
  const double n = static_cast<double>(s.size());
  const double backrefs = static_cast<double>(std::count(rewrite.begin(), rewrite.end(), '\\'));
  const double worst = n + (n + 1) * static_cast<double>(rewrite.size()) + backrefs * n;
  if (worst > static_cast<double>(kMaxComputedBytes)) {
    std::string counted = s;
    const double matches = RE2::GlobalReplace(&counted, *re, "");
    LBT_RETURN_IF_ERROR(
        CheckComputedBytes(n + matches * static_cast<double>(rewrite.size()) + backrefs * n, "REGEXP_REPLACE's result"));
  }
  RE2::GlobalReplace(&s, *re, rewrite);
  return SameKind(a[0], std::move(s));
}

// ---- conversion ----

LBT_FN_CHECK(ToInt64Check) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kBytes)) return ArgError("TO_INT64", a);
  return Type::Int64();
}
Result<Value> ToInt64(const Values& a, const EvalContext&) {
  int64_t v;
  if (!DecodeInt64(a[0].str(), &v)) {
    return Status::OutOfRange(fmt::format("TO_INT64 needs 8 bytes, got {}", a[0].str().size()));
  }
  return Value::Int64(v);
}
LBT_FN_CHECK(ToFloat64Check) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kBytes)) return ArgError("TO_FLOAT64", a);
  return Type::Float64();
}
Result<Value> ToFloat64(const Values& a, const EvalContext&) {
  int64_t bits;
  if (!DecodeInt64(a[0].str(), &bits)) {
    return Status::OutOfRange(fmt::format("TO_FLOAT64 needs 8 bytes, got {}", a[0].str().size()));
  }
  double d;
  static_assert(sizeof d == sizeof bits);
  std::memcpy(&d, &bits, sizeof d);
  return Value::Float64(d);
}
LBT_FN_CHECK(BytesToString) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kBytes)) return ArgError("function", a);
  return Type::String();
}
}  // namespace

namespace {

Result<Value> SafeConvertBytesToString(const Values& a, const EvalContext&) {
  std::string out;
  const std::string& s = a[0].str();
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n != 0 && i + n <= s.size() && IsValidUtf8(std::string_view(s).substr(i, n))) {
      out += s.substr(i, n);
      i += n;
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    }
  }
  return Value::String(std::move(out));
}
Result<Value> ToBase64(const Values& a, const EvalContext&) { return Value::String(Base64Encode(a[0].str())); }
LBT_FN_CHECK(StringToBytes) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kString)) return ArgError("function", a);
  return Type::Bytes();
}
// Padding may be left out and white space is ignored; the URL-safe
// alphabet is accepted too.
Result<Value> FromBase64(const Values& a, const EvalContext&) {
  std::string text;
  for (char c : a[0].str()) {
    if (!std::isspace(static_cast<unsigned char>(c))) text.push_back(c);
  }
  std::string out;
  if (!Base64Decode(text, &out)) return Status::OutOfRange("FROM_BASE64: not valid base64");
  return Value::Bytes(std::move(out));
}
Result<Value> ToHex(const Values& a, const EvalContext&) {
  std::string out;
  for (unsigned char c : a[0].str()) out += fmt::format("{:02x}", c);
  return Value::String(std::move(out));
}
Result<Value> FromHex(const Values& a, const EvalContext&) {
  std::string hex = a[0].str();
  if (hex.size() % 2 == 1) hex = "0" + hex;
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    if (!std::isxdigit(static_cast<unsigned char>(hex[i])) || !std::isxdigit(static_cast<unsigned char>(hex[i + 1]))) {
      return Status::OutOfRange("FROM_HEX: not hexadecimal: " + a[0].str());
    }
    out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  }
  return Value::Bytes(std::move(out));
}

// ---- maps and arrays ----

LBT_FN_CHECK(MapKeysCheck) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kMap)) return ArgError("MAP_KEYS", a);
  return Type::Array(a[0]->key);
}
Result<Value> MapKeys(const Values& a, const EvalContext&) {
  Values out;
  for (const auto& [k, v] : a[0].entries()) out.push_back(k);
  return Value::Array(Type::Array(a[0].type()->key), std::move(out));
}
LBT_FN_CHECK(MapValuesCheck) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kMap)) return ArgError("MAP_VALUES", a);
  return Type::Array(a[0]->value);
}
Result<Value> MapValues(const Values& a, const EvalContext&) {
  Values out;
  for (const auto& [k, v] : a[0].entries()) out.push_back(v);
  return Value::Array(Type::Array(a[0].type()->value), std::move(out));
}
TypePtr EntryType(const TypePtr& map) { return Type::Struct({{"key", map->key}, {"value", map->value}}); }
LBT_FN_CHECK(MapEntriesCheck) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kMap)) return ArgError("MAP_ENTRIES", a);
  return Type::Array(EntryType(a[0]));
}
Result<Value> MapEntriesFn(const Values& a, const EvalContext&) {
  TypePtr entry = EntryType(a[0].type());
  Values out;
  for (const auto& [k, v] : a[0].entries()) out.push_back(Value::Struct(entry, {k, v}));
  return Value::Array(Type::Array(entry), std::move(out));
}
LBT_FN_CHECK(MapContainsKeyCheck) {
  if (a.size() != 2 || !Is(a[0], TypeKind::kMap) || !SameType(a[0]->key, a[1])) return ArgError("MAP_CONTAINS_KEY", a);
  return Type::Bool();
}
Result<Value> MapContainsKey(const Values& a, const EvalContext&) {
  for (const auto& [k, v] : a[0].entries()) {
    if (Compare(k, a[1]) == 0) return Value::Bool(true);
  }
  return Value::Bool(false);
}
LBT_FN_CHECK(MapEmptyCheck) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kMap)) return ArgError("MAP_EMPTY", a);
  return Type::Bool();
}
Result<Value> MapEmpty(const Values& a, const EvalContext&) { return Value::Bool(a[0].entries().empty()); }

LBT_FN_CHECK(ArrayToInt) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kArray)) return ArgError("ARRAY_LENGTH", a);
  return Type::Int64();
}
Result<Value> ArrayLength(const Values& a, const EvalContext&) { return Value::Int64(static_cast<int64_t>(a[0].elements().size())); }
LBT_FN_CHECK(ArrayToElement) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kArray)) return ArgError("ARRAY_FIRST", a);
  return a[0]->element;
}
template <bool kFirst>
Result<Value> ArrayEnd(const Values& a, const EvalContext&) {
  if (a[0].elements().empty()) return Status::OutOfRange(fmt::format("{} of an empty array", kFirst ? "ARRAY_FIRST" : "ARRAY_LAST"));
  return kFirst ? a[0].elements().front() : a[0].elements().back();
}
LBT_FN_CHECK(ArrayToSame) {
  if (a.empty() || !Is(a[0], TypeKind::kArray)) return ArgError("ARRAY_REVERSE", a);
  return a[0];
}
Result<Value> ArrayReverse(const Values& a, const EvalContext&) {
  Values out(a[0].elements().rbegin(), a[0].elements().rend());
  return Value::Array(a[0].type(), std::move(out));
}
LBT_FN_CHECK(ArraySliceCheck) {
  if (a.size() != 3 || !Is(a[0], TypeKind::kArray) || !Is(a[1], TypeKind::kInt64) || !Is(a[2], TypeKind::kInt64)) {
    return ArgError("ARRAY_SLICE", a);
  }
  return a[0];
}
// ARRAY_SLICE(array, start, end): zero-based offsets, both inclusive;
// negative offsets count from the end.
Result<Value> ArraySlice(const Values& a, const EvalContext&) {
  const int64_t n = static_cast<int64_t>(a[0].elements().size());
  auto place = [&](int64_t i) { return i < 0 ? n + i : i; };
  int64_t start = std::max<int64_t>(0, place(a[1].int64()));
  int64_t end = std::min<int64_t>(n - 1, place(a[2].int64()));
  Values out;
  for (int64_t i = start; i <= end; ++i) out.push_back(a[0].elements()[static_cast<size_t>(i)]);
  return Value::Array(a[0].type(), std::move(out));
}
LBT_FN_CHECK(ArrayToStringCheck) {
  if (a.size() < 2 || a.size() > 3 || !Is(a[0], TypeKind::kArray) || !IsText(a[0]->element) ||
      !SameType(a[0]->element, a[1]) || (a.size() == 3 && !SameType(a[1], a[2]))) {
    return ArgError("ARRAY_TO_STRING", a);
  }
  return a[1];
}
Result<Value> ArrayToString(const Values& a, const EvalContext&) {
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

// ---- time ----

int64_t NowFn(const EvalContext& ctx) { return ctx.now_micros; }
LBT_FN_CHECK(NoArgsTimestamp) {
  if (!a.empty()) return ArgError("CURRENT_TIMESTAMP", a);
  return Type::Timestamp();
}
Result<Value> CurrentTimestamp(const Values&, const EvalContext& ctx) { return Value::Timestamp(NowFn(ctx)); }

constexpr int64_t kMinTimestamp = -62135596800LL * 1000000;  // 0001-01-01
constexpr int64_t kMaxTimestamp = 253402300799999999LL;      // 9999-12-31 23:59:59.999999
Result<Value> CheckedTimestamp(double micros) {
  if (!(micros >= static_cast<double>(kMinTimestamp) && micros <= static_cast<double>(kMaxTimestamp))) {
    return Status::OutOfRange("timestamp out of range");
  }
  return Value::Timestamp(static_cast<int64_t>(micros));
}
template <int64_t kUnit>
Result<Value> TimestampFromUnits(const Values& a, const EvalContext&) {
  return CheckedTimestamp(static_cast<double>(a[0].int64()) * static_cast<double>(kUnit));
}
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
template <int64_t kUnit>
Result<Value> UnixUnits(const Values& a, const EvalContext&) {
  return Value::Int64(FloorDiv(a[0].int64(), kUnit));
}
LBT_FN_CHECK(TimestampCheck) {
  if (a.empty() || a.size() > 2 || !(Is(a[0], TypeKind::kString) || Is(a[0], TypeKind::kDate) ||
                                     Is(a[0], TypeKind::kTimestamp))) {
    return ArgError("TIMESTAMP", a);
  }
  return Type::Timestamp();
}
Result<Value> TimestampFn(const Values& a, const EvalContext&) {
  if (a[0].kind() == TypeKind::kTimestamp) return a[0];
  if (a[0].kind() == TypeKind::kDate) return Value::Timestamp(a[0].int64() * 86400 * 1000000);
  int64_t micros;
  if (!ParseTimestamp(a[0].str(), &micros)) return Status::OutOfRange("Invalid timestamp: '" + a[0].str() + "'");
  return Value::Timestamp(micros);
}

// Date parts as TIMESTAMP_TRUNC, EXTRACT, TIMESTAMP_ADD and TIMESTAMP_DIFF
// take them; the part reaches the function as an upper-case STRING.
int64_t PartMicros(std::string_view part) {
  if (part == "MICROSECOND") return 1;
  if (part == "MILLISECOND") return 1000;
  if (part == "SECOND") return 1000000;
  if (part == "MINUTE") return 60LL * 1000000;
  if (part == "HOUR") return 3600LL * 1000000;
  if (part == "DAY") return 86400LL * 1000000;
  if (part == "WEEK") return 7 * 86400LL * 1000000;
  return 0;
}

LBT_FN_CHECK(TruncCheck) {
  if (a.size() != 2 || !Is(a[0], TypeKind::kTimestamp) || !Is(a[1], TypeKind::kString)) return ArgError("TIMESTAMP_TRUNC", a);
  return Type::Timestamp();
}
Result<Value> TimestampTrunc(const Values& a, const EvalContext&) {
  const std::string& part = a[1].str();
  const int64_t t = a[0].int64();
  if (part == "WEEK") {
    // Weeks start on Sunday; 1970-01-04 was one.
    const int64_t week = 7 * 86400LL * 1000000;
    const int64_t sunday = 3 * 86400LL * 1000000;
    return Value::Timestamp(FloorDiv(t - sunday, week) * week + sunday);
  }
  if (int64_t unit = PartMicros(part); unit != 0) return Value::Timestamp(FloorDiv(t, unit) * unit);
  int64_t year;
  unsigned month, day;
  CivilFromDays(FloorDiv(t, 86400LL * 1000000), &year, &month, &day);
  if (part == "MONTH") return Value::Timestamp(DaysFromCivil(year, month, 1) * 86400LL * 1000000);
  if (part == "QUARTER") return Value::Timestamp(DaysFromCivil(year, (month - 1) / 3 * 3 + 1, 1) * 86400LL * 1000000);
  if (part == "YEAR") return Value::Timestamp(DaysFromCivil(year, 1, 1) * 86400LL * 1000000);
  return Status::InvalidArgument("TIMESTAMP_TRUNC does not support the " + part + " date part");
}
LBT_FN_CHECK(ExtractCheck) {
  if (a.size() != 2 || !Is(a[0], TypeKind::kString) || !(Is(a[1], TypeKind::kTimestamp) || Is(a[1], TypeKind::kDate))) {
    return ArgError("EXTRACT", a);
  }
  return Type::Int64();
}
Result<Value> Extract(const Values& a, const EvalContext&) {
  const std::string& part = a[0].str();
  const int64_t t = a[1].kind() == TypeKind::kDate ? a[1].int64() * 86400LL * 1000000 : a[1].int64();
  const int64_t days = FloorDiv(t, 86400LL * 1000000);
  const int64_t in_day = t - days * 86400LL * 1000000;
  int64_t year;
  unsigned month, day;
  CivilFromDays(days, &year, &month, &day);
  if (part == "YEAR") return Value::Int64(year);
  if (part == "QUARTER") return Value::Int64((month - 1) / 3 + 1);
  if (part == "MONTH") return Value::Int64(month);
  if (part == "DAY") return Value::Int64(day);
  if (part == "DAYOFWEEK") return Value::Int64(((days % 7) + 7 + 4) % 7 + 1);  // 1 = Sunday
  if (part == "DAYOFYEAR") return Value::Int64(days - DaysFromCivil(year, 1, 1) + 1);
  if (part == "HOUR") return Value::Int64(in_day / (3600LL * 1000000));
  if (part == "MINUTE") return Value::Int64(in_day / (60LL * 1000000) % 60);
  if (part == "SECOND") return Value::Int64(in_day / 1000000 % 60);
  if (part == "MILLISECOND") return Value::Int64(in_day / 1000 % 1000);
  if (part == "MICROSECOND") return Value::Int64(in_day % 1000000);
  return Status::InvalidArgument("EXTRACT does not support the " + part + " date part");
}
LBT_FN_CHECK(AddCheck) {
  if (a.size() != 3 || !Is(a[0], TypeKind::kTimestamp) || !Is(a[1], TypeKind::kInt64) || !Is(a[2], TypeKind::kString)) {
    return ArgError("TIMESTAMP_ADD", a);
  }
  return Type::Timestamp();
}
template <int kSign>
Result<Value> TimestampAdd(const Values& a, const EvalContext&) {
  const int64_t unit = PartMicros(a[2].str());
  if (unit == 0 || a[2].str() == "WEEK") {
    return Status::InvalidArgument("TIMESTAMP_ADD and TIMESTAMP_SUB take MICROSECOND through DAY, not " + a[2].str());
  }
  return CheckedTimestamp(static_cast<double>(a[0].int64()) + kSign * static_cast<double>(a[1].int64()) * static_cast<double>(unit));
}
LBT_FN_CHECK(DiffCheck) {
  if (a.size() != 3 || !Is(a[0], TypeKind::kTimestamp) || !Is(a[1], TypeKind::kTimestamp) || !Is(a[2], TypeKind::kString)) {
    return ArgError("TIMESTAMP_DIFF", a);
  }
  return Type::Int64();
}
Result<Value> TimestampDiff(const Values& a, const EvalContext&) {
  const int64_t unit = PartMicros(a[2].str());
  if (unit == 0 || a[2].str() == "WEEK") {
    return Status::InvalidArgument("TIMESTAMP_DIFF takes MICROSECOND through DAY, not " + a[2].str());
  }
  return Value::Int64((a[0].int64() - a[1].int64()) / unit);
}
LBT_FN_CHECK(FormatCheck) {
  if (a.size() != 2 || !Is(a[0], TypeKind::kString) || !Is(a[1], TypeKind::kTimestamp)) return ArgError("FORMAT_TIMESTAMP", a);
  return Type::String();
}
// The common strftime elements, in UTC.
Result<Value> FormatTimestampFn(const Values& a, const EvalContext&) {
  const int64_t t = a[1].int64();
  const int64_t seconds = FloorDiv(t, 1000000);
  const int64_t days = FloorDiv(seconds, 86400);
  const int64_t in_day = seconds - days * 86400;
  int64_t year;
  unsigned month, day;
  CivilFromDays(days, &year, &month, &day);
  std::string out;
  const std::string& f = a[0].str();
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%' || i + 1 == f.size()) {
      out += f[i];
      continue;
    }
    char c = f[++i];
    switch (c) {
      case 'Y': out += fmt::format("{:04d}", year); break;
      case 'm': out += fmt::format("{:02d}", month); break;
      case 'd': out += fmt::format("{:02d}", day); break;
      case 'H': out += fmt::format("{:02d}", in_day / 3600); break;
      case 'M': out += fmt::format("{:02d}", in_day / 60 % 60); break;
      case 'S': out += fmt::format("{:02d}", in_day % 60); break;
      case 'F': out += fmt::format("{:04d}-{:02d}-{:02d}", year, month, day); break;
      case 'T': out += fmt::format("{:02d}:{:02d}:{:02d}", in_day / 3600, in_day / 60 % 60, in_day % 60); break;
      case 'Z': out += "UTC"; break;
      case 'z': out += "+0000"; break;
      case 's': out += std::to_string(seconds); break;
      case '%': out += '%'; break;
      default: out += '%'; out += c;
    }
  }
  return Value::String(std::move(out));
}

// ---- the table ----

const std::map<std::string, Function, std::less<>>& Functions() {
  static const auto* table = new std::map<std::string, Function, std::less<>>([] {
    std::map<std::string, Function, std::less<>> m;
    auto add = [&](const char* name, Result<TypePtr> (*check)(const Types&),
                   Result<Value> (*eval)(const Values&, const EvalContext&), bool nulls = false) {
      m[name] = Function{name, check, eval, nulls};
    };
    add("$add", PlusCheck, Add);
    add("$sub", MinusCheck, Sub);
    add("$mul", NumericBinary, Mul);
    add("$div", DivCheck, Div);
    add("$neg", NumberToSame, Neg);
    add("$concat", ConcatOperatorCheck, ConcatOperator);
    add("$bitand", BitwiseCheck, BitAnd);
    add("$bitor", BitwiseCheck, BitOr);
    add("$bitxor", BitwiseCheck, BitXor);
    add("$bitnot", BitNotCheck, BitNot);
    add("$shl", ShiftCheck, ShiftLeft);
    add("$shr", ShiftCheck, ShiftRight);
    add("$eq", Comparable, Eq);
    add("$ne", Comparable, Ne);
    add("$lt", Comparable, Lt);
    add("$le", Comparable, Le);
    add("$gt", Comparable, Gt);
    add("$ge", Comparable, Ge);
    add("$between", BetweenCheck, Between);
    add("$in", InCheck, In, true);
    add("$like", LikeCheck, LikeFn);
    add("ABS", NumberToSame, Abs);
    add("SIGN", NumberToSame, Sign);
    add("MOD", IntBinary, Mod);
    add("DIV", IntBinary, IntDiv);
    add("ROUND", NumberToFloat, Round);
    add("TRUNC", NumberToFloat, Trunc);
    add("CEIL", NumberToFloat, FloatFn<std::ceil>);
    add("CEILING", NumberToFloat, FloatFn<std::ceil>);
    add("FLOOR", NumberToFloat, FloatFn<std::floor>);
    add("SQRT", NumberToFloat, Sqrt);
    add("POW", NumberToFloat, Pow);
    add("POWER", NumberToFloat, Pow);
    add("EXP", NumberToFloat, FloatFn<std::exp>);
    add("LN", NumberToFloat, Ln);
    add("LOG10", NumberToFloat, Log10);
    add("GREATEST", GreatestCheck, Extreme<true>);
    add("LEAST", GreatestCheck, Extreme<false>);
    add("CONCAT", ConcatCheck, Concat);
    add("LENGTH", TextToInt, Length);
    add("CHAR_LENGTH", TextToInt, Length);
    add("BYTE_LENGTH", TextToInt, ByteLength);
    add("LOWER", TextToSame, Lower);
    add("UPPER", TextToSame, UpperFn);
    add("REVERSE", TextToSame, Reverse);
    add("STARTS_WITH", TwoTextToBool, StartsWith);
    add("ENDS_WITH", TwoTextToBool, EndsWith);
    add("STRPOS", StrposCheck, Strpos);
    add("SUBSTR", SubstrCheck, Substr);
    add("SUBSTRING", SubstrCheck, Substr);
    add("TRIM", TrimCheck, Trim<true, true>);
    add("LTRIM", TrimCheck, Trim<true, false>);
    add("RTRIM", TrimCheck, Trim<false, true>);
    add("SPLIT", SplitCheck, Split);
    add("REPEAT", RepeatCheck, Repeat);
    add("REPLACE", ReplaceCheck, Replace);
    add("REGEXP_CONTAINS", RegexpBoolCheck, RegexpContains);
    add("REGEXP_EXTRACT", RegexpExtractCheck, RegexpExtract);
    add("REGEXP_REPLACE", RegexpReplaceCheck, RegexpReplace);
    add("TO_INT64", ToInt64Check, ToInt64);
    add("TO_FLOAT64", ToFloat64Check, ToFloat64);
    add("SAFE_CONVERT_BYTES_TO_STRING", BytesToString, SafeConvertBytesToString);
    add("TO_BASE64", BytesToString, ToBase64);
    add("FROM_BASE64", StringToBytes, FromBase64);
    add("TO_HEX", BytesToString, ToHex);
    add("FROM_HEX", StringToBytes, FromHex);
    add("MAP_KEYS", MapKeysCheck, MapKeys);
    add("MAP_VALUES", MapValuesCheck, MapValues);
    add("MAP_ENTRIES", MapEntriesCheck, MapEntriesFn);
    add("MAP_CONTAINS_KEY", MapContainsKeyCheck, MapContainsKey);
    add("MAP_EMPTY", MapEmptyCheck, MapEmpty);
    add("ARRAY_LENGTH", ArrayToInt, ArrayLength);
    add("ARRAY_FIRST", ArrayToElement, ArrayEnd<true>);
    add("ARRAY_LAST", ArrayToElement, ArrayEnd<false>);
    add("ARRAY_REVERSE", ArrayToSame, ArrayReverse);
    add("ARRAY_SLICE", ArraySliceCheck, ArraySlice);
    add("ARRAY_TO_STRING", ArrayToStringCheck, ArrayToString);
    add("CURRENT_TIMESTAMP", NoArgsTimestamp, CurrentTimestamp);
    add("TIMESTAMP", TimestampCheck, TimestampFn);
    add("TIMESTAMP_MICROS", IntToTimestamp, TimestampFromUnits<1>);
    add("TIMESTAMP_MILLIS", IntToTimestamp, TimestampFromUnits<1000>);
    add("TIMESTAMP_SECONDS", IntToTimestamp, TimestampFromUnits<1000000>);
    add("TIMESTAMP_FROM_UNIX_MILLIS", IntToTimestamp, TimestampFromUnits<1000>);
    add("UNIX_MICROS", TimestampToInt, UnixUnits<1>);
    add("UNIX_MILLIS", TimestampToInt, UnixUnits<1000>);
    add("UNIX_SECONDS", TimestampToInt, UnixUnits<1000000>);
    add("TIMESTAMP_TRUNC", TruncCheck, TimestampTrunc);
    add("EXTRACT", ExtractCheck, Extract);
    add("TIMESTAMP_ADD", AddCheck, TimestampAdd<1>);
    add("TIMESTAMP_SUB", AddCheck, TimestampAdd<-1>);
    add("TIMESTAMP_DIFF", DiffCheck, TimestampDiff);
    add("FORMAT_TIMESTAMP", FormatCheck, FormatTimestampFn);
    (void)AnyToBool;
    return m;
  }());
  return *table;
}

// ---- aggregates ----

class CountAcc final : public Accumulator {
 public:
  explicit CountAcc(bool star, bool only_true) : star_(star), only_true_(only_true) {}
  Status Add(const Values& a) override {
    if (star_ || (!a[0].is_null() && (!only_true_ || a[0].boolean()))) ++n_;
    return Status::OK();
  }
  Value Finish() const override { return Value::Int64(n_); }

 private:
  bool star_, only_true_;
  int64_t n_ = 0;
};

class SumAcc final : public Accumulator {
 public:
  SumAcc(TypePtr result, bool average) : result_(std::move(result)), average_(average) {}
  Status Add(const Values& a) override {
    if (a[0].is_null()) return Status::OK();
    ++n_;
    if (a[0].kind() == TypeKind::kInt64 && !average_) {
      if (__builtin_add_overflow(int_sum_, a[0].int64(), &int_sum_)) return Status::OutOfRange("int64 overflow in SUM");
    } else {
      sum_ += a[0].AsDouble();
    }
    return Status::OK();
  }
  Value Finish() const override {
    if (n_ == 0) return Value::Null(result_);
    if (average_) return Value::Float64(sum_ / static_cast<double>(n_));
    if (result_->kind == TypeKind::kInt64) return Value::Int64(int_sum_);
    return Value::Float64(sum_);
  }

 private:
  TypePtr result_;
  bool average_;
  int64_t n_ = 0, int_sum_ = 0;
  double sum_ = 0;
};

class ExtremeAcc final : public Accumulator {
 public:
  ExtremeAcc(TypePtr result, int sign) : best_(Value::Null(std::move(result))), sign_(sign) {}
  Status Add(const Values& a) override {
    if (a[0].is_null()) return Status::OK();
    if (best_.is_null() || Compare(a[0], best_) * sign_ > 0) best_ = a[0];
    return Status::OK();
  }
  Value Finish() const override { return best_; }

 private:
  Value best_;
  int sign_;  // 1: MAX, -1: MIN, 0: ANY_VALUE (the first non-NULL)
};

class ArrayAggAcc final : public Accumulator {
 public:
  explicit ArrayAggAcc(TypePtr result) : result_(std::move(result)) {}
  Status Add(const Values& a) override {
    if (a[0].is_null()) return Status::OutOfRange("ARRAY_AGG cannot make an array with a NULL element");
    bytes_ += static_cast<double>(ValueBytes(a[0]));
    LBT_RETURN_IF_ERROR(CheckComputedBytes(bytes_, "ARRAY_AGG's result"));
    values_.push_back(a[0]);
    return Status::OK();
  }
  Value Finish() const override { return values_.empty() ? Value::Null(result_) : Value::Array(result_, values_); }

 private:
  TypePtr result_;
  Values values_;
  double bytes_ = 0;
};

class StringAggAcc final : public Accumulator {
  inline static const std::string kComma = ",";

 public:
  explicit StringAggAcc(TypePtr result) : result_(std::move(result)) {}
  Status Add(const Values& a) override {
    if (a[0].is_null()) return Status::OK();
    const std::string& separator = a.size() > 1 && !a[1].is_null() ? a[1].str() : kComma;
    LBT_RETURN_IF_ERROR(CheckComputedBytes(
        static_cast<double>(out_.size() + (any_ ? separator.size() : 0) + a[0].str().size()), "STRING_AGG's result"));
    if (any_) out_ += separator;
    out_ += a[0].str();
    any_ = true;
    return Status::OK();
  }
  Value Finish() const override {
    if (!any_) return Value::Null(result_);
    return result_->kind == TypeKind::kString ? Value::String(out_) : Value::Bytes(out_);
  }

 private:
  TypePtr result_;
  std::string out_;
  bool any_ = false;
};

class LogicalAcc final : public Accumulator {
 public:
  explicit LogicalAcc(bool is_and) : is_and_(is_and) {}
  Status Add(const Values& a) override {
    if (a[0].is_null()) return Status::OK();
    any_ = true;
    result_ = is_and_ ? (result_ && a[0].boolean()) : (result_ || a[0].boolean());
    return Status::OK();
  }
  Value Finish() const override { return any_ ? Value::Bool(result_) : Value::Null(Type::Bool()); }

 private:
  bool is_and_;
  bool any_ = false;
  bool result_ = is_and_;
};

LBT_FN_CHECK(CountCheck) {
  if (a.size() != 1) return ArgError("COUNT", a);
  return Type::Int64();
}
LBT_FN_CHECK(CountIfCheck) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kBool)) return ArgError("COUNTIF", a);
  return Type::Int64();
}
LBT_FN_CHECK(SumCheck) {
  if (a.size() != 1 || !a[0]->IsNumeric()) return ArgError("SUM", a);
  return Is(a[0], TypeKind::kInt64) ? Type::Int64() : Type::Float64();
}
LBT_FN_CHECK(AvgCheck) {
  if (a.size() != 1 || !a[0]->IsNumeric()) return ArgError("AVG", a);
  return Type::Float64();
}
LBT_FN_CHECK(MinMaxCheck) {
  if (a.size() != 1 || !a[0]->IsOrderable()) return ArgError("MIN/MAX", a);
  return a[0];
}
LBT_FN_CHECK(AnyCheck) {
  if (a.size() != 1) return ArgError("ANY_VALUE", a);
  return a[0];
}
LBT_FN_CHECK(ArrayAggCheck) {
  if (a.size() != 1 || Is(a[0], TypeKind::kArray)) return ArgError("ARRAY_AGG", a);
  return Type::Array(a[0]);
}
LBT_FN_CHECK(StringAggCheck) {
  if (a.empty() || a.size() > 2 || !IsText(a[0]) || (a.size() == 2 && !SameType(a[0], a[1]))) return ArgError("STRING_AGG", a);
  return a[0];
}
LBT_FN_CHECK(LogicalCheck) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kBool)) return ArgError("LOGICAL_AND/LOGICAL_OR", a);
  return Type::Bool();
}

const std::map<std::string, AggregateFunction, std::less<>>& Aggregates() {
  static const auto* table = new std::map<std::string, AggregateFunction, std::less<>>{
      {"COUNT", {"COUNT", CountCheck, [](const TypePtr&, const Types& a) -> std::unique_ptr<Accumulator> {
                   return std::make_unique<CountAcc>(a.empty(), false);
                 }}},
      {"COUNTIF", {"COUNTIF", CountIfCheck, [](const TypePtr&, const Types&) -> std::unique_ptr<Accumulator> {
                     return std::make_unique<CountAcc>(false, true);
                   }}},
      {"SUM", {"SUM", SumCheck, [](const TypePtr& r, const Types&) -> std::unique_ptr<Accumulator> {
                 return std::make_unique<SumAcc>(r, false);
               }}},
      {"AVG", {"AVG", AvgCheck, [](const TypePtr& r, const Types&) -> std::unique_ptr<Accumulator> {
                 return std::make_unique<SumAcc>(r, true);
               }}},
      {"MIN", {"MIN", MinMaxCheck, [](const TypePtr& r, const Types&) -> std::unique_ptr<Accumulator> {
                 return std::make_unique<ExtremeAcc>(r, -1);
               }}},
      {"MAX", {"MAX", MinMaxCheck, [](const TypePtr& r, const Types&) -> std::unique_ptr<Accumulator> {
                 return std::make_unique<ExtremeAcc>(r, 1);
               }}},
      {"ANY_VALUE", {"ANY_VALUE", AnyCheck, [](const TypePtr& r, const Types&) -> std::unique_ptr<Accumulator> {
                       return std::make_unique<ExtremeAcc>(r, 0);
                     }}},
      {"ARRAY_AGG", {"ARRAY_AGG", ArrayAggCheck, [](const TypePtr& r, const Types&) -> std::unique_ptr<Accumulator> {
                       return std::make_unique<ArrayAggAcc>(r);
                     }}},
      {"STRING_AGG", {"STRING_AGG", StringAggCheck, [](const TypePtr& r, const Types&) -> std::unique_ptr<Accumulator> {
                        return std::make_unique<StringAggAcc>(r);
                      }}},
      {"LOGICAL_AND", {"LOGICAL_AND", LogicalCheck, [](const TypePtr&, const Types&) -> std::unique_ptr<Accumulator> {
                         return std::make_unique<LogicalAcc>(true);
                       }}},
      {"LOGICAL_OR", {"LOGICAL_OR", LogicalCheck, [](const TypePtr&, const Types&) -> std::unique_ptr<Accumulator> {
                        return std::make_unique<LogicalAcc>(false);
                      }}},
  };
  return *table;
}

}  // namespace

const Function* FindFunction(std::string_view name) {
  auto it = Functions().find(name);
  return it == Functions().end() ? nullptr : &it->second;
}

const AggregateFunction* FindAggregate(std::string_view name) {
  auto it = Aggregates().find(name);
  return it == Aggregates().end() ? nullptr : &it->second;
}

bool CanCast(const TypePtr& from, const TypePtr& to) {
  if (SameType(from, to)) return true;
  auto scalar = [](TypeKind k) { return k != TypeKind::kArray && k != TypeKind::kMap && k != TypeKind::kStruct; };
  if (!scalar(from->kind) || !scalar(to->kind)) return false;
  if (from->kind == TypeKind::kBytes) return to->kind == TypeKind::kString;
  if (to->kind == TypeKind::kBytes) return from->kind == TypeKind::kString;
  if (from->kind == TypeKind::kString || to->kind == TypeKind::kString) return true;
  if (from->IsNumeric() && to->IsNumeric()) return true;
  if (from->kind == TypeKind::kBool || to->kind == TypeKind::kBool) {
    return from->kind == TypeKind::kInt64 || to->kind == TypeKind::kInt64;
  }
  return (from->kind == TypeKind::kDate && to->kind == TypeKind::kTimestamp) ||
         (from->kind == TypeKind::kTimestamp && to->kind == TypeKind::kDate);
}

namespace {

}  // namespace

namespace {

// Text of at most 15 digits with an optional '-' and '.', the
// way measurements are stored: the digits are exact in a double, and so is
// the power of ten that places the point (up to 1e22), so one division is
// the correctly rounded result, as from_chars would give.
std::optional<double> ShortDecimal(std::string_view text) {
  const char* p = text.data();
  const char* const end = p + text.size();
  const bool negative = p != end && *p == '-';
  if (negative) ++p;
  auto digit = [](char c) { return static_cast<unsigned char>(c - '0') < 10; };
  uint64_t digits = 0;  // wraps past 19 digits, but such text is refused below
  const char* const whole = p;
  while (p != end && digit(*p)) digits = digits * 10 + static_cast<uint64_t>(*p++ - '0');
  ptrdiff_t count = p - whole, fraction = 0;
  if (p != end && *p == '.') {
    const char* const after_point = ++p;
    while (p != end && digit(*p)) digits = digits * 10 + static_cast<uint64_t>(*p++ - '0');
    fraction = p - after_point;
    if (fraction == 0) return std::nullopt;  // "1." and "." go the long way
    count += fraction;
  }
  if (p != end || count == 0 || count > 15) return std::nullopt;
  static constexpr double kPowers[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  double d = static_cast<double>(digits);
  if (fraction > 0) d /= kPowers[fraction];
  return negative ? -d : d;
}

}  // namespace

bool ParsePlainNumber(std::string_view text, TypeKind to, Value* out) {
  const char* const end = text.data() + text.size();
  if (to == TypeKind::kFloat64) {
    if (std::optional<double> d = ShortDecimal(text)) {
      out->set_float64(*d);
      return true;
    }
  }
  if (to == TypeKind::kInt64) {
    int64_t v = 0;
    auto [stop, ec] = std::from_chars(text.data(), end, v);
    if (ec != std::errc() || stop != end || text.empty()) return false;
    out->set_int64(v);
    return true;
  }
  if (to == TypeKind::kFloat64 || to == TypeKind::kFloat32) {
    // from_chars rounds as strtod does.
    double d = 0;
    auto [stop, ec] = std::from_chars(text.data(), end, d);
    if (ec != std::errc() || stop != end || text.empty()) return false;
    *out = to == TypeKind::kFloat32 ? Value::Float32(static_cast<float>(d)) : Value::Float64(d);
    return true;
  }
  return false;
}

namespace {

Result<Value> CastFromString(std::string_view s, const TypePtr& to) {
  auto bad = [&] { return Status::OutOfRange(fmt::format("Bad {} value: {}", to->ToString(), s)); };
  // Plain decimal text, the common case, parses without a copy; anything
  // else (hex, signs, spaces, overflow, hex floats) takes the C library's
  // path below.
  if (Value plain; ParsePlainNumber(s, to->kind, &plain)) return plain;
  switch (to->kind) {
    case TypeKind::kInt64: {
      errno = 0;
      char* stop = nullptr;
      const std::string text(s);
      long long v = std::strtoll(text.c_str(), &stop, text.rfind("0x", 0) == 0 ? 16 : 10);
      if (text.empty() || errno == ERANGE || *stop != '\0') return bad();
      return Value::Int64(v);
    }
    case TypeKind::kFloat64:
    case TypeKind::kFloat32: {
      const std::string text(s);
      char* stop = nullptr;
      double d = std::strtod(text.c_str(), &stop);
      if (text.empty() || *stop != '\0') return bad();
      return to->kind == TypeKind::kFloat32 ? Value::Float32(static_cast<float>(d)) : Value::Float64(d);
    }
    case TypeKind::kBool: {
      std::string lower(s);
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower == "true") return Value::Bool(true);
      if (lower == "false") return Value::Bool(false);
      return bad();
    }
    case TypeKind::kTimestamp: {
      int64_t v;
      if (!ParseTimestamp(s, &v)) return bad();
      return Value::Timestamp(v);
    }
    case TypeKind::kDate: {
      int64_t v;
      if (!ParseDate(s, &v)) return bad();
      return Value::Date(v);
    }
    case TypeKind::kBytes: return Value::Bytes(std::string(s));
    default: return bad();
  }
}

}  // namespace

Result<Value> CastString(std::string_view text, const TypePtr& to, bool safe) {
  if (to->kind == TypeKind::kString) return Value::String(std::string(text));
  Result<Value> out = CastFromString(text, to);
  if (!out.ok() && safe) return Value::Null(to);
  return out;
}

Result<Value> CastValue(const Value& v, const TypePtr& to, bool safe) {
  if (v.is_null()) return Value::Null(to);
  if (SameType(v.type(), to)) return v;
  Result<Value> out = [&]() -> Result<Value> {
    const TypeKind from = v.kind();
    if (from == TypeKind::kString) return CastFromString(v.str(), to);
    if (from == TypeKind::kBytes) {
      if (!IsValidUtf8(v.str())) return Status::OutOfRange(kInvalidUtf8Cast);
      return Value::String(v.str());
    }
    if (to->kind == TypeKind::kString) {
      if (from == TypeKind::kTimestamp) return Value::String(FormatTimestamp(v.int64()));
      return Value::String(v.ToText());
    }
    if (to->kind == TypeKind::kInt64) {
      if (from == TypeKind::kBool) return Value::Int64(v.boolean() ? 1 : 0);
      double d = v.AsDouble();
      if (std::isnan(d) || d >= 9.2233720368547758e18 || d < -9.2233720368547758e18) {
        return Status::OutOfRange("int64 out of range: " + v.ToText());
      }
      return Value::Int64(static_cast<int64_t>(std::llround(d)));
    }
    if (to->kind == TypeKind::kFloat64) return Value::Float64(v.AsDouble());
    if (to->kind == TypeKind::kFloat32) return Value::Float32(static_cast<float>(v.AsDouble()));
    if (to->kind == TypeKind::kBool) return Value::Bool(v.int64() != 0);
    if (to->kind == TypeKind::kTimestamp) return Value::Timestamp(v.int64() * 86400LL * 1000000);
    if (to->kind == TypeKind::kDate) return Value::Date(FloorDiv(v.int64(), 86400LL * 1000000));
    return Status::InvalidArgument(fmt::format("Invalid cast from {} to {}", v.type()->ToString(), to->ToString()));
  }();
  if (!out.ok() && safe) return Value::Null(to);
  return out;
}

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

}  // namespace lbt::sql
