#include "commands/hbase/args.h"

#include <fmt/format.h>

#include <cctype>

#include "api/limits.h"
#include "commands/core/read_pipeline.h"

namespace lbt::hbase {

Status Usage(CommandContext& ctx, const std::string& message) { return ctx.Usage(message); }

// Bigtable tables are always enabled: disable and enable are local only.
Result<LocalMaintenance*> LocalOnly(CommandContext& ctx, std::string_view command) {
  if (LocalMaintenance* local = ctx.bigtable()->local()) return local;
  return Status::FailedPrecondition(fmt::format(
      "{} works on a local database only; Bigtable tables are always enabled (drop needs no disable)", command));
}

Status UnknownTable(std::string_view table) { return Status::NotFound(fmt::format("Unknown table {}!", table)); }

// ---- argument helpers ----

Result<std::string> StringArg(CommandContext& ctx, const std::vector<HValue>& args, size_t i, const char* what) {
  if (i >= args.size()) return Usage(ctx, fmt::format("missing {}", what));
  const HValue& v = args[i];
  if (v.kind == HValue::Kind::kString) return v.text;
  if (v.kind == HValue::Kind::kInteger) return std::to_string(v.integer);  // Ruby's to_s
  return Usage(ctx, fmt::format("{} must be a string, got {}", what, v.Describe()));
}

Result<int64_t> IntValue(CommandContext& ctx, const HValue& v, const char* what) {
  if (v.kind == HValue::Kind::kInteger) return v.integer;
  return Usage(ctx, fmt::format("{} must be an integer, got {}", what, v.Describe()));
}

// The hash at args[i], or an empty hash when there is none.
Result<HValue> OptionsArg(CommandContext& ctx, const std::vector<HValue>& args, size_t i) {
  if (i >= args.size()) {
    HValue empty;
    empty.kind = HValue::Kind::kHash;
    return empty;
  }
  if (!args[i].IsHash()) return Usage(ctx, fmt::format("expected a hash of options, got {}", args[i].Describe()));
  return args[i];
}

// Refuses a key of `hash` that the command's table entry does not list.
Status CheckKeys(CommandContext& ctx, const HValue& hash) {
  const std::vector<std::string_view> known = ctx.spec->OptionKeys();
  for (const auto& [key, value] : hash.entries) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string list;
    for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    std::string upper = key;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    // HBase's keys are upper case: `limit` is a typo for LIMIT too.
    const std::string hint = SuggestWord(upper, known);
    return Usage(ctx, hint.empty() ? fmt::format("unknown option {}; expected one of {}", key, list)
                                   : fmt::format("unknown option {} (did you mean {}?)", key, hint));
  }
  return Status::OK();
}

// Read options that HBase accepts and a local database has no use for:
// each one given is noted on stderr, as create notes the family options
// it ignores, rather than dropped without a word.
void NoteIgnoredReadOptions(CommandContext& ctx, const HValue& hash) {
  static const std::pair<const char*, const char*> kIgnored[] = {
      {"RAW", "lbt keeps no delete markers, and collected cells are gone"},
      {"CONSISTENCY", "one copy of the data is always consistent"},
      {"AUTHORIZATIONS", "lbt has no cell visibility labels"},
      {"ATTRIBUTES", "no meaning for a local database"},
  };
  for (const auto& [key, why] : kIgnored) {
    if (hash.Find(key) != nullptr) ctx.err->Write(fmt::format("Argument ignored: {} ({})\n", key, why));
  }
}

// REQUIRES: the table checked that there are at least three arguments.
Result<CellAddress> CellAddressArgs(CommandContext& ctx, const std::vector<HValue>& args) {
  CellAddress a;
  LBT_ASSIGN_OR_RETURN(a.table, StringArg(ctx, args, 0, "a table name"));
  LBT_ASSIGN_OR_RETURN(a.row, StringArg(ctx, args, 1, "a row key"));
  LBT_ASSIGN_OR_RETURN(a.column, StringArg(ctx, args, 2, "a column"));
  ColumnName name = SplitColumn(a.column);
  a.family = std::move(name.family);
  a.qualifier = std::move(name.qualifier);
  return a;
}

