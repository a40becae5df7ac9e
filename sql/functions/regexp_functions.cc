// Regular expressions (RE2): REGEXP_CONTAINS, REGEXP_EXTRACT and
// REGEXP_REPLACE. A BYTES pattern matches bytes (Latin-1), a STRING one
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

}  // namespace

void RegisterRegexpFunctions(FunctionRegistry* registry) {
  registry->Add("REGEXP_CONTAINS", RegexpContainsCheck, RegexpContainsEval);
  registry->Add("REGEXP_EXTRACT", RegexpExtractCheck, RegexpExtractEval);
  registry->Add("REGEXP_REPLACE", RegexpReplaceCheck, RegexpReplaceEval);
}

}  // namespace lbt::sql
