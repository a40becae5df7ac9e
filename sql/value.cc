#include "sql/value.h"

#include "sql/geography/geography.h"
#include "sql/geography/geography_formats.h"

#include <fmt/format.h>

#include <cmath>
#include <functional>

namespace lbt::sql {

namespace {

TypePtr Scalar(TypeKind kind) {
  auto t = std::make_shared<Type>();
  t->kind = kind;
  return t;
}

}  // namespace

#define LBT_SQL_SCALAR(Name, Kind)         \
  TypePtr Type::Name() {                   \
    static const TypePtr t = Scalar(Kind); \
    return t;                              \
  }
LBT_SQL_SCALAR(Bytes, TypeKind::kBytes)
LBT_SQL_SCALAR(String, TypeKind::kString)
LBT_SQL_SCALAR(Int64, TypeKind::kInt64)
LBT_SQL_SCALAR(Float32, TypeKind::kFloat32)
LBT_SQL_SCALAR(Float64, TypeKind::kFloat64)
LBT_SQL_SCALAR(Bool, TypeKind::kBool)
LBT_SQL_SCALAR(Timestamp, TypeKind::kTimestamp)
LBT_SQL_SCALAR(Date, TypeKind::kDate)
LBT_SQL_SCALAR(Geography, TypeKind::kGeography)
#undef LBT_SQL_SCALAR

const TypePtr& ScalarType(TypeKind kind) {
  // In TypeKind's order.
  static const TypePtr* const kScalars =
      new TypePtr[9]{Type::Bytes(), Type::String(),    Type::Int64(), Type::Float32(),  Type::Float64(),
                     Type::Bool(),  Type::Timestamp(), Type::Date(),  Type::Geography()};
  return kScalars[static_cast<int>(kind)];
}

TypePtr Type::Array(TypePtr element) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kArray;
  t->element = std::move(element);
  return t;
}

TypePtr Type::Map(TypePtr key, TypePtr value) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kMap;
  t->key = std::move(key);
  t->value = std::move(value);
  return t;
}

TypePtr Type::Struct(std::vector<std::pair<std::string, TypePtr>> fields) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kStruct;
  t->fields = std::move(fields);
  return t;
}

bool Type::IsOrderable() const {
  switch (kind) {
    case TypeKind::kMap:
    case TypeKind::kGeography:  // GoogleSQL neither orders nor groups geographies
    case TypeKind::kStruct: return false;
    case TypeKind::kArray: return false;
    default: return true;
  }
}

std::string Type::ToString() const {
  switch (kind) {
    case TypeKind::kBytes: return "BYTES";
    case TypeKind::kString: return "STRING";
    case TypeKind::kInt64: return "INT64";
    case TypeKind::kFloat32: return "FLOAT32";
    case TypeKind::kFloat64: return "FLOAT64";
    case TypeKind::kBool: return "BOOL";
    case TypeKind::kTimestamp: return "TIMESTAMP";
    case TypeKind::kDate: return "DATE";
    case TypeKind::kGeography: return "GEOGRAPHY";
    case TypeKind::kArray: return "ARRAY<" + element->ToString() + ">";
    case TypeKind::kMap: return "MAP<" + key->ToString() + ", " + value->ToString() + ">";
    case TypeKind::kStruct: {
      std::string out = "STRUCT<";
      for (size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) out += ", ";
        if (!fields[i].first.empty()) out += fields[i].first + " ";
        out += fields[i].second->ToString();
      }
      return out + ">";
    }
  }
  return "?";
}

bool SameType(const TypePtr& a, const TypePtr& b) {
  if (a == b) return true;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
    case TypeKind::kArray: return SameType(a->element, b->element);
    case TypeKind::kMap: return SameType(a->key, b->key) && SameType(a->value, b->value);
    case TypeKind::kStruct:
      if (a->fields.size() != b->fields.size()) return false;
      for (size_t i = 0; i < a->fields.size(); ++i) {
        if (!SameType(a->fields[i].second, b->fields[i].second)) return false;
      }
      return true;
    default: return true;
  }
}

Value Value::Array(TypePtr type, Values elements) {
  Value v(type->kind, std::make_shared<const Values>(std::move(elements)));
  v.compound_ = std::move(type);
  return v;
}

Value Value::Map(TypePtr type, MapEntries entries) {
  Value v(type->kind, std::make_shared<const MapEntries>(std::move(entries)));
  v.compound_ = std::move(type);
  return v;
}

// ---- text ----

