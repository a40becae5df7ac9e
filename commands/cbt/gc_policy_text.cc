#include "commands/cbt/gc_policy_text.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <vector>

#include "api/limits.h"

namespace lbt {

namespace {

constexpr int64_t kMs = 1000;
constexpr int64_t kSecond = 1000 * kMs;
constexpr int64_t kMinute = 60 * kSecond;
constexpr int64_t kHour = 60 * kMinute;
constexpr int64_t kDay = 24 * kHour;

constexpr const char* kExpected =
    "expected maxage=<n><ms|s|m|h|d>, maxversions=<n> or never, combined with and/or and parentheses";

std::vector<std::string> Lex(std::string_view text) {
  std::vector<std::string> tokens;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '(' || c == ')') {
      tokens.emplace_back(1, c);
      ++i;
    } else if ((c == '&' || c == '|') && i + 1 < text.size() && text[i + 1] == c) {
      tokens.emplace_back(2, c);
      i += 2;
    } else {
      size_t start = i;
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) && text[i] != '(' &&
             text[i] != ')' && !((text[i] == '&' || text[i] == '|') && i + 1 < text.size() && text[i + 1] == text[i])) {
        ++i;
      }
      tokens.emplace_back(text.substr(start, i - start));
    }
  }
  return tokens;
}

