// Functions of STRING and BYTES text: CONCAT and ||, LENGTH (CHAR_LENGTH,
// CHARACTER_LENGTH), BYTE_LENGTH (and OCTET_LENGTH), ASCII, LOWER, UPPER,
// INITCAP, REVERSE, STARTS_WITH, ENDS_WITH, STRPOS, INSTR, SUBSTR, LEFT,
// RIGHT, TRIM, LPAD, RPAD, SPLIT, REPEAT, REPLACE, TRANSLATE and SOUNDEX. STRING counts in characters, BYTES in bytes;
// a result has its first argument's type.

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

// One text argument, and a result of its type.
Result<TypePtr> TextToSameCheck(const Types& a) {
  if (a.size() != 1 || !IsText(a[0])) return ArgError("function", a);
  return a[0];
}

// ---- CONCAT and || ----

Result<TypePtr> ConcatCheck(const Types& a) {
  if (a.empty() || !IsText(a[0])) return ArgError("CONCAT", a);
  for (const TypePtr& t : a) {
    if (!SameType(t, a[0])) return ArgError("CONCAT", a);
  }
  return a[0];
}
Result<Value> ConcatEval(const Values& a, const EvalContext&) {
  double total = 0;
  for (const Value& v : a) total += static_cast<double>(v.str().size());
  LBT_RETURN_IF_ERROR(CheckComputedBytes(total, "CONCAT's result"));
  std::string out;
  out.reserve(static_cast<size_t>(total));
  for (const Value& v : a) out += v.str();
  return SameKind(a[0], std::move(out));
}

// The `||` operator: CONCAT's texts, or two arrays of one type.
Result<TypePtr> ConcatOperatorCheck(const Types& a) {
  if (a.size() == 2 && Is(a[0], TypeKind::kArray) && SameType(a[0], a[1])) return a[0];
  return ConcatCheck(a);
}
Result<Value> ConcatOperatorEval(const Values& a, const EvalContext& ctx) {
  if (a[0].kind() != TypeKind::kArray) return ConcatEval(a, ctx);
  LBT_RETURN_IF_ERROR(CheckComputedBytes(static_cast<double>(ValueBytes(a[0])) + static_cast<double>(ValueBytes(a[1])),
                                         "The result of ||"));
  Values out = a[0].elements();
  out.insert(out.end(), a[1].elements().begin(), a[1].elements().end());
  return Value::Array(a[0].type(), std::move(out));
}

// ---- LENGTH, CHAR_LENGTH, BYTE_LENGTH ----

Result<TypePtr> TextToIntCheck(const Types& a) {
  if (a.size() != 1 || !IsText(a[0])) return ArgError("function", a);
  return Type::Int64();
}
Result<Value> LengthEval(const Values& a, const EvalContext&) {
  return Value::Int64(static_cast<int64_t>(Utf8(a[0]) ? Chars(a[0].str(), true).size() : a[0].str().size()));
}
Result<Value> ByteLengthEval(const Values& a, const EvalContext&) {
  return Value::Int64(static_cast<int64_t>(a[0].str().size()));
}

// ---- LOWER, UPPER (Unicode letters in STRING, ASCII in BYTES), REVERSE ----

Result<Value> LowerEval(const Values& a, const EvalContext&) {
  if (Utf8(a[0])) return Value::String(MapCase(a[0].str(), {CaseMapping::kLower}));
  std::string s = a[0].str();
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return SameKind(a[0], std::move(s));
}
Result<Value> UpperEval(const Values& a, const EvalContext&) {
  if (Utf8(a[0])) return Value::String(MapCase(a[0].str(), {CaseMapping::kUpper}));
  std::string s = a[0].str();
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return SameKind(a[0], std::move(s));
}

// ---- INITCAP(text [, delimiters]): each word's first letter upper case ----

