// WriteLog: an append-only file of checksummed records, the write-ahead log
// of a Database (internal to storage/). A record is opaque bytes here;
// what it holds is the caller's (db_log.cc).
//
// File layout (little-endian):
//
//   header   "lbtwal\n" 0x01                          8 bytes
//   record   crc32(length + payload) ^ kCrcMask       4 bytes
//            length of payload, > 0                   4 bytes
//            payload                                  length bytes
//
// A crash can leave the last record torn: cut anywhere, or followed by
// zeros or garbage the file system kept. Reading stops at the first record
// whose length or checksum does not hold and reports the bytes before it
// as the log's valid part; the writer that opens the log next cuts the
// file there before appending. Since a record is acknowledged only after
// the sync that follows its write, a torn record was never acknowledged.
//
// WARNING: the header, the framing and kCrcMask are part of the on-disk
// format.
//
// Threading: a WriteLog is not thread-safe; its owner serializes calls.

#ifndef LBT_STORAGE_KV_WRITE_LOG_H_
#define LBT_STORAGE_KV_WRITE_LOG_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"

namespace lbt {

inline constexpr std::string_view kWriteLogMagic{"lbtwal\n\x01", 8};
// Keeps a record of zeros from checking out: crc32 of nothing is 0.
inline constexpr uint32_t kCrcMask = 0xa282ead8u;
inline constexpr size_t kRecordHeaderBytes = 8;
// A record longer than this is corruption, not a record: no write of lbt's
// comes near it (a request is at most 256 MiB of mutations).
inline constexpr uint32_t kMaxRecordBytes = 1u << 30;

// What reading a log found.
struct LogReadResult {
  uint64_t records = 0;
  // The bytes up to the end of the last intact record (at least the
  // header's): where the next record goes.
  uint64_t valid_bytes = 0;
  // The bytes after them, which the next writer cuts off (a torn record).
  uint64_t dropped_bytes = 0;
};

// Reads the records of the log at `path` in order, calling `fn` with each
// intact one (the view dies when `fn` returns). An error `fn` returns stops
// the read and is returned. A file shorter than the header or with another
// header is Corruption, except an empty file (a log created but never
// written): no records. Memory holds one record at a time.
Result<LogReadResult> ReadWriteLog(const std::string& path, const std::function<Status(std::string_view record)>& fn);

class WriteLog {
 public:
  // Opens the log at `path` for appending at `valid_bytes` (what
  // ReadWriteLog reported; 0 for a new log), cutting off anything after it
  // and writing the header when the file is new. The cut and a new file's
  // header and directory entry are synced before Open returns.
  static Result<std::unique_ptr<WriteLog>> Open(const std::string& path, uint64_t valid_bytes);
  ~WriteLog();
  WriteLog(const WriteLog&) = delete;
  WriteLog& operator=(const WriteLog&) = delete;

  // Appends the records, framed, with one write (a writev from where they
  // are: nothing is copied). They are durable only
  // after Sync. On an error (a full disk) whatever part was written is cut
  // off again and the log goes on as before; if even that fails, the log
  // is broken: every later call fails, and the next Open's read cuts the
  // torn end off.
  // REQUIRES: each record is non-empty and at most kMaxRecordBytes.
  Status Append(const std::vector<std::string_view>& records);
  // Makes every record appended so far durable (fdatasync). A failure
  // breaks the log: after a failed fsync nothing unsynced can be trusted.
  Status Sync();
  // Drops every record, keeping the header, and syncs: for a log whose
  // records are all folded into the database.
  Status Clear();

  const std::string& path() const { return path_; }
  // The file's length: the header and every record appended.
  uint64_t size() const { return size_; }

 private:
  WriteLog(std::string path, int fd, uint64_t size) : path_(std::move(path)), fd_(fd), size_(size) {}
  std::string path_;
  int fd_;
  uint64_t size_;
  Status broken_;
  std::string heads_;  // the frames of one Append's records, kept for its memory
};

// The checksum of a record as stored: crc32 of its length (4 bytes,
// little-endian) and payload, masked.
uint32_t RecordChecksum(std::string_view payload);

}  // namespace lbt

#endif  // LBT_STORAGE_KV_WRITE_LOG_H_
