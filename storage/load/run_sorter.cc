#include "storage/load/run_sorter.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace lbt {

namespace {

// Records are laid out as [u32 key size][u32 payload size][key][payload],
// in memory and in the file alike.
constexpr size_t kHeaderBytes = 8;
// Runs merged at once; more are merged in several passes, so that read
// buffers stay large enough to read the file in long sequential pieces.
constexpr size_t kMaxFanIn = 64;
constexpr size_t kOutBufferBytes = 1u << 20;
constexpr size_t kMinReadBufferBytes = 64u << 10;
constexpr size_t kMaxReadBufferBytes = 4u << 20;

uint64_t KeyHead(std::string_view key) {
  uint64_t head = 0;
  for (size_t i = 0; i < 8; ++i) {
    head = head << 8 | (i < key.size() ? static_cast<unsigned char>(key[i]) : 0);
  }
  return head;
}

void PutHeader(char* out, size_t key_size, size_t payload_size) {
  const uint32_t sizes[2] = {static_cast<uint32_t>(key_size), static_cast<uint32_t>(payload_size)};
  std::memcpy(out, sizes, kHeaderBytes);
}

void GetHeader(const char* in, uint32_t* key_size, uint32_t* payload_size) {
  uint32_t sizes[2];
  std::memcpy(sizes, in, kHeaderBytes);
  *key_size = sizes[0];
  *payload_size = sizes[1];
}

Status IoError(const char* what) {
  return Status::IOError(fmt::format("{} the bulk load's temporary file: {}", what, std::strerror(errno)));
}

int CompareKeys(std::string_view a, std::string_view b) { return a.compare(b); }

}  // namespace

struct RunSorter::Entry {
  uint64_t head;    // the key's first 8 bytes, big-endian: most comparisons end here
  uint32_t offset;  // of the record in the arena; also the order of arrival
  uint32_t key_size;
};

RunSorter::RunSorter(RunSorterOptions options) : options_(std::move(options)) {}

RunSorter::~RunSorter() {
  if (fd_ >= 0) ::close(fd_);
}

Status RunSorter::Add(std::string_view key, std::string_view payload) {
  const size_t record = kHeaderBytes + key.size() + payload.size();
  if (arena_ == nullptr) {
    // Reserved, not touched: the memory becomes resident only as it fills.
    const size_t budget = std::max<size_t>(options_.memory_bytes, 256u << 10);
    index_capacity_ = budget / 4 / sizeof(Entry);
    // Offsets into the arena are 32 bits.
    arena_capacity_ = std::min<size_t>(budget - index_capacity_ * sizeof(Entry), UINT32_MAX);
    arena_.reset(new char[arena_capacity_]);
    index_.reserve(index_capacity_);
  }
  if (arena_used_ + record > arena_capacity_ || index_.size() == index_capacity_) {
    LBT_RETURN_IF_ERROR(Spill());
  }
  if (record > arena_capacity_) {
    // Larger than the whole buffer: a run of its own.
    LBT_RETURN_IF_ERROR(EnsureFile());
    const uint64_t start = file_size_ + out_buffer_.size();
    char header[kHeaderBytes];
    PutHeader(header, key.size(), payload.size());
    LBT_RETURN_IF_ERROR(WriteOut(std::string_view(header, kHeaderBytes)));
    LBT_RETURN_IF_ERROR(WriteOut(key));
    LBT_RETURN_IF_ERROR(WriteOut(payload));
    LBT_RETURN_IF_ERROR(FlushOut());
    runs_.push_back({start, file_size_ - start});
    ++runs_written_;
    return Status::OK();
  }
  // Input that arrives in order (a load of sorted data) needs no sort.
  if (!index_.empty() && buffer_in_order_) {
    const Entry& last = index_.back();
    buffer_in_order_ =
        CompareKeys(std::string_view(arena_.get() + last.offset + kHeaderBytes, last.key_size), key) <= 0;
  }
  char* at = arena_.get() + arena_used_;
  PutHeader(at, key.size(), payload.size());
  std::memcpy(at + kHeaderBytes, key.data(), key.size());
  std::memcpy(at + kHeaderBytes + key.size(), payload.data(), payload.size());
  index_.push_back({KeyHead(key), static_cast<uint32_t>(arena_used_), static_cast<uint32_t>(key.size())});
  arena_used_ += record;
  return Status::OK();
}

void RunSorter::SortIndex() {
  if (buffer_in_order_) return;
  const char* arena = arena_.get();
  std::sort(index_.begin(), index_.end(), [arena](const Entry& a, const Entry& b) {
    if (a.head != b.head) return a.head < b.head;
    int c = CompareKeys(std::string_view(arena + a.offset + kHeaderBytes, a.key_size),
                        std::string_view(arena + b.offset + kHeaderBytes, b.key_size));
    return c != 0 ? c < 0 : a.offset < b.offset;
  });
}

