// Regular expressions (RE2): REGEXP_CONTAINS, REGEXP_EXTRACT,
// REGEXP_EXTRACT_ALL, REGEXP_INSTR and REGEXP_REPLACE. A BYTES pattern matches bytes (Latin-1), a STRING one
// UTF-8 characters.

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <memory>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"

namespace lbt::sql {

namespace {

Result<std::shared_ptr<RE2>> CompileRegex(const Value& pattern) {
  RE2::Options options;
  options.set_log_errors(false);
  if (pattern.kind() == TypeKind::kBytes) options.set_encoding(RE2::Options::EncodingLatin1);
  auto re = std::make_shared<RE2>(pattern.str(), options);
  if (!re->ok()) return Status::OutOfRange(fmt::format("Cannot parse regular expression: {}", re->error()));
  return re;
}

// Text and pattern of one type.
bool TextAndPattern(const Types& a, size_t count) {
  if (a.size() != count || !IsText(a[0])) return false;
  for (const TypePtr& t : a) {
    if (!SameType(t, a[0])) return false;
  }
  return true;
}

// ---- REGEXP_CONTAINS(text, pattern) ----

Result<TypePtr> RegexpContainsCheck(const Types& a) {
  if (!TextAndPattern(a, 2)) return ArgError("REGEXP_CONTAINS", a);
  return Type::Bool();
}
Result<Value> RegexpContainsEval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(auto re, CompileRegex(a[1]));
  return Value::Bool(RE2::PartialMatch(a[0].str(), *re));
}

// ---- REGEXP_EXTRACT(text, pattern): the first match, or its one group ----

Result<TypePtr> RegexpExtractCheck(const Types& a) {
  if (!TextAndPattern(a, 2)) return ArgError("REGEXP_EXTRACT", a);
  return a[0];
}
Result<Value> RegexpExtractEval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(auto re, CompileRegex(a[1]));
  if (re->NumberOfCapturingGroups() > 1) return Status::OutOfRange("REGEXP_EXTRACT's pattern has more than one group");
  re2::StringPiece input(a[0].str());
  std::vector<re2::StringPiece> groups(static_cast<size_t>(re->NumberOfCapturingGroups()) + 1);
  if (!re->Match(input, 0, input.size(), RE2::UNANCHORED, groups.data(), static_cast<int>(groups.size()))) {
    return Value::Null(a[0].type());
  }
  const re2::StringPiece match = groups.back();
  if (match.data() == nullptr) return Value::Null(a[0].type());
  return SameKind(a[0], std::string(match));
}

// ---- REGEXP_REPLACE(text, pattern, rewrite): \N in the rewrite names a group ----

Result<TypePtr> RegexpReplaceCheck(const Types& a) {
  if (!TextAndPattern(a, 3)) return ArgError("REGEXP_REPLACE", a);
  return a[0];
}
Result<Value> RegexpReplaceEval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(auto re, CompileRegex(a[1]));
  std::string s = a[0].str();
  const std::string& rewrite = a[2].str();
  // The result is at most the input, plus the rewrite's own text once per
  // match, plus each \N in it once per match: the groups it names are parts
  // of matches, which together are no longer than the input.
  const double n = static_cast<double>(s.size());
  const double backrefs = static_cast<double>(std::count(rewrite.begin(), rewrite.end(), '\\'));
  const double worst = n + (n + 1) * static_cast<double>(rewrite.size()) + backrefs * n;
  if (worst > static_cast<double>(kMaxComputedBytes)) {
    std::string counted = s;
    const double matches = RE2::GlobalReplace(&counted, *re, "");
    LBT_RETURN_IF_ERROR(CheckComputedBytes(n + matches * static_cast<double>(rewrite.size()) + backrefs * n,
                                           "REGEXP_REPLACE's result"));
  }
  RE2::GlobalReplace(&s, *re, rewrite);
  return SameKind(a[0], std::move(s));
}

// The bytes of the character at `at` (1 for BYTES, and past the end).
size_t NextCharBytes(const std::string& text, size_t at, bool utf8) {
  if (!utf8 || at >= text.size()) return 1;
  const std::vector<std::string_view> next = Chars(std::string_view(text).substr(at, 4), true);
  return next.empty() ? 1 : next[0].size();
}

// ---- REGEXP_EXTRACT_ALL(text, pattern): every non-overlapping match ----