Result<TypePtr> InitcapCheck(const Types& a) {
  if (a.empty() || a.size() > 2 || !Is(a[0], TypeKind::kString) || (a.size() == 2 && !Is(a[1], TypeKind::kString))) {
    return ArgError("INITCAP", a);
  }
  return Type::String();
}
Result<Value> InitcapEval(const Values& a, const EvalContext&) {
  std::vector<int32_t> delimiters;
  if (a.size() == 2) delimiters = CodePoints(a[1].str());
  return Value::String(MapCase(a[0].str(), {CaseMapping::kInitcap, a.size() == 2 ? &delimiters : nullptr}));
}

// ---- ASCII(text): the first character's code, 0 for an empty text ----

Result<Value> AsciiEval(const Values& a, const EvalContext&) {
  const std::string& s = a[0].str();
  if (s.empty()) return Value::Int64(0);
  const int64_t code = Utf8(a[0]) ? CodePoints(s.substr(0, 4)).at(0) : static_cast<unsigned char>(s[0]);
  if (Utf8(a[0]) && code > 127) {
    return Status::OutOfRange(fmt::format("ASCII's first character is not ASCII (code point {})", code));
  }
  return Value::Int64(code);
}

// ---- TRANSLATE(text, source, target): each source character to the target's
// at its position, or away past the target's end ----

Result<TypePtr> TranslateCheck(const Types& a) {
  if (a.size() != 3 || !IsText(a[0]) || !SameType(a[0], a[1]) || !SameType(a[0], a[2])) {
    return ArgError("TRANSLATE", a);
  }
  return a[0];
}
Result<Value> TranslateEval(const Values& a, const EvalContext&) {
  const bool utf8 = Utf8(a[0]);
  const std::vector<std::string_view> source = Chars(a[1].str(), utf8);
  const std::vector<std::string_view> target = Chars(a[2].str(), utf8);
  std::map<std::string_view, std::optional<std::string_view>> mapping;
  for (size_t i = 0; i < source.size(); ++i) {
    std::optional<std::string_view> to;
    if (i < target.size()) to = target[i];
    if (!mapping.emplace(source[i], to).second) {
      return Status::OutOfRange(
          fmt::format("Duplicate character \"{}\" in TRANSLATE source characters", utf8 ? source[i] : "?"));
    }
  }
  std::string out;
  out.reserve(a[0].str().size());
  for (std::string_view c : Chars(a[0].str(), utf8)) {
    auto it = mapping.find(c);
    if (it == mapping.end()) {
      out += c;
    } else if (it->second) {
      out += *it->second;
    }
  }
  LBT_RETURN_IF_ERROR(CheckComputedBytes(static_cast<double>(out.size()), "TRANSLATE's result"));
  return SameKind(a[0], std::move(out));
}

// ---- SOUNDEX(text): American Soundex of the Latin letters ----