Status RunSorter::EnsureFile() {
  if (fd_ >= 0) return Status::OK();
  std::string dir = options_.temp_dir;
  if (dir.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    dir = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  }
  fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd_ < 0) {
    // No O_TMPFILE on this file system: a named file, unlinked at once.
    std::string path = dir + "/lbt-sort-XXXXXX";
    fd_ = ::mkostemp(path.data(), O_CLOEXEC);
    if (fd_ < 0)
      return Status::IOError(fmt::format("cannot create a temporary file in '{}': {}", dir, std::strerror(errno)));
    ::unlink(path.c_str());
  }
  return Status::OK();
}

Status RunSorter::WriteOut(std::string_view bytes) {
  if (out_buffer_.size() + bytes.size() > kOutBufferBytes) LBT_RETURN_IF_ERROR(FlushOut());
  if (bytes.size() > kOutBufferBytes) {
    out_buffer_.assign(bytes);  // one large record: written as it is
    return FlushOut();
  }
  out_buffer_.append(bytes);
  return Status::OK();
}

Status RunSorter::FlushOut() {
  size_t done = 0;
  while (done < out_buffer_.size()) {
    ssize_t n =
        ::pwrite(fd_, out_buffer_.data() + done, out_buffer_.size() - done, static_cast<off_t>(file_size_ + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return IoError("cannot write");
    done += static_cast<size_t>(n);
  }
  file_size_ += out_buffer_.size();
  bytes_written_ += out_buffer_.size();
  out_buffer_.clear();
  return Status::OK();
}

Status RunSorter::Spill() {
  if (index_.empty()) return Status::OK();
  LBT_RETURN_IF_ERROR(EnsureFile());
  SortIndex();
  const uint64_t start = file_size_ + out_buffer_.size();
  for (const Entry& e : index_) {
    uint32_t key_size, payload_size;
    GetHeader(arena_.get() + e.offset, &key_size, &payload_size);
    LBT_RETURN_IF_ERROR(WriteOut(std::string_view(arena_.get() + e.offset, kHeaderBytes + key_size + payload_size)));
  }
  LBT_RETURN_IF_ERROR(FlushOut());
  runs_.push_back({start, file_size_ - start});
  ++runs_written_;
  index_.clear();
  arena_used_ = 0;
  buffer_in_order_ = true;
  return Status::OK();
}

// ---- reading back ----

// The records of one run in the file, read through a buffer.
class RunSorter::FileRunReader {
 public:
  FileRunReader(int fd, Run run, size_t buffer_bytes)
      : fd_(fd), next_(run.offset), end_(run.offset + run.size), buffer_(buffer_bytes, '\0') {}

  // Moves to the next record; false at the end or on an error.
  bool Next(Status* status) {
    pos_ += current_size_;
    current_size_ = 0;
    if (!Have(kHeaderBytes, status)) return false;
    uint32_t key_size, payload_size;
    GetHeader(buffer_.data() + pos_, &key_size, &payload_size);
    const size_t size = kHeaderBytes + size_t{key_size} + payload_size;
    if (!Have(size, status)) {
      if (status->ok()) *status = Status::Corruption("the bulk load's temporary file ends inside a record");
      return false;
    }
    key_ = std::string_view(buffer_.data() + pos_ + kHeaderBytes, key_size);
    payload_ = std::string_view(key_.data() + key_size, payload_size);
    current_size_ = size;
    return true;
  }

  std::string_view key() const { return key_; }
  std::string_view payload() const { return payload_; }

 private:
  // Makes `bytes` bytes from pos_ available in the buffer, reading more of
  // the run as needed. False (status OK) at the run's end.
  bool Have(size_t bytes, Status* status) {
    if (limit_ - pos_ >= bytes) return true;
    std::memmove(buffer_.data(), buffer_.data() + pos_, limit_ - pos_);
    limit_ -= pos_;
    pos_ = 0;
    if (buffer_.size() < bytes) buffer_.resize(bytes);
    while (limit_ < bytes && next_ < end_) {
      const size_t want = static_cast<size_t>(std::min<uint64_t>(buffer_.size() - limit_, end_ - next_));
      ssize_t n = ::pread(fd_, buffer_.data() + limit_, want, static_cast<off_t>(next_));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        *status = n < 0 ? IoError("cannot read") : Status::Corruption("the bulk load's temporary file is short");
        return false;
      }
      limit_ += static_cast<size_t>(n);
      next_ += static_cast<uint64_t>(n);
    }
    return limit_ >= bytes;
  }

  int fd_;
  uint64_t next_;  // the file offset of the next byte to read
  uint64_t end_;
  std::string buffer_;
  size_t pos_ = 0;    // the current record in buffer_
  size_t limit_ = 0;  // bytes of buffer_ holding data
  size_t current_size_ = 0;
  std::string_view key_, payload_;
};

// The sorted buffer itself, when nothing was spilled.
class RunSorter::MemoryStream : public SortedStream {
 public:
  explicit MemoryStream(const RunSorter* sorter) : sorter_(sorter) {}
  bool Next() override {
    if (next_ >= sorter_->index_.size()) return false;
    const Entry& e = sorter_->index_[next_++];
    uint32_t key_size, payload_size;
    GetHeader(sorter_->arena_.get() + e.offset, &key_size, &payload_size);
    key_ = std::string_view(sorter_->arena_.get() + e.offset + kHeaderBytes, key_size);
    payload_ = std::string_view(key_.data() + key_size, payload_size);
    return true;
  }
  std::string_view key() const override { return key_; }
  std::string_view payload() const override { return payload_; }
  const Status& status() const override { return status_; }
  bool stable() const override { return true; }

 private:
  const RunSorter* sorter_;
  size_t next_ = 0;
  std::string_view key_, payload_;
  Status status_;
};

// A k-way merge of runs. Ties go to the earlier run, which holds the
// records added earlier.
class RunSorter::MergeStream : public SortedStream {
 public:
  explicit MergeStream(std::vector<std::unique_ptr<FileRunReader>> runs) : runs_(std::move(runs)) {}

  bool Next() override {
    if (!status_.ok()) return false;
    if (!started_) {
      started_ = true;
      for (size_t i = 0; i < runs_.size(); ++i) {
        if (runs_[i]->Next(&status_)) heap_.push_back(i);
        if (!status_.ok()) return false;
      }
      std::make_heap(heap_.begin(), heap_.end(), Later{this});
    } else if (!heap_.empty()) {
      std::pop_heap(heap_.begin(), heap_.end(), Later{this});
      if (runs_[heap_.back()]->Next(&status_)) {
        std::push_heap(heap_.begin(), heap_.end(), Later{this});
      } else {
        heap_.pop_back();
      }
      if (!status_.ok()) return false;
    }
    return !heap_.empty();
  }
  std::string_view key() const override { return runs_[heap_.front()]->key(); }
  std::string_view payload() const override { return runs_[heap_.front()]->payload(); }
  const Status& status() const override { return status_; }

 private:
  // The heap's order: its front is the smallest key, then the earliest run.
  struct Later {
    const MergeStream* self;
    bool operator()(size_t a, size_t b) const {
      int c = CompareKeys(self->runs_[a]->key(), self->runs_[b]->key());
      return c != 0 ? c > 0 : a > b;
    }
  };
  std::vector<std::unique_ptr<FileRunReader>> runs_;
  std::vector<size_t> heap_;
  bool started_ = false;
  Status status_;
};

Result<std::unique_ptr<SortedStream>> RunSorter::OpenMerge(const std::vector<Run>& runs) {
  const size_t share = options_.memory_bytes / std::max<size_t>(runs.size(), 1);
  const size_t buffer = std::clamp(share, kMinReadBufferBytes, kMaxReadBufferBytes);
  std::vector<std::unique_ptr<FileRunReader>> readers;
  for (const Run& run : runs) readers.push_back(std::make_unique<FileRunReader>(fd_, run, buffer));
  return std::unique_ptr<SortedStream>(new MergeStream(std::move(readers)));
}

Result<RunSorter::Run> RunSorter::MergeRuns(size_t first, size_t count) {
  std::vector<Run> some(runs_.begin() + static_cast<ptrdiff_t>(first),
                        runs_.begin() + static_cast<ptrdiff_t>(first + count));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<SortedStream> merged, OpenMerge(some));
  const uint64_t start = file_size_;
  char header[kHeaderBytes];
  while (merged->Next()) {
    PutHeader(header, merged->key().size(), merged->payload().size());
    LBT_RETURN_IF_ERROR(WriteOut(std::string_view(header, kHeaderBytes)));
    LBT_RETURN_IF_ERROR(WriteOut(merged->key()));
    LBT_RETURN_IF_ERROR(WriteOut(merged->payload()));
  }
  LBT_RETURN_IF_ERROR(merged->status());
  LBT_RETURN_IF_ERROR(FlushOut());
  ++runs_written_;
  return Run{start, file_size_ - start};
}

Result<std::unique_ptr<SortedStream>> RunSorter::Finish() {
  finished_ = true;
  if (runs_.empty()) {
    if (arena_ != nullptr) SortIndex();
    return std::unique_ptr<SortedStream>(new MemoryStream(this));
  }
  // Some runs are on disk: write the rest too, and give the buffer's
  // memory to the merge's read buffers.
  LBT_RETURN_IF_ERROR(Spill());
  arena_.reset();
  arena_capacity_ = 0;
  std::vector<Entry>().swap(index_);
  while (runs_.size() > kMaxFanIn) {
    // The oldest runs first, so that the merged run keeps their place.
    LBT_ASSIGN_OR_RETURN(Run merged, MergeRuns(0, kMaxFanIn));
    runs_.erase(runs_.begin(), runs_.begin() + kMaxFanIn);
    runs_.insert(runs_.begin(), merged);
  }
  return OpenMerge(runs_);
}

}  // namespace lbt
