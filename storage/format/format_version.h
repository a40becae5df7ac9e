// The database's on-disk format version, kept under "format_version" in
// the meta store (format/stores.h).

#ifndef LBT_STORAGE_FORMAT_FORMAT_VERSION_H_
#define LBT_STORAGE_FORMAT_FORMAT_VERSION_H_

namespace lbt {

// The on-disk formats. A database older than kCellFormatVersion is
// upgraded when first opened for writing (storage/format/upgrade.h); one newer
// than kFormatVersion is refused.
//   1  cell keys carry the family's name; families sort by name
//   2  cell keys carry the family's id; families sort in creation order
//   3  as 2, and the write-ahead log (DIR/wal-*.log) may hold writes that
//      are not in LMDB yet: set while a process writes through the log,
//      and back to 2 once it has folded everything and closed, so that an
//      lbt that knows no log refuses a database whose log holds writes.
inline constexpr int kCellFormatVersion = 2;
inline constexpr int kLogFormatVersion = 3;
inline constexpr int kFormatVersion = kLogFormatVersion;

}  // namespace lbt

#endif  // LBT_STORAGE_FORMAT_FORMAT_VERSION_H_
