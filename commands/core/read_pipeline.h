// The read pipeline both languages' reads run through: cbt's read, lookup
// and count and the HBase shell's get, scan and count. It looks up the
// table's schema, reads, reads ahead, shows progress, streams rows to the
// renderer and reports the read's stats; and the helpers reads share.

#ifndef LBT_COMMANDS_CORE_READ_PIPELINE_H_
#define LBT_COMMANDS_CORE_READ_PIPELINE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/bigtable.h"
#include "commands/core/command_table.h"

namespace lbt {

// Calls `fn(row, n)` for each row of `stream`, n counting from 1. Stops
// with Cancelled when the user interrupts (destroying the stream then
// cancels a remote read). Returns the rows seen, or the stream's error.
Result<int64_t> ForEachRow(RowStream* stream, const std::function<void(const Row& row, int64_t n)>& fn);

// The table's schema, for showing its values (aggregates as numbers).
// NotFound passes through. Any other failure gives an empty schema so that
// the read goes on with values shown as bytes, as cbt shows them: remotely
// the schema comes from the Admin API, which may be out of reach, or
// forbidden to the caller, while the Data API serves the read.
Result<TableSpec> SchemaForReading(Bigtable* bigtable, std::string_view table);
// The same for the command's table: a materialized view's schema when
// ctx.table_ref names one.
Result<TableSpec> SchemaForReading(const CommandContext& ctx, std::string_view table);

// The newest cell of one column of a row, or nullopt if it has none.
Result<std::optional<Cell>> LatestCell(Table* table, std::string_view row_key, const std::string& family,
                                       const std::string& qualifier);

// "f:q" as family f and qualifier q; "f" alone is the family with an empty
// qualifier, and `has_colon` tells the two apart.
struct ColumnName {
  std::string family;
  std::string qualifier;
  bool has_colon = false;
};
ColumnName SplitColumn(std::string_view column);

// How a read's rows are shown.
struct ReadDisplay {
  RowsView view;             // the layout (cbt's rows, HBase get or scan) and HBase's formats
  bool single_row = false;   // a lookup or get: no read-ahead, no progress line
  bool show_absent = false;  // cbt's lookup: an empty row when the row does not exist
  bool with_stats = false;   // include-stats=full: the read's stats after its rows
};

// Runs `request` on `table` and streams its rows to ctx.renderer:
// BeginRows, Row for each, EndRows with the read's stats if asked. A long
// local read reads ahead on a thread of its own; rows not going to a
// terminal show a progress line on stderr. `schema` is the table's, if the
// caller has looked it up; else it is looked up here (SchemaForReading).
Status StreamRowsToRenderer(CommandContext& ctx, std::string_view table, const ReadRequest& request,
                            ReadDisplay display, const TableSpec* schema = nullptr);

// The number of rows `request` returns, with a progress line; each row is
// passed to `each` with its number, from 1.
Result<int64_t> CountReadRows(CommandContext& ctx, std::string_view table, const ReadRequest& request,
                              const std::function<void(const Row& row, int64_t n)>& each);

}  // namespace lbt

#endif  // LBT_COMMANDS_CORE_READ_PIPELINE_H_
