#include "storage/kv/write_log.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::TempDir;

std::vector<std::string> ReadAll(const std::string& path, LogReadResult* result = nullptr) {
  std::vector<std::string> records;
  Result<LogReadResult> r = ReadWriteLog(path, [&](std::string_view rec) {
    records.emplace_back(rec);
    return Status::OK();
  });
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (result != nullptr && r.ok()) *result = *r;
  return records;
}

std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteBytes(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

TEST(WriteLogTest, RecordsComeBackInOrderAcrossAppendsAndReopens) {
  TempDir dir;
  const std::string path = dir.Sub("log");
  {
    ASSERT_OK_AND_ASSIGN(auto log, WriteLog::Open(path, 0));
    ASSERT_OK(log->Append({"one", "two"}));
    ASSERT_OK(log->Append({std::string(70000, 'x')}));
    ASSERT_OK(log->Sync());
  }
  LogReadResult read;
  EXPECT_EQ(ReadAll(path, &read), (std::vector<std::string>{"one", "two", std::string(70000, 'x')}));
  EXPECT_EQ(read.records, 3u);
  EXPECT_EQ(read.dropped_bytes, 0u);
  EXPECT_EQ(read.valid_bytes, std::filesystem::file_size(path));
  {
    ASSERT_OK_AND_ASSIGN(auto log, WriteLog::Open(path, read.valid_bytes));
    ASSERT_OK(log->Append({std::string("\0four\xff", 6)}));
    ASSERT_OK(log->Sync());
  }
  EXPECT_EQ(ReadAll(path).back(), std::string("\0four\xff", 6));
}

// One append of more records than one writev takes (IOV_MAX pieces, two a
// record): every record lands whole, in order.
TEST(WriteLogTest, AnAppendOfManyRecordsWritesThemAllInOrder) {
  TempDir dir;
  const std::string path = dir.Sub("log");
  std::vector<std::string> records;
  for (int i = 0; i < 3000; ++i)
    records.push_back(std::string(1 + i % 300, static_cast<char>('a' + i % 26)) + std::to_string(i));
  {
    ASSERT_OK_AND_ASSIGN(auto log, WriteLog::Open(path, 0));
    ASSERT_OK(log->Append(std::vector<std::string_view>(records.begin(), records.end())));
    ASSERT_OK(log->Sync());
  }
  EXPECT_EQ(ReadAll(path), records);
}

TEST(WriteLogTest, AnEmptyFileHasNoRecordsAndAForeignFileIsRefused) {
  TempDir dir;
  WriteBytes(dir.Sub("empty"), "");
  LogReadResult read;
  EXPECT_TRUE(ReadAll(dir.Sub("empty"), &read).empty());
  EXPECT_EQ(read.valid_bytes, 0u);
  WriteBytes(dir.Sub("other"), "this is not a log at all");
  Result<LogReadResult> r = ReadWriteLog(dir.Sub("other"), [](std::string_view) { return Status::OK(); });
  EXPECT_EQ(r.status().code(), Status::Code::kCorruption) << r.status().ToString();
}

// A crash can stop the last write at any byte. Whatever prefix of the last
// record reached the disk, reading finds every record before it intact and
// none after, and a writer reopening the log cuts the torn part off and
// goes on from there.
TEST(WriteLogTest, ALogCutAtEveryByteOfItsLastRecordKeepsTheRecordsBeforeIt) {
  TempDir dir;
  const std::string path = dir.Sub("log");
  const std::vector<std::string> before = {"first record", std::string(300, 'b'), "third"};
  const std::string last = "the last record, \x01\x00\xff with binary bytes" + std::string(100, 'z');
  {
    ASSERT_OK_AND_ASSIGN(auto log, WriteLog::Open(path, 0));
    ASSERT_OK(log->Append({before[0], before[1]}));
    ASSERT_OK(log->Append({before[2], last}));
    ASSERT_OK(log->Sync());
  }
  const std::string whole = FileBytes(path);
  const size_t last_start = whole.size() - kRecordHeaderBytes - last.size();
  for (size_t cut = 0; cut <= whole.size(); ++cut) {
    SCOPED_TRACE("cut at byte " + std::to_string(cut));
    const std::string cut_path = dir.Sub("cut");
    WriteBytes(cut_path, std::string_view(whole).substr(0, cut));
    LogReadResult read;
    std::vector<std::string> got = ReadAll(cut_path, &read);
    if (cut == whole.size()) {
      ASSERT_EQ(got.size(), 4u);
      EXPECT_EQ(got.back(), last);
      continue;
    }
    // Only whole records, in order, and every record wholly before the cut.
    ASSERT_LE(got.size(), before.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], before[i]);
    if (cut >= last_start) {
      EXPECT_EQ(got.size(), before.size());
    }
    EXPECT_EQ(read.valid_bytes + read.dropped_bytes, cut);
    // A writer picks up where the intact part ends.
    {
      ASSERT_OK_AND_ASSIGN(auto log, WriteLog::Open(cut_path, read.valid_bytes));
      ASSERT_OK(log->Append({"after the crash"}));
      ASSERT_OK(log->Sync());
    }
    std::vector<std::string> again = ReadAll(cut_path);
    ASSERT_EQ(again.size(), got.size() + 1);
    EXPECT_EQ(again.back(), "after the crash");
  }
}

// What the file system may leave after the last record instead of a clean
// end: zeros (a file extended but not written) or garbage.
TEST(WriteLogTest, ZerosOrGarbageAfterTheLastRecordAreDropped) {
  TempDir dir;
  const std::string path = dir.Sub("log");
  {
    ASSERT_OK_AND_ASSIGN(auto log, WriteLog::Open(path, 0));
    ASSERT_OK(log->Append({"kept"}));
    ASSERT_OK(log->Sync());
  }
  const std::string whole = FileBytes(path);
  std::mt19937_64 rng(7);
  for (const std::string& tail : {std::string(4096, '\0'), testing::RandomBytes(rng, 500, 8)}) {
    WriteBytes(path, whole + tail);
    LogReadResult read;
    EXPECT_EQ(ReadAll(path, &read), std::vector<std::string>{"kept"});
    EXPECT_EQ(read.valid_bytes, whole.size());
    EXPECT_EQ(read.dropped_bytes, tail.size());
  }
}

TEST(WriteLogTest, AFlippedBitEndsTheLogAtThatRecord) {
  TempDir dir;
  const std::string path = dir.Sub("log");
  {
    ASSERT_OK_AND_ASSIGN(auto log, WriteLog::Open(path, 0));
    ASSERT_OK(log->Append({"one", "two", "three"}));
    ASSERT_OK(log->Sync());
  }
  std::string bytes = FileBytes(path);
  const size_t two = bytes.find("two");
  bytes[two + 1] ^= 0x04;
  WriteBytes(path, bytes);
  EXPECT_EQ(ReadAll(path), std::vector<std::string>{"one"});
}

TEST(WriteLogTest, AnErrorFromTheReaderStopsTheRead) {
  TempDir dir;
  const std::string path = dir.Sub("log");
  {
    ASSERT_OK_AND_ASSIGN(auto log, WriteLog::Open(path, 0));
    ASSERT_OK(log->Append({"a", "b", "c"}));
  }
  int seen = 0;
  Result<LogReadResult> r = ReadWriteLog(path, [&](std::string_view rec) {
    ++seen;
    return rec == "b" ? Status::Corruption("bad b") : Status::OK();
  });
  EXPECT_EQ(r.status().code(), Status::Code::kCorruption);
  EXPECT_EQ(seen, 2);
}

}  // namespace
}  // namespace lbt
