// Table: the data operations of one table, as Bigtable's data API has them
// (google.bigtable.v2.Bigtable), on a handle opened from a TableRef
// (api/resource.h): a table, a table through one of its authorized views,
// or a materialized view read as a table. Like the C++ client's
// bigtable::Table, it has no admin operation, so a decorator of it (an
// authorized view's restriction, explain's recorder) cannot leak one.
//
// Errors are Status values with Bigtable's codes. A failed call changes
// nothing, except where a method says otherwise (MutateRows).
//
// Threading: a Table may be used from several threads at once (import
// sends batches from workers). A RowStream belongs to one thread.

#ifndef LBT_API_TABLE_H_
#define LBT_API_TABLE_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/cell.h"
#include "api/change_stream.h"
#include "api/filter.h"
#include "api/mutation.h"
#include "api/resource.h"
#include "api/row_set.h"
#include "api/status.h"

namespace lbt {

struct SubsetView;  // api/authorized_view.h

// A read, as ReadRows takes it. The filter travels as a value: the local
// engine compiles it, a remote client sends what Bigtable's RowFilter can
// express and runs the rest over the stream.
struct ReadRequest {
  RowSet rows;
  bool reversed = false;
  // At most this many rows (0: no limit). Only rows with cells count.
  int64_t rows_limit = 0;
  // At most this many newest cells per column, before the filter (0: no limit).
  int64_t cells_per_column_limit = 0;
  // Only cells of these families/columns, before the filter (empty: all).
  std::vector<ColumnSelector> columns;
  std::optional<Filter> filter;
  // Set for a read through an authorized view: only the cells it covers
  // exist for this read, so a row without any is not seen, and the stats
  // count covered cells alone. The caller restricts `rows` and `filter` to
  // the view as well: a store that ignores this still returns only what
  // the view covers.
  std::shared_ptr<const SubsetView> within_view;

  // For long reads that must not hold storage back (a server's): a local
  // database moves the read to a newer snapshot, after the last row looked
  // at, once its snapshot is this old. Each row is still read whole from
  // one snapshot, as Bigtable promises. 0: one snapshot for the whole read.
  std::chrono::milliseconds max_snapshot_age{0};
  // Asked between rows, also while the filter skips many in a row; once it
  // returns true the read stops with Cancelled. Unset: never.
  std::function<bool()> interrupted;
};

// The rows of one read, streamed in key order (reverse order for a
// reversed read). Memory stays bounded by the largest row.
//
//   ASSIGN stream = table->ReadRows(request);
//   for (Row row; stream->Next(&row);) Use(row);
//   if (!stream->status().ok()) ...
class RowStream {
 public:
  virtual ~RowStream() = default;
  // Fills *row with the next row. Returns false at the end or on an error;
  // status() tells which. After false, Next keeps returning false.
  virtual bool Next(Row* row) = 0;
  virtual Status status() const = 0;
  // Rows and cells looked at and returned so far, as far as known.
  virtual ReadStats stats() const = 0;
  // For include-stats=full: where the filter ran, when not all of it ran
  // where the data is ("" then).
  virtual std::string FilterPlacement() const { return {}; }
  // Lets go of what the stream holds between rows (a local database's
  // snapshot and reader slot) before a wait that may be long, such as a
  // server's for a slow client; the next Next goes on after the last row
  // looked at. Cheap.
  virtual void ReleaseSnapshot() {}
  // The key of the last row looked at and left out by the filter, when no
  // row was returned after it; empty otherwise. A server reports it so
  // that a client resuming the read skips what was scanned already.
  virtual std::string LastScannedKey() const { return {}; }
};

// A stream of no rows: a read that cannot match any.
std::unique_ptr<RowStream> NoRows();

using ReadRowsFunction = std::function<Result<std::unique_ptr<RowStream>>(const ReadRequest&)>;
// LookupRows as one read of the keys' rows through `read_rows`.
Result<std::vector<std::optional<Row>>> LookupRowsWithOneRead(const std::vector<std::string>& keys,
                                                              const ReadRequest& request,
                                                              const ReadRowsFunction& read_rows);
// InvalidArgument: a change stream is read from a table, not `how` (through
// an authorized view, from a materialized view).
Status ChangeStreamsOfTablesOnly(std::string_view how);
// CountRows as a read of one stripped cell a row through `read_rows`.
Result<int64_t> CountRowsByReading(const RowRange& range, const ReadRowsFunction& read_rows);

// A row key that splits a table, with the approximate bytes of the rows
// before it (Bigtable's SampleRowKeys). The last sample has an empty key
// and the table's total.
struct KeySample {
  std::string row_key;
  int64_t offset_bytes = 0;
};

// SampleRowKeys of a view read as a table (an authorized view, a
// materialized view), from the rows `rows` streams: a sample at the first
// row past about every 4 MiB of cells, as a local table is sampled, with
// the bytes of the rows before it, then `end_key` with the total.
Result<std::vector<KeySample>> SampleRowsAsRead(RowStream* rows, std::string end_key);

// A stream a Table returns may outlive the Table, not the Bigtable (or
// service client) that opened it.
class Table {
 public:
  virtual ~Table() = default;

