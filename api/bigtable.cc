#include "api/bigtable.h"

namespace lbt {

Result<std::optional<Row>> Bigtable::ReadRow(std::string_view table, std::string_view row_key,
                                             std::optional<Filter> filter) {
  ReadRequest request;
  request.rows.row_keys = {std::string(row_key)};
  request.filter = std::move(filter);
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, ReadRows(table, request));
  Row row;
  if (stream->Next(&row)) return std::optional<Row>(std::move(row));
  LBT_RETURN_IF_ERROR(stream->status());
  return std::optional<Row>();
}

}  // namespace lbt
