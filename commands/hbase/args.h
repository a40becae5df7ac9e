// What the HBase shell's commands share: their arguments ('t', 'r', 'f:q',
// a hash of options, timestamps in milliseconds) read with the HBase
// shell's wording for errors, and tables looked up as HBase names them.

#ifndef LBT_COMMANDS_HBASE_ARGS_H_
#define LBT_COMMANDS_HBASE_ARGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commands/core/command_table.h"
#include "commands/hbase/schema.h"
#include "commands/hbase/syntax.h"

namespace lbt::hbase {

// A usage error of the running command (exit status 2).
Status Usage(CommandContext& ctx, const std::string& message);

// Bigtable tables are always enabled: disable and enable are local only.
Result<LocalMaintenance*> LocalOnly(CommandContext& ctx, std::string_view command);

// HBase's "Unknown table t!".
Status UnknownTable(std::string_view table);

// args[i] as a string (an integer as Ruby's to_s writes it); `what` names
// it in errors ("a row key").
Result<std::string> StringArg(CommandContext& ctx, const std::vector<HValue>& args, size_t i, const char* what);
Result<int64_t> IntValue(CommandContext& ctx, const HValue& v, const char* what);
// A timestamp in milliseconds, as microseconds.
Result<int64_t> TimestampArg(CommandContext& ctx, const HValue& v);

// The hash at args[i], or an empty hash when there is none.
Result<HValue> OptionsArg(CommandContext& ctx, const std::vector<HValue>& args, size_t i);
// Refuses a key of `hash` that the command's spec does not list, with the
// closest known key when one is close.
Status CheckKeys(CommandContext& ctx, const HValue& hash);
// Read options HBase accepts and a local database has no use for: each one
// given is noted on stderr rather than dropped without a word.
void NoteIgnoredReadOptions(CommandContext& ctx, const HValue& hash);

// 't', 'r', 'f:q' at the front of a data command's arguments.
struct CellAddress {
  std::string table, row, column, family, qualifier;
};
// REQUIRES: the spec's count checked that there are at least three arguments.
Result<CellAddress> CellAddressArgs(CommandContext& ctx, const std::vector<HValue>& args);

// The table's spec, with HBase's wording for a missing or disabled table.
Result<TableSpec> RequireTable(CommandContext& ctx, std::string_view table, bool must_be_enabled);
// The schema of a table whose data is about to be read or written, with
// HBase's wording for a missing or disabled table; nullopt when the schema
// is out of reach (a remote Bigtable whose Admin API is unreachable or
// forbidden to the caller) while its Data API may still serve the data.
Result<std::optional<TableSpec>> DataTableSchema(CommandContext& ctx, std::string_view table);
// The data operations of `table`, once DataTableSchema
// has found nothing against it.
Result<std::unique_ptr<Table>> DataTable(CommandContext& ctx, std::string_view table);

// Reads NAME/VERSIONS/TTL from a family hash into *family; other keys mean
// nothing locally and are reported on stderr, as HBase reports arguments
// it ignores.
Status ApplyFamilyOptions(CommandContext& ctx, const HValue& hash, FamilySpec* family, HBaseFamilyShape* shape);

}  // namespace lbt::hbase

#endif  // LBT_COMMANDS_HBASE_ARGS_H_
