// Helpers every dialect's reads share: the streaming loop with its
// interrupt check, a column's latest cell, and "family:qualifier" text.

#ifndef LBT_COMMANDS_CORE_READ_HELPERS_H_
#define LBT_COMMANDS_CORE_READ_HELPERS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/bigtable.h"

namespace lbt {

// Calls `fn(row, n)` for each row of `stream`, n counting from 1. Stops
// with Cancelled when the user interrupts (destroying the stream then
// cancels a remote read). Returns the rows seen, or the stream's error.
Result<int64_t> ForEachRow(RowStream* stream, const std::function<void(const Row& row, int64_t n)>& fn);

// A RowStream that, once `direct_rows` rows have been read, goes on
// reading ahead on a thread of its own, a batch of rows at a time: a long
// local read then renders on one core while the engine reads on the
// other. Short reads never start the thread. The wrapped stream is used by
// one thread at a time (a local read transaction may move between threads;
// a remote stream must not be wrapped). Destroying it stops the reading.
class ReadAheadStream final : public RowStream {
 public:
  explicit ReadAheadStream(std::unique_ptr<RowStream> source, int64_t direct_rows = 4096);
  ~ReadAheadStream() override;
  ReadAheadStream(const ReadAheadStream&) = delete;
  ReadAheadStream& operator=(const ReadAheadStream&) = delete;

  bool Next(Row* row) override;
  Status status() const override;
  // The source's, once the stream has ended (before, as of the last row
  // read without the thread).
  ReadStats stats() const override;
  std::string FilterPlacement() const override;

 private:
  struct Shared;
  void Start();

  std::unique_ptr<RowStream> source_;
  int64_t direct_rows_;
  int64_t rows_ = 0;
  std::unique_ptr<Shared> shared_;  // set once the thread runs
  std::vector<Row> batch_;          // being handed out
  size_t next_ = 0;
};

// The table's schema, for showing its values (aggregates as numbers).
// NotFound passes through. Any other failure gives an empty schema so that
// the read goes on with values shown as bytes, as cbt shows them: remotely
// the schema comes from the Admin API, which may be out of reach, or
// forbidden to the caller, while the Data API serves the read.
Result<TableSpec> SchemaForReading(Bigtable* bigtable, std::string_view table);

// The newest cell of one column of a row, or nullopt if it has none.
Result<std::optional<Cell>> LatestCell(Bigtable* bigtable, std::string_view table, std::string_view row_key,
                                       const std::string& family, const std::string& qualifier);

// "f:q" as family f and qualifier q; "f" alone is the family with an empty
// qualifier, and `has_colon` tells the two apart.
struct ColumnName {
  std::string family;
  std::string qualifier;
  bool has_colon = false;
};
ColumnName SplitColumn(std::string_view column);

}  // namespace lbt

#endif  // LBT_COMMANDS_CORE_READ_HELPERS_H_