std::string Value::ToText() const {
  if (is_null()) return "NULL";
  switch (kind()) {
    case TypeKind::kBytes:
    case TypeKind::kString: return str();
    case TypeKind::kInt64: return std::to_string(int64());
    case TypeKind::kFloat32:
    case TypeKind::kFloat64: {
      double d = float64();
      if (std::isnan(d)) return "nan";
      if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
      return fmt::format("{}", d);
    }
    case TypeKind::kBool: return boolean() ? "true" : "false";
    case TypeKind::kTimestamp: return FormatTimestamp(int64());
    case TypeKind::kDate: return FormatDate(int64());
    case TypeKind::kGeography: return geo::FormatWkt(geo::Decode(str()));
    case TypeKind::kArray:
    case TypeKind::kStruct: {
      const bool is_struct = kind() == TypeKind::kStruct;
      std::string out = is_struct ? "{" : "[";
      for (size_t i = 0; i < elements().size(); ++i) {
        if (i > 0) out += ", ";
        if (is_struct && !type()->fields[i].first.empty()) out += type()->fields[i].first + ": ";
        out += elements()[i].ToText();
      }
      return out + (is_struct ? "}" : "]");
    }
    case TypeKind::kMap: {
      std::string out = "{";
      for (size_t i = 0; i < entries().size(); ++i) {
        if (i > 0) out += ", ";
        out += entries()[i].first.ToText() + ": " + entries()[i].second.ToText();
      }
      return out + "}";
    }
  }
  return "";
}

// ---- order ----

namespace {

template <typename T>
int Cmp(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int CompareDoubles(double a, double b) {
  const bool an = std::isnan(a), bn = std::isnan(b);
  if (an || bn) return an && bn ? 0 : (an ? -1 : 1);
  return Cmp(a, b);
}

}  // namespace

int Compare(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null() ? 0 : (a.is_null() ? -1 : 1);
  auto numeric = [](TypeKind k) { return k == TypeKind::kInt64 || k == TypeKind::kFloat32 || k == TypeKind::kFloat64; };
  if (numeric(a.kind()) && numeric(b.kind())) {
    if (a.kind() == TypeKind::kInt64 && b.kind() == TypeKind::kInt64) return Cmp(a.int64(), b.int64());
    return CompareDoubles(a.AsDouble(), b.AsDouble());
  }
  switch (a.kind()) {
    case TypeKind::kBytes:
    case TypeKind::kString: return a.str().compare(b.str()) < 0 ? -1 : (a.str() == b.str() ? 0 : 1);
    case TypeKind::kBool: return Cmp(a.boolean(), b.boolean());
    case TypeKind::kTimestamp:
    case TypeKind::kDate: return Cmp(a.int64(), b.int64());
    case TypeKind::kArray:
    case TypeKind::kStruct: {
      const Values& x = a.elements();
      const Values& y = b.elements();
      for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (int c = Compare(x[i], y[i]); c != 0) return c;
      }
      return Cmp(x.size(), y.size());
    }
    case TypeKind::kMap: {
      const MapEntries& x = a.entries();
      const MapEntries& y = b.entries();
      for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (int c = Compare(x[i].first, y[i].first); c != 0) return c;
        if (int c = Compare(x[i].second, y[i].second); c != 0) return c;
      }
      return Cmp(x.size(), y.size());
    }
    default: return 0;
  }
}

bool GroupEqual(const Value& a, const Value& b) { return Compare(a, b) == 0; }

size_t Hash(const Value& v) {
  if (v.is_null()) return 0x9e3779b9;
  switch (v.kind()) {
    case TypeKind::kBytes:
    case TypeKind::kGeography:
    case TypeKind::kString: return std::hash<std::string>()(v.str());
    case TypeKind::kInt64:
    case TypeKind::kTimestamp:
    case TypeKind::kDate: return std::hash<int64_t>()(v.int64());
    case TypeKind::kFloat32:
    case TypeKind::kFloat64: return std::hash<double>()(v.float64());
    case TypeKind::kBool: return v.boolean() ? 1 : 2;
    case TypeKind::kArray:
    case TypeKind::kStruct: {
      size_t h = v.elements().size();
      for (const Value& e : v.elements()) h = h * 31 + Hash(e);
      return h;
    }
    case TypeKind::kMap: {
      size_t h = v.entries().size();
      for (const auto& [k, x] : v.entries()) h = (h * 31 + Hash(k)) * 31 + Hash(x);
      return h;
    }
  }
  return 0;
}

// ---- time ----

