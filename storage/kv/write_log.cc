#include "storage/kv/write_log.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>

namespace lbt {

namespace {

void PutFixed32(std::string* out, uint32_t v) {
  char b[4] = {static_cast<char>(v), static_cast<char>(v >> 8), static_cast<char>(v >> 16), static_cast<char>(v >> 24)};
  out->append(b, 4);
}

uint32_t GetFixed32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return static_cast<uint32_t>(u[0]) | static_cast<uint32_t>(u[1]) << 8 | static_cast<uint32_t>(u[2]) << 16 |
         static_cast<uint32_t>(u[3]) << 24;
}

Status ErrnoStatus(std::string_view what, const std::string& path) {
  const int err = errno;
  if (err == ENOSPC) return Status::ResourceExhausted(fmt::format("{} {}: no space left on the device", what, path));
  return Status::IOError(fmt::format("{} {}: {}", what, path, std::strerror(err)));
}

// Reads exactly n bytes at the file's position; returns how many it got
// (fewer at the end of the file).
Result<size_t> ReadFully(int fd, char* out, size_t n, const std::string& path) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = ::read(fd, out + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return ErrnoStatus("cannot read the write-ahead log", path);
    if (r == 0) break;
    got += static_cast<size_t>(r);
  }
  return got;
}

Status SyncDirectoryOf(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("cannot open the directory of", path);
  int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) return ErrnoStatus("cannot sync the directory of", path);
  return Status::OK();
}

}  // namespace

uint32_t RecordChecksum(std::string_view payload) {
  std::string length;
  PutFixed32(&length, static_cast<uint32_t>(payload.size()));
  uLong crc = ::crc32(0L, Z_NULL, 0);
  crc = ::crc32(crc, reinterpret_cast<const Bytef*>(length.data()), 4);
  crc = ::crc32_z(crc, reinterpret_cast<const Bytef*>(payload.data()), payload.size());
  return static_cast<uint32_t>(crc) ^ kCrcMask;
}

Result<LogReadResult> ReadWriteLog(const std::string& path, const std::function<Status(std::string_view)>& fn) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("cannot open the write-ahead log", path);
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st;
  if (::fstat(fd, &st) != 0) return ErrnoStatus("cannot read the write-ahead log", path);
  const uint64_t file_bytes = static_cast<uint64_t>(st.st_size);
  LogReadResult result;
  if (file_bytes == 0) return result;
  char header[kWriteLogMagic.size()];
  LBT_ASSIGN_OR_RETURN(size_t got, ReadFully(fd, header, sizeof header, path));
  if (got != sizeof header || std::string_view(header, sizeof header) != kWriteLogMagic) {
    if (got < sizeof header && kWriteLogMagic.starts_with(std::string_view(header, got))) {
      // The header itself was torn while the log was created: nothing in it.
      result.dropped_bytes = file_bytes;
      return result;
    }
    return Status::Corruption(fmt::format("{} is not an lbt write-ahead log", path));
  }
  result.valid_bytes = sizeof header;
  std::string record;
  while (true) {
    char frame[kRecordHeaderBytes];
    LBT_ASSIGN_OR_RETURN(got, ReadFully(fd, frame, sizeof frame, path));
    if (got < sizeof frame) break;
    const uint32_t checksum = GetFixed32(frame);
    const uint32_t length = GetFixed32(frame + 4);
    if (length == 0 || length > kMaxRecordBytes || length > file_bytes - result.valid_bytes - sizeof frame) break;
    record.resize(length);
    LBT_ASSIGN_OR_RETURN(got, ReadFully(fd, record.data(), length, path));
    if (got < length || RecordChecksum(record) != checksum) break;
    LBT_RETURN_IF_ERROR(fn(record));
    ++result.records;
    result.valid_bytes += sizeof frame + length;
  }
  result.dropped_bytes = file_bytes - result.valid_bytes;
  return result;
}

