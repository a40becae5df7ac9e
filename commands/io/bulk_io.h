// Bulk paths between tables and files, streamed both ways so memory stays
// flat whatever the file's size:
//
//   ImportRows   lbt's import: reads CSV or JSON lines and writes them, to
//                a local database through a bulk load (sorted in bounded
//                memory, written in key order), to a remote Bigtable in
//                batches;
//   ImportJsonl  reads the row objects that --format jsonl prints, so the
//                output of `read` or `export` round-trips exactly (binary
//                bytes and timestamps included);
//   ExportRows   writes a read's rows as JSON lines, or as cbt's CSV layout
//                (family row, qualifier row, the newest cell of each column
//                written <value>@<timestamp>, for import timestamp=value-encoded).

#ifndef LBT_COMMANDS_IO_BULK_IO_H_
#define LBT_COMMANDS_IO_BULK_IO_H_

#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <string>

#include "api/bigtable.h"
#include "api/status.h"
#include "commands/core/output.h"
#include "commands/io/row_sink.h"
#include "commands/render/renderer.h"

namespace lbt {

struct BulkOptions {
  // The number of the first line `in` holds.
  int64_t first_line = 1;
  // Called for a line that holds no row it can write, once an earlier line
  // held one: the import goes on without it. Unset, or on the first row
  // (the input may not be JSON lines at all), the error ends the import.
  std::function<void(const Status& why)> on_unreadable_line;
};

// Parses JSON lines from `in`, handing each row to `sink`; returns the rows
// read. A cell without "timestamp" is written at the current time, as a CSV
// cell is. Errors name their line.
Result<int64_t> ImportJsonl(std::istream* in, const RowSink& sink, const BulkOptions& options);

// What lbt's import is asked to do.
struct ImportRequest {
  std::string table;
  std::string name;  // the input's name, for progress and messages
  // format=: true for JSON lines, false for CSV; unset: guessed from the
  // input's first byte that is not white space ('{' is JSON lines).
  std::optional<bool> jsonl;
  std::string column_family;  // CSV without a family row
  bool value_encoded_timestamps = false;
  // timestamp= was given (now or value-encoded): a CSV whose values all end
  // in @<timestamp> is then taken as asked, not refused.
  bool timestamps_chosen = false;
  // Rows per transaction (local) or per request (remote); unset: local
  // transactions of about 4 MiB, remote requests of 1000 rows.
  std::optional<int64_t> batch_size;
  std::optional<int64_t> workers;  // remote requests in flight (4)
  // Locally, memory for sorting the rows, in MiB (BulkLoadOptions).
  std::optional<int64_t> sort_memory_mib;
  int64_t input_bytes = -1;  // the input's size, when known (progress)
};

// Reads rows from `in` and writes them to `request.table`. Notes, row
// errors, progress and the closing "Done importing N rows." go to `err`.
// A failure says how many rows it kept.
Status ImportRows(Bigtable* bigtable, const ImportRequest& request, std::istream* in, Output* err);

enum class ExportFormat { kJsonl, kCsv };

// Writes the rows `read` selects to `out`; returns how many.
Result<int64_t> ExportRows(Bigtable* bigtable, const std::string& table, const ReadRequest& read, ExportFormat format,
                           BytesMode bytes, Output* out, const std::function<Status(int64_t rows)>& on_row);

}  // namespace lbt

#endif  // LBT_COMMANDS_IO_BULK_IO_H_
