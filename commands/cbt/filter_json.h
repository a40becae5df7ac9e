// Bigtable's RowFilter in the proto3 JSON mapping, as client libraries log
// it and documentation shows it:
//
//   {"chain": {"filters": [{"familyNameRegexFilter": "cf"},
//                          {"cellsPerColumnLimitFilter": 1}]}}
//
// Field names in lowerCamelCase (the proto's snake_case names work too);
// bytes fields (row key, qualifier and value regexes, range bounds) in
// base64; int64 fields as a JSON string or number; sink, passAllFilter,
// blockAllFilter and stripValueTransformer take true.
//
// The text is parsed by protobuf's own proto3 JSON mapping into Bigtable's
// RowFilter message, then converted by proto/convert.h, as the server
// converts the filters clients send.

#ifndef LBT_COMMANDS_CBT_FILTER_JSON_H_
#define LBT_COMMANDS_CBT_FILTER_JSON_H_

#include <string_view>

#include "api/status.h"
#include "filter/row_filter.h"

namespace lbt {

// Parses a RowFilter. An error names the part of the filter that is wrong.
Result<Filter> ParseFilterJson(std::string_view text);

}  // namespace lbt

#endif  // LBT_COMMANDS_CBT_FILTER_JSON_H_
