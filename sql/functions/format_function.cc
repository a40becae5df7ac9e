// FORMAT(format_string, values...): printf-style formatting, as GoogleSQL's
// string functions page gives it. Specifiers: %d and %i (INT64), %o, %x and
// %X (INT64 in octal and hex), %f %F %e %E %g %G (numbers), %s (STRING),
// %t (any value as text) and %T (any value as a SQL literal), %%; flags
// - + space # 0 and ' (thousands), a width and a precision, either one `*`
// to take it from the next argument. A NULL value formats as NULL under %t
// and %T; under any other specifier it makes the result NULL.

#include <fmt/format.h>

#include <cmath>
#include <cstdio>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

struct Spec {
  std::string flags;
  int width = -1;
  int precision = -1;
  char conversion = 0;
};

Result<TypePtr> FormatCheck(const Types& a) {
  if (a.empty() || !Is(a[0], TypeKind::kString)) return ArgError("FORMAT", a);
  return Type::String();
}

Status FormatError(const std::string& what) { return Status::OutOfRange("FORMAT: " + what); }

// Inserts ',' between groups of three digits of the integer part of `s`.
std::string GroupThousands(const std::string& s) {
  size_t begin = s.find_first_of("0123456789");
  if (begin == std::string::npos) return s;
  size_t end = s.find_first_not_of("0123456789", begin);
  if (end == std::string::npos) end = s.size();
  std::string digits = s.substr(begin, end - begin);
  std::string grouped;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return s.substr(0, begin) + grouped + s.substr(end);
}

// `body` padded to the spec's width (left-justified with '-').
std::string Pad(const Spec& spec, std::string body) {
  if (spec.width < 0 || static_cast<int>(body.size()) >= spec.width) return body;
  const size_t pad = static_cast<size_t>(spec.width) - body.size();
  if (spec.flags.find('-') != std::string::npos) return body + std::string(pad, ' ');
  return std::string(pad, ' ') + body;
}

// A number through the C library's printf, with the spec's flags.
std::string PrintNumber(const Spec& spec, char conversion, const Value& v) {
  std::string format = "%";
  for (char flag : spec.flags) {
    if (flag != '\'') format += flag;
  }
  if (spec.width >= 0) format += std::to_string(spec.width);
  if (spec.precision >= 0) format += "." + std::to_string(spec.precision);
  std::string out(64 + std::max(spec.width, 0) + std::max(spec.precision, 0), '\0');
  int n;
  if (conversion == 'd' || conversion == 'o' || conversion == 'x' || conversion == 'X') {
    format += "ll";
    format += conversion;
    n = std::snprintf(out.data(), out.size(), format.c_str(), static_cast<long long>(v.int64()));
  } else {
    format += conversion;
    n = std::snprintf(out.data(), out.size(), format.c_str(), v.AsDouble());
  }
  out.resize(static_cast<size_t>(std::max(n, 0)));
  if (spec.flags.find('\'') != std::string::npos) out = GroupThousands(out);
  return out;
}

// A FLOAT's text for %t and %T: always with a fraction ("3.0"), "nan",
// "inf" and "-inf" as such.
std::string FloatText(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  std::string text = Value::Float64(d).ToText();
  if (text.find_first_of(".eE") == std::string::npos) text += ".0";
  return text;
}

// A string in double quotes, with ", \ and control characters escaped.
std::string DoubleQuoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// %t's text of a value (`literal` false) or %T's SQL literal: strings in
// double quotes, b"bytes", DATE "...", TIMESTAMP "...", [arrays], (structs),
// CAST("nan" AS FLOAT64) for a float a literal cannot write.
std::string ValueText(const Value& v, bool literal) {
  if (v.is_null()) return "NULL";
  switch (v.kind()) {
    case TypeKind::kString: return literal ? DoubleQuoted(v.str()) : v.str();
    case TypeKind::kBytes: return literal ? "b" + DoubleQuoted(v.str()) : v.str();
    case TypeKind::kFloat32:
    case TypeKind::kFloat64: {
      const std::string text = FloatText(v.float64());
      if (literal && !std::isfinite(v.float64())) {
        return fmt::format("CAST(\"{}\" AS {})", text, v.kind() == TypeKind::kFloat32 ? "FLOAT32" : "FLOAT64");
      }
      return text;
    }
    case TypeKind::kDate: return literal ? "DATE " + DoubleQuoted(v.ToText()) : v.ToText();
    case TypeKind::kTimestamp: return literal ? "TIMESTAMP " + DoubleQuoted(v.ToText()) : v.ToText();
    case TypeKind::kArray:
    case TypeKind::kStruct: {
      const bool array = v.kind() == TypeKind::kArray;
      std::string out = array ? "[" : "(";
      for (size_t i = 0; i < v.elements().size(); ++i) out += (i ? ", " : "") + ValueText(v.elements()[i], literal);
      return out + (array ? "]" : ")");
    }
    default: return v.ToText();
  }
}

