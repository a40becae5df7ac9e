// `advise`: the schema-design lessons lbt was created from, checked
// against a table's own data. Each rule looks at a TableSample (and, for
// many-similar-tables, the instance's other tables) and reports a finding
// with evidence from the user's keys and a fix built from them.
//
// Precision matters as much as recall: the designs the guidance itself
// recommends (phone#4c410523#20190501, device#<id>#<reversed ts>,
// asia#india#mumbai) draw no key finding.

#ifndef LBT_LAB_ADVISE_H_
#define LBT_LAB_ADVISE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/schema.h"
#include "lab/finding.h"
#include "lab/sample.h"

namespace lbt::lab {

// A rule: its id and the lesson behind it, for `help advise` and the README.
struct AdviceRule {
  std::string_view id;
  std::string_view summary;
};
const std::vector<AdviceRule>& AdviceRules();

// The findings for the sampled table; `tables` is every table of the
// instance with its schema (for many-similar-tables), possibly empty.
std::vector<Finding> Advise(const TableSample& sample, const std::vector<TableSpec>& tables,
                            const AdviceLimits& limits = {});

}  // namespace lbt::lab

#endif  // LBT_LAB_ADVISE_H_
