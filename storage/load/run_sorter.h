// RunSorter: sorts records of any number and size by their keys in bounded
// memory (internal to storage/; BulkLoader is its user).
//
// Records accumulate in a buffer. When it is full it is sorted and written
// to a temporary file as one sorted run; Finish merges the runs (k-way, in
// several passes when there are very many) into one stream in key order.
// An input that fits in the buffer is never written anywhere.
//
// Ordering: by key bytes (unsigned), and records with equal keys in the
// order they were added, so a later write of a key stays later.
//
// Memory: at most about `memory_bytes` while adding, plus one record larger
// than the buffer; while merging, read buffers sharing `memory_bytes`.
// Temporary files: one per sorter, created already unlinked where the
// system allows it (O_TMPFILE), otherwise unlinked as soon as created, so
// nothing is left behind even if the process dies.
//
// Threading: one thread at a time.

#ifndef LBT_STORAGE_LOAD_RUN_SORTER_H_
#define LBT_STORAGE_LOAD_RUN_SORTER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"

namespace lbt {

struct RunSorterOptions {
  // The buffer for records and their index, and later for merge reads.
  size_t memory_bytes = 32u << 20;
  // Where the temporary file goes ("": $TMPDIR, else /tmp).
  std::string temp_dir;
};

// The sorted records: a stream read once, front to back.
class SortedStream {
 public:
  virtual ~SortedStream() = default;
  // Moves to the next record. Returns false at the end or on an error;
  // status() tells which.
  virtual bool Next() = 0;
  // The current record; both views die with the next call to Next.
  // REQUIRES: the last Next returned true.
  virtual std::string_view key() const = 0;
  virtual std::string_view payload() const = 0;
  virtual const Status& status() const = 0;
  // True if key() and payload() stay valid until the stream is destroyed,
  // not only until the next call to Next (the input fitted in memory).
  virtual bool stable() const { return false; }
};

class RunSorter {
 public:
  explicit RunSorter(RunSorterOptions options);
  ~RunSorter();
  RunSorter(const RunSorter&) = delete;
  RunSorter& operator=(const RunSorter&) = delete;

  // Adds a record; may sort the buffer and write it out as a run first.
  // REQUIRES: Finish has not been called.
  Status Add(std::string_view key, std::string_view payload);

  // Ends the input and returns the records in order. The stream must be
  // destroyed before this sorter. REQUIRES: called once.
  Result<std::unique_ptr<SortedStream>> Finish();

  // Runs written to the temporary file so far (merge passes included), and
  // their bytes: 0 when the input fitted in memory.
  int runs_written() const { return runs_written_; }
  uint64_t bytes_written() const { return bytes_written_; }

 private:
  struct Entry;
  struct Run {
    uint64_t offset;
    uint64_t size;
  };
  class FileRunReader;
  class MemoryStream;
  class MergeStream;

  Status EnsureFile();
  // Sorts the buffer and appends it to the file as one run; empties it.
  Status Spill();
  // Appends bytes to the temporary file, buffered.
  Status WriteOut(std::string_view bytes);
  Status FlushOut();
  // Merges runs [first, first + count) into one new run at the end of the
  // file; returns it.
  Result<Run> MergeRuns(size_t first, size_t count);
  Result<std::unique_ptr<SortedStream>> OpenMerge(const std::vector<Run>& runs);
  void SortIndex();

  RunSorterOptions options_;
  // The buffer: records laid end to end ([u32 key size][u32 payload
  // size][key][payload]) and an index of them, both reserved up front and
  // touched only as they fill.
  std::unique_ptr<char[]> arena_;
  size_t arena_capacity_ = 0;
  size_t arena_used_ = 0;
  std::vector<Entry> index_;
  size_t index_capacity_ = 0;
  bool buffer_in_order_ = true;  // the buffer's records arrived in key order

  int fd_ = -1;
  uint64_t file_size_ = 0;
  std::string out_buffer_;
  std::vector<Run> runs_;
  int runs_written_ = 0;
  uint64_t bytes_written_ = 0;
  bool finished_ = false;
};

}  // namespace lbt

#endif  // LBT_STORAGE_LOAD_RUN_SORTER_H_
