// RowReader streams the rows of a read, one at a time, from a consistent
// snapshot of the table. Memory stays bounded by the largest row, whatever
// the table's size.
//
//   ASSIGN reader = db->NewReader("t", options);
//   Row row;
//   while (reader->Next(&row)) Use(row);
//   if (!reader->status().ok()) ...

#ifndef LBT_STORAGE_ROWS_ROW_READER_H_
#define LBT_STORAGE_ROWS_ROW_READER_H_

#include <chrono>
#include <functional>
#include <memory>

#include "api/cell.h"
#include "api/status.h"
#include "storage/rows/read_options.h"

namespace lbt {

class RowCursor;
struct ReadView;
struct Stores;

class RowReader {
 public:
  ~RowReader();
  RowReader(const RowReader&) = delete;
  RowReader& operator=(const RowReader&) = delete;

  // Fills *row with the next row. Returns false at the end or on an error;
  // status() tells which. After false, Next keeps returning false.
  bool Next(Row* row);

  // Ends the reader's transaction, so that no snapshot is pinned and no
  // reader slot held while the caller waits (a server for a slow client);
  // the next Next begins a new one and goes on after the last row looked
  // at. Cheap: call it before every wait that may be long.
  void ReleaseSnapshot();

  const Status& status() const { return status_; }
  // Rows and cells looked at and returned so far.
  const ReadStats& stats() const;
  // The key of the last row looked at and left out by the filters, when
  // no row was returned after it; empty otherwise. A server reports it so
  // that a client resuming the read skips what was already scanned.
  const std::string& skipped_tail_key() const;

 private:
  friend class Database;
  // `begin` takes a new snapshot when the reader renews its own.
  RowReader(std::function<Result<ReadView>()> begin, const Stores* stores, ReadView view,
            std::unique_ptr<RowCursor> cursor, const ReadOptions& options);
  // Begins a transaction and resumes the cursor in it; false on an error.
  bool TakeSnapshot();
  bool SnapshotTooOld() const;

  std::function<Result<ReadView>()> begin_;
  const Stores* stores_;
  // Declared in this order so that the cursor closes before the snapshot.
  std::unique_ptr<ReadView> view_;  // nullptr while released
  std::unique_ptr<RowCursor> cursor_;
  std::chrono::milliseconds max_snapshot_age_;
  std::function<bool()> interrupted_;
  std::chrono::steady_clock::time_point snapshot_taken_;
  Status status_;
  bool done_ = false;
};

}  // namespace lbt

#endif  // LBT_STORAGE_ROWS_ROW_READER_H_
