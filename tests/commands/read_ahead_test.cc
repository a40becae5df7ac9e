// ReadAheadStream: every row of the wrapped stream, in order, whether it
// reads ahead on its thread or not; the stream's error at the end; stats
// once it ended; and a consumer that stops early does not hang.

#include "commands/core/read_ahead.h"

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace lbt {
namespace {

// Rows "r00000000", "r00000001", ... then `end` as its status.
class CountingStream : public RowStream {
 public:
  CountingStream(int64_t rows, Status end) : rows_(rows), end_(std::move(end)) {}
  bool Next(Row* row) override {
    if (next_ == rows_) return false;
    char key[16];
    snprintf(key, sizeof key, "r%08lld", static_cast<long long>(next_));
    row->key = key;
    row->cells.assign(1, Cell{"cf", "q", next_ * 1000, std::to_string(next_), {}});
    ++next_;
    return true;
  }
  Status status() const override { return next_ == rows_ ? end_ : Status::OK(); }
  ReadStats stats() const override {
    ReadStats s;
    s.rows_returned = next_;
    return s;
  }

 private:
  int64_t rows_;
  int64_t next_ = 0;
  Status end_;
};

void ExpectAllRows(int64_t rows, int64_t direct_rows, Status end) {
  ReadAheadStream stream(std::make_unique<CountingStream>(rows, end), direct_rows);
  int64_t n = 0;
  for (Row row; stream.Next(&row); ++n) {
    char key[16];
    snprintf(key, sizeof key, "r%08lld", static_cast<long long>(n));
    ASSERT_EQ(row.key, key);
    ASSERT_EQ(row.cells.size(), 1u);
    ASSERT_EQ(row.cells[0].value, std::to_string(n));
  }
  EXPECT_EQ(n, rows);
  EXPECT_EQ(stream.status().code(), end.code());
  EXPECT_EQ(stream.stats().rows_returned, rows);
  EXPECT_FALSE(stream.Next(nullptr)) << "after the end, Next stays false";
}

TEST(ReadAheadStreamTest, ShortReadsStayOnTheCallersThread) { ExpectAllRows(100, 4096, Status::OK()); }

TEST(ReadAheadStreamTest, LongReadsComeWholeAndInOrder) {
  ExpectAllRows(50000, 10, Status::OK());
  ExpectAllRows(256 * 8, 0, Status::OK());  // batches end exactly with the rows
  ExpectAllRows(0, 0, Status::OK());
}

TEST(ReadAheadStreamTest, TheSourcesErrorComesAtTheEnd) {
  ExpectAllRows(10000, 5, Status::IOError("the disk went away"));
}

TEST(ReadAheadStreamTest, StoppingEarlyEndsTheThread) {
  for (int rows_read : {0, 1, 300, 5000}) {
    ReadAheadStream stream(std::make_unique<CountingStream>(1000000, Status::OK()), 10);
    Row row;
    for (int i = 0; i < rows_read; ++i) ASSERT_TRUE(stream.Next(&row));
  }  // destroyed while the thread reads ahead: must return
}

}  // namespace
}  // namespace lbt
