// Parsing of cbt-style arguments: positional words, then key=value options.

#ifndef LBT_COMMANDS_CBT_ARGS_H_
#define LBT_COMMANDS_CBT_ARGS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"
#include "commands/core/command_table.h"

namespace lbt {

struct CbtArgs {
  std::vector<std::string> positional;
  std::map<std::string, std::string, std::less<>> options;

  const std::string* Find(std::string_view key) const {
    auto it = options.find(key);
    return it == options.end() ? nullptr : &it->second;
  }
};

// Takes the first `positional` words as they are (a row key may contain
// '='), and every later word as key=value with a key from ctx.spec->options.
Result<CbtArgs> ParseCbtArgs(CommandContext& ctx, const std::vector<std::string>& args, size_t positional);

// The words from `from` on, joined by spaces: a query given as the rest of
// a command's words.
std::string JoinWords(const std::vector<std::string>& words, size_t from);

// authorized-view=<id>: from here on the command reads and writes `table`
// through that view of it (ctx->view). Without the option, a `table` that
// is a materialized view is read as a table (writes to it are refused).
Status UseViewIfNamed(CommandContext& ctx, const CbtArgs& args, const std::string& table);

// An option's value as a positive integer / a boolean ("true"/"false").
Result<std::optional<int64_t>> PositiveOption(CommandContext& ctx, const CbtArgs& args, std::string_view key);
Result<bool> BoolOption(CommandContext& ctx, const CbtArgs& args, std::string_view key);

// "7d", "36h", "90m", "30s": a whole number of days, hours, minutes or
// seconds, in microseconds; false for anything else (or a negative span).
bool ParseSpanMicros(std::string_view text, int64_t* micros);

// A comma-separated list's non-empty items: "a,,b" is {"a", "b"}.
std::vector<std::string> SplitList(std::string_view list);

// The rows cbt's start=/end= or prefix= select (every row without them).
Result<RowSet> RowsFromOptions(CommandContext& ctx, const CbtArgs& args);

// Splits cbt's "<val>[@<timestamp>]": the text after the last '@' is a
// timestamp if it parses as an integer, and part of the value otherwise.
struct ValueAndTimestamp {
  std::string value;
  std::optional<int64_t> timestamp;
};
ValueAndTimestamp SplitTimestamp(const std::string& text);

bool ParseInt64(std::string_view text, int64_t* out);

}  // namespace lbt

#endif  // LBT_COMMANDS_CBT_ARGS_H_
