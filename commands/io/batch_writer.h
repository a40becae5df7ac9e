// BatchWriter: sends batches of rows through Bigtable::MutateRows, with up
// to `workers` batches in flight, for import. Each row applies on its own;
// a row that fails is reported with its key and counted, and the rest go
// on, so nothing is lost silently. An error of a whole call (the table is
// missing, the server is gone) stops the writer: later batches are refused.
//
// Threading: Write and Finish are called from one thread; the batches run
// on the writer's own threads when workers > 1, inline otherwise.

#ifndef LBT_COMMANDS_IO_BATCH_WRITER_H_
#define LBT_COMMANDS_IO_BATCH_WRITER_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "api/bigtable.h"
#include "commands/core/output.h"

namespace lbt {

// Reports the rows an import could not write: the first few one by one,
// with their line and key, then how many more. Not thread-safe.
class RowFailures {
 public:
  explicit RowFailures(Output* err) : err_(err) {}
  // `line` 0: not known.
  void Add(int64_t line, std::string_view key, const Status& why);
  // A line of the input that holds no row it could write; `why` names it.
  void AddUnreadable(const Status& why);
  int64_t count() const { return count_; }
  // OK if no row failed; otherwise an Aborted naming how many rows failed
  // and how many were written, after the count of rows not named.
  Status Outcome(int64_t written) const;

 private:
  Output* err_;
  int64_t count_ = 0;
};

class BatchWriter {
 public:
  // Writes to `table`; reports failed rows on `err`, which must outlive
  // this.
  BatchWriter(std::unique_ptr<Table> table, int workers, Output* err);
  ~BatchWriter();
  BatchWriter(const BatchWriter&) = delete;
  BatchWriter& operator=(const BatchWriter&) = delete;

  // Queues a batch, waiting while every worker is busy. Returns the error
  // that stopped the writer, if one did. `lines` (empty, or one per row)
  // name the input line of each row in reports of failed rows.
  Status Write(std::vector<RowMutation> batch, std::vector<int64_t> lines = {});
  // Counts a line of the input that held no row among the failed rows.
  void AddUnreadable(const Status& why);
  // Waits for every batch. Returns the error that stopped the writer, or
  // an error naming how many rows failed, or OK.
  Status Finish();

  int64_t rows_written() const;

 private:
  struct Batch {
    std::vector<RowMutation> rows;
    std::vector<int64_t> lines;
  };
  void Work();
  void Send(const Batch& batch);

  const std::unique_ptr<Table> table_;
  Output* err_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Batch> queue_;
  size_t max_queued_;
  int busy_ = 0;
  bool closing_ = false;
  Status stopped_;
  int64_t written_ = 0;
  RowFailures failures_;
  std::vector<std::thread> threads_;
};

}  // namespace lbt

#endif  // LBT_COMMANDS_IO_BATCH_WRITER_H_
