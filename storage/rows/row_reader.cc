#include "storage/rows/row_reader.h"

#include "storage/format/stores.h"
#include "storage/kv/lmdb_env.h"
#include "storage/kv/store_view.h"
#include "storage/rows/row_cursor.h"

namespace lbt {

namespace {

// A scan whose filters empty this many rows one after another stops to
// check for cancellation and for its snapshot's age.
constexpr int64_t kRowsBetweenChecks = 1024;

}  // namespace

RowReader::RowReader(std::function<Result<ReadView>()> begin, const Stores* stores, ReadView view,
                     std::unique_ptr<RowCursor> cursor, const ReadOptions& options)
    : begin_(std::move(begin)),
      stores_(stores),
      view_(std::make_unique<ReadView>(std::move(view))),
      cursor_(std::move(cursor)),
      max_snapshot_age_(options.max_snapshot_age),
      interrupted_(options.interrupted),
      snapshot_taken_(std::chrono::steady_clock::now()) {
  if (max_snapshot_age_.count() > 0 || interrupted_) cursor_->set_pause_after_skipped(kRowsBetweenChecks);
}

RowReader::~RowReader() {
  cursor_.reset();  // cursors close before their transaction ends
  view_.reset();
}

void RowReader::ReleaseSnapshot() {
  if (view_ == nullptr) return;
  cursor_->Suspend();
  view_.reset();  // aborting a read transaction frees its reader slot (MDB_NOTLS)
}

bool RowReader::TakeSnapshot() {
  Result<ReadView> view = begin_();
  if (view.ok()) {
    view_ = std::make_unique<ReadView>(std::move(view).value());
    status_ = cursor_->Resume(view_->cells(stores_->cells));
  } else {
    status_ = view.status();
  }
  snapshot_taken_ = std::chrono::steady_clock::now();
  return status_.ok();
}

bool RowReader::SnapshotTooOld() const {
  return max_snapshot_age_.count() > 0 && std::chrono::steady_clock::now() - snapshot_taken_ > max_snapshot_age_;
}

bool RowReader::Next(Row* row) {
  if (done_) return false;
  while (true) {
    if (SnapshotTooOld()) ReleaseSnapshot();
    if (view_ == nullptr && !TakeSnapshot()) break;
    Result<bool> found = cursor_->Next(row);
    if (!found.ok()) {
      status_ = found.status();
      break;
    }
    if (*found) return true;
    if (!cursor_->paused()) break;
    if (interrupted_ && interrupted_()) {
      status_ = Status::Cancelled("the read was cancelled");
      break;
    }
  }
  done_ = true;
  return false;
}

const std::string& RowReader::skipped_tail_key() const { return cursor_->skipped_tail_key(); }

const ReadStats& RowReader::stats() const { return cursor_->stats(); }

}  // namespace lbt