Result<std::unique_ptr<WriteLog>> WriteLog::Open(const std::string& path, uint64_t valid_bytes) {
  const bool existed = ::access(path.c_str(), F_OK) == 0;
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return ErrnoStatus("cannot open the write-ahead log", path);
  std::unique_ptr<WriteLog> log(new WriteLog(path, fd, valid_bytes));
  struct stat st;
  if (::fstat(fd, &st) != 0) return ErrnoStatus("cannot open the write-ahead log", path);
  if (valid_bytes < kWriteLogMagic.size()) {
    // A new log, or one whose header was torn: start it afresh.
    if (::ftruncate(fd, 0) != 0 ||
        ::pwrite(fd, kWriteLogMagic.data(), kWriteLogMagic.size(), 0) != static_cast<ssize_t>(kWriteLogMagic.size())) {
      return ErrnoStatus("cannot write the write-ahead log", path);
    }
    log->size_ = kWriteLogMagic.size();
  } else if (static_cast<uint64_t>(st.st_size) > valid_bytes && ::ftruncate(fd, static_cast<off_t>(valid_bytes)) != 0) {
    return ErrnoStatus("cannot cut the torn end of the write-ahead log", path);
  }
  if (::lseek(fd, static_cast<off_t>(log->size_), SEEK_SET) < 0 || ::fdatasync(fd) != 0) {
    return ErrnoStatus("cannot sync the write-ahead log", path);
  }
  if (!existed) LBT_RETURN_IF_ERROR(SyncDirectoryOf(path));
  return log;
}

WriteLog::~WriteLog() { ::close(fd_); }

Status WriteLog::Append(const std::vector<std::string_view>& records) {
  LBT_RETURN_IF_ERROR(broken_);
  // Each record's frame goes in heads_; the payloads are written from
  // where they are, with the frames, by one writev (per IOV_MAX pieces).
  heads_.clear();
  for (std::string_view r : records) {
    PutFixed32(&heads_, RecordChecksum(r));
    PutFixed32(&heads_, static_cast<uint32_t>(r.size()));
  }
  std::vector<iovec> pieces;
  pieces.reserve(records.size() * 2);
  size_t total = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    pieces.push_back({heads_.data() + i * kRecordHeaderBytes, kRecordHeaderBytes});
    pieces.push_back({const_cast<char*>(records[i].data()), records[i].size()});
    total += kRecordHeaderBytes + records[i].size();
  }
  for (size_t next = 0; next < pieces.size();) {
    const int count = static_cast<int>(std::min<size_t>(pieces.size() - next, IOV_MAX));
    ssize_t n = ::writev(fd_, &pieces[next], count);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      Status failed = ErrnoStatus("cannot write the write-ahead log", path_);
      if (::ftruncate(fd_, static_cast<off_t>(size_)) != 0 || ::lseek(fd_, static_cast<off_t>(size_), SEEK_SET) < 0) {
        broken_ = failed;
      }
      return failed;
    }
    // Past the pieces written whole, into the one written in part.
    for (size_t left = static_cast<size_t>(n); left > 0;) {
      if (left >= pieces[next].iov_len) {
        left -= pieces[next++].iov_len;
      } else {
        pieces[next].iov_base = static_cast<char*>(pieces[next].iov_base) + left;
        pieces[next].iov_len -= left;
        left = 0;
      }
    }
  }
  size_ += total;
  if (heads_.capacity() > (1u << 20)) std::string().swap(heads_);  // one huge group keeps no memory
  return Status::OK();
}

Status WriteLog::Clear() {
  LBT_RETURN_IF_ERROR(broken_);
  const off_t header = static_cast<off_t>(kWriteLogMagic.size());
  if (::ftruncate(fd_, header) != 0 || ::lseek(fd_, header, SEEK_SET) < 0 || ::fdatasync(fd_) != 0) {
    broken_ = ErrnoStatus("cannot clear the write-ahead log", path_);
    return broken_;
  }
  size_ = kWriteLogMagic.size();
  return Status::OK();
}

Status WriteLog::Sync() {
  LBT_RETURN_IF_ERROR(broken_);
  if (::fdatasync(fd_) != 0) {
    // After a failed fsync the kernel may have dropped the dirty pages:
    // nothing written since the last good sync can be trusted.
    broken_ = ErrnoStatus("cannot sync the write-ahead log", path_);
    return broken_;
  }
  return Status::OK();
}

}  // namespace lbt
