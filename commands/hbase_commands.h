// The HBase shell dialect: create, alter, describe, list, exists, disable,
// enable, drop, truncate, put, get, scan, count, delete, deleteall, incr,
// get_counter and append, with the HBase shell's non-terminal output.
// HBase timestamps are milliseconds: lbt stores ts * 1000 microseconds and
// prints them back in milliseconds, so both dialects agree on a cell.

#ifndef LBT_COMMANDS_HBASE_COMMANDS_H_
#define LBT_COMMANDS_HBASE_COMMANDS_H_

#include <string>
#include <string_view>
#include <vector>

#include "commands/hbase_syntax.h"
#include "commands/output.h"
#include "commands/session.h"
#include "api/status.h"

namespace lbt {

struct HBaseContext {
  Session* session;
  Output* out;
  Output* err;
  bool usage_error = false;

  Bigtable* bigtable() const { return session->bigtable(); }
};

using HBaseHandler = Status (*)(HBaseContext& ctx, const std::vector<HValue>& args);

struct HBaseCommandSpec {
  std::string_view name;
  std::string_view usage;
  std::string_view summary;
  std::string_view details;
  HBaseHandler handler;
};

const std::vector<HBaseCommandSpec>& HBaseCommands();
const HBaseCommandSpec* FindHBaseCommand(std::string_view name);

// Bytes as HBase's Bytes.toStringBinary prints them: printable ASCII but
// the backslash as is, every other byte as \xHH (upper case).
std::string ToStringBinary(std::string_view bytes);

}  // namespace lbt

#endif  // LBT_COMMANDS_HBASE_COMMANDS_H_
