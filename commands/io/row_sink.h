// RowSink: where an import's parsers (CSV, JSON lines) send the rows they
// read.

#ifndef LBT_COMMANDS_IO_ROW_SINK_H_
#define LBT_COMMANDS_IO_ROW_SINK_H_

#include <cstdint>
#include <functional>

#include "api/mutation.h"
#include "api/status.h"

namespace lbt {

// Where a parser sends each row it reads, with the line the row starts on.
// An error from it stops the parse.
using RowSink = std::function<Status(RowMutation row, int64_t line)>;

}  // namespace lbt

#endif  // LBT_COMMANDS_IO_ROW_SINK_H_
