#include "commands/hbase/schema.h"

#include <fmt/format.h>

#include <utility>
#include <vector>

#include "commands/cbt/gc_policy_text.h"

namespace lbt {

GcRule RuleFor(const HBaseFamilyShape& shape) {
  std::vector<GcRule> rules;
  if (shape.ttl_seconds > 0) rules.push_back(GcRule::MaxAge(shape.ttl_seconds * kMsPerSecond * kMicrosPerMs));
  if (shape.versions < kUnlimitedVersions) rules.push_back(GcRule::MaxVersions(shape.versions));
  if (rules.empty()) return GcRule::Never();
  if (rules.size() == 1) return rules[0];
  return GcRule::Union(std::move(rules));
}

// The HBase view of a rule, when it has one.
std::optional<HBaseFamilyShape> ShapeOf(const GcRule& rule) {
  HBaseFamilyShape shape;
  shape.versions = kUnlimitedVersions;
  auto take = [&](const GcRule& r) {
    if (r.kind == GcRule::Kind::kMaxVersions) {
      shape.versions = r.max_versions;
      return true;
    }
    if (r.kind == GcRule::Kind::kMaxAge && r.max_age_micros % (kMsPerSecond * kMicrosPerMs) == 0) {
      shape.ttl_seconds = r.max_age_micros / (kMsPerSecond * kMicrosPerMs);
      return true;
    }
    return r.kind == GcRule::Kind::kNever;
  };
  if (rule.kind == GcRule::Kind::kUnion && rule.rules.size() == 2 && rule.rules[0].kind != rule.rules[1].kind) {
    if (take(rule.rules[0]) && take(rule.rules[1])) return shape;
    return std::nullopt;
  }
  if (take(rule)) return shape;
  return std::nullopt;
}

std::string FormatTtl(int64_t seconds) {
  if (seconds == 0) return "FOREVER";
  std::string human;
  const std::pair<int64_t, const char*> units[] = {{86400, "DAY"}, {3600, "HOUR"}, {60, "MINUTE"}, {1, "SECOND"}};
  int64_t rest = seconds;
  for (auto [size, name] : units) {
    if (rest >= size) {
      int64_t n = rest / size;
      rest %= size;
      human += fmt::format("{}{} {}{}", human.empty() ? "" : " ", n, name, n == 1 ? "" : "S");
    }
  }
  return fmt::format("{} SECONDS ({})", seconds, human);
}

std::string DescribeFamily(const FamilySpec& f) {
  std::string out = fmt::format("{{NAME => '{}'", f.name);
  if (std::optional<HBaseFamilyShape> shape = ShapeOf(f.gc_rule)) {
    out +=
        fmt::format(", VERSIONS => '{}', TTL => '{}'",
                    shape->versions == kUnlimitedVersions ? std::string("unlimited") : std::to_string(shape->versions),
                    FormatTtl(shape->ttl_seconds));
  } else {
    out += fmt::format(", GC_POLICY => '{}'", FormatGcPolicy(f.gc_rule));
  }
  if (IsAggregate(f.value_type)) out += fmt::format(", AGGREGATE => '{}'", ValueTypeName(f.value_type));
  return out + "}";
}

std::string ToStringBinary(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(bytes.size());
  for (char ch : bytes) {
    auto c = static_cast<unsigned char>(ch);
    if (c >= ' ' && c <= '~' && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xf]);
    }
  }
  return out;
}

}  // namespace lbt
