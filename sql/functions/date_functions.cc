// Functions of DATE values (days since the epoch), as GoogleSQL for
// Bigtable's date functions page gives them: DATE, CURRENT_DATE, DATE_ADD,
// DATE_SUB, DATE_DIFF, DATE_TRUNC, LAST_DAY, DATE_FROM_UNIX_DATE,
// UNIX_DATE, FORMAT_DATE, PARSE_DATE and GENERATE_DATE_ARRAY. Date parts
// reach a function as upper-case STRINGs (the binder turns the names into
// them): DAY, WEEK (weeks start on Sunday), WEEK(<WEEKDAY>), ISOWEEK
// (Monday), MONTH, QUARTER, YEAR and ISOYEAR.
//
// Time zones: lbt computes in UTC; a time zone argument may be UTC or a
// fixed offset ('+05:30'), and a named zone is refused (README).

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <optional>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"
#include "sql/functions/time_format.h"

namespace lbt::sql {

namespace {

constexpr int64_t kMicrosPerDay = 86400LL * 1000000;
constexpr int64_t kMinDate = -719162;  // 0001-01-01
constexpr int64_t kMaxDate = 2932896;  // 9999-12-31

Result<Value> CheckedDate(int64_t days) {
  if (days < kMinDate || days > kMaxDate) return Status::OutOfRange("DATE value out of range");
  return Value::Date(days);
}

int Weekday(int64_t days) { return static_cast<int>(((days % 7) + 7 + 4) % 7); }  // 0 = Sunday

// The weekday a week part starts on: WEEK, Sunday; WEEK(MONDAY) and kin;
// ISOWEEK, Monday. nullopt for other parts.
std::optional<int> WeekStart(std::string_view part) {
  static constexpr std::array<std::string_view, 7> kDays = {"SUNDAY",   "MONDAY", "TUESDAY", "WEDNESDAY",
                                                            "THURSDAY", "FRIDAY", "SATURDAY"};
  if (part == "WEEK") return 0;
  if (part == "ISOWEEK") return 1;
  if (part.starts_with("WEEK(") && part.ends_with(")")) {
    const std::string_view day = part.substr(5, part.size() - 6);
    for (int i = 0; i < 7; ++i) {
      if (kDays[static_cast<size_t>(i)] == day) return i;
    }
  }
  return std::nullopt;
}

int64_t WeekStartDay(int64_t days, int start) { return days - ((Weekday(days) - start + 7) % 7); }

// The first day of the ISO year `days` is in (the Monday of its week 1).
int64_t IsoYearStart(int64_t days, int64_t* iso_year = nullptr) {
  const int64_t thursday = WeekStartDay(days, 1) + 3;
  int64_t year;
  unsigned month, day;
  CivilFromDays(thursday, &year, &month, &day);
  if (iso_year != nullptr) *iso_year = year;
  return WeekStartDay(DaysFromCivil(year, 1, 4), 1);
}

unsigned DaysInMonth(int64_t year, unsigned month) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

Status BadPart(std::string_view fn, std::string_view part) {
  return Status::InvalidArgument(fmt::format("{} does not support the {} date part", fn, part));
}

// ---- DATE(year, month, day) | DATE(timestamp [, zone]) | DATE(date) ----

Result<TypePtr> DateCheck(const Types& a) {
  const bool ymd =
      a.size() == 3 && Is(a[0], TypeKind::kInt64) && Is(a[1], TypeKind::kInt64) && Is(a[2], TypeKind::kInt64);
  const bool from_time = (a.size() == 1 || (a.size() == 2 && Is(a[1], TypeKind::kString))) &&
                         (Is(a[0], TypeKind::kTimestamp) || Is(a[0], TypeKind::kDate));
  if (!ymd && !from_time) return ArgError("DATE", a);
  return Type::Date();
}
Result<Value> DateEval(const Values& a, const EvalContext&) {
  if (a.size() == 3) {
    const int64_t y = a[0].int64(), m = a[1].int64(), d = a[2].int64();
    if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || d > DaysInMonth(y, static_cast<unsigned>(m))) {
      return Status::OutOfRange(fmt::format("Invalid date: {}-{}-{}", y, m, d));
    }
    return Value::Date(DaysFromCivil(y, static_cast<unsigned>(m), static_cast<unsigned>(d)));
  }
  if (a[0].kind() == TypeKind::kDate) return a[0];
  int64_t offset = 0;
  if (a.size() == 2) {
    LBT_ASSIGN_OR_RETURN(offset, TimeZoneOffsetMicros(a[1].str()));
  }
  return CheckedDate(FloorDiv(a[0].int64() + offset, kMicrosPerDay));
}

// ---- CURRENT_DATE([zone]) ----

Result<TypePtr> CurrentDateCheck(const Types& a) {
  if (a.size() > 1 || (a.size() == 1 && !Is(a[0], TypeKind::kString))) return ArgError("CURRENT_DATE", a);
  return Type::Date();
}
Result<Value> CurrentDateEval(const Values& a, const EvalContext& ctx) {
  int64_t offset = 0;
  if (!a.empty()) {
    LBT_ASSIGN_OR_RETURN(offset, TimeZoneOffsetMicros(a[0].str()));
  }
  return Value::Date(FloorDiv(ctx.now_micros + offset, kMicrosPerDay));
}

// ---- DATE_ADD, DATE_SUB(date, n, part) ----

Result<TypePtr> DateAddCheck(const Types& a) {
  if (a.size() != 3 || !Is(a[0], TypeKind::kDate) || !Is(a[1], TypeKind::kInt64) || !Is(a[2], TypeKind::kString)) {
    return ArgError("DATE_ADD", a);
  }
  return Type::Date();
}

// `days` moved by `n` parts; a month that lacks the day takes its last.
Result<Value> AddToDate(int64_t days, int64_t n, std::string_view part, std::string_view fn) {
  if (n > 4000000 || n < -4000000) return Status::OutOfRange("DATE value out of range");
  if (part == "DAY") return CheckedDate(days + n);
  if (part == "WEEK") return CheckedDate(days + 7 * n);
  int64_t months = 0;
  if (part == "MONTH") {
    months = n;
  } else if (part == "QUARTER") {
    months = 3 * n;
  } else if (part == "YEAR") {
    months = 12 * n;
  } else {
    return BadPart(fn, part);
  }
  int64_t year;
  unsigned month, day;
  CivilFromDays(days, &year, &month, &day);
  const int64_t total = year * 12 + (month - 1) + months;
  const int64_t new_year = FloorDiv(total, 12);
  const unsigned new_month = static_cast<unsigned>(total - new_year * 12 + 1);
  if (new_year < 1 || new_year > 9999) return Status::OutOfRange("DATE value out of range");
  return Value::Date(DaysFromCivil(new_year, new_month, std::min(day, DaysInMonth(new_year, new_month))));
}
template <int kSign>
Result<Value> DateAddEval(const Values& a, const EvalContext&) {
  return AddToDate(a[0].int64(), kSign * a[1].int64(), a[2].str(), kSign > 0 ? "DATE_ADD" : "DATE_SUB");
}

// ---- DATE_DIFF(a, b, part): part boundaries from b to a ----

Result<TypePtr> DateDiffCheck(const Types& a) {
  if (a.size() != 3 || !Is(a[0], TypeKind::kDate) || !Is(a[1], TypeKind::kDate) || !Is(a[2], TypeKind::kString)) {
    return ArgError("DATE_DIFF", a);
  }
  return Type::Int64();
}
Result<Value> DateDiffEval(const Values& a, const EvalContext&) {
  const int64_t x = a[0].int64(), y = a[1].int64();
  const std::string& part = a[2].str();
  if (part == "DAY") return Value::Int64(x - y);
  if (std::optional<int> start = WeekStart(part)) {
    return Value::Int64((WeekStartDay(x, *start) - WeekStartDay(y, *start)) / 7);
  }
  int64_t xy, yy;
  unsigned xm, ym, xd, yd;
  CivilFromDays(x, &xy, &xm, &xd);
  CivilFromDays(y, &yy, &ym, &yd);
  if (part == "MONTH") return Value::Int64((xy * 12 + xm) - (yy * 12 + ym));
  if (part == "QUARTER") return Value::Int64((xy * 4 + (xm - 1) / 3) - (yy * 4 + (ym - 1) / 3));
  if (part == "YEAR") return Value::Int64(xy - yy);
  if (part == "ISOYEAR") {
    int64_t xi, yi;
    IsoYearStart(x, &xi);
    IsoYearStart(y, &yi);
    return Value::Int64(xi - yi);
  }
  return BadPart("DATE_DIFF", part);
}

// ---- DATE_TRUNC(date, part) and LAST_DAY(date [, part]) ----

Result<TypePtr> DateTruncCheck(const Types& a) {
  if (a.size() != 2 || !Is(a[0], TypeKind::kDate) || !Is(a[1], TypeKind::kString)) return ArgError("DATE_TRUNC", a);
  return Type::Date();
}
// The first day of the part `days` is in.
Result<int64_t> PartStart(int64_t days, std::string_view part, std::string_view fn) {
  if (part == "DAY") return days;
  if (std::optional<int> start = WeekStart(part)) return WeekStartDay(days, *start);
  if (part == "ISOYEAR") return IsoYearStart(days);
  int64_t year;
  unsigned month, day;
  CivilFromDays(days, &year, &month, &day);
  if (part == "MONTH") return DaysFromCivil(year, month, 1);
  if (part == "QUARTER") return DaysFromCivil(year, (month - 1) / 3 * 3 + 1, 1);
  if (part == "YEAR") return DaysFromCivil(year, 1, 1);
  return BadPart(fn, part);
}
Result<Value> DateTruncEval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(int64_t start, PartStart(a[0].int64(), a[1].str(), "DATE_TRUNC"));
  return CheckedDate(start);
}

