// The database's on-disk format version, kept under "format_version" in
// the meta store (format/stores.h).

#ifndef LBT_STORAGE_FORMAT_FORMAT_VERSION_H_
#define LBT_STORAGE_FORMAT_FORMAT_VERSION_H_

namespace lbt {

// The on-disk formats. A database older than kCellFormatVersion is
// upgraded when first opened for writing (storage/format/upgrade.h); one of
// format 2 or 3 becomes 4 or 5 then by a rewrite of its version alone; one
// newer than kFormatVersion is refused.
//   1  cell keys carry the family's name; families sort by name
//   2  cell keys carry the family's id; families sort in creation order
//   3  as 2, and the write-ahead log (DIR/wal-*.log) may hold writes that
//      are not in LMDB yet: set while a process writes through the log,
//      and back to 2 once it has folded everything and closed, so that an
//      lbt that knows no log refuses a database whose log holds writes.
//   4  as 2, and the catalog, cells and change log may hold what an lbt of
//      format 3 cannot read or would drop when it rewrites a table's
//      catalog entry: schema bundles, row-key schemas, tiered storage,
//      Proto/Enum and HLL families (value types "proto", "enum", "inthll",
//      "rawhll"), HLL sketches as cell values, change records of kinds 16
//      and 17 (AddBytesToCell, MergeBytesToCell). Nothing is rewritten to
//      get there: a format-2 database already is a format-4 database.
//   5  as 4 with a live write-ahead log, as 3 is to 2.
// WARNING: a writable open moves 2 to 4 and 3 to 5 before it writes
// anything, so that no older lbt opens a database that may hold what it
// cannot read.
inline constexpr int kCellFormatVersion = 2;     // what UpgradeDatabase writes
inline constexpr int kLogFormatVersion = 3;      // format 2's live-log twin
inline constexpr int kAtRestFormatVersion = 4;   // closed (or opened without a log)
inline constexpr int kLiveLogFormatVersion = 5;  // while a process writes through the log
inline constexpr int kFormatVersion = kLiveLogFormatVersion;

// Whether a database of `version` may have writes in its log that are not
// in LMDB yet.
inline constexpr bool HoldsLiveLog(int version) {
  return version == kLogFormatVersion || version == kLiveLogFormatVersion;
}

}  // namespace lbt

#endif  // LBT_STORAGE_FORMAT_FORMAT_VERSION_H_
