#include "commands/core/read_pipeline.h"

#include <fmt/format.h>

#include <chrono>

#include "api/materialized_view.h"
#include "commands/core/interrupt.h"
#include "commands/core/progress.h"
#include "commands/core/read_ahead.h"

namespace lbt {

Result<int64_t> ForEachRow(RowStream* stream, const std::function<void(const Row& row, int64_t n)>& fn) {
  int64_t n = 0;
  for (Row row; stream->Next(&row);) {
    if (InterruptRequested()) return Status::Cancelled("interrupted");
    fn(row, ++n);
  }
  Status status = stream->status();
  if (!status.ok() && InterruptRequested()) return Status::Cancelled("interrupted");
  LBT_RETURN_IF_ERROR(status);
  return n;
}

Result<TableSpec> SchemaForReading(Bigtable* bigtable, std::string_view table) {
  Result<TableSpec> spec = bigtable->GetTable(table);
  if (spec.ok() || spec.status().IsNotFound()) return spec;
  TableSpec unknown;
  unknown.name = std::string(table);
  return unknown;
}

Result<TableSpec> SchemaForReading(const CommandContext& ctx, std::string_view table) {
  if (ctx.table_ref.has_value() && ctx.table_ref->materialized_view == table) return MaterializedViewSchema(table);
  return SchemaForReading(ctx.bigtable(), table);
}

Result<std::optional<Cell>> LatestCell(Table* table, std::string_view row_key, const std::string& family,
                                       const std::string& qualifier) {
  ReadRequest request;
  request.rows.row_keys = {std::string(row_key)};
  request.columns = {{family, qualifier}};
  request.cells_per_column_limit = 1;
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, table->ReadRows(request));
  Row row;
  if (stream->Next(&row) && !row.cells.empty()) return std::optional<Cell>(std::move(row.cells[0]));
  LBT_RETURN_IF_ERROR(stream->status());
  return std::optional<Cell>();
}

ColumnName SplitColumn(std::string_view column) {
  size_t colon = column.find(':');
  if (colon == std::string_view::npos) return {std::string(column), "", false};
  return {std::string(column.substr(0, colon)), std::string(column.substr(colon + 1)), true};
}

Status StreamRowsToRenderer(CommandContext& ctx, std::string_view table, const ReadRequest& request,
                            ReadDisplay display, const TableSpec* schema) {
  const auto start = std::chrono::steady_clock::now();
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> opened, ctx.OpenTable(table));
  TableSpec looked_up;
  if (schema == nullptr) {
    LBT_ASSIGN_OR_RETURN(looked_up, SchemaForReading(ctx, table));
    schema = &looked_up;
  }
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, opened->ReadRows(request));
  if (!display.single_row && ctx.bigtable()->local() != nullptr) {
    stream = std::make_unique<ReadAheadStream>(std::move(stream));
  }
  display.view.table = schema;
  ctx.renderer->BeginRows(display.view);
  // Rows printed to a terminal show their own progress.
  Progress progress(ctx.err, fmt::format("reading {}", table), !display.single_row && !ctx.out->IsTerminal());
  LBT_ASSIGN_OR_RETURN(int64_t rows, ForEachRow(stream.get(), [&](const Row& row, int64_t n) {
                         ctx.renderer->Row(row);
                         progress.Update(n);
                       }));
  progress.Clear();
  if (display.show_absent && rows == 0) ctx.renderer->AbsentRow();
  ReadSummary summary;
  summary.stats = stream->stats();
  summary.filter_placement = stream->FilterPlacement();
  summary.latency_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  ctx.renderer->EndRows(display.with_stats ? &summary : nullptr);
  return Status::OK();
}

Result<int64_t> CountReadRows(CommandContext& ctx, std::string_view table, const ReadRequest& request,
                              const std::function<void(const Row& row, int64_t n)>& each) {
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> opened, ctx.OpenTable(table));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, opened->ReadRows(request));
  Progress progress(ctx.err, fmt::format("counting {}", table));
  return ForEachRow(stream.get(), [&](const Row& row, int64_t n) {
    each(row, n);
    progress.Update(n);
  });
}

}  // namespace lbt
