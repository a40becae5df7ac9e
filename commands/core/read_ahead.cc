#include "commands/core/read_ahead.h"
#include "util/background_thread.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace lbt {

namespace {
// Rows per batch handed between the threads, and batches read ahead.
constexpr size_t kReadAheadBatchRows = 256;
constexpr size_t kReadAheadBatches = 4;
}  // namespace

struct ReadAheadStream::Shared {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::vector<Row>> ready;   // read, waiting for the consumer
  std::vector<std::vector<Row>> spare;  // handed back, to reuse their rows' memory
  bool done = false;                    // the source ended (or failed)
  bool stop = false;                    // the consumer went away
  std::thread thread;
};

ReadAheadStream::ReadAheadStream(std::unique_ptr<RowStream> source, int64_t direct_rows)
    : source_(std::move(source)), direct_rows_(direct_rows) {}

ReadAheadStream::~ReadAheadStream() {
  if (shared_ == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(shared_->mu);
    shared_->stop = true;
  }
  shared_->cv.notify_all();
  shared_->thread.join();
}

void ReadAheadStream::Start() {
  shared_ = std::make_unique<Shared>();
  Shared* shared = shared_.get();
  RowStream* source = source_.get();
  shared->thread = StartBackgroundThread([shared, source] {
    while (true) {
      std::vector<Row> batch;
      {
        std::unique_lock<std::mutex> lock(shared->mu);
        shared->cv.wait(lock, [&] { return shared->stop || shared->ready.size() < kReadAheadBatches; });
        if (shared->stop) return;
        if (!shared->spare.empty()) {
          batch = std::move(shared->spare.back());
          shared->spare.pop_back();
        }
      }
      batch.resize(kReadAheadBatchRows);
      size_t n = 0;
      while (n < batch.size() && source->Next(&batch[n])) ++n;
      batch.resize(n);
      std::lock_guard<std::mutex> lock(shared->mu);
      if (!batch.empty()) shared->ready.push_back(std::move(batch));
      shared->done = n < kReadAheadBatchRows;
      shared->cv.notify_all();
      if (shared->done) return;
    }
  });
}

bool ReadAheadStream::Next(Row* row) {
  if (shared_ == nullptr) {
    if (rows_ < direct_rows_) {
      if (!source_->Next(row)) return false;
      ++rows_;
      return true;
    }
    Start();
  }
  if (next_ == batch_.size()) {
    std::unique_lock<std::mutex> lock(shared_->mu);
    if (!batch_.empty()) shared_->spare.push_back(std::move(batch_));
    batch_.clear();
    next_ = 0;
    shared_->cv.notify_all();
    shared_->cv.wait(lock, [&] { return !shared_->ready.empty() || shared_->done; });
    if (shared_->ready.empty()) return false;
    batch_ = std::move(shared_->ready.front());
    shared_->ready.pop_front();
  }
  // A swap, not a move: the caller's old row goes back with the batch, and
  // its memory serves a later row.
  std::swap(*row, batch_[next_++]);
  return true;
}

Status ReadAheadStream::status() const {
  if (shared_ == nullptr) return source_->status();
  std::lock_guard<std::mutex> lock(shared_->mu);
  return shared_->done ? source_->status() : Status::OK();
}

ReadStats ReadAheadStream::stats() const {
  if (shared_ != nullptr) {
    std::lock_guard<std::mutex> lock(shared_->mu);
    if (!shared_->done) return ReadStats{};
  }
  return source_->stats();
}

std::string ReadAheadStream::FilterPlacement() const { return source_->FilterPlacement(); }

}  // namespace lbt
