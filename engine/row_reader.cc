#include "engine/row_reader.h"

#include "engine/lmdb_env.h"
#include "engine/row_cursor.h"

namespace lbt {

RowReader::RowReader(std::unique_ptr<Txn> txn, std::unique_ptr<RowCursor> cursor)
    : txn_(std::move(txn)), cursor_(std::move(cursor)) {}

RowReader::~RowReader() {
  cursor_.reset();  // cursors close before their transaction ends
  txn_.reset();
}

bool RowReader::Next(Row* row) {
  if (done_) return false;
  Result<bool> found = cursor_->Next(row);
  if (!found.ok()) status_ = found.status();
  done_ = !found.ok() || !*found;
  return !done_;
}

const std::string& RowReader::skipped_tail_key() const { return cursor_->skipped_tail_key(); }

const ReadStats& RowReader::stats() const { return cursor_->stats(); }

}  // namespace lbt