Result<TypePtr> LastDayCheck(const Types& a) {
  if (a.empty() || a.size() > 2 || !Is(a[0], TypeKind::kDate) || (a.size() == 2 && !Is(a[1], TypeKind::kString))) {
    return ArgError("LAST_DAY", a);
  }
  return Type::Date();
}
Result<Value> LastDayEval(const Values& a, const EvalContext&) {
  const std::string part = a.size() == 2 ? a[1].str() : "MONTH";
  const int64_t days = a[0].int64();
  if (part == "DAY") return BadPart("LAST_DAY", part);
  LBT_ASSIGN_OR_RETURN(int64_t start, PartStart(days, part, "LAST_DAY"));
  if (WeekStart(part)) return CheckedDate(start + 6);
  if (part == "ISOYEAR") {
    int64_t iso_year;
    IsoYearStart(days, &iso_year);
    return CheckedDate(WeekStartDay(DaysFromCivil(iso_year + 1, 1, 4), 1) - 1);
  }
  const int64_t months = part == "MONTH" ? 1 : part == "QUARTER" ? 3 : 12;
  LBT_ASSIGN_OR_RETURN(Value next, AddToDate(start, months, "MONTH", "LAST_DAY"));
  return CheckedDate(next.int64() - 1);
}

// ---- DATE_FROM_UNIX_DATE(n), UNIX_DATE(date) ----

