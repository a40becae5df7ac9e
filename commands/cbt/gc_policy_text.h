// GC policies in cbt's words: parsing the expressions users type
// ("maxage=10d || maxversions=2", "maxversions=1 and maxage=1h", "never")
// and printing rules the way `cbt ls <table>` does ("(age() > 10d ||
// versions() > 2)").

#ifndef LBT_COMMANDS_CBT_GC_POLICY_TEXT_H_
#define LBT_COMMANDS_CBT_GC_POLICY_TEXT_H_

#include <string>
#include <string_view>

#include "api/schema.h"
#include "api/status.h"

namespace lbt {

// Parses a cbt GC policy expression. Terms are maxage=<n><ms|s|m|h|d>,
// maxversions=<n> and never; "and"/"&&" and "or"/"||" combine them left to
// right with equal precedence, as cbt does; parentheses group.
Result<GcRule> ParseGcPolicy(std::string_view text);

// The rule as cbt prints it; "" for never.
std::string FormatGcPolicy(const GcRule& rule);
// The rule as ParseGcPolicy reads it back: "(maxage=10d or maxversions=1)",
// "never".
std::string FormatGcPolicyTyped(const GcRule& rule);

// A duration as cbt prints an age: whole days, hours or minutes with their
// unit, otherwise the number of microseconds.
std::string FormatAge(int64_t micros);

// A value type as `cbt ls <table>` prints it (Bigtable's Type as JSON).
std::string FormatValueType(ValueType type);
// A family's, a schema bundle's proto or enum type included.
std::string FormatValueType(const FamilySpec& family);

}  // namespace lbt

#endif  // LBT_COMMANDS_CBT_GC_POLICY_TEXT_H_