// One value under one specifier; nullopt when it makes the result NULL.
Result<std::optional<std::string>> FormatValue(const Spec& spec, const Value& v) {
  const char c = spec.conversion;
  if (c == 't' || c == 'T') {
    std::string text = ValueText(v, c == 'T');
    if (spec.precision >= 0)
      text = std::string(Chars(text, true).size() > static_cast<size_t>(spec.precision)
                             ? text.substr(0, static_cast<size_t>(spec.precision))
                             : text);
    return std::optional<std::string>(Pad(spec, std::move(text)));
  }
  if (v.is_null()) return std::optional<std::string>();
  switch (c) {
    case 's': {
      if (v.kind() != TypeKind::kString)
        return FormatError(fmt::format("%s takes a STRING, not {}", v.type()->ToString()));
      std::string text = v.str();
      if (spec.precision >= 0 && text.size() > static_cast<size_t>(spec.precision)) text.resize(spec.precision);
      return std::optional<std::string>(Pad(spec, std::move(text)));
    }
    case 'd':
    case 'i':
    case 'o':
    case 'x':
    case 'X':
      if (v.kind() != TypeKind::kInt64) {
        return FormatError(fmt::format("%{} takes an INT64, not {}", c, v.type()->ToString()));
      }
      return std::optional<std::string>(PrintNumber(spec, c == 'i' ? 'd' : c, v));
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
      if (!v.type()->IsNumeric()) {
        return FormatError(fmt::format("%{} takes a number, not {}", c, v.type()->ToString()));
      }
      return std::optional<std::string>(PrintNumber(spec, c, v));
    default: return FormatError(fmt::format("unknown specifier %{}", c));
  }
}

// Parses the spec after '%' at text[*i], taking `*` values from args.
Result<Spec> ParseSpec(const std::string& text, size_t* i, const Values& args, size_t* next_arg) {
  Spec spec;
  while (*i < text.size() && std::string_view("-+ #0'").find(text[*i]) != std::string_view::npos) {
    spec.flags += text[(*i)++];
  }
  auto number = [&](int* out) -> Status {
    if (*i < text.size() && text[*i] == '*') {
      ++*i;
      if (*next_arg >= args.size()) return FormatError("too few arguments for the format's *");
      const Value& v = args[(*next_arg)++];
      if (v.is_null() || v.kind() != TypeKind::kInt64 || v.int64() < 0 || v.int64() > 10000) {
        return FormatError("a * width or precision takes an INT64 from 0 to 10000");
      }
      *out = static_cast<int>(v.int64());
      return Status::OK();
    }
    if (*i < text.size() && std::isdigit(static_cast<unsigned char>(text[*i]))) {
      *out = 0;
      while (*i < text.size() && std::isdigit(static_cast<unsigned char>(text[*i]))) {
        *out = *out * 10 + (text[(*i)++] - '0');
        if (*out > 10000) return FormatError("a width or precision is at most 10000");
      }
    }
    return Status::OK();
  };
  LBT_RETURN_IF_ERROR(number(&spec.width));
  if (*i < text.size() && text[*i] == '.') {
    ++*i;
    spec.precision = 0;
    LBT_RETURN_IF_ERROR(number(&spec.precision));
  }
  if (*i >= text.size()) return FormatError("the format ends inside a specifier");
  spec.conversion = text[(*i)++];
  return spec;
}

Result<Value> FormatEval(const Values& a, const EvalContext&) {
  if (a[0].is_null()) return Value::Null(Type::String());
  const std::string& text = a[0].str();
  std::string out;
  size_t next_arg = 1;
  bool null_result = false;
  for (size_t i = 0; i < text.size();) {
    if (text[i] != '%') {
      out += text[i++];
      continue;
    }
    ++i;
    if (i < text.size() && text[i] == '%') {
      out += '%';
      ++i;
      continue;
    }
    LBT_ASSIGN_OR_RETURN(Spec spec, ParseSpec(text, &i, a, &next_arg));
    if (next_arg >= a.size())
      return FormatError(fmt::format("too few arguments for the format's %{}", spec.conversion));
    LBT_ASSIGN_OR_RETURN(std::optional<std::string> piece, FormatValue(spec, a[next_arg++]));
    if (!piece) null_result = true;
    if (piece) out += *piece;
    LBT_RETURN_IF_ERROR(CheckComputedBytes(static_cast<double>(out.size()), "FORMAT's result"));
  }
  if (next_arg < a.size()) return FormatError("more arguments than the format's specifiers");
  if (null_result) return Value::Null(Type::String());
  return Value::String(std::move(out));
}

}  // namespace

void RegisterFormatFunction(FunctionRegistry* registry) {
  registry->Add("FORMAT", FormatCheck, FormatEval, FunctionRegistry::Nulls::kWithNulls,
                FunctionRegistry::Args::kIndependent);
}

}  // namespace lbt::sql