Result<TypePtr> SoundexCheck(const Types& a) {
  if (a.size() != 1 || !Is(a[0], TypeKind::kString)) return ArgError("SOUNDEX", a);
  return Type::String();
}
// The letter's digit; '0' for the vowels and y, which separate equal
// digits, and 0 for h and w, which do not.
char SoundexDigit(char upper) {
  static constexpr std::string_view kDigits = "01230120022455012623010202";  // A..Z
  if (upper == 'H' || upper == 'W') return 0;
  return kDigits[static_cast<size_t>(upper - 'A')];
}
Result<Value> SoundexEval(const Values& a, const EvalContext&) {
  std::string out;
  char last = 0;
  for (char c : a[0].str()) {
    if (!std::isalpha(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80) continue;
    const char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const char digit = SoundexDigit(upper);
    if (out.empty()) {
      out.push_back(upper);
      last = digit;
      continue;
    }
    if (digit == 0) continue;  // h, w: the digits around them count as adjacent
    if (digit != '0' && digit != last) out.push_back(digit);
    last = digit;
    if (out.size() == 4) break;
  }
  if (!out.empty()) out.resize(4, '0');
  return Value::String(std::move(out));
}
Result<Value> ReverseEval(const Values& a, const EvalContext&) {
  auto chars = Chars(a[0].str(), Utf8(a[0]));
  std::string out;
  for (auto it = chars.rbegin(); it != chars.rend(); ++it) out += *it;
  return SameKind(a[0], std::move(out));
}

// ---- STARTS_WITH, ENDS_WITH ----

Result<TypePtr> TwoTextToBoolCheck(const Types& a) {
  if (a.size() != 2 || !IsText(a[0]) || !SameType(a[0], a[1])) return ArgError("function", a);
  return Type::Bool();
}
Result<Value> StartsWithEval(const Values& a, const EvalContext&) {
  return Value::Bool(a[0].str().starts_with(a[1].str()));
}
Result<Value> EndsWithEval(const Values& a, const EvalContext&) {
  return Value::Bool(a[0].str().ends_with(a[1].str()));
}

// ---- STRPOS: the first match's position, from 1; 0 for none ----

Result<TypePtr> StrposCheck(const Types& a) {
  if (a.size() != 2 || !IsText(a[0]) || !SameType(a[0], a[1])) return ArgError("STRPOS", a);
  return Type::Int64();
}
Result<Value> StrposEval(const Values& a, const EvalContext&) {
  size_t at = a[0].str().find(a[1].str());
  if (at == std::string::npos) return Value::Int64(0);
  return Value::Int64(static_cast<int64_t>(Utf8(a[0]) ? Chars(a[0].str().substr(0, at), true).size() : at) + 1);
}

// ---- SUBSTR(text, start [, length]): start from 1, or from the end if negative ----

Result<TypePtr> SubstrCheck(const Types& a) {
  if (a.size() < 2 || a.size() > 3 || !IsText(a[0]) || !Is(a[1], TypeKind::kInt64) ||
      (a.size() == 3 && !Is(a[2], TypeKind::kInt64))) {
    return ArgError("SUBSTR", a);
  }
  return a[0];
}
Result<Value> SubstrEval(const Values& a, const EvalContext&) {
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

// ---- TRIM, LTRIM, RTRIM(text [, characters]): white space by default ----

Result<TypePtr> TrimCheck(const Types& a) {
  if (a.empty() || a.size() > 2 || !IsText(a[0]) || (a.size() == 2 && !SameType(a[0], a[1]))) {
    return ArgError("TRIM", a);
  }
  return a[0];
}
template <bool kLeft, bool kRight>
Result<Value> TrimEval(const Values& a, const EvalContext&) {
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

// ---- SPLIT(text [, delimiter]): "," by default; "" splits characters ----

Result<TypePtr> SplitCheck(const Types& a) {
  if (a.empty() || a.size() > 2 || !IsText(a[0]) || (a.size() == 2 && !SameType(a[0], a[1]))) {
    return ArgError("SPLIT", a);
  }
  return Type::Array(a[0]);
}
Result<Value> SplitEval(const Values& a, const EvalContext&) {
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

// ---- REPEAT, REPLACE: refused before they allocate too much ----

Result<TypePtr> RepeatCheck(const Types& a) {
  if (a.size() != 2 || !IsText(a[0]) || !Is(a[1], TypeKind::kInt64)) return ArgError("REPEAT", a);
  return a[0];
}
Result<Value> RepeatEval(const Values& a, const EvalContext&) {
  if (a[1].int64() < 0) return Status::OutOfRange("REPEAT's count must not be negative");
  LBT_RETURN_IF_ERROR(CheckComputedBytes(static_cast<double>(a[0].str().size()) * static_cast<double>(a[1].int64()),
                                         "REPEAT's result"));
  std::string out;
  out.reserve(a[0].str().size() * static_cast<size_t>(a[1].int64()));
  for (int64_t i = 0; i < a[1].int64(); ++i) out += a[0].str();
  return SameKind(a[0], std::move(out));
}

Result<TypePtr> ReplaceCheck(const Types& a) {
  if (a.size() != 3 || !IsText(a[0]) || !SameType(a[0], a[1]) || !SameType(a[0], a[2])) {
    return ArgError("REPLACE", a);
  }
  return a[0];
}
Result<Value> ReplaceEval(const Values& a, const EvalContext&) {
  const std::string& s = a[0].str();
  const std::string& from = a[1].str();
  const std::string& to = a[2].str();
  if (from.empty()) return a[0];
  // Count first, so that a result too large is refused before it is built.
  size_t matches = 0;
  for (size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += from.size()) ++matches;
  const double size = static_cast<double>(s.size()) + static_cast<double>(matches) * (static_cast<double>(to.size()) -
                                                                                      static_cast<double>(from.size()));
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

// ---- INSTR(text, search [, position [, occurrence]]) ----
// The position, from 1, of the occurrence-th match of `search` found from
// `position` on (from the end, backwards, when negative); matches may
// overlap. 0 when there is none, or `position` lies past the end.

Result<TypePtr> InstrCheck(const Types& a) {
  if (a.size() < 2 || a.size() > 4 || !IsText(a[0]) || !SameType(a[0], a[1])) return ArgError("INSTR", a);
  for (size_t i = 2; i < a.size(); ++i) {
    if (!Is(a[i], TypeKind::kInt64)) return ArgError("INSTR", a);
  }
  return Type::Int64();
}
Result<Value> InstrEval(const Values& a, const EvalContext&) {
  const int64_t position = a.size() > 2 ? a[2].int64() : 1;
  const int64_t occurrence = a.size() > 3 ? a[3].int64() : 1;
  if (position == 0) return Status::OutOfRange("INSTR's position must not be 0");
  if (occurrence <= 0) return Status::OutOfRange("INSTR's occurrence must be positive");
  const auto text = Chars(a[0].str(), Utf8(a[0]));
  const auto search = Chars(a[1].str(), Utf8(a[0]));
  const int64_t n = static_cast<int64_t>(text.size());
  const int64_t m = static_cast<int64_t>(search.size());
  if (position > n || -position > n) return Value::Int64(0);
  auto matches_at = [&](int64_t at) {  // 0-based
    if (at + m > n) return false;
    for (int64_t i = 0; i < m; ++i) {
      if (text[static_cast<size_t>(at + i)] != search[static_cast<size_t>(i)]) return false;
    }
    return true;
  };
  int64_t found = 0;
  if (position > 0) {
    for (int64_t at = position - 1; at < n || (m == 0 && at == n); ++at) {
      if (matches_at(at) && ++found == occurrence) return Value::Int64(at + 1);
    }
  } else {
    for (int64_t at = n + position; at >= 0; --at) {
      if (matches_at(at) && ++found == occurrence) return Value::Int64(at + 1);
    }
  }
  return Value::Int64(0);
}

// ---- LEFT, RIGHT(text, length): the first or last `length` characters ----

Result<TypePtr> TextAndLengthCheck(const Types& a) {
  if (a.size() != 2 || !IsText(a[0]) || !Is(a[1], TypeKind::kInt64)) return ArgError("function", a);
  return a[0];
}
template <bool kLeft>
Result<Value> LeftRightEval(const Values& a, const EvalContext&) {
  if (a[1].int64() < 0) {
    return Status::OutOfRange(
        fmt::format("{}'s length must not be negative, got {}", kLeft ? "LEFT" : "RIGHT", a[1].int64()));
  }
  const auto chars = Chars(a[0].str(), Utf8(a[0]));
  const size_t keep = std::min(chars.size(), static_cast<size_t>(a[1].int64()));
  std::string out;
  for (size_t i = kLeft ? 0 : chars.size() - keep; i < (kLeft ? keep : chars.size()); ++i) out += chars[i];
  return SameKind(a[0], std::move(out));
}

// ---- LPAD, RPAD(text, length [, pattern]) ----
// `text` padded to `length` characters with `pattern` repeated (a space by
// default) before or after it; a longer `text` is cut to its first
// `length` characters.

Result<TypePtr> PadCheck(const Types& a) {
  if (a.size() < 2 || a.size() > 3 || !IsText(a[0]) || !Is(a[1], TypeKind::kInt64) ||
      (a.size() == 3 && !SameType(a[0], a[2]))) {
    return ArgError("function", a);
  }
  return a[0];
}
template <bool kLeft>
Result<Value> PadEval(const Values& a, const EvalContext&) {
  const char* name = kLeft ? "LPAD" : "RPAD";
  const int64_t length = a[1].int64();
  if (length < 0) return Status::OutOfRange(fmt::format("{}'s length must not be negative, got {}", name, length));
  const bool utf8 = Utf8(a[0]);
  const auto chars = Chars(a[0].str(), utf8);
  if (static_cast<size_t>(length) <= chars.size()) {
    std::string out;
    for (size_t i = 0; i < static_cast<size_t>(length); ++i) out += chars[i];
    return SameKind(a[0], std::move(out));
  }
  const std::string pattern_text = a.size() == 3 ? a[2].str() : std::string(" ");
  const auto pattern = Chars(pattern_text, utf8);
  if (pattern.empty()) return Status::OutOfRange(fmt::format("{}'s pattern must not be empty", name));
  const size_t pad = static_cast<size_t>(length) - chars.size();
  // Characters are at most 4 bytes: a bound on the result, checked first.
  LBT_RETURN_IF_ERROR(CheckComputedBytes(static_cast<double>(a[0].str().size()) + 4.0 * static_cast<double>(pad),
                                         fmt::format("{}'s result", name)));
  std::string padding;
  for (size_t i = 0; i < pad; ++i) padding += pattern[i % pattern.size()];
  return SameKind(a[0], kLeft ? padding + a[0].str() : a[0].str() + padding);
}

}  // namespace

void RegisterStringFunctions(FunctionRegistry* registry) {
  registry->Add("$concat", ConcatOperatorCheck, ConcatOperatorEval);
  registry->Add("CONCAT", ConcatCheck, ConcatEval);
  registry->Add("LENGTH", TextToIntCheck, LengthEval);
  registry->Add("CHAR_LENGTH", TextToIntCheck, LengthEval);
  registry->Add("CHARACTER_LENGTH", TextToIntCheck, LengthEval);
  registry->Add("ASCII", TextToIntCheck, AsciiEval);
  registry->Add("INITCAP", InitcapCheck, InitcapEval);
  registry->Add("TRANSLATE", TranslateCheck, TranslateEval);
  registry->Add("SOUNDEX", SoundexCheck, SoundexEval);
  registry->Add("BYTE_LENGTH", TextToIntCheck, ByteLengthEval);
  registry->Add("OCTET_LENGTH", TextToIntCheck, ByteLengthEval);
  registry->Add("LOWER", TextToSameCheck, LowerEval);
  registry->Add("UPPER", TextToSameCheck, UpperEval);
  registry->Add("REVERSE", TextToSameCheck, ReverseEval);
  registry->Add("STARTS_WITH", TwoTextToBoolCheck, StartsWithEval);
  registry->Add("ENDS_WITH", TwoTextToBoolCheck, EndsWithEval);
  registry->Add("STRPOS", StrposCheck, StrposEval);
  registry->Add("INSTR", InstrCheck, InstrEval);
  registry->Add("SUBSTR", SubstrCheck, SubstrEval);
  registry->Add("SUBSTRING", SubstrCheck, SubstrEval);
  registry->Add("LEFT", TextAndLengthCheck, LeftRightEval<true>);
  registry->Add("RIGHT", TextAndLengthCheck, LeftRightEval<false>);
  registry->Add("LPAD", PadCheck, PadEval<true>);
  registry->Add("RPAD", PadCheck, PadEval<false>);
  registry->Add("TRIM", TrimCheck, TrimEval<true, true>);
  registry->Add("LTRIM", TrimCheck, TrimEval<true, false>);
  registry->Add("RTRIM", TrimCheck, TrimEval<false, true>);
  registry->Add("SPLIT", SplitCheck, SplitEval);
  registry->Add("REPEAT", RepeatCheck, RepeatEval);
  registry->Add("REPLACE", ReplaceCheck, ReplaceEval);
}

}  // namespace lbt::sql