// ---- table helpers ----

// The table's spec, with HBase's wording for a missing or disabled table.
Result<TableSpec> RequireTable(CommandContext& ctx, std::string_view table, bool must_be_enabled) {
  Result<TableSpec> spec = ctx.bigtable()->GetTable(table);
  if (!spec.ok()) return spec.status().IsNotFound() ? UnknownTable(table) : spec.status();
  if (must_be_enabled && !spec->enabled) {
    return Status::FailedPrecondition(fmt::format("Table {} is disabled!", table));
  }
  return spec;
}

Result<std::optional<TableSpec>> DataTableSchema(CommandContext& ctx, std::string_view table) {
  Result<TableSpec> spec = ctx.bigtable()->GetTable(table);
  if (spec.status().IsNotFound()) return UnknownTable(table);
  if (!spec.ok()) return std::optional<TableSpec>();  // the Admin API is out of reach; the data may not be
  if (!spec->enabled) return Status::FailedPrecondition(fmt::format("Table {} is disabled!", table));
  return std::optional<TableSpec>(std::move(spec).value());
}

Result<std::unique_ptr<Table>> DataTable(CommandContext& ctx, std::string_view table) {
  LBT_RETURN_IF_ERROR(DataTableSchema(ctx, table).status());
  return ctx.OpenTable(table);
}

// Reads NAME/VERSIONS/TTL from a family hash into *family; other keys
// mean nothing locally and are reported on stderr, as HBase reports
// arguments it ignores.
Status ApplyFamilyOptions(CommandContext& ctx, const HValue& hash, FamilySpec* family, HBaseFamilyShape* shape) {
  for (const auto& [key, value] : hash.entries) {
    if (key == "NAME" || key == "METHOD") continue;
    if (key == "VERSIONS") {
      LBT_ASSIGN_OR_RETURN(shape->versions, IntValue(ctx, value, "VERSIONS"));
      if (shape->versions < 1) return Usage(ctx, "VERSIONS must be at least 1");
      if (shape->versions > kMaxGcVersions) {
        return Usage(ctx,
                     fmt::format("VERSIONS must be at most {} (Bigtable keeps the count in 32 bits)", kMaxGcVersions));
      }
    } else if (key == "TTL") {
      if (value.kind == HValue::Kind::kString && value.text == "FOREVER") {
        shape->ttl_seconds = 0;
      } else {
        LBT_ASSIGN_OR_RETURN(shape->ttl_seconds, IntValue(ctx, value, "TTL"));
        if (shape->ttl_seconds < 1) return Usage(ctx, "TTL must be a positive number of seconds or FOREVER");
        constexpr int64_t kMaxTtlSeconds = kMaxGcAgeMicros / 1000000;
        if (shape->ttl_seconds > kMaxTtlSeconds) {
          return Usage(
              ctx, fmt::format("TTL must be at most {} seconds (10,000 years, as Bigtable allows)", kMaxTtlSeconds));
        }
      }
    } else {
      ctx.err->Write(fmt::format("Argument ignored for column family {}: {} (no meaning for a local database)\n",
                                 family->name, key));
    }
  }
  family->gc_rule = RuleFor(*shape);
  return Status::OK();
}

Result<int64_t> TimestampArg(CommandContext& ctx, const HValue& v) {
  LBT_ASSIGN_OR_RETURN(int64_t ms, IntValue(ctx, v, "a timestamp (milliseconds)"));
  // Past the year 9999 in milliseconds: almost surely microseconds or nanoseconds.
  constexpr int64_t kYear10000Ms = 253402300800000;
  if (ms < 0 || ms >= kYear10000Ms) {
    return Usage(ctx, fmt::format("timestamp {} is out of range; HBase timestamps are milliseconds since the "
                                  "epoch (1700000000000 is November 2023)",
                                  ms));
  }
  return ms * kMicrosPerMs;
}

}  // namespace lbt::hbase
