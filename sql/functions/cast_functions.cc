// CAST and SAFE_CAST: which conversions a query may ask for (CanCast, the
// binder's check) and the conversions themselves (CastValue, CastString,
// the evaluator's). Text parses as GoogleSQL literals do.

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "sql/functions.h"
#include "util/bytes.h"

namespace lbt::sql {

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
  static constexpr double kPowers[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
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

namespace {

// CAST of a value that is neither NULL nor of type `to` already, without
// SAFE_CAST's NULL for a failure.
Result<Value> Convert(const Value& v, const TypePtr& to) {
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
}

}  // namespace

Result<Value> CastValue(const Value& v, const TypePtr& to, bool safe) {
  if (v.is_null()) return Value::Null(to);
  if (SameType(v.type(), to)) return v;
  Result<Value> out = Convert(v, to);
  if (!out.ok() && safe) return Value::Null(to);
  return out;
}

}  // namespace lbt::sql
