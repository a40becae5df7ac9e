// Bulk paths between tables and files, streamed both ways so memory stays
// flat whatever the file's size:
//
//   ImportJsonl  reads the row objects that --format jsonl prints, so the
//                output of `read` or `export` round-trips exactly (binary
//                bytes and timestamps included);
//   ExportRows   writes a read's rows as JSON lines, or as cbt's CSV layout
//                (family row, qualifier row, the newest cell of each column
//                written <value>@<timestamp>, for import timestamp=value-encoded).

#ifndef LBT_COMMANDS_BULK_IO_H_
#define LBT_COMMANDS_BULK_IO_H_

#include <cstdint>
#include <functional>
#include <istream>
#include <string>

#include "commands/output.h"
#include "commands/renderer.h"
#include "engine/database.h"
#include "engine/status.h"

namespace lbt {

struct BulkOptions {
  // Rows per write transaction; a row is never split across two.
  int64_t batch_size = 10000;
  // Called after each committed batch with the rows so far and the input
  // bytes consumed; an error stops the work (earlier batches stay).
  std::function<Status(int64_t rows, int64_t bytes)> on_batch;
};

Result<int64_t> ImportJsonl(Database* db, const std::string& table, std::istream* in, const BulkOptions& options);

enum class ExportFormat { kJsonl, kCsv };

// Writes the rows `read` selects to `out`; returns how many.
Result<int64_t> ExportRows(Database* db, const std::string& table, const ReadOptions& read, ExportFormat format,
                           BytesMode bytes, Output* out, const std::function<Status(int64_t rows)>& on_row);

}  // namespace lbt

#endif  // LBT_COMMANDS_BULK_IO_H_
