// Code points: CHR, UNICODE, TO_CODE_POINTS, CODE_POINTS_TO_STRING and
// CODE_POINTS_TO_BYTES. A STRING's code points are Unicode's (U+0000 to
// U+10FFFF without the surrogates), a BYTES value's are its bytes; a code
// point 0 adds no character to a STRING.

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"
#include "util/bytes.h"

namespace lbt::sql {

namespace {

bool ValidCodePoint(int64_t c) { return (c >= 0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0x10FFFF); }

// The code point a UTF-8 character (one of Chars()) encodes; a malformed
// sequence's first byte stands for itself.
int64_t CodePointOf(std::string_view ch) {
  const auto b = [&](size_t i) { return static_cast<int64_t>(static_cast<uint8_t>(ch[i])); };
  switch (ch.size()) {
    case 2: return (b(0) & 0x1F) << 6 | (b(1) & 0x3F);
    case 3: return (b(0) & 0x0F) << 12 | (b(1) & 0x3F) << 6 | (b(2) & 0x3F);
    case 4: return (b(0) & 0x07) << 18 | (b(1) & 0x3F) << 12 | (b(2) & 0x3F) << 6 | (b(3) & 0x3F);
    default: return b(0);
  }
}

Status InvalidCodePoint(std::string_view fn, int64_t c) {
  return Status::OutOfRange(fmt::format("{}: {} is not a valid Unicode code point", fn, c));
}

// ---- CHR(code point) ----

Result<TypePtr> ChrCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kInt64)) return ArgError("CHR", a);
  return Type::String();
}
Result<Value> ChrEval(const Values& a, const EvalContext&) {
  const int64_t c = a[0].int64();
  if (!ValidCodePoint(c)) return InvalidCodePoint("CHR", c);
  std::string out;
  if (c != 0) AppendUtf8(&out, static_cast<uint32_t>(c));
  return Value::String(std::move(out));
}

// ---- UNICODE(string): its first character's code point, 0 if empty ----

Result<TypePtr> UnicodeCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kString)) return ArgError("UNICODE", a);
  return Type::Int64();
}
Result<Value> UnicodeEval(const Values& a, const EvalContext&) {
  const auto chars = Chars(a[0].str(), true);
  return Value::Int64(chars.empty() ? 0 : CodePointOf(chars[0]));
}

// ---- TO_CODE_POINTS(text) ----

Result<TypePtr> ToCodePointsCheck(const Types& a) {
  if (a.size() != 1 || !IsText(a[0])) return ArgError("TO_CODE_POINTS", a);
  return Type::Array(Type::Int64());
}
Result<Value> ToCodePointsEval(const Values& a, const EvalContext&) {
  Values out;
  for (std::string_view ch : Chars(a[0].str(), Utf8(a[0]))) out.push_back(Value::Int64(CodePointOf(ch)));
  return Value::Array(Type::Array(Type::Int64()), std::move(out));
}

// ---- CODE_POINTS_TO_STRING, CODE_POINTS_TO_BYTES(array of code points) ----
// NULL when an element is NULL.

Result<TypePtr> CodePointsCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kArray) || !Is(a[0]->element, TypeKind::kInt64)) {
    return ArgError("function", a);
  }
  return Type::String();
}
Result<TypePtr> CodePointsToBytesCheck(const Types& a) {
  LBT_RETURN_IF_ERROR(CodePointsCheck(a).status());
  return Type::Bytes();
}
template <bool kString>
Result<Value> CodePointsEval(const Values& a, const EvalContext&) {
  std::string out;
  for (const Value& element : a[0].elements()) {
    if (element.is_null()) return Value::Null(kString ? Type::String() : Type::Bytes());
    const int64_t c = element.int64();
    if (!kString) {
      if (c < 0 || c > 255) {
        return Status::OutOfRange(fmt::format("CODE_POINTS_TO_BYTES: {} is not a byte (0 to 255)", c));
      }
      out.push_back(static_cast<char>(c));
    } else if (!ValidCodePoint(c)) {
      return InvalidCodePoint("CODE_POINTS_TO_STRING", c);
    } else if (c != 0) {
      AppendUtf8(&out, static_cast<uint32_t>(c));
    }
  }
  return kString ? Value::String(std::move(out)) : Value::Bytes(std::move(out));
}

}  // namespace

void RegisterCodePointFunctions(FunctionRegistry* registry) {
  registry->Add("CHR", ChrCheck, ChrEval);
  registry->Add("UNICODE", UnicodeCheck, UnicodeEval);
  registry->Add("TO_CODE_POINTS", ToCodePointsCheck, ToCodePointsEval);
  registry->Add("CODE_POINTS_TO_STRING", CodePointsCheck, CodePointsEval<true>);
  registry->Add("CODE_POINTS_TO_BYTES", CodePointsToBytesCheck, CodePointsEval<false>);
}

}  // namespace lbt::sql
