// HBase's filter language, as the HBase shell takes it in FILTER => "...":
//
//   PrefixFilter('user#') AND (QualifierFilter(=, 'binary:name')
//                              OR ValueFilter(!=, 'substring:test'))
//
// Precedence: parentheses, then SKIP and WHILE, then AND, then OR. In a
// quoted argument, '' stands for a quote. Comparators: binary:,
// binaryprefix:, regexstring: (an unanchored search) and substring:
// (case-insensitive); operators < <= = != >= >. Timestamps are HBase's
// milliseconds. Every filter compiles into the engine's filter model and
// runs in the same row-at-a-time reader as Bigtable's filters.

#ifndef LBT_COMMANDS_HBASE_FILTER_H_
#define LBT_COMMANDS_HBASE_FILTER_H_

#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"
#include "filter/row_filter.h"

namespace lbt {

Result<Filter> ParseHBaseFilter(std::string_view text);

// The filter names the language knows, for help and completion.
const std::vector<std::string>& HBaseFilterNames();

}  // namespace lbt

#endif  // LBT_COMMANDS_HBASE_FILTER_H_
