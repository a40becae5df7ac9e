// The HBase shell's view of column families: VERSIONS and TTL, which lbt
// stores as GC rules, and the text describe prints for a family.

#ifndef LBT_COMMANDS_HBASE_SCHEMA_H_
#define LBT_COMMANDS_HBASE_SCHEMA_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "api/schema.h"

namespace lbt {

inline constexpr int64_t kMsPerSecond = 1000;
inline constexpr int64_t kMicrosPerMs = 1000;
inline constexpr int64_t kUnlimitedVersions = 2147483647;  // HBase's Integer.MAX_VALUE

struct HBaseFamilyShape {
  int64_t versions = 1;     // kUnlimitedVersions: no limit
  int64_t ttl_seconds = 0;  // 0: FOREVER
};

// VERSIONS and TTL as a GC rule: with both, either collects a cell.
GcRule RuleFor(const HBaseFamilyShape& shape);
// The HBase view of a rule, when it has one.
std::optional<HBaseFamilyShape> ShapeOf(const GcRule& rule);
// "86400 SECONDS (1 DAY)", or "FOREVER" for 0.
std::string FormatTtl(int64_t seconds);
// A family as describe prints it: {NAME => 'f', VERSIONS => '1', TTL => 'FOREVER'}.
std::string DescribeFamily(const FamilySpec& family);

// Bytes as HBase's Bytes.toStringBinary prints them: printable ASCII but
// the backslash as is, every other byte as \xHH (upper case).
std::string ToStringBinary(std::string_view bytes);

}  // namespace lbt

#endif  // LBT_COMMANDS_HBASE_SCHEMA_H_
