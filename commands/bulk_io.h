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
#include "api/bigtable.h"
#include "api/status.h"

namespace lbt {

// Where an import sends its rows, a batch at a time (a BatchWriter).
using RowBatchSink = std::function<Status(std::vector<RowMutation> batch)>;

struct BulkOptions {
  // Rows per batch; a row is never split across two.
  int64_t batch_size = 10000;
  // Called after each batch is handed on with the rows so far and the input
  // bytes consumed; an error stops the work (earlier batches stay).
  std::function<Status(int64_t rows, int64_t bytes)> on_batch;
};

// Parses JSON lines from `in` into batches for `sink`; returns the rows read.
Result<int64_t> ImportJsonl(std::istream* in, const RowBatchSink& sink, const BulkOptions& options);

enum class ExportFormat { kJsonl, kCsv };

// Writes the rows `read` selects to `out`; returns how many.
Result<int64_t> ExportRows(Bigtable* bigtable, const std::string& table, const ReadRequest& read, ExportFormat format,
                           BytesMode bytes, Output* out, const std::function<Status(int64_t rows)>& on_row);

}  // namespace lbt

#endif  // LBT_COMMANDS_BULK_IO_H_