Result<TypePtr> FromUnixDateCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kInt64)) return ArgError("DATE_FROM_UNIX_DATE", a);
  return Type::Date();
}
Result<Value> FromUnixDateEval(const Values& a, const EvalContext&) { return CheckedDate(a[0].int64()); }

Result<TypePtr> UnixDateCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kDate)) return ArgError("UNIX_DATE", a);
  return Type::Int64();
}
Result<Value> UnixDateEval(const Values& a, const EvalContext&) { return Value::Int64(a[0].int64()); }

// ---- FORMAT_DATE(format, date), PARSE_DATE(format, text) ----

Result<TypePtr> FormatDateCheck(const Types& a) {
  if (a.size() != 2 || !Is(a[0], TypeKind::kString) || !Is(a[1], TypeKind::kDate)) return ArgError("FORMAT_DATE", a);
  return Type::String();
}
Result<Value> FormatDateEval(const Values& a, const EvalContext&) {
  return Value::String(FormatTime(a[0].str(), a[1].int64() * kMicrosPerDay));
}

Result<TypePtr> ParseDateCheck(const Types& a) {
  if (a.size() != 2 || !Is(a[0], TypeKind::kString) || !Is(a[1], TypeKind::kString)) return ArgError("PARSE_DATE", a);
  return Type::Date();
}
Result<Value> ParseDateEval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(int64_t micros, ParseTime(a[0].str(), a[1].str()));
  return CheckedDate(FloorDiv(micros, kMicrosPerDay));
}

