// Database: idempotent writes. A write with a token (api/mutation.h's
// Idempotency) records the token in the hidden table kIdempotencyTable in
// the same step, batch and transaction as its cells, so that a replay is
// told apart however the first attempt ended: answered, lost, or cut short
// by a crash (then neither the cells nor the token were kept).

#include <fmt/format.h>

#include "storage/database.h"
#include "storage/database_internal.h"
#include "storage/format/record_keys.h"
#include "storage/format/stores.h"
#include "storage/rows/row_writer.h"
#include "util/bytes.h"

namespace lbt {

namespace {

constexpr size_t kMinTokenBytes = 8;  // data.proto's "at least 8 bytes"
constexpr size_t kMaxTokenBytes = 1024;
constexpr std::string_view kTokenFamily = "t";

// The token's row: the table, the token and a hash of the row key (a row
// key of up to 4 KiB would not fit beside them), so that one token names
// one write.
std::string TokenRowKey(std::string_view table, const RowMutation& row) {
  std::string key(table);
  key.push_back('\0');
  key.append(row.idempotency.token);
  key.push_back('\0');
  AppendBigEndian(&key, Fnv1a64(row.row_key), 8);
  return key;
}

Status CheckIdempotency(const Idempotency& idempotency, int64_t now) {
  const size_t size = idempotency.token.size();
  if (size < kMinTokenBytes || size > kMaxTokenBytes) {
    return Status::InvalidArgument(
        fmt::format("idempotency.token: must be {} to {} bytes, got {}", kMinTokenBytes, kMaxTokenBytes, size));
  }
  if (idempotency.start_time_micros != 0 && idempotency.start_time_micros < now - kIdempotencyWindowMicros) {
    return Status::FailedPrecondition(
        fmt::format("idempotency.start_time: the write's first attempt started {} s ago, and lbt remembers tokens "
                    "for {} s: it is refused rather than risk applying it twice",
                    (now - idempotency.start_time_micros) / 1000000, kIdempotencyWindowMicros / 1000000));
  }
  return Status::OK();
}

}  // namespace

Status Database::EnsureIdempotencyTable() {
  if (GetTable(kIdempotencyTable).ok()) return Status::OK();
  Status created = CreateTable(
      kIdempotencyTable, {{std::string(kTokenFamily), GcRule::MaxAge(kIdempotencyWindowMicros), ValueType::kBytes}});
  return created.IsAlreadyExists() ? Status::OK() : created;
}

Status Database::ApplyOnce(WriteScope& scope, RowWriter& writer, std::string_view table, const RowMutation& row,
                           int64_t now) {
  if (row.idempotency.token.empty()) return writer.Apply(row.row_key, row.mutations);
  LBT_RETURN_IF_ERROR(CheckIdempotency(row.idempotency, now));
  LBT_ASSIGN_OR_RETURN(const TableSpec* tokens, RequireEnabled(kIdempotencyTable));
  const std::string key = TokenRowKey(table, row);
  ReadOptions latest;
  latest.cells_per_column_limit = 1;
  LBT_ASSIGN_OR_RETURN(std::optional<Row> seen, ReadRowIn(scope.cells, scope.lazy_gc,
                                                          stores_->catalog.Share(kIdempotencyTable), key, latest, now));
  // Past the window a token is forgotten, even before a collection pass
  // removes its cell (--gc=lazy).
  if (seen && !seen->cells.empty() && seen->cells[0].timestamp > now - kIdempotencyWindowMicros) {
    return Status::OK();  // a replay: applied already
  }
  LBT_RETURN_IF_ERROR(writer.Apply(row.row_key, row.mutations));
  return scope.Writer(tokens, now).Apply(key, {Mutation::SetCell(std::string(kTokenFamily), "", "", now)});
}

}  // namespace lbt
