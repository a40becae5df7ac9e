// Importing cbt's CSV layout into a table, streamed in batches.
//
//   ,family-1,,family-2        optional family row (first cell empty); a
//                              family covers its column and those to its
//                              right until the next family
//   ,col-1,col-2,col-3         qualifier row (first cell empty)
//   row-key,value,,value       data rows; empty cells write nothing

#ifndef LBT_COMMANDS_CSV_IMPORT_H_
#define LBT_COMMANDS_CSV_IMPORT_H_

#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "commands/bulk_io.h"
#include "api/status.h"

namespace lbt {

// Reads RFC 4180 CSV records one at a time: quoted fields may hold commas,
// doubled quotes and newlines.
class CsvReader {
 public:
  explicit CsvReader(std::istream* in) : in_(in) {}
  // Reads the next record into *fields. Returns false at the end of input.
  Result<bool> Next(std::vector<std::string>* fields);
  int64_t line() const { return line_; }

 private:
  std::istream* in_;
  int64_t line_ = 0;
};

struct CsvImportOptions {
  // With a family, the file has no family row and every column uses it.
  std::string column_family;
  int64_t batch_size = 10000;
  // Take timestamps from "<value>@<micros>" cells instead of the clock.
  bool value_encoded_timestamps = false;
  // Called after each committed batch with the rows written so far; an
  // error stops the import (the batches before stay).
  std::function<Status(int64_t rows)> on_batch;
};

// Parses cbt's CSV layout from `in` into batches for `sink`; returns the
// rows read. A failure keeps the batches handed on before it.
Result<int64_t> ImportCsv(std::istream* in, const RowBatchSink& sink, const CsvImportOptions& options);

}  // namespace lbt

#endif  // LBT_COMMANDS_CSV_IMPORT_H_
