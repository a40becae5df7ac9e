#include "commands/read_helpers.h"

#include "commands/interrupt.h"

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

Result<std::optional<Cell>> LatestCell(Bigtable* bigtable, std::string_view table, std::string_view row_key,
                                       const std::string& family, const std::string& qualifier) {
  ReadRequest request;
  request.rows.row_keys = {std::string(row_key)};
  request.columns = {{family, qualifier}};
  request.cells_per_column_limit = 1;
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, bigtable->ReadRows(table, request));
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

}  // namespace lbt