// ---- GENERATE_DATE_ARRAY(start, end [, n, part]) ----

constexpr int64_t kMaxGeneratedDates = (100 << 20) / 8;

Result<TypePtr> GenerateDateArrayCheck(const Types& a) {
  if ((a.size() != 2 && a.size() != 4) || !Is(a[0], TypeKind::kDate) || !Is(a[1], TypeKind::kDate) ||
      (a.size() == 4 && (!Is(a[2], TypeKind::kInt64) || !Is(a[3], TypeKind::kString)))) {
    return ArgError("GENERATE_DATE_ARRAY", a);
  }
  return Type::Array(Type::Date());
}
Result<Value> GenerateDateArrayEval(const Values& a, const EvalContext&) {
  const int64_t step = a.size() == 4 ? a[2].int64() : 1;
  const std::string part = a.size() == 4 ? a[3].str() : "DAY";
  if (step == 0) return Status::OutOfRange("GENERATE_DATE_ARRAY's step must not be 0");
  Values out;
  const int64_t start = a[0].int64(), end = a[1].int64();
  for (int64_t k = 0;; ++k) {
    Result<Value> next = AddToDate(start, k * step, part, "GENERATE_DATE_ARRAY");
    if (!next.ok()) {
      if (next.status().code() == Status::Code::kOutOfRange) break;  // past the last date there is
      return next.status();
    }
    if (step > 0 ? next->int64() > end : next->int64() < end) break;
    if (static_cast<int64_t>(out.size()) >= kMaxGeneratedDates) {
      return Status::OutOfRange(
          fmt::format("GENERATE_DATE_ARRAY would make more than {} elements (100 MiB)", kMaxGeneratedDates));
    }
    out.push_back(*next);
  }
  return Value::Array(Type::Array(Type::Date()), std::move(out));
}

}  // namespace

void RegisterDateFunctions(FunctionRegistry* registry) {
  registry->Add("DATE", DateCheck, DateEval);
  registry->Add("CURRENT_DATE", CurrentDateCheck, CurrentDateEval);
  registry->Add("DATE_ADD", DateAddCheck, DateAddEval<1>);
  registry->Add("DATE_SUB", DateAddCheck, DateAddEval<-1>);
  registry->Add("DATE_DIFF", DateDiffCheck, DateDiffEval);
  registry->Add("DATE_TRUNC", DateTruncCheck, DateTruncEval);
  registry->Add("LAST_DAY", LastDayCheck, LastDayEval);
  registry->Add("DATE_FROM_UNIX_DATE", FromUnixDateCheck, FromUnixDateEval);
  registry->Add("UNIX_DATE", UnixDateCheck, UnixDateEval);
  registry->Add("FORMAT_DATE", FormatDateCheck, FormatDateEval);
  registry->Add("PARSE_DATE", ParseDateCheck, ParseDateEval);
  registry->Add("GENERATE_DATE_ARRAY", GenerateDateArrayCheck, GenerateDateArrayEval);
}

}  // namespace lbt::sql
