// Functions of time, in UTC: CURRENT_TIMESTAMP, TIMESTAMP, TIMESTAMP_MICROS
// and kin, TIMESTAMP_FROM_UNIX_SECONDS/MICROS, UNIX_MICROS and kin,
// TIMESTAMP_TRUNC, EXTRACT, TIMESTAMP_ADD, TIMESTAMP_SUB, TIMESTAMP_DIFF,
// FORMAT_TIMESTAMP, PARSE_TIMESTAMP, STRING and GENERATE_TIMESTAMP_ARRAY. TIMESTAMP values are
// microseconds since the epoch, DATE values days.

#include <fmt/format.h>

#include <cmath>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"
#include "sql/functions/time_format.h"

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

// ---- FORMAT_TIMESTAMP(format, t [, zone]) and PARSE_TIMESTAMP(format, text [, zone]) ----

Result<TypePtr> FormatCheck(const Types& a) {
  if (a.size() < 2 || a.size() > 3 || !Is(a[0], TypeKind::kString) || !Is(a[1], TypeKind::kTimestamp) ||
      (a.size() == 3 && !Is(a[2], TypeKind::kString))) {
    return ArgError("FORMAT_TIMESTAMP", a);
  }
  return Type::String();
}
Result<Value> FormatEval(const Values& a, const EvalContext&) {
  int64_t offset = 0;
  if (a.size() == 3) {
    LBT_ASSIGN_OR_RETURN(offset, TimeZoneOffsetMicros(a[2].str()));
  }
  return Value::String(FormatTime(a[0].str(), a[1].int64(), offset));
}

Result<TypePtr> ParseTimestampCheck(const Types& a) {
  if (a.size() < 2 || a.size() > 3 || !Is(a[0], TypeKind::kString) || !Is(a[1], TypeKind::kString) ||
      (a.size() == 3 && !Is(a[2], TypeKind::kString))) {
    return ArgError("PARSE_TIMESTAMP", a);
  }
  return Type::Timestamp();
}
Result<Value> ParseTimestampEval(const Values& a, const EvalContext&) {
  int64_t offset = 0;
  if (a.size() == 3) {
    LBT_ASSIGN_OR_RETURN(offset, TimeZoneOffsetMicros(a[2].str()));
  }
  LBT_ASSIGN_OR_RETURN(int64_t micros, ParseTime(a[0].str(), a[1].str()));
  return CheckedTimestamp(micros - offset);
}

// ---- STRING(t [, zone]): the canonical text ----

Result<TypePtr> StringCheck(const Types& a) {
  if (a.empty() || a.size() > 2 || !Is(a[0], TypeKind::kTimestamp) || (a.size() == 2 && !Is(a[1], TypeKind::kString))) {
    return ArgError("STRING", a);
  }
  return Type::String();
}
Result<Value> StringEval(const Values& a, const EvalContext&) {
  if (a.size() == 1) return Value::String(FormatTimestamp(a[0].int64()));
  LBT_ASSIGN_OR_RETURN(int64_t offset, TimeZoneOffsetMicros(a[1].str()));
  std::string text = FormatTimestamp(a[0].int64() + offset);
  text.resize(text.size() - 3);  // "+00"
  const int64_t minutes = (offset < 0 ? -offset : offset) / 60000000;
  text += fmt::format("{}{:02d}", offset < 0 ? '-' : '+', minutes / 60);
  if (minutes % 60 != 0) text += fmt::format(":{:02d}", minutes % 60);
  return Value::String(std::move(text));
}

// ---- TIMESTAMP_FROM_UNIX_SECONDS, _MICROS(n | t) ----

Result<TypePtr> FromUnixCheck(const Types& a) {
  if (a.size() != 1 || !(Is(a[0], TypeKind::kInt64) || Is(a[0], TypeKind::kTimestamp))) {
    return ArgError("TIMESTAMP_FROM_UNIX_SECONDS", a);
  }
  return Type::Timestamp();
}
template <int64_t kUnit>
Result<Value> FromUnixEval(const Values& a, const EvalContext& ctx) {
  if (a[0].kind() == TypeKind::kTimestamp) return a[0];
  return TimestampFromUnitsEval<kUnit>(a, ctx);
}

// ---- GENERATE_TIMESTAMP_ARRAY(start, end, n, part): MICROSECOND through DAY ----

Result<TypePtr> GenerateCheck(const Types& a) {
  if (a.size() != 4 || !Is(a[0], TypeKind::kTimestamp) || !Is(a[1], TypeKind::kTimestamp) ||
      !Is(a[2], TypeKind::kInt64) || !Is(a[3], TypeKind::kString)) {
    return ArgError("GENERATE_TIMESTAMP_ARRAY", a);
  }
  return Type::Array(Type::Timestamp());
}
Result<Value> GenerateEval(const Values& a, const EvalContext&) {
  const int64_t unit = PartMicros(a[3].str());
  if (unit == 0 || a[3].str() == "WEEK") {
    return Status::InvalidArgument("GENERATE_TIMESTAMP_ARRAY takes MICROSECOND through DAY, not " + a[3].str());
  }
  int64_t step = 0;
  if (a[2].int64() == 0 || __builtin_mul_overflow(a[2].int64(), unit, &step)) {
    return Status::OutOfRange("GENERATE_TIMESTAMP_ARRAY's step must be a non-zero interval that fits");
  }
  const int64_t start = a[0].int64(), end = a[1].int64();
  const double count =
      std::floor((static_cast<double>(end) - static_cast<double>(start)) / static_cast<double>(step)) + 1;
  if (count > static_cast<double>((100 << 20) / 8)) {
    return Status::OutOfRange(
        fmt::format("GENERATE_TIMESTAMP_ARRAY would make {:.0f} elements; at most {} fit in "
                    "100 MiB",
                    count, (100 << 20) / 8));
  }
  Values out;
  for (int64_t k = 0; k < static_cast<int64_t>(std::max(count, 0.0)); ++k)
    out.push_back(Value::Timestamp(start + k * step));
  return Value::Array(Type::Array(Type::Timestamp()), std::move(out));
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
  registry->Add("PARSE_TIMESTAMP", ParseTimestampCheck, ParseTimestampEval);
  registry->Add("STRING", StringCheck, StringEval);
  registry->Add("TIMESTAMP_FROM_UNIX_SECONDS", FromUnixCheck, FromUnixEval<1000000>);
  registry->Add("TIMESTAMP_FROM_UNIX_MICROS", FromUnixCheck, FromUnixEval<1>);
  registry->Add("GENERATE_TIMESTAMP_ARRAY", GenerateCheck, GenerateEval);
}

}  // namespace lbt::sql
