// RunSorter: key order with ties in arrival order, in memory and through
// spilled runs, merge passes and records larger than the buffer; nothing
// left in the temporary directory.

#include "storage/load/run_sorter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "tests/test_util.h"

namespace lbt {
namespace {

struct Record {
  std::string key;
  std::string payload;
};

// Records with many equal keys (to check ties) and binary bytes.
std::vector<Record> RandomRecords(size_t n, size_t payload_bytes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Record> records;
  for (size_t i = 0; i < n; ++i) {
    std::string key = testing::RandomBytes(rng, 12, 1);
    if (i % 5 == 0 && !records.empty()) key = records[rng() % records.size()].key;  // a repeated key
    std::string payload = std::to_string(i);
    payload.resize(std::max(payload.size(), payload_bytes), static_cast<char>('a' + i % 26));
    records.push_back({std::move(key), std::move(payload)});
  }
  return records;
}

// Adds every record, then checks the stream against a stable sort.
void SortAndCheck(const std::vector<Record>& records, RunSorter* sorter) {
  for (const Record& r : records) ASSERT_OK(sorter->Add(r.key, r.payload));
  std::vector<Record> expected = records;
  std::stable_sort(expected.begin(), expected.end(), [](const Record& a, const Record& b) { return a.key < b.key; });
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SortedStream> stream, sorter->Finish());
  size_t i = 0;
  for (; stream->Next(); ++i) {
    ASSERT_LT(i, expected.size());
    ASSERT_EQ(stream->key(), expected[i].key) << "record " << i;
    ASSERT_EQ(stream->payload(), expected[i].payload) << "record " << i;  // ties in arrival order
  }
  ASSERT_OK(stream->status());
  EXPECT_EQ(i, expected.size());
}

TEST(RunSorterTest, InputThatFitsIsSortedInMemory) {
  testing::TempDir dir;
  RunSorter sorter({1u << 20, dir.path()});
  SortAndCheck(RandomRecords(2000, 10, 1), &sorter);
  EXPECT_EQ(sorter.runs_written(), 0);
  EXPECT_EQ(sorter.bytes_written(), 0u);
}

TEST(RunSorterTest, InputLargerThanMemoryIsSpilledAndMerged) {
  testing::TempDir dir;
  RunSorter sorter({256u << 10, dir.path()});
  SortAndCheck(RandomRecords(30000, 60, 2), &sorter);
  EXPECT_GT(sorter.runs_written(), 3);
  EXPECT_GT(sorter.bytes_written(), 30000u * 60);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "the temporary file is never visible";
}

TEST(RunSorterTest, ManyRunsMergeInPasses) {
  testing::TempDir dir;
  RunSorter sorter({256u << 10, dir.path()});
  SortAndCheck(RandomRecords(160000, 100, 3), &sorter);
  // More runs than one merge takes: the first ones were merged into one.
  EXPECT_GT(sorter.runs_written(), 65);
}

TEST(RunSorterTest, RecordsLargerThanTheBufferKeepTheirPlace) {
  testing::TempDir dir;
  RunSorter sorter({256u << 10, dir.path()});
  std::vector<Record> records = RandomRecords(5000, 20, 4);
  records[100].payload.assign(1u << 20, 'x');
  records[4000].payload.assign(600u << 10, 'y');
  records[4000].key = records[100].key;  // a tie between two large records
  SortAndCheck(records, &sorter);
}

TEST(RunSorterTest, InputInOrderComesOutAsItWent) {
  testing::TempDir dir;
  std::vector<Record> records = RandomRecords(20000, 30, 5);
  std::stable_sort(records.begin(), records.end(), [](const Record& a, const Record& b) { return a.key < b.key; });
  RunSorter in_memory({8u << 20, dir.path()});
  SortAndCheck(records, &in_memory);
  RunSorter spilled({256u << 10, dir.path()});
  SortAndCheck(records, &spilled);
  EXPECT_GT(spilled.runs_written(), 1);
  // Out of order again after a sorted start: sorted as usual.
  records.push_back({"", "first"});
  RunSorter late({8u << 20, dir.path()});
  SortAndCheck(records, &late);
}

TEST(RunSorterTest, EmptyInput) {
  RunSorter sorter({});
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SortedStream> stream, sorter.Finish());
  EXPECT_FALSE(stream->Next());
  EXPECT_OK(stream->status());
}

TEST(RunSorterTest, AnUnwritableDirectoryIsAnError) {
  RunSorter sorter({256u << 10, "/nonexistent/lbt"});
  Status s;
  for (int i = 0; i < 100000 && s.ok(); ++i) s = sorter.Add(std::to_string(i), std::string(50, 'v'));
  EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
  EXPECT_NE(s.message().find("/nonexistent/lbt"), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace lbt
