// Functions of time, in UTC: CURRENT_TIMESTAMP, TIMESTAMP, TIMESTAMP_MICROS
// and kin, UNIX_MICROS and kin, TIMESTAMP_TRUNC, EXTRACT, TIMESTAMP_ADD,
// TIMESTAMP_SUB, TIMESTAMP_DIFF and FORMAT_TIMESTAMP. TIMESTAMP values are
// microseconds since the epoch, DATE values days.

#include <fmt/format.h>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

constexpr int64_t kMicrosPerDay = 86400LL * 1000000;
constexpr int64_t kMinTimestamp = -62135596800LL * 1000000;  // 0001-01-01
constexpr int64_t kMaxTimestamp = 253402300799999999LL;      // 9999-12-31 23:59:59.999999

// `micros` as a TIMESTAMP; OutOfRange outside the years 1 to 9999 or when
// computing it `overflowed`. Exact: a double loses microseconds past the
// year 2255, and rounded 10000-01-01 into range.
Result<Value> CheckedTimestamp(int64_t micros, bool overflowed = false) {
  if (overflowed || micros < kMinTimestamp || micros > kMaxTimestamp) {
    return Status::OutOfRange("timestamp out of range");
  }
  return Value::Timestamp(micros);
}

// Date parts as TIMESTAMP_TRUNC, EXTRACT, TIMESTAMP_ADD and TIMESTAMP_DIFF
// take them; the part reaches the function as an upper-case STRING (the
// binder turns the name into one). 0 for parts of no fixed length.
int64_t PartMicros(std::string_view part) {
  if (part == "MICROSECOND") return 1;
  if (part == "MILLISECOND") return 1000;
  if (part == "SECOND") return 1000000;
  if (part == "MINUTE") return 60LL * 1000000;
  if (part == "HOUR") return 3600LL * 1000000;
  if (part == "DAY") return kMicrosPerDay;
  if (part == "WEEK") return 7 * kMicrosPerDay;
  return 0;
}

// ---- CURRENT_TIMESTAMP: one time for the whole query ----

Result<TypePtr> CurrentTimestampCheck(const Types& a) {
  if (!a.empty()) return ArgError("CURRENT_TIMESTAMP", a);
  return Type::Timestamp();
}
Result<Value> CurrentTimestampEval(const Values&, const EvalContext& ctx) { return Value::Timestamp(ctx.now_micros); }

// ---- TIMESTAMP(text | date | timestamp) ----

Result<TypePtr> TimestampCheck(const Types& a) {
  if (a.empty() || a.size() > 2 ||
      !(Is(a[0], TypeKind::kString) || Is(a[0], TypeKind::kDate) || Is(a[0], TypeKind::kTimestamp))) {
    return ArgError("TIMESTAMP", a);
  }
  return Type::Timestamp();
}
Result<Value> TimestampEval(const Values& a, const EvalContext&) {
  if (a[0].kind() == TypeKind::kTimestamp) return a[0];
  if (a[0].kind() == TypeKind::kDate) return Value::Timestamp(a[0].int64() * kMicrosPerDay);
  int64_t micros;
  if (!ParseTimestamp(a[0].str(), &micros)) return Status::OutOfRange("Invalid timestamp: '" + a[0].str() + "'");
  return Value::Timestamp(micros);
}

// ---- TIMESTAMP_MICROS, _MILLIS, _SECONDS and UNIX_MICROS, _MILLIS, _SECONDS ----

Result<TypePtr> IntToTimestampCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kInt64)) return ArgError("function", a);
  return Type::Timestamp();
}
template <int64_t kUnit>
Result<Value> TimestampFromUnitsEval(const Values& a, const EvalContext&) {
  int64_t micros = 0;
  const bool overflowed = __builtin_mul_overflow(a[0].int64(), kUnit, &micros);
  return CheckedTimestamp(micros, overflowed);
}

Result<TypePtr> TimestampToIntCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kTimestamp)) return ArgError("function", a);
  return Type::Int64();
}
template <int64_t kUnit>
Result<Value> UnixUnitsEval(const Values& a, const EvalContext&) {
  return Value::Int64(FloorDiv(a[0].int64(), kUnit));
}

// ---- TIMESTAMP_TRUNC(t, part) ----

Result<TypePtr> TruncCheck(const Types& a) {
  if (a.size() != 2 || !Is(a[0], TypeKind::kTimestamp) || !Is(a[1], TypeKind::kString)) {
    return ArgError("TIMESTAMP_TRUNC", a);
  }
  return Type::Timestamp();
}
Result<Value> TruncEval(const Values& a, const EvalContext&) {
  const std::string& part = a[1].str();
  const int64_t t = a[0].int64();
  if (part == "WEEK") {
    // Weeks start on Sunday; 1970-01-04 was one.
    const int64_t week = 7 * kMicrosPerDay;
    const int64_t sunday = 3 * kMicrosPerDay;
    return Value::Timestamp(FloorDiv(t - sunday, week) * week + sunday);
  }
  if (int64_t unit = PartMicros(part); unit != 0) return Value::Timestamp(FloorDiv(t, unit) * unit);
  int64_t year;
  unsigned month, day;
  CivilFromDays(FloorDiv(t, kMicrosPerDay), &year, &month, &day);
  if (part == "MONTH") return Value::Timestamp(DaysFromCivil(year, month, 1) * kMicrosPerDay);
  if (part == "QUARTER") return Value::Timestamp(DaysFromCivil(year, (month - 1) / 3 * 3 + 1, 1) * kMicrosPerDay);
  if (part == "YEAR") return Value::Timestamp(DaysFromCivil(year, 1, 1) * kMicrosPerDay);
  return Status::InvalidArgument("TIMESTAMP_TRUNC does not support the " + part + " date part");
}

