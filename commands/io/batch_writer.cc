#include "commands/io/batch_writer.h"

#include <fmt/format.h>

namespace lbt {

namespace {
// Failed rows named one by one; the rest are counted.
constexpr int64_t kRowsReported = 10;

std::string Printable(const std::string& key) {
  std::string out;
  for (unsigned char c : key) {
    if (c >= ' ' && c <= '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
  }
  return out;
}
}  // namespace

void RowFailures::Add(int64_t line, std::string_view key, const Status& why) {
  if (++count_ > kRowsReported) return;
  const std::string where = line > 0 ? fmt::format("line {}: ", line) : std::string();
  err_->Write(
      fmt::format("error: {}row '{}' was not written: {}\n", where, Printable(std::string(key)), why.message()));
}

void RowFailures::AddUnreadable(const Status& why) {
  if (++count_ > kRowsReported) return;
  err_->Write(fmt::format("error: {}; the line was not written\n", why.message()));
}

Status RowFailures::Outcome(int64_t written) const {
  if (count_ == 0) return Status::OK();
  if (count_ > kRowsReported) err_->Write(fmt::format("error: ... and {} more rows\n", count_ - kRowsReported));
  return Status::Aborted(fmt::format("{} row{} failed; the other {} {} written", count_, count_ == 1 ? "" : "s",
                                     written, written == 1 ? "was" : "were"));
}

BatchWriter::BatchWriter(std::unique_ptr<Table> table, int workers, Output* err)
    : table_(std::move(table)), err_(err), max_queued_(workers > 1 ? workers : 0), failures_(err) {
  for (int i = 0; workers > 1 && i < workers; ++i) threads_.emplace_back([this] { Work(); });
}

BatchWriter::~BatchWriter() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    closing_ = true;
  }
  cv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

Status BatchWriter::Write(std::vector<RowMutation> rows, std::vector<int64_t> lines) {
  Batch batch{std::move(rows), std::move(lines)};
  if (threads_.empty()) {
    Send(batch);
    std::lock_guard<std::mutex> lock(mu_);
    return stopped_;
  }
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return queue_.size() < max_queued_ || !stopped_.ok(); });
  if (!stopped_.ok()) return stopped_;
  queue_.push_back(std::move(batch));
  cv_.notify_all();
  return Status::OK();
}

void BatchWriter::Work() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [&] { return !queue_.empty() || closing_; });
    if (queue_.empty()) return;
    Batch batch = std::move(queue_.front());
    queue_.pop_front();
    ++busy_;
    cv_.notify_all();
    lock.unlock();
    Send(batch);
    lock.lock();
    --busy_;
    cv_.notify_all();
  }
}

void BatchWriter::Send(const Batch& batch) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!stopped_.ok()) return;
  }
  Result<std::vector<Status>> statuses = table_->MutateRows(batch.rows);
  std::lock_guard<std::mutex> lock(mu_);
  if (!statuses.ok()) {
    if (stopped_.ok()) stopped_ = statuses.status();
    return;
  }
  for (size_t i = 0; i < batch.rows.size(); ++i) {
    const Status& s = (*statuses)[i];
    if (s.ok()) {
      ++written_;
    } else {
      failures_.Add(i < batch.lines.size() ? batch.lines[i] : 0, batch.rows[i].row_key, s);
    }
  }
}

void BatchWriter::AddUnreadable(const Status& why) {
  std::lock_guard<std::mutex> lock(mu_);
  failures_.AddUnreadable(why);
}

Status BatchWriter::Finish() {
  {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return queue_.empty() && busy_ == 0; });
    if (!stopped_.ok()) return stopped_;
  }
  return failures_.Outcome(written_);
}

int64_t BatchWriter::rows_written() const {
  std::lock_guard<std::mutex> lock(mu_);
  return written_;
}

}  // namespace lbt