int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day) {
  // Shift the year to start in March, so the leap day ends it.
  year -= month <= 2;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

void CivilFromDays(int64_t days, int64_t* year, unsigned* month, unsigned* day) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t day_of_era = days - era * 146097;
  const int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t shifted_month = (5 * day_of_year + 2) / 153;
  *day = static_cast<unsigned>(day_of_year - (153 * shifted_month + 2) / 5 + 1);
  *month = static_cast<unsigned>(shifted_month < 10 ? shifted_month + 3 : shifted_month - 9);
  *year = year_of_era + era * 400 + (*month <= 2);
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

namespace {

struct Civil {
  int64_t year;
  unsigned month, day, hour, minute, second;
  int64_t micros;
};

Civil ToCivil(int64_t micros) {
  Civil c{};
  const int64_t seconds = FloorDiv(micros, 1'000'000);
  c.micros = micros - seconds * 1'000'000;
  const int64_t days = FloorDiv(seconds, 86400);
  int64_t in_day = seconds - days * 86400;
  CivilFromDays(days, &c.year, &c.month, &c.day);
  c.hour = static_cast<unsigned>(in_day / 3600);
  c.minute = static_cast<unsigned>(in_day / 60 % 60);
  c.second = static_cast<unsigned>(in_day % 60);
  return c;
}

std::string Fraction(int64_t micros, bool trim) {
  if (micros == 0 && trim) return "";
  std::string digits = fmt::format("{:06d}", micros);
  if (trim) {
    while (digits.size() > 3 && digits.back() == '0' && digits[digits.size() - 2] == '0' &&
           digits[digits.size() - 3] == '0') {
      digits.resize(digits.size() - 3);
    }
  }
  return "." + digits;
}

}  // namespace

std::string FormatTimestamp(int64_t micros) {
  Civil c = ToCivil(micros);
  return fmt::format("{:04d}-{:02d}-{:02d} {:02d}:{:02d}:{:02d}{}+00", c.year, c.month, c.day, c.hour, c.minute,
                     c.second, Fraction(c.micros, true));
}

std::string FormatTimestampRfc3339(int64_t micros) {
  Civil c = ToCivil(micros);
  return fmt::format("{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}{}Z", c.year, c.month, c.day, c.hour, c.minute, c.second,
                     Fraction(c.micros, false));
}

std::string FormatDate(int64_t days) {
  int64_t year;
  unsigned month, day;
  CivilFromDays(days, &year, &month, &day);
  return fmt::format("{:04d}-{:02d}-{:02d}", year, month, day);
}

namespace {

// Reads exactly `n` digits at `*pos`.
bool Digits(std::string_view text, size_t* pos, size_t n, int64_t* out) {
  if (*pos + n > text.size()) return false;
  int64_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    char c = text[*pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *pos += n;
  *out = v;
  return true;
}

bool DateAt(std::string_view text, size_t* pos, int64_t* days) {
  int64_t y, m, d;
  if (!Digits(text, pos, 4, &y) || *pos >= text.size() || text[(*pos)++] != '-') return false;
  if (!Digits(text, pos, 2, &m) || *pos >= text.size() || text[(*pos)++] != '-') return false;
  if (!Digits(text, pos, 2, &d)) return false;
  if (m < 1 || m > 12 || d < 1 || d > 31) return false;
  *days = DaysFromCivil(y, static_cast<unsigned>(m), static_cast<unsigned>(d));
  int64_t cy;
  unsigned cm, cd;
  CivilFromDays(*days, &cy, &cm, &cd);
  return cm == m && cd == d;  // no February 30th
}

}  // namespace

bool ParseDate(std::string_view text, int64_t* days) {
  size_t pos = 0;
  return DateAt(text, &pos, days) && pos == text.size();
}

bool ParseTimestamp(std::string_view text, int64_t* micros) {
  size_t pos = 0;
  int64_t days;
  if (!DateAt(text, &pos, &days)) return false;
  int64_t h = 0, mi = 0, s = 0, fraction = 0;
  if (pos < text.size() && (text[pos] == ' ' || text[pos] == 'T' || text[pos] == 't')) {
    ++pos;
    if (!Digits(text, &pos, 2, &h) || pos >= text.size() || text[pos++] != ':') return false;
    if (!Digits(text, &pos, 2, &mi)) return false;
    if (pos < text.size() && text[pos] == ':') {
      ++pos;
      if (!Digits(text, &pos, 2, &s)) return false;
      if (pos < text.size() && text[pos] == '.') {
        ++pos;
        size_t n = 0;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
          if (n < 6) fraction = fraction * 10 + (text[pos] - '0');
          ++n;
          ++pos;
        }
        if (n == 0) return false;
        for (; n < 6; ++n) fraction *= 10;
      }
    }
  }
  if (h > 23 || mi > 59 || s > 59) return false;
  int64_t offset_minutes = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const int sign = text[pos++] == '-' ? -1 : 1;
    int64_t oh = 0, om = 0;
    if (!Digits(text, &pos, 2, &oh)) return false;
    if (pos < text.size() && text[pos] == ':') ++pos;
    if (pos < text.size()) {
      if (!Digits(text, &pos, 2, &om)) return false;
    }
    offset_minutes = sign * (oh * 60 + om);
  }
  if (pos != text.size()) return false;
  *micros = ((days * 86400 + h * 3600 + mi * 60 + s) - offset_minutes * 60) * 1'000'000 + fraction;
  return true;
}

}  // namespace lbt::sql
