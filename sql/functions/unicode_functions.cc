// Unicode: NORMALIZE and NORMALIZE_AND_CASEFOLD (NFC, NFKC, NFD, NFKD), and
// the case mapping LOWER, UPPER and INITCAP use for STRING: the Unicode
// Character Database's simple mappings, with no language's rules, as
// GoogleSQL's string functions page describes them. utf8proc computes them.

#include <fmt/format.h>
#include <utf8proc.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

bool IsDelimiter(int32_t c, const std::vector<int32_t>* delimiters) {
  if (delimiters != nullptr) return std::find(delimiters->begin(), delimiters->end(), c) != delimiters->end();
  if (c < 0x80 && std::string_view(" \t\n\r\f\v[](){}/|\\<>!?@\"^#$&~_,.:;*%+-").find(static_cast<char>(c)) !=
                      std::string_view::npos) {
    return true;
  }
  return c >= 0x80 && utf8proc_category(c) == UTF8PROC_CATEGORY_ZS;
}

}  // namespace

std::string MapCase(std::string_view text, CaseMapping mapping) {
  std::string out;
  out.reserve(text.size());
  bool word_start = true;
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  for (size_t i = 0; i < text.size();) {
    utf8proc_int32_t c = 0;
    const utf8proc_ssize_t n = utf8proc_iterate(p + i, static_cast<utf8proc_ssize_t>(text.size() - i), &c);
    if (n <= 0) {  // not UTF-8: the byte as it is
      out.push_back(text[i++]);
      continue;
    }
    i += static_cast<size_t>(n);
    utf8proc_int32_t mapped = c;
    switch (mapping.kind) {
      case CaseMapping::kLower: mapped = utf8proc_tolower(c); break;
      case CaseMapping::kUpper:
        // ß has no one-letter upper case: Unicode's full mapping is "SS".
        if (c == 0xDF) {
          out += "SS";
          continue;
        }
        mapped = utf8proc_toupper(c);
        break;
      case CaseMapping::kInitcap: {
        const bool delimiter = IsDelimiter(c, mapping.delimiters);
        mapped = delimiter ? c : word_start ? utf8proc_totitle(c) : utf8proc_tolower(c);
        word_start = delimiter;
        break;
      }
    }
    utf8proc_uint8_t buffer[4];
    const utf8proc_ssize_t written = utf8proc_encode_char(mapped, buffer);
    out.append(reinterpret_cast<const char*>(buffer), static_cast<size_t>(written));
  }
  return out;
}

std::vector<int32_t> CodePoints(std::string_view text) {
  std::vector<int32_t> out;
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  for (size_t i = 0; i < text.size();) {
    utf8proc_int32_t c = 0;
    const utf8proc_ssize_t n = utf8proc_iterate(p + i, static_cast<utf8proc_ssize_t>(text.size() - i), &c);
    if (n <= 0) {
      out.push_back(static_cast<unsigned char>(text[i++]));
      continue;
    }
    out.push_back(c);
    i += static_cast<size_t>(n);
  }
  return out;
}

namespace {

// ---- NORMALIZE(text [, mode]), NORMALIZE_AND_CASEFOLD(text [, mode]) ----

Result<TypePtr> NormalizeCheck(const Types& a) {
  if (a.empty() || a.size() > 2 || !Is(a[0], TypeKind::kString) || (a.size() == 2 && !Is(a[1], TypeKind::kString))) {
    return ArgError("NORMALIZE", a);
  }
  return Type::String();
}

template <bool kCasefold>
Result<Value> NormalizeEval(const Values& a, const EvalContext&) {
  const std::string mode = a.size() > 1 ? a[1].str() : "NFC";
  int options = UTF8PROC_STABLE;
  if (mode == "NFC") {
    options |= UTF8PROC_COMPOSE;
  } else if (mode == "NFKC") {
    options |= UTF8PROC_COMPOSE | UTF8PROC_COMPAT;
  } else if (mode == "NFD") {
    options |= UTF8PROC_DECOMPOSE;
  } else if (mode == "NFKD") {
    options |= UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT;
  } else {
    return Status::InvalidArgument(fmt::format("{}'s normalization mode is NFC, NFKC, NFD or NFKD, not {}",
                                               kCasefold ? "NORMALIZE_AND_CASEFOLD" : "NORMALIZE", mode));
  }
  if (kCasefold) options |= UTF8PROC_CASEFOLD;
  utf8proc_uint8_t* mapped = nullptr;
  const std::string& text = a[0].str();
  const utf8proc_ssize_t n =
      utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(text.data()), static_cast<utf8proc_ssize_t>(text.size()),
                   &mapped, static_cast<utf8proc_option_t>(options));
  std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owned(mapped, &std::free);
  if (n < 0) return Status::OutOfRange(fmt::format("Cannot normalize the text: {}", utf8proc_errmsg(n)));
  LBT_RETURN_IF_ERROR(CheckComputedBytes(static_cast<double>(n), "NORMALIZE's result"));
  return Value::String(std::string(reinterpret_cast<const char*>(mapped), static_cast<size_t>(n)));
}

}  // namespace

void RegisterUnicodeFunctions(FunctionRegistry* registry) {
  registry->Add("NORMALIZE", NormalizeCheck, NormalizeEval<false>);
  registry->Add("NORMALIZE_AND_CASEFOLD", NormalizeCheck, NormalizeEval<true>);
}

}  // namespace lbt::sql
