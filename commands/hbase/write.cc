// The HBase shell's write commands: put, delete, deleteall, incr,
// get_counter and append. HBase timestamps are milliseconds: lbt stores
// ts * 1000 microseconds.

#include <fmt/format.h>

#include "commands/command_sets.h"
#include "commands/core/read_pipeline.h"
#include "commands/hbase/args.h"

namespace lbt::hbase {

namespace {

Status Put(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  LBT_ASSIGN_OR_RETURN(std::string row, StringArg(ctx, args, 1, "a row key"));
  LBT_ASSIGN_OR_RETURN(std::string column, StringArg(ctx, args, 2, "a column"));
  LBT_ASSIGN_OR_RETURN(std::string value, StringArg(ctx, args, 3, "a value"));
  int64_t ts = kServerTime;
  if (args.size() > 4 && !args[4].IsHash()) {
    LBT_ASSIGN_OR_RETURN(ts, TimestampArg(ctx, args[4]));
  }
  ColumnName name = SplitColumn(column);
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> data, DataTable(ctx, table));
  return data->MutateRow(row, {Mutation::SetCell(name.family, name.qualifier, value, ts)});
}

Status Delete(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(CellAddress a, CellAddressArgs(ctx, args));
  const std::string &table = a.table, &row_key = a.row, &family = a.family, &qualifier = a.qualifier;
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> data, DataTable(ctx, table));
  int64_t ts;
  if (args.size() > 3 && !args[3].IsHash()) {
    LBT_ASSIGN_OR_RETURN(ts, TimestampArg(ctx, args[3]));
  } else {
    // Without a timestamp, HBase deletes the newest version only.
    LBT_ASSIGN_OR_RETURN(std::optional<Cell> latest, LatestCell(data.get(), row_key, family, qualifier));
    if (!latest) return Status::OK();
    ts = latest->timestamp;
  }
  return data->MutateRow(row_key, {Mutation::DeleteFromColumn(family, qualifier, {ts, ts + kMicrosPerMs})});
}

Status DeleteAll(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  if (args.size() == 2 && args[1].IsHash()) {
    const HValue* prefix = args[1].Find("ROWPREFIXFILTER");
    if (prefix == nullptr || !prefix->IsString())
      return Usage(ctx, "deleteall takes a row, or {ROWPREFIXFILTER => 'p'}");
    LBT_RETURN_IF_ERROR(DataTableSchema(ctx, table).status());
    return ctx.bigtable()->DropRowRange(table, prefix->text);
  }
  LBT_ASSIGN_OR_RETURN(std::string row_key, StringArg(ctx, args, 1, "a row key"));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> data, DataTable(ctx, table));
  if (args.size() == 2) return data->MutateRow(row_key, {Mutation::DeleteFromRow()});
  LBT_ASSIGN_OR_RETURN(std::string column, StringArg(ctx, args, 2, "a column"));
  ColumnName name = SplitColumn(column);
  TimestampRange range;
  if (args.size() > 3) {
    // With a timestamp: every version at or before it.
    LBT_ASSIGN_OR_RETURN(int64_t ts, TimestampArg(ctx, args[3]));
    range = {0, ts + kMicrosPerMs};
  }
  Mutation m = name.has_colon ? Mutation::DeleteFromColumn(name.family, name.qualifier, range)
                              : Mutation::DeleteFromFamily(name.family);
  return data->MutateRow(row_key, {m});
}

Status Incr(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(CellAddress a, CellAddressArgs(ctx, args));
  const std::string &table = a.table, &row_key = a.row, &family = a.family, &qualifier = a.qualifier;
  int64_t delta = 1;
  if (args.size() > 3 && !args[3].IsHash()) {
    LBT_ASSIGN_OR_RETURN(delta, IntValue(ctx, args[3], "the increment"));
  }
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> data, DataTable(ctx, table));
  LBT_ASSIGN_OR_RETURN(Row out,
                       data->ReadModifyWriteRow(row_key, {ReadModifyWriteRule::Increment(family, qualifier, delta)}));
  int64_t value = 0;
  DecodeInt64(out.cells.at(0).value, &value);
  ctx.renderer->Counter(value);
  return Status::OK();
}