// ---- EXTRACT(part FROM t), called as EXTRACT(part, t) ----

Result<TypePtr> ExtractCheck(const Types& a) {
  if (a.size() != 2 || !Is(a[0], TypeKind::kString) || !(Is(a[1], TypeKind::kTimestamp) || Is(a[1], TypeKind::kDate))) {
    return ArgError("EXTRACT", a);
  }
  return Type::Int64();
}
Result<Value> ExtractEval(const Values& a, const EvalContext&) {
  const std::string& part = a[0].str();
  const int64_t t = a[1].kind() == TypeKind::kDate ? a[1].int64() * kMicrosPerDay : a[1].int64();
  const int64_t days = FloorDiv(t, kMicrosPerDay);
  const int64_t in_day = t - days * kMicrosPerDay;
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

// ---- TIMESTAMP_ADD, TIMESTAMP_SUB(t, n, part): MICROSECOND through DAY ----

Result<TypePtr> AddCheck(const Types& a) {
  if (a.size() != 3 || !Is(a[0], TypeKind::kTimestamp) || !Is(a[1], TypeKind::kInt64) || !Is(a[2], TypeKind::kString)) {
    return ArgError("TIMESTAMP_ADD", a);
  }
  return Type::Timestamp();
}
template <int kSign>
Result<Value> AddEval(const Values& a, const EvalContext&) {
  const int64_t unit = PartMicros(a[2].str());
  if (unit == 0 || a[2].str() == "WEEK") {
    return Status::InvalidArgument("TIMESTAMP_ADD and TIMESTAMP_SUB take MICROSECOND through DAY, not " + a[2].str());
  }
  int64_t delta = 0, micros = 0;
  const bool overflowed = __builtin_mul_overflow(a[1].int64(), kSign * unit, &delta) ||
                          __builtin_add_overflow(a[0].int64(), delta, &micros);
  return CheckedTimestamp(micros, overflowed);
}

// ---- TIMESTAMP_DIFF(a, b, part): whole parts from b to a ----

Result<TypePtr> DiffCheck(const Types& a) {
  if (a.size() != 3 || !Is(a[0], TypeKind::kTimestamp) || !Is(a[1], TypeKind::kTimestamp) ||
      !Is(a[2], TypeKind::kString)) {
    return ArgError("TIMESTAMP_DIFF", a);
  }
  return Type::Int64();
}
Result<Value> DiffEval(const Values& a, const EvalContext&) {
  const int64_t unit = PartMicros(a[2].str());
  if (unit == 0 || a[2].str() == "WEEK") {
    return Status::InvalidArgument("TIMESTAMP_DIFF takes MICROSECOND through DAY, not " + a[2].str());
  }
  return Value::Int64((a[0].int64() - a[1].int64()) / unit);
}

// ---- FORMAT_TIMESTAMP(format, t): the common strftime elements ----

Result<TypePtr> FormatCheck(const Types& a) {
  if (a.size() != 2 || !Is(a[0], TypeKind::kString) || !Is(a[1], TypeKind::kTimestamp)) {
    return ArgError("FORMAT_TIMESTAMP", a);
  }
  return Type::String();
}
Result<Value> FormatEval(const Values& a, const EvalContext&) {
  const int64_t seconds = FloorDiv(a[1].int64(), 1000000);
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
    const char c = f[++i];
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

}  // namespace

void RegisterTimestampFunctions(FunctionRegistry* registry) {
  registry->Add("CURRENT_TIMESTAMP", CurrentTimestampCheck, CurrentTimestampEval);
  registry->Add("TIMESTAMP", TimestampCheck, TimestampEval);
  registry->Add("TIMESTAMP_MICROS", IntToTimestampCheck, TimestampFromUnitsEval<1>);
  registry->Add("TIMESTAMP_MILLIS", IntToTimestampCheck, TimestampFromUnitsEval<1000>);
  registry->Add("TIMESTAMP_SECONDS", IntToTimestampCheck, TimestampFromUnitsEval<1000000>);
  registry->Add("TIMESTAMP_FROM_UNIX_MILLIS", IntToTimestampCheck, TimestampFromUnitsEval<1000>);
  registry->Add("UNIX_MICROS", TimestampToIntCheck, UnixUnitsEval<1>);
  registry->Add("UNIX_MILLIS", TimestampToIntCheck, UnixUnitsEval<1000>);
  registry->Add("UNIX_SECONDS", TimestampToIntCheck, UnixUnitsEval<1000000>);
  registry->Add("TIMESTAMP_TRUNC", TruncCheck, TruncEval);
  registry->Add("EXTRACT", ExtractCheck, ExtractEval);
  registry->Add("TIMESTAMP_ADD", AddCheck, AddEval<1>);
  registry->Add("TIMESTAMP_SUB", AddCheck, AddEval<-1>);
  registry->Add("TIMESTAMP_DIFF", DiffCheck, DiffEval);
  registry->Add("FORMAT_TIMESTAMP", FormatCheck, FormatEval);
}

}  // namespace lbt::sql
