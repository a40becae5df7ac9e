// What `advise` reports (Finding) and where its rules draw their lines
// (AdviceLimits), for advise.h and for the rules' shared internals
// (advise_internal.h).

#ifndef LBT_LAB_FINDING_H_
#define LBT_LAB_FINDING_H_

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

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

}  // namespace lbt::lab

#endif  // LBT_LAB_FINDING_H_
