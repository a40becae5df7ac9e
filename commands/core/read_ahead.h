// ReadAheadStream: a long local read renders on one core while the engine
// reads ahead on the other.

#ifndef LBT_COMMANDS_CORE_READ_AHEAD_H_
#define LBT_COMMANDS_CORE_READ_AHEAD_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "api/bigtable.h"

namespace lbt {

// A RowStream that, once `direct_rows` rows have been read, goes on
// reading ahead on a thread of its own, a batch of rows at a time: a long
// local read then renders on one core while the engine reads on the
// other. Short reads never start the thread. The wrapped stream is used by
// one thread at a time (a local read transaction may move between threads;
// a remote stream must not be wrapped). Destroying it stops the reading.
class ReadAheadStream final : public RowStream {
 public:
  explicit ReadAheadStream(std::unique_ptr<RowStream> source, int64_t direct_rows = 4096);
  ~ReadAheadStream() override;
  ReadAheadStream(const ReadAheadStream&) = delete;
  ReadAheadStream& operator=(const ReadAheadStream&) = delete;

  bool Next(Row* row) override;
  Status status() const override;
  // The source's, once the stream has ended (before, as of the last row
  // read without the thread).
  ReadStats stats() const override;
  std::string FilterPlacement() const override;

 private:
  struct Shared;
  void Start();

  std::unique_ptr<RowStream> source_;
  int64_t direct_rows_;
  int64_t rows_ = 0;
  std::unique_ptr<Shared> shared_;  // set once the thread runs
  std::vector<Row> batch_;          // being handed out
  size_t next_ = 0;
};

}  // namespace lbt

#endif  // LBT_COMMANDS_CORE_READ_AHEAD_H_