Status GetCounter(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(CellAddress a, CellAddressArgs(ctx, args));
  const std::string &table = a.table, &row_key = a.row, &column = a.column, &family = a.family,
                    &qualifier = a.qualifier;
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> data, DataTable(ctx, table));
  LBT_ASSIGN_OR_RETURN(std::optional<Cell> latest, LatestCell(data.get(), row_key, family, qualifier));
  if (!latest) {
    ctx.renderer->Counter(std::nullopt);
    return Status::OK();
  }
  int64_t value;
  if (!DecodeInt64(latest->value, &value)) {
    return Status::FailedPrecondition(
        fmt::format("{} holds {} bytes, not an 8-byte counter", column, latest->value.size()));
  }
  ctx.renderer->Counter(value);
  return Status::OK();
}

Status Append(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(CellAddress a, CellAddressArgs(ctx, args));
  const std::string &table = a.table, &row_key = a.row, &family = a.family, &qualifier = a.qualifier;
  LBT_ASSIGN_OR_RETURN(std::string value, StringArg(ctx, args, 3, "a value"));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> data, DataTable(ctx, table));
  LBT_ASSIGN_OR_RETURN(Row out,
                       data->ReadModifyWriteRow(row_key, {ReadModifyWriteRule::Append(family, qualifier, value)}));
  ctx.renderer->AppendedRow(out);
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> WriteCommands() {
  const Arg value{.text = "'value'", .noun = "a value"};
  auto optional = [](std::string_view text, std::string_view noun) {
    return Arg{.text = text, .noun = noun, .arity = Arity::kOptional};
  };
  return {
      {.name = "append",
       .dialect = Dialect::kHBase,
       .summary = "Append to a cell's value",
       .args = {kHBaseTableArg, kHBaseRowArg, kHBaseColumnArg, value},
       .details = "  Prints CURRENT VALUE = <the new value>.",
       .hbase = Append},
      {.name = "delete",
       .dialect = Dialect::kHBase,
       .summary = "Delete one version of a cell (the newest, or the one at ts)",
       .args = {kHBaseTableArg, kHBaseRowArg, kHBaseColumnArg, optional("ts", "a timestamp")},
       .hbase = Delete},
      {.name = "deleteall",
       .dialect = Dialect::kHBase,
       .summary = "Delete a row, a column, or every row with a prefix",
       .args = {kHBaseTableArg,
                {.text = "'r' | {ROWPREFIXFILTER => 'p'}", .noun = "a row or {ROWPREFIXFILTER => 'p'}"},
                {.text = "'f:q'", .noun = "a column", .kind = ArgKind::kColumn, .arity = Arity::kOptional},
                optional("ts", "a timestamp")},
       .options = {{.key = "ROWPREFIXFILTER", .use = OptionUse::kQuiet}},
       .hbase = DeleteAll},
      {.name = "get_counter",
       .dialect = Dialect::kHBase,
       .summary = "Print an 8-byte counter",
       .args = {kHBaseTableArg, kHBaseRowArg, kHBaseColumnArg},
       .hbase = GetCounter},
      {.name = "incr",
       .dialect = Dialect::kHBase,
       .summary = "Increment an 8-byte big-endian counter",
       .args = {kHBaseTableArg, kHBaseRowArg, kHBaseColumnArg, optional("n", "an increment")},
       .hbase = Incr},
      {.name = "put",
       .dialect = Dialect::kHBase,
       .summary = "Write a cell (timestamps in milliseconds)",
       .args = {kHBaseTableArg, kHBaseRowArg, kHBaseColumnArg, value, optional("ts", "a timestamp")},
       .hbase = Put},
  };
}

}  // namespace lbt::hbase
