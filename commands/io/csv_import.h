// Importing cbt's CSV layout into a table, streamed in batches.
//
//   ,family-1,,family-2        optional family row (first cell empty); a
//                              family covers its column and those to its
//                              right until the next family
//   ,col-1,col-2,col-3         qualifier row (first cell empty)
//   row-key,value,,value       data rows; empty cells write nothing

#ifndef LBT_COMMANDS_IO_CSV_IMPORT_H_
#define LBT_COMMANDS_IO_CSV_IMPORT_H_

#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "api/status.h"
#include "commands/io/row_sink.h"

namespace lbt {

// Reads RFC 4180 CSV records one at a time: quoted fields may hold commas,
// doubled quotes and newlines.
class CsvReader {
 public:
  // `first_line` numbers the first line read (lines skipped before count).
  explicit CsvReader(std::istream* in, int64_t first_line = 1) : in_(in), line_(first_line - 1) {}
  // Reads the next record into *fields. Returns false at the end of input.
  Result<bool> Next(std::vector<std::string>* fields);
  // The line the last record ended on.
  int64_t line() const { return line_; }

 private:
  std::istream* in_;
  int64_t line_;
};

struct CsvImportOptions {
  // With a family, the file has no family row and every column uses it.
  std::string column_family;
  // Take timestamps from "<value>@<micros>" cells instead of the clock.
  bool value_encoded_timestamps = false;
  // Unless set, a first row whose every value ends in @<timestamp> (what
  // export's CSV writes) is refused, naming the choice: read them as
  // timestamps, or keep them in the values.
  bool timestamps_chosen = false;
  // The number of the first line `in` holds.
  int64_t first_line = 1;
};

// Parses cbt's CSV layout from `in`, handing each row to `sink` with the
// line it starts on; returns the rows read. Errors name their line; an
// error from `sink` stops the parse and is returned as it is.
Result<int64_t> ImportCsv(std::istream* in, const RowSink& sink, const CsvImportOptions& options);

}  // namespace lbt

#endif  // LBT_COMMANDS_IO_CSV_IMPORT_H_
