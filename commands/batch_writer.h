// BatchWriter: sends batches of rows through Bigtable::MutateRows, with up
// to `workers` batches in flight, for import. Each row applies on its own;
// a row that fails is reported with its key and counted, and the rest go
// on, so nothing is lost silently. An error of a whole call (the table is
// missing, the server is gone) stops the writer: later batches are refused.
//
// Threading: Write and Finish are called from one thread; the batches run
// on the writer's own threads when workers > 1, inline otherwise.

#ifndef LBT_COMMANDS_BATCH_WRITER_H_
#define LBT_COMMANDS_BATCH_WRITER_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "api/bigtable.h"
#include "commands/output.h"

namespace lbt {

class BatchWriter {
 public:
  // Reports failed rows on `err`. `bigtable` and `err` must outlive this.
  BatchWriter(Bigtable* bigtable, std::string table, int workers, Output* err);
  ~BatchWriter();
  BatchWriter(const BatchWriter&) = delete;
  BatchWriter& operator=(const BatchWriter&) = delete;

  // Queues a batch, waiting while every worker is busy. Returns the error
  // that stopped the writer, if one did.
  Status Write(std::vector<RowMutation> batch);
  // Waits for every batch. Returns the error that stopped the writer, or
  // an error naming how many rows failed, or OK.
  Status Finish();

  int64_t rows_written() const;

 private:
  void Work();
  void Send(const std::vector<RowMutation>& batch);

  Bigtable* bigtable_;
  std::string table_;
  Output* err_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::vector<RowMutation>> queue_;
  size_t max_queued_;
  int busy_ = 0;
  bool closing_ = false;
  Status stopped_;
  int64_t written_ = 0;
  int64_t failed_ = 0;
  std::vector<std::thread> threads_;
};

}  // namespace lbt

#endif  // LBT_COMMANDS_BATCH_WRITER_H_
