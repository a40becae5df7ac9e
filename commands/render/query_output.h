// How SQL results look: an aligned text table, and one JSON object per row
// keyed by column name. Renderers use these; handlers never format.

#ifndef LBT_COMMANDS_RENDER_QUERY_OUTPUT_H_
#define LBT_COMMANDS_RENDER_QUERY_OUTPUT_H_

#include <string>
#include <vector>

#include "commands/core/output.h"
#include "sql/query.h"

namespace lbt {

enum class BytesMode;

// The text table. Widths come from the first kAlignRows rows; later rows
// stream with those widths, so memory stays bounded.
class QueryTable {
 public:
  static constexpr size_t kAlignRows = 1000;
  explicit QueryTable(Output* out) : out_(out) {}
  void Begin(const std::vector<sql::ResultColumn>& columns);
  void Add(const sql::Values& row);
  // Prints what is buffered and "(N rows)".
  void Finish();

 private:
  void Flush();
  void Print(const std::vector<std::string>& cells);
  Output* out_;
  std::vector<std::string> names_;
  std::vector<size_t> widths_;
  std::vector<std::vector<std::string>> pending_;
  bool aligned_ = false;
  int64_t rows_ = 0;
};

// One result row as a JSON object, without a newline:
// INT64 and FLOAT as numbers (NaN and infinities as strings), BOOL, NULL as
// null, STRING as a string, BYTES as a string when it is UTF-8 and otherwise
// as "<name>_b64" (nested: {"b64": ...}), TIMESTAMP as RFC 3339 with
// microseconds, DATE as "YYYY-MM-DD", ARRAY as a list, STRUCT and MAP as
// objects (a map key that is not UTF-8 is "b64:" + base64).
std::string QueryRowJson(const std::vector<sql::ResultColumn>& columns, const sql::Values& row, BytesMode bytes);

// A value as the text table shows it: bytes and strings with control and
// non-UTF-8 bytes escaped as \xNN.
std::string QueryCellText(const sql::Value& v);

}  // namespace lbt

#endif  // LBT_COMMANDS_RENDER_QUERY_OUTPUT_H_