Result<TypePtr> RegexpExtractAllCheck(const Types& a) {
  if (!TextAndPattern(a, 2)) return ArgError("REGEXP_EXTRACT_ALL", a);
  return Type::Array(a[0]);
}
Result<Value> RegexpExtractAllEval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(auto re, CompileRegex(a[1]));
  if (re->NumberOfCapturingGroups() > 1) {
    return Status::OutOfRange("REGEXP_EXTRACT_ALL's pattern has more than one group");
  }
  const std::string& text = a[0].str();
  re2::StringPiece input(text);
  std::vector<re2::StringPiece> groups(static_cast<size_t>(re->NumberOfCapturingGroups()) + 1);
  Values out;
  size_t at = 0;
  while (at <= text.size() &&
         re->Match(input, at, text.size(), RE2::UNANCHORED, groups.data(), static_cast<int>(groups.size()))) {
    const re2::StringPiece match = groups.back();
    out.push_back(SameKind(a[0], match.data() == nullptr ? "" : std::string(match)));
    const size_t end = static_cast<size_t>(groups[0].data() - text.data()) + groups[0].size();
    // An empty match moves on one character, so the scan always advances.
    at = groups[0].empty() ? end + NextCharBytes(text, end, Utf8(a[0])) : end;
  }
  return Value::Array(Type::Array(a[0].type()), std::move(out));
}

// ---- REGEXP_INSTR(text, pattern [, position [, occurrence [, occurrence_position]]]) ----

Result<TypePtr> RegexpInstrCheck(const Types& a) {
  if (a.size() < 2 || a.size() > 5 || !IsText(a[0]) || !SameType(a[0], a[1])) return ArgError("REGEXP_INSTR", a);
  for (size_t i = 2; i < a.size(); ++i) {
    if (!Is(a[i], TypeKind::kInt64)) return ArgError("REGEXP_INSTR", a);
  }
  return Type::Int64();
}
// The 1-based position (in characters for STRING) where the occurrence-th
// match at or after `position` starts, or just after it ends; 0 if none.
Result<Value> RegexpInstrEval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(auto re, CompileRegex(a[1]));
  if (re->NumberOfCapturingGroups() > 1) return Status::OutOfRange("REGEXP_INSTR's pattern has more than one group");
  const int64_t position = a.size() > 2 ? a[2].int64() : 1;
  const int64_t occurrence = a.size() > 3 ? a[3].int64() : 1;
  const int64_t after = a.size() > 4 ? a[4].int64() : 0;
  if (position < 1) return Status::OutOfRange("REGEXP_INSTR's position must be at least 1");
  if (occurrence < 1) return Status::OutOfRange("REGEXP_INSTR's occurrence must be at least 1");
  if (after != 0 && after != 1) return Status::OutOfRange("REGEXP_INSTR's occurrence_position must be 0 or 1");
  const std::string& text = a[0].str();
  const std::vector<std::string_view> chars = Chars(text, Utf8(a[0]));
  if (static_cast<size_t>(position) > chars.size()) return Value::Int64(0);
  // Byte offsets of the characters, for the match's position back in characters.
  std::vector<size_t> starts;
  for (std::string_view c : chars) starts.push_back(static_cast<size_t>(c.data() - text.data()));
  starts.push_back(text.size());
  re2::StringPiece input(text);
  std::vector<re2::StringPiece> groups(static_cast<size_t>(re->NumberOfCapturingGroups()) + 1);
  size_t at = starts[static_cast<size_t>(position - 1)];
  for (int64_t found = 0; at <= text.size();) {
    if (!re->Match(input, at, text.size(), RE2::UNANCHORED, groups.data(), static_cast<int>(groups.size()))) break;
    const re2::StringPiece match = groups.back().data() != nullptr ? groups.back() : groups[0];
    const size_t begin = static_cast<size_t>(match.data() - text.data());
    const size_t end = begin + match.size();
    const size_t whole_end = static_cast<size_t>(groups[0].data() - text.data()) + groups[0].size();
    if (++found == occurrence) {
      const size_t byte = after == 1 ? end : begin;
      const size_t index = static_cast<size_t>(std::lower_bound(starts.begin(), starts.end(), byte) - starts.begin());
      return Value::Int64(static_cast<int64_t>(index) + 1);
    }
    at = groups[0].empty() ? whole_end + NextCharBytes(text, whole_end, Utf8(a[0])) : whole_end;
  }
  return Value::Int64(0);
}

}  // namespace

void RegisterRegexpFunctions(FunctionRegistry* registry) {
  registry->Add("REGEXP_EXTRACT_ALL", RegexpExtractAllCheck, RegexpExtractAllEval);
  registry->Add("REGEXP_INSTR", RegexpInstrCheck, RegexpInstrEval);
  registry->Add("REGEXP_CONTAINS", RegexpContainsCheck, RegexpContainsEval);
  registry->Add("REGEXP_EXTRACT", RegexpExtractCheck, RegexpExtractEval);
  registry->Add("REGEXP_REPLACE", RegexpReplaceCheck, RegexpReplaceEval);
}

}  // namespace lbt::sql
