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

#include <nlohmann/json.hpp>

#include "api/schema.h"
#include "lab/sample.h"

namespace lbt::lab {

struct Finding {
  std::string rule;                                                    // stable id, e.g. "key-starts-with-timestamp"
  std::string severity;                                                // "warning" or "info"
  std::string message;                                                 // what was seen, in one sentence
  nlohmann::ordered_json evidence = nlohmann::ordered_json::object();  // example keys and numbers
  std::string why;                                                     // the lesson behind the rule
  std::string fix;  // what to do, built from the table's own keys where it can be
};

// Where the rules draw their lines. The defaults are Bigtable's documented
// guidance; tests lower the size limits to exercise the rules on small data.
struct AdviceLimits {
  int64_t families = 100;           // "about 100 column families per table"
  int64_t row_bytes = 100ll << 20;  // keep rows under about 100 MB
  int64_t cell_bytes = 10ll << 20;  // keep cells under about 10 MB
  int64_t key_bytes = 100;          // a median key longer than this is long
  int64_t wide_row_columns = 1000;  // a row with this many columns grows without bound
  int64_t many_versions = 10;       // a column with this many versions is a time series
  int64_t similar_tables = 3;       // this many tables of one name pattern and schema
};

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
