// Upgrades a database to this build's on-disk format (internal to
// storage/; Database::Open calls it).
//
// The upgrade writes a new data file beside the old one, in DIR/upgrade.tmp,
// in bounded transactions, flushes it, and then renames it over DIR/data.mdb.
// The old file is only read. A kill at any moment therefore leaves either
// the old database intact (and perhaps a leftover upgrade.tmp, which the
// next attempt removes) or the new one complete: rename is atomic, and
// nothing is renamed before the new file is on disk.
//
// From format 1: cell keys and row index keys are re-encoded (key_codec.h),
// and each table's families get ids in name order, since their creation
// order was never recorded. Name order is the order format 1 kept a row's
// cells in, so rows read the same as before. Cells of tables or families
// that no longer exist (left by a crash in the middle of a drop) are not
// carried over.
//
// Memory stays bounded: cells are copied in key order, a batch at a time.

#ifndef LBT_STORAGE_FORMAT_UPGRADE_H_
#define LBT_STORAGE_FORMAT_UPGRADE_H_

#include <functional>
#include <string>

#include "api/status.h"

namespace lbt {

struct UpgradeOptions {
  // Hears one line when the upgrade starts and one when it is done.
  std::function<void(const std::string& line)> note;
  // Hears the progress of a large upgrade now and then.
  std::function<void(const std::string& line)> progress;
  // Entries copied per transaction. Tests make it small.
  size_t batch_entries = 100000;
  // Called after every committed batch of the new file, with the number of
  // batches so far. Tests use it to stop the upgrade at a chosen moment.
  std::function<void(int batches)> after_batch;
};

// Upgrades the database in `dir` from format `from` to kCellFormatVersion.
// REQUIRES: no process has the database open (the caller holds the
// directory's lock alone), and from < kCellFormatVersion.
Status UpgradeDatabase(const std::string& dir, int from, const UpgradeOptions& options);

}  // namespace lbt

#endif  // LBT_STORAGE_FORMAT_UPGRADE_H_
