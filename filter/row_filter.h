// A compiled filter: what the streaming reader applies row by row. The
// engine compiles a request's filter with CompileFilter; a client of a
// remote Bigtable compiles the parts the service cannot run and applies
// them to the rows it receives.
//
// Regular expressions are RE2 over raw bytes, matched against the whole
// input as Bigtable does (the HBase comparators search instead).

#ifndef LBT_FILTER_ROW_FILTER_H_
#define LBT_FILTER_ROW_FILTER_H_

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "api/cell.h"
#include "api/filter.h"
#include "api/row_set.h"
#include "api/status.h"

namespace lbt {

// Narrows the cells of one row after garbage collection and the column and
// version limits of ReadOptions. Implementations must be deterministic.
class RowFilter {
 public:
  virtual ~RowFilter() = default;
  // Rewrites `cells` (in storage order, which the output keeps).
  virtual Status Apply(std::string_view row_key, std::vector<Cell>* cells) const = 0;

  // A range of row keys outside which this filter leaves no cells, if it
  // can tell; the reader then does not look at the rest of the table.
  virtual std::optional<RowRange> RowKeyHint() const { return std::nullopt; }

  // True once the filter will pass no further row (HBase's WHILE and
  // PageFilter); the reader then stops. Apply may set it.
  virtual bool ScanDone() const { return false; }
};

// Validates `filter` as Bigtable does (chains and interleaves need two or
// more filters, limits are positive, samples lie in (0, 1), labels match
// [a-z0-9-]{1,15} with at most one per chain, sinks stay out of conditions,
// at most 20 levels of nesting, regexes compile) and compiles it. The
// message of an error names the part of the filter that is wrong by its
// path from `name`, with the field names of RowFilter's JSON mapping:
// "filter.chain.filters[1].valueRegexFilter".
Result<std::unique_ptr<RowFilter>> CompileFilter(const Filter& filter, std::string_view name = "filter");

}  // namespace lbt

#endif  // LBT_FILTER_ROW_FILTER_H_
