// Conversions of BYTES: TO_INT64 and TO_FLOAT64 (8 big-endian bytes, as
// Bigtable stores counters), SAFE_CONVERT_BYTES_TO_STRING, TO_BASE64,
// FROM_BASE64, TO_BASE32, FROM_BASE32, TO_HEX and FROM_HEX.

#include <fmt/format.h>

#include <cstring>

#include "api/cell.h"
#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"
#include "util/bytes.h"

namespace lbt::sql {

namespace {

Result<TypePtr> BytesToStringCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kBytes)) return ArgError("function", a);
  return Type::String();
}

Result<TypePtr> StringToBytesCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kString)) return ArgError("function", a);
  return Type::Bytes();
}

// ---- TO_INT64, TO_FLOAT64 ----

// The 8 big-endian bytes of a number as Bigtable stores it; OUT_OF_RANGE
// naming `fn` for any other length.
Result<int64_t> EightBytes(const Value& bytes, std::string_view fn) {
  int64_t bits;
  if (!DecodeInt64(bytes.str(), &bits)) {
    return Status::OutOfRange(fmt::format("{} needs 8 bytes, got {}", fn, bytes.str().size()));
  }
  return bits;
}

Result<TypePtr> ToInt64Check(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kBytes)) return ArgError("TO_INT64", a);
  return Type::Int64();
}
Result<Value> ToInt64Eval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(int64_t v, EightBytes(a[0], "TO_INT64"));
  return Value::Int64(v);
}

Result<TypePtr> ToFloat64Check(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kBytes)) return ArgError("TO_FLOAT64", a);
  return Type::Float64();
}
Result<Value> ToFloat64Eval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(int64_t bits, EightBytes(a[0], "TO_FLOAT64"));
  double d;
  static_assert(sizeof d == sizeof bits);
  std::memcpy(&d, &bits, sizeof d);
  return Value::Float64(d);
}

// ---- SAFE_CONVERT_BYTES_TO_STRING: malformed UTF-8 becomes U+FFFD ----

Result<Value> SafeConvertBytesToStringEval(const Values& a, const EvalContext&) {
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

// ---- TO_BASE64, FROM_BASE64 ----

Result<Value> ToBase64Eval(const Values& a, const EvalContext&) { return Value::String(Base64Encode(a[0].str())); }

// Padding may be left out and white space is ignored; the URL-safe
// alphabet is accepted too.
Result<Value> FromBase64Eval(const Values& a, const EvalContext&) {
  std::string text;
  for (char c : a[0].str()) {
    if (!std::isspace(static_cast<unsigned char>(c))) text.push_back(c);
  }
  std::string out;
  if (!Base64Decode(text, &out)) return Status::OutOfRange("FROM_BASE64: not valid base64");
  return Value::Bytes(std::move(out));
}

// ---- TO_BASE32, FROM_BASE32 (RFC 4648, section 6) ----

constexpr std::string_view kBase32Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

// Padded with '=' to a multiple of 8 characters.
Result<Value> ToBase32Eval(const Values& a, const EvalContext&) {
  const std::string& bytes = a[0].str();
  std::string out;
  uint64_t bits = 0;
  int held = 0;
  for (unsigned char c : bytes) {
    bits = bits << 8 | c;
    held += 8;
    while (held >= 5) {
      held -= 5;
      out += kBase32Alphabet[(bits >> held) & 31];
    }
  }
  if (held > 0) out += kBase32Alphabet[(bits << (5 - held)) & 31];
  while (out.size() % 8 != 0) out += '=';
  return Value::String(std::move(out));
}

// Either case, with or without padding; any other character, or a length
// no encoding produces, is an error.
Result<Value> FromBase32Eval(const Values& a, const EvalContext&) {
  std::string_view text = a[0].str();
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  const size_t tail = text.size() % 8;
  auto invalid = [&] { return Status::OutOfRange("FROM_BASE32: not valid base32: " + a[0].str()); };
  if (tail == 1 || tail == 3 || tail == 6) return invalid();
  std::string out;
  uint64_t bits = 0;
  int held = 0;
  for (char c : text) {
    const size_t digit = kBase32Alphabet.find(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    if (digit == std::string_view::npos) return invalid();
    bits = bits << 5 | digit;
    held += 5;
    if (held >= 8) {
      held -= 8;
      out += static_cast<char>((bits >> held) & 0xff);
    }
  }
  return Value::Bytes(std::move(out));
}

// ---- TO_HEX, FROM_HEX ----

Result<Value> ToHexEval(const Values& a, const EvalContext&) {
  std::string out;
  for (unsigned char c : a[0].str()) out += fmt::format("{:02x}", c);
  return Value::String(std::move(out));
}

// An odd number of digits reads as if it had a leading 0.
Result<Value> FromHexEval(const Values& a, const EvalContext&) {
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

}  // namespace

void RegisterBytesFunctions(FunctionRegistry* registry) {
  registry->Add("TO_INT64", ToInt64Check, ToInt64Eval);
  registry->Add("TO_FLOAT64", ToFloat64Check, ToFloat64Eval);
  registry->Add("SAFE_CONVERT_BYTES_TO_STRING", BytesToStringCheck, SafeConvertBytesToStringEval);
  registry->Add("TO_BASE64", BytesToStringCheck, ToBase64Eval);
  registry->Add("FROM_BASE64", StringToBytesCheck, FromBase64Eval);
  registry->Add("TO_BASE32", BytesToStringCheck, ToBase32Eval);
  registry->Add("FROM_BASE32", StringToBytesCheck, FromBase32Eval);
  registry->Add("TO_HEX", BytesToStringCheck, ToHexEval);
  registry->Add("FROM_HEX", StringToBytesCheck, FromHexEval);
}

}  // namespace lbt::sql