  // What this handle reads and writes, as it was opened.
  virtual const TableRef& ref() const = 0;

  virtual Result<std::unique_ptr<RowStream>> ReadRows(const ReadRequest& request) = 0;
  // Reads many rows by key at once: one entry per key, in the order of
  // `keys` (a key may repeat), the row or nullopt when it is absent or
  // fully filtered. `request`'s columns, cells_per_column_limit and filter
  // apply to each row on its own; its rows, reversed and rows_limit must be
  // left unset. The default reads them with one ReadRows; a local database
  // reads them from one snapshot.
  // REQUIRES: the filter, if any, keeps no state from row to row (no page
  // limits, no WHILE).
  virtual Result<std::vector<std::optional<Row>>> LookupRows(const std::vector<std::string>& keys,
                                                             const ReadRequest& request);
  // Counts the rows within `range` that have cells.
  virtual Result<int64_t> CountRows(const RowRange& range) = 0;
  // Keys that split `range` into pieces of about equal size
  // (RowRange::All() for the whole table), then the end marker.
  virtual Result<std::vector<KeySample>> SampleRowKeys(const RowRange& range) = 0;

  // Applies `mutations` to one row, in order, atomically.
  virtual Status MutateRow(std::string_view row_key, const std::vector<Mutation>& mutations) = 0;
  // MutateRow, answered through `done` instead of returned: a local table
  // whose writes wait for a sync calls `done` from the thread that
  // committed the write's group, so that the caller (a server's thread)
  // need not wait; others call it before returning. `done` must not block.
  // Pure, so that every table (an authorized view's restriction, a read-only
  // view's refusal) says how it takes the write.
  using WriteDone = std::function<void(const Status&)>;
  virtual void MutateRowAsync(std::string row_key, std::vector<Mutation> mutations, WriteDone done) = 0;
  // Applies each row's mutations atomically but independently, as
  // Bigtable's MutateRows does: returns one status per row, in order. The
  // call's own error (no such table) means nothing was applied.
  virtual Result<std::vector<Status>> MutateRows(const std::vector<RowMutation>& rows) = 0;
  // If `predicate` leaves any cell of the row (nullopt: if the row has any
  // cell), applies `true_mutations`, else `false_mutations`, atomically.
  // Returns whether the predicate matched.
  virtual Result<bool> CheckAndMutateRow(std::string_view row_key, const std::optional<Filter>& predicate,
                                         const std::vector<Mutation>& true_mutations,
                                         const std::vector<Mutation>& false_mutations) = 0;
  // Appends to or increments the latest cell of each rule's column; returns
  // each changed column's new cell.
  virtual Result<Row> ReadModifyWriteRow(std::string_view row_key, const std::vector<ReadModifyWriteRule>& rules) = 0;

  // The table's change stream (api/change_stream.h); a service without
  // them answers Unimplemented (the defaults). Row ranges covering the key
  // space in order, split by data size, for reading the stream in parallel
  // (GenerateInitialChangeStreamPartitions). FailedPrecondition when the
  // table's change stream is off.
  virtual Result<std::vector<RowRange>> ChangeStreamPartitions();
  // Reads the changes of `request.partition` from where the request says.
  // FailedPrecondition when the stream is off; InvalidArgument when it
  // starts before what the retention keeps or before the stream was
  // enabled.
  virtual Result<std::unique_ptr<ChangeStream>> ReadChangeStream(const ChangeStreamRequest& request);

  // Reads one row; an absent (or fully filtered) row is an empty optional.
  Result<std::optional<Row>> ReadRow(std::string_view row_key, std::optional<Filter> filter = std::nullopt);
};

// `Base`, a Table, with every write refused with RefuseWrite()'s status:
// the shape of a table that is read only (a materialized view, a table
// explain reads).
template <typename Base>
class WritesRefused : public Base {
 public:
  using Base::Base;

  Status MutateRow(std::string_view, const std::vector<Mutation>&) final { return RefuseWrite(); }
  void MutateRowAsync(std::string, std::vector<Mutation>, Table::WriteDone done) final { done(RefuseWrite()); }
  Result<std::vector<Status>> MutateRows(const std::vector<RowMutation>&) final { return RefuseWrite(); }
  Result<bool> CheckAndMutateRow(std::string_view, const std::optional<Filter>&, const std::vector<Mutation>&,
                                 const std::vector<Mutation>&) final {
    return RefuseWrite();
  }
  Result<Row> ReadModifyWriteRow(std::string_view, const std::vector<ReadModifyWriteRule>&) final {
    return RefuseWrite();
  }

 protected:
  virtual Status RefuseWrite() const = 0;
};

}  // namespace lbt

#endif  // LBT_API_TABLE_H_
