// GoogleSQL types and values, as Bigtable's query language has them.
//
// A table row is seen as `_key BYTES` plus one column per family: MAP<BYTES,
// BYTES> from qualifier to latest value (INT64 for an aggregate family), or
// with history MAP<BYTES, ARRAY<STRUCT<timestamp TIMESTAMP, value BYTES>>>.

#ifndef LBT_SQL_VALUE_H_
#define LBT_SQL_VALUE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace lbt::sql {

// WARNING: the scalar kinds come first, in ScalarType's order.
enum class TypeKind {
  kBytes,
  kString,
  kInt64,
  kFloat32,
  kFloat64,
  kBool,
  kTimestamp,
  kDate,
  kGeography,
  kArray,
  kStruct,
  kMap
};

struct Type;
using TypePtr = std::shared_ptr<const Type>;

struct Type {
  TypeKind kind = TypeKind::kInt64;
  TypePtr element;                                      // kArray
  TypePtr key, value;                                   // kMap
  std::vector<std::pair<std::string, TypePtr>> fields;  // kStruct

  static TypePtr Bytes();
  static TypePtr String();
  static TypePtr Int64();
  static TypePtr Float32();
  static TypePtr Float64();
  static TypePtr Bool();
  static TypePtr Timestamp();
  static TypePtr Date();
  static TypePtr Geography();
  static TypePtr Array(TypePtr element);
  static TypePtr Map(TypePtr key, TypePtr value);
  static TypePtr Struct(std::vector<std::pair<std::string, TypePtr>> fields);

  bool IsNumeric() const {
    return kind == TypeKind::kInt64 || kind == TypeKind::kFloat32 || kind == TypeKind::kFloat64;
  }
  bool IsFloat() const { return kind == TypeKind::kFloat32 || kind == TypeKind::kFloat64; }
  // Whether values of this type can be compared with < (not arrays of
  // structs, maps or structs).
  bool IsOrderable() const;
  // "INT64", "ARRAY<BYTES>", "MAP<BYTES, INT64>", "STRUCT<timestamp TIMESTAMP, value BYTES>".
  std::string ToString() const;
};

bool SameType(const TypePtr& a, const TypePtr& b);

class Value;
using Values = std::vector<Value>;
using MapEntries = std::vector<std::pair<Value, Value>>;

// The shared type of each scalar kind (what Type::Int64() and kin give).
// REQUIRES: a scalar kind (not ARRAY, STRUCT or MAP).
const TypePtr& ScalarType(TypeKind kind);

// A typed value or a typed NULL. Timestamps are microseconds since the
// epoch, dates days since it; arrays and structs share their elements.
//
// A scalar value holds only its kind, not a reference to its type: values
// are made and dropped for every row a query reads, and a shared type's
// reference count would cost two atomic operations each time.
class Value {
 public:
  Value() = default;  // an INT64 NULL
  static Value Null(const TypePtr& type) { return Value(type, std::monostate()); }
  static Value Bytes(std::string v) { return Value(TypeKind::kBytes, std::move(v)); }
  static Value String(std::string v) { return Value(TypeKind::kString, std::move(v)); }
  static Value Int64(int64_t v) { return Value(TypeKind::kInt64, v); }
  static Value Float64(double v) { return Value(TypeKind::kFloat64, v); }
  static Value Float32(float v) { return Value(TypeKind::kFloat32, static_cast<double>(v)); }
  static Value Bool(bool v) { return Value(TypeKind::kBool, v); }
  static Value Timestamp(int64_t micros) { return Value(TypeKind::kTimestamp, micros); }
  static Value Date(int64_t days) { return Value(TypeKind::kDate, days); }
  // `encoded`: geo::Encode's bytes (sql/geography/geography.h).
  static Value Geography(std::string encoded) { return Value(TypeKind::kGeography, std::move(encoded)); }
  // REQUIRES: type is an ARRAY or STRUCT whose element types match.
  static Value Array(TypePtr type, Values elements);
  static Value Struct(TypePtr type, Values fields) { return Array(std::move(type), std::move(fields)); }
  // REQUIRES: type is a MAP; entries sorted by key, keys distinct.
  static Value Map(TypePtr type, MapEntries entries);

  const TypePtr& type() const { return compound_ ? compound_ : ScalarType(kind_); }
  TypeKind kind() const { return kind_; }
  bool is_null() const { return std::holds_alternative<std::monostate>(data_); }

