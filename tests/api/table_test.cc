// The helpers api/table.h gives every Table: sampling and counting by
// reading, and lookups in one read.

#include "api/table.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/test_util.h"

namespace lbt {
namespace {

// Streams the rows it was given.
class RowsOf final : public RowStream {
 public:
  explicit RowsOf(std::vector<Row> rows) : rows_(std::move(rows)) {}
  bool Next(Row* row) override {
    if (next_ == rows_.size()) return false;
    *row = rows_[next_++];
    return true;
  }
  Status status() const override { return Status::OK(); }
  ReadStats stats() const override { return {}; }

 private:
  std::vector<Row> rows_;
  size_t next_ = 0;
};

// A row of one cell whose value is `bytes` long: it counts bytes + 8
// (its timestamp) + the family and qualifier, 2 bytes.
Row RowOfBytes(std::string key, size_t bytes) {
  return Row{std::move(key), {Cell{"f", "q", 0, std::string(bytes, 'x')}}};
}

TEST(SampleRowsAsReadTest, EachSampleCountsTheRowsBeforeIt) {
  constexpr size_t kMiB = 1 << 20;
  std::vector<Row> rows;
  for (int i = 0; i < 10; ++i) rows.push_back(RowOfBytes("r" + std::to_string(i), kMiB - 10));
  RowsOf stream(rows);
  ASSERT_OK_AND_ASSIGN(std::vector<KeySample> samples, SampleRowsAsRead(&stream, "end"));
  // A sample at the first row past every 4 MiB: r4 and r8, then the end.
  ASSERT_EQ(samples.size(), 3u);
  EXPECT_EQ(samples[0].row_key, "r4");
  EXPECT_EQ(samples[0].offset_bytes, 4 * static_cast<int64_t>(kMiB));
  EXPECT_EQ(samples[1].row_key, "r8");
  EXPECT_EQ(samples[1].offset_bytes, 8 * static_cast<int64_t>(kMiB));
  EXPECT_EQ(samples[2].row_key, "end");
  EXPECT_EQ(samples[2].offset_bytes, 10 * static_cast<int64_t>(kMiB));
}

TEST(SampleRowsAsReadTest, NoRowsIsTheEndAlone) {
  RowsOf stream({});
  ASSERT_OK_AND_ASSIGN(std::vector<KeySample> samples, SampleRowsAsRead(&stream, ""));
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].row_key, "");
  EXPECT_EQ(samples[0].offset_bytes, 0);
}

TEST(LookupRowsWithOneReadTest, AnswersEachKeyInItsPlaceRepeatsIncluded) {
  std::vector<std::string> asked;
  auto read = [&](const ReadRequest& request) -> Result<std::unique_ptr<RowStream>> {
    asked = request.rows.row_keys;
    return std::unique_ptr<RowStream>(
        std::make_unique<RowsOf>(std::vector<Row>{RowOfBytes("a", 1), RowOfBytes("c", 1)}));
  };
  ASSERT_OK_AND_ASSIGN(auto found, LookupRowsWithOneRead({"c", "b", "a", "c"}, ReadRequest{}, read));
  EXPECT_EQ(asked, (std::vector<std::string>{"a", "b", "c"}));  // sorted, once each
  ASSERT_EQ(found.size(), 4u);
  EXPECT_EQ(found[0]->key, "c");
  EXPECT_FALSE(found[1].has_value());
  EXPECT_EQ(found[2]->key, "a");
  EXPECT_EQ(found[3]->key, "c");
}

}  // namespace
}  // namespace lbt
