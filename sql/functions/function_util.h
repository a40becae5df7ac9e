// What the function families share: signature errors, type tests and
// character splitting.

#ifndef LBT_SQL_FUNCTIONS_FUNCTION_UTIL_H_
#define LBT_SQL_FUNCTIONS_FUNCTION_UTIL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"
#include "sql/value.h"

namespace lbt::sql {

using Types = std::vector<TypePtr>;
struct EvalContext;

// INVALID_ARGUMENT "No matching signature for function <fn> for argument
// types: ..."; the binder recognizes the prefix and names the call.
Status ArgError(std::string_view fn, const Types& args);

inline bool Is(const TypePtr& t, TypeKind kind) { return t->kind == kind; }
inline bool IsText(const TypePtr& t) { return Is(t, TypeKind::kString) || Is(t, TypeKind::kBytes); }

// Whether a text value counts in characters (STRING) or bytes (BYTES).
inline bool Utf8(const Value& v) { return v.kind() == TypeKind::kString; }
// `s` as a STRING if `like` is one, else as BYTES.
Value SameKind(const Value& like, std::string s);
// Splits text into characters: UTF-8 sequences when `utf8`, else bytes. A
// malformed sequence splits into single bytes.
std::vector<std::string_view> Chars(std::string_view s, bool utf8);

// How MapCase changes letters: to lower or upper case, or INITCAP's upper
// case at each word's start (after a delimiter) and lower case elsewhere.
struct CaseMapping {
  enum Kind { kLower, kUpper, kInitcap } kind = kLower;
  // kInitcap's word delimiters (code points); null for GoogleSQL's default:
  // whitespace and  [ ] ( ) { } / | \ < > ! ? @ " ^ # $ & ~ _ , . : ; * % + -
  const std::vector<int32_t>* delimiters = nullptr;
};
// UTF-8 `text` with its letters mapped by the Unicode Character Database's
// simple case mappings (unicode_functions.cc); bytes that are not UTF-8 stay.
std::string MapCase(std::string_view text, CaseMapping mapping);
// The code points of UTF-8 `text` (a byte that is not UTF-8 counts as one).
std::vector<int32_t> CodePoints(std::string_view text);

// A FLOAT64 function of one number, as the C library computes it (CEIL,
// EXP, SIN, ...): NaN outside its domain included.
template <double (*F)(double)>
Result<Value> FloatOfNumber(const Values& a, const EvalContext&) {
  return Value::Float64(F(a[0].AsDouble()));
}

}  // namespace lbt::sql

#endif  // LBT_SQL_FUNCTIONS_FUNCTION_UTIL_H_