  // REQUIRES: !is_null() and the matching kind.
  int64_t int64() const { return std::get<int64_t>(data_); }  // INT64, TIMESTAMP, DATE
  double float64() const { return std::get<double>(data_); }  // FLOAT32, FLOAT64
  bool boolean() const { return std::get<bool>(data_); }
  const std::string& str() const { return std::get<std::string>(data_); }  // BYTES, STRING, GEOGRAPHY
  const Values& elements() const { return *std::get<std::shared_ptr<const Values>>(data_); }  // ARRAY, STRUCT
  const MapEntries& entries() const { return *std::get<std::shared_ptr<const MapEntries>>(data_); }

  // In-place updates, for values rebuilt row after row in the same place:
  // a string keeps its capacity. set_null keeps the type; set_str too, and
  // REQUIRES a BYTES or STRING value; set_int64 and set_float64 make the
  // value an INT64 or FLOAT64.
  void set_null() { data_ = std::monostate(); }
  void set_str(std::string_view v) {
    if (auto* s = std::get_if<std::string>(&data_)) {
      s->assign(v.data(), v.size());
    } else {
      data_.emplace<std::string>(v);
    }
  }
  void set_int64(int64_t v) {
    BecomeScalar(TypeKind::kInt64);
    data_ = v;
  }
  void set_float64(double v) {
    BecomeScalar(TypeKind::kFloat64);
    data_ = v;
  }

  // A numeric value as a double. REQUIRES: numeric and not NULL.
  double AsDouble() const { return kind() == TypeKind::kInt64 ? static_cast<double>(int64()) : float64(); }

  // SQL literal-like text, for the shell's table and for error messages:
  // strings and bytes unquoted, NULL as NULL, arrays as [a, b], maps as
  // {k: v}, timestamps as "2024-01-02 03:04:05.123456+00".
  std::string ToText() const;

 private:
  using Data = std::variant<std::monostate, bool, int64_t, double, std::string, std::shared_ptr<const Values>,
                            std::shared_ptr<const MapEntries>>;
  Value(TypeKind kind, Data data) : kind_(kind), data_(std::move(data)) {}
  Value(const TypePtr& type, Data data) : kind_(type->kind), data_(std::move(data)) {
    if (!IsScalar(kind_)) compound_ = type;
  }
  void BecomeScalar(TypeKind kind) {
    kind_ = kind;
    if (compound_) compound_.reset();
  }
  static bool IsScalar(TypeKind kind) {
    return kind != TypeKind::kArray && kind != TypeKind::kStruct && kind != TypeKind::kMap;
  }
  TypeKind kind_ = TypeKind::kInt64;
  TypePtr compound_;  // the type of an ARRAY, STRUCT or MAP; empty for scalars
  Data data_;
};

// Total order used by ORDER BY, GROUP BY and MIN/MAX: NULLs first, NaN
// before every other float, then by value. REQUIRES: comparable types
// (numbers compare across INT64/FLOAT).
int Compare(const Value& a, const Value& b);
// GROUP BY and DISTINCT equality: NULLs equal each other.
bool GroupEqual(const Value& a, const Value& b);
size_t Hash(const Value& v);

// Formats and parses timestamps as GoogleSQL does by default, in UTC:
// "2024-01-02 03:04:05.123456+00" (fraction trimmed to what is needed).
std::string FormatTimestamp(int64_t micros);
std::string FormatDate(int64_t days);
// RFC 3339 with microseconds: "2024-01-02T03:04:05.123456Z".
std::string FormatTimestampRfc3339(int64_t micros);
// Accepts "YYYY-MM-DD[( |T)HH:MM:SS[.ffffff]][Z|+HH[:MM]|-HH[:MM]]".
bool ParseTimestamp(std::string_view text, int64_t* micros);
bool ParseDate(std::string_view text, int64_t* days);
// Days since the epoch of a civil date, and back.
int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day);
void CivilFromDays(int64_t days, int64_t* year, unsigned* month, unsigned* day);
// a / b rounded toward negative infinity (days and seconds before the
// epoch). REQUIRES: b != 0.
int64_t FloorDiv(int64_t a, int64_t b);

}  // namespace lbt::sql

#endif  // LBT_SQL_VALUE_H_