bool ParseInt(std::string_view s, int64_t* out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

Result<int64_t> ParseDuration(std::string_view text) {
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  std::string_view unit = text.substr(digits);
  int64_t n;
  int64_t scale = unit == "ms"  ? kMs
                  : unit == "s" ? kSecond
                  : unit == "m" ? kMinute
                  : unit == "h" ? kHour
                  : unit == "d" ? kDay
                                : 0;
  if (digits == 0 || scale == 0) {
    return Status::InvalidArgument(
        fmt::format("invalid GC policy: bad age '{}'; expected a whole number with a unit of ms, s, m, h or d", text));
  }
  // Bigtable's API carries an age as a Duration of at most 10,000 years.
  if (!ParseInt(text.substr(0, digits), &n) || n > kMaxGcAgeMicros / scale) {
    return Status::InvalidArgument(
        fmt::format("invalid GC policy: age '{}' is too long; Bigtable allows at most {}{} (10,000 years)", text,
                    kMaxGcAgeMicros / scale, unit));
  }
  return n * scale;
}

class Parser {
 public:
  explicit Parser(std::vector<std::string> tokens) : tokens_(std::move(tokens)) {}

  Result<GcRule> ParseAll() {
    if (tokens_.empty()) return Status::InvalidArgument(std::string("invalid GC policy: it is empty; ") + kExpected);
    LBT_ASSIGN_OR_RETURN(GcRule rule, ParseExpr());
    if (pos_ < tokens_.size()) return Unexpected();
    return rule;
  }

 private:
  Result<GcRule> ParseExpr() {
    LBT_ASSIGN_OR_RETURN(GcRule left, ParseTerm());
    while (pos_ < tokens_.size()) {
      const std::string& op = tokens_[pos_];
      bool is_and = op == "and" || op == "&&";
      bool is_or = op == "or" || op == "||";
      if (!is_and && !is_or) break;
      ++pos_;
      LBT_ASSIGN_OR_RETURN(GcRule right, ParseTerm());
      std::vector<GcRule> pair = {std::move(left), std::move(right)};
      left = is_and ? GcRule::Intersection(std::move(pair)) : GcRule::Union(std::move(pair));
    }
    return left;
  }

  Result<GcRule> ParseTerm() {
    if (pos_ >= tokens_.size()) {
      return Status::InvalidArgument(std::string("invalid GC policy: it ends where a term should follow; ") +
                                     kExpected);
    }
    const std::string& token = tokens_[pos_];
    if (token == "(") {
      ++pos_;
      if (++depth_ > kMaxDepth) return Status::InvalidArgument("invalid GC policy: parentheses nest too deeply");
      LBT_ASSIGN_OR_RETURN(GcRule inner, ParseExpr());
      --depth_;
      if (pos_ >= tokens_.size() || tokens_[pos_] != ")") {
        return Status::InvalidArgument("invalid GC policy: a '(' is not closed");
      }
      ++pos_;
      return inner;
    }
    if (token == "never") {
      ++pos_;
      return GcRule::Never();
    }
    if (token.rfind("maxage=", 0) == 0) {
      ++pos_;
      LBT_ASSIGN_OR_RETURN(int64_t age, ParseDuration(std::string_view(token).substr(7)));
      return GcRule::MaxAge(age);
    }
    if (token.rfind("maxversions=", 0) == 0) {
      ++pos_;
      int64_t n;
      // 0 parses: whether a policy may keep no version is the service's
      // call (lbt's engine refuses it, the emulator takes it).
      const std::string_view count = std::string_view(token).substr(12);
      const bool digits = !count.empty() && count.find_first_not_of("0123456789") == std::string_view::npos;
      if (!digits) {
        return Status::InvalidArgument(
            fmt::format("invalid GC policy: bad version count '{}'; expected a whole number", count));
      }
      // Bigtable's API carries the count in 32 bits: a larger one would be
      // cut short on the way to a service, so it is refused here.
      if (!ParseInt(count, &n) || n > kMaxGcVersions) {
        return Status::InvalidArgument(fmt::format(
            "invalid GC policy: maxversions={} is too large; Bigtable allows at most {}", count, kMaxGcVersions));
      }
      return GcRule::MaxVersions(n);
    }
    return Unexpected();
  }

  Status Unexpected() const {
    return Status::InvalidArgument(fmt::format("invalid GC policy: unexpected '{}'; {}", tokens_[pos_], kExpected));
  }

  static constexpr int kMaxDepth = 32;
  std::vector<std::string> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

Result<GcRule> ParseGcPolicy(std::string_view text) {
  // The rule's values are for the service to judge (GcRule::Validate).
  return Parser(Lex(text)).ParseAll();
}

std::string FormatAge(int64_t micros) {
  if (micros % kDay == 0) return fmt::format("{}d", micros / kDay);
  if (micros % kHour == 0) return fmt::format("{}h", micros / kHour);
  if (micros % kMinute == 0) return fmt::format("{}m", micros / kMinute);
  return std::to_string(micros);
}

namespace {

// How a rule is written: as `cbt ls` prints it, or as setgcpolicy and
// createtable's families= read it.
enum class PolicyWords { kPrinted, kTyped };

// An age as ParseGcPolicy reads it: the largest unit that divides it (cbt's
// smallest is ms; a finer age is rounded up to it).
std::string TypedAge(int64_t micros) {
  static constexpr std::pair<int64_t, const char*> kUnits[] = {
      {86400000000, "d"}, {3600000000, "h"}, {60000000, "m"}, {1000000, "s"}, {1000, "ms"}};
  for (const auto& [unit_micros, unit] : kUnits) {
    if (micros % unit_micros == 0) return fmt::format("{}{}", micros / unit_micros, unit);
  }
  return fmt::format("{}ms", (micros + 999) / 1000);
}

std::string FormatRule(const GcRule& rule, PolicyWords words) {
  const bool typed = words == PolicyWords::kTyped;
  switch (rule.kind) {
    case GcRule::Kind::kNever: return typed ? "never" : "";
    case GcRule::Kind::kMaxVersions:
      return (typed ? "maxversions=" : "versions() > ") + std::to_string(rule.max_versions);
    case GcRule::Kind::kMaxAge:
      return typed ? "maxage=" + TypedAge(rule.max_age_micros) : "age() > " + FormatAge(rule.max_age_micros);
    case GcRule::Kind::kIntersection:
    case GcRule::Kind::kUnion: {
      const bool all = rule.kind == GcRule::Kind::kIntersection;
      const char* join = typed ? (all ? " and " : " or ") : (all ? " && " : " || ");
      std::string out = "(";
      for (size_t i = 0; i < rule.rules.size(); ++i) out += (i > 0 ? join : "") + FormatRule(rule.rules[i], words);
      return out + ")";
    }
  }
  return "";
}

}  // namespace

std::string FormatGcPolicy(const GcRule& rule) { return FormatRule(rule, PolicyWords::kPrinted); }

std::string FormatGcPolicyTyped(const GcRule& rule) { return FormatRule(rule, PolicyWords::kTyped); }

std::string FormatValueType(const FamilySpec& family) {
  if (family.value_type == ValueType::kProto) {
    return fmt::format(R"({{"protoType":{{"schemaBundleId":"{}", "messageName":"{}"}}}})", family.schema_bundle_id,
                       family.type_name);
  }
  if (family.value_type == ValueType::kEnum) {
    return fmt::format(R"({{"enumType":{{"schemaBundleId":"{}", "enumName":"{}"}}}})", family.schema_bundle_id,
                       family.type_name);
  }
  return FormatValueType(family.value_type);
}

std::string FormatValueType(ValueType type) {
  // cbt prints the family's Type message as protobuf JSON; the odd space
  // after the comma is how the installed cbt prints it.
  const char* aggregate = nullptr;
  switch (type) {
    case ValueType::kBytes: return "{}";
    case ValueType::kString: return R"({"stringType":{"encoding":{"utf8Bytes":{}}}})";
    case ValueType::kStringUtf8Raw: return R"({"stringType":{"encoding":{"utf8Raw":{}}}})";
    case ValueType::kIntSum: aggregate = "sum"; break;
    case ValueType::kIntMin: aggregate = "min"; break;
    case ValueType::kIntMax: aggregate = "max"; break;
    case ValueType::kHllInt64:
      return R"({"aggregateType":{"inputType":{"int64Type":{"encoding":{"bigEndianBytes":{}}}}, "hllppUniqueCount":{}}})";
    case ValueType::kHllBytes:
      return R"({"aggregateType":{"inputType":{"bytesType":{"encoding":{"raw":{}}}}, "hllppUniqueCount":{}}})";
    case ValueType::kProto:
    case ValueType::kEnum: return "{}";  // FormatFamilyValueType names the type
  }
  return fmt::format(
      "{{\"aggregateType\":{{\"inputType\":{{\"int64Type\":{{\"encoding\":{{\"bigEndianBytes\":{{}}}}}}}}, "
      "\"{}\":{{}}}}}}",
      aggregate);
}

}  // namespace lbt
