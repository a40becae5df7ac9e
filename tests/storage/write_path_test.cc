// Writes through the write-ahead log and memtables
// (DatabaseOptions::log_writes): reads see them exactly as they would see
// the same writes made straight to LMDB, a crash leaves a log that the
// next open replays, and a log cut anywhere in its last record replays
// every record before the cut.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <random>
#include <thread>

#include "storage/database.h"
#include "storage/kv/write_log.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::Ms;
using testing::TempDir;
namespace fs = std::filesystem;

std::unique_ptr<Database> OpenDb(const std::string& dir, bool logged, testing::FakeClock* clock) {
  DatabaseOptions options;
  options.log_writes = logged;
  options.clock = clock->Fn();
  auto db = Database::Open(dir, options);
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  return db.ok() ? std::move(db).value() : nullptr;
}

std::vector<Row> ReadAll(Database* db, bool reversed = false) {
  ReadOptions options;
  options.reversed = reversed;
  auto reader = db->NewReader("t", options);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  return reader.ok() ? testing::Drain(reader->get()) : std::vector<Row>{};
}

std::string Describe(const std::vector<Row>& rows) {
  std::string out;
  for (const Row& r : rows) {
    out += r.key + ":";
    for (const Cell& c : r.cells) out += fmt::format(" {}:{}@{}={}", c.family, c.qualifier, c.timestamp, c.value);
    out += "\n";
  }
  return out;
}

// A random mutation of a small key space, of every kind.
std::vector<Mutation> RandomMutations(std::mt19937_64& rng) {
  std::vector<Mutation> out;
  const int n = 1 + static_cast<int>(rng() % 3);
  for (int i = 0; i < n; ++i) {
    const std::string family = rng() % 2 ? "a" : "b";
    const std::string qualifier = "q" + std::to_string(rng() % 3);
    switch (rng() % 8) {
      case 0: {
        const int64_t start = Ms(rng() % 5);
        out.push_back(Mutation::DeleteFromColumn(family, qualifier, {start, start + Ms(1 + rng() % 4)}));
        break;
      }
      case 1: out.push_back(Mutation::DeleteFromFamily(family)); break;
      case 2: out.push_back(Mutation::DeleteFromRow()); break;
      default: out.push_back(Mutation::SetCell(family, qualifier, fmt::format("v{}", rng() % 1000), Ms(1 + rng() % 8)));
    }
  }
  return out;
}

// The same random writes, reads and schema changes (which fold the
// memtables) on a logged database and on a direct one: every read agrees.
TEST(WritePathTest, LoggedWritesReadExactlyAsDirectOnes) {
  TempDir dir;
  testing::FakeClock clock;
  auto logged = OpenDb(dir.Sub("logged"), true, &clock);
  auto direct = OpenDb(dir.Sub("direct"), false, &clock);
  ASSERT_TRUE(logged && direct);
  for (Database* db : {logged.get(), direct.get()}) {
    ASSERT_OK(db->CreateTable(
        "t", {{"a", GcRule::MaxVersions(2), ValueType::kBytes}, {"b", GcRule::Never(), ValueType::kBytes}}));
  }
  std::mt19937_64 rng(2026);
  for (int step = 0; step < 600; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    const std::string key = "row" + std::to_string(rng() % 40);
    const int op = static_cast<int>(rng() % 20);
    for (Database* db : {logged.get(), direct.get()}) {
      std::mt19937_64 same(step);  // both databases get the same operation
      if (op < 12) {
        ASSERT_OK(db->MutateRow("t", key, RandomMutations(same)));
      } else if (op < 15) {
        std::vector<RowMutation> rows;
        for (int i = 0; i < 3; ++i) rows.push_back({"row" + std::to_string(same() % 40), RandomMutations(same)});
        ASSERT_OK(testing::WriteRows(db, "t", rows));
      } else if (op < 17) {
        ASSERT_OK(db->ReadModifyWriteRow("t", key, {ReadModifyWriteRule::Increment("b", "n", 1)}).status());
      } else if (op < 19) {
        ASSERT_OK(db->CheckAndMutateRow("t", key, std::nullopt, {Mutation::SetCell("b", "seen", "yes", Ms(9))},
                                        {Mutation::SetCell("b", "new", "yes", Ms(9))})
                      .status());
      } else if (step % 3 == 0) {
        ASSERT_OK(db->DropRowRange("t", "row1"));
      } else {
        ASSERT_OK(db->ModifyFamilies(
            "t", {FamilyChange::SetGcRule("b", step % 2 ? GcRule::MaxVersions(3) : GcRule::Never())}));
      }
    }
    if (step % 25 == 0 || op >= 19) {
      ASSERT_EQ(Describe(ReadAll(logged.get())), Describe(ReadAll(direct.get())));
      ASSERT_EQ(Describe(ReadAll(logged.get(), true)), Describe(ReadAll(direct.get(), true)));
      ASSERT_EQ(*logged->CountRows("t"), *direct->CountRows("t"));
      auto a = logged->LookupRows("t", {"row3", "row7", "nope", "row3"}, ReadOptions{});
      auto b = direct->LookupRows("t", {"row3", "row7", "nope", "row3"}, ReadOptions{});
      ASSERT_TRUE(a.ok() && b.ok());
      for (size_t i = 0; i < a->size(); ++i) {
        ASSERT_EQ((*a)[i].has_value(), (*b)[i].has_value());
        if ((*a)[i]) EXPECT_EQ(Describe({*(*a)[i]}), Describe({*(*b)[i]}));
      }
      auto sa = logged->SampleRowKeys("t", 64, RowRange::All());
      auto sb = direct->SampleRowKeys("t", 64, RowRange::All());
      ASSERT_TRUE(sa.ok() && sb.ok());
      ASSERT_EQ(sa->size(), sb->size());
      for (size_t i = 0; i < sa->size(); ++i) EXPECT_EQ((*sa)[i].row_key, (*sb)[i].row_key);
    }
  }
  // Closing folds everything: the database opens alone with the same rows.
  const std::string before = Describe(ReadAll(logged.get()));
  logged.reset();
  EXPECT_TRUE(fs::exists(dir.Sub("logged/data.mdb")));
  for (const auto& entry : fs::directory_iterator(dir.Sub("logged"))) {
    EXPECT_FALSE(entry.path().filename().string().starts_with("wal-")) << entry.path();
  }
  auto reopened = OpenDb(dir.Sub("logged"), false, &clock);
  ASSERT_TRUE(reopened);
  EXPECT_EQ(Describe(ReadAll(reopened.get())), before);
}

// A read that started before a write does not see it; one that starts
// after does, whether the write is in memory or folded.
TEST(WritePathTest, AReadIsASnapshotAndSeesEveryWriteBeforeIt) {
  TempDir dir;
  testing::FakeClock clock;
  auto db = OpenDb(dir.path(), true, &clock);
  ASSERT_OK(db->CreateTable("t", {{"a", GcRule::Never(), ValueType::kBytes}}));
  ASSERT_OK(db->MutateRow("t", "r1", {Mutation::SetCell("a", "q", "one", Ms(1))}));
  auto early = db->NewReader("t", ReadOptions{});
  ASSERT_TRUE(early.ok());
  ASSERT_OK(db->MutateRow("t", "r2", {Mutation::SetCell("a", "q", "two", Ms(1))}));
  ASSERT_OK(db->MutateRow("t", "r1", {Mutation::DeleteFromRow()}));
  std::vector<Row> seen = testing::Drain(early->get());
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].key, "r1");
  std::vector<Row> now = ReadAll(db.get());
  ASSERT_EQ(now.size(), 1u);
  EXPECT_EQ(now[0].key, "r2");
}

// Submitted writes (MutateRowAsync) from many threads, beside waiting
// ones: each is answered once, after its group committed, with its own
// status (a write to a missing family fails alone), and a read after the
// answers sees every write that succeeded, also after a reopen.
TEST(WritePathTest, SubmittedWritesAreAnsweredOnceDurableWithTheirOwnStatus) {
  TempDir dir;
  testing::FakeClock clock;
  auto db = OpenDb(dir.path(), true, &clock);
  ASSERT_OK(db->CreateTable("t", {{"a", GcRule::Never(), ValueType::kBytes}}));
  constexpr int kThreads = 4, kPerThread = 200;
  std::mutex mu;
  std::condition_variable answered_cv;
  int answered = 0, failed = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        const std::string key = fmt::format("row{}-{:03}", t, i);
        // Every tenth write names a family the table lacks.
        const std::string family = i % 10 == 9 ? "missing" : "a";
        if (t == 0 && i % 2 == 0) {  // one thread mixes in waiting writes
          Status s = db->MutateRow("t", key, {Mutation::SetCell(family, "q", key, Ms(1))});
          std::lock_guard<std::mutex> lock(mu);
          ++answered;
          failed += !s.ok();
          continue;
        }
        db->MutateRowAsync("t", key, {Mutation::SetCell(family, "q", key, Ms(1))}, [&](const Status& s) {
          std::lock_guard<std::mutex> lock(mu);
          ++answered;
          failed += !s.ok();
          answered_cv.notify_all();
        });
      }
    });
  }
  for (auto& thread : threads) thread.join();
  {
    std::unique_lock<std::mutex> lock(mu);
    ASSERT_TRUE(
        answered_cv.wait_for(lock, std::chrono::seconds(30), [&] { return answered == kThreads * kPerThread; }));
    EXPECT_EQ(failed, kThreads * kPerThread / 10);
  }
  EXPECT_EQ(ReadAll(db.get()).size(), static_cast<size_t>(kThreads * kPerThread * 9 / 10));
  db.reset();
  db = OpenDb(dir.path(), true, &clock);
  EXPECT_EQ(ReadAll(db.get()).size(), static_cast<size_t>(kThreads * kPerThread * 9 / 10));
}

// The child of the crash tests: writes rows 0..n-1 through the log, one
// write each, then ends without closing (as a kill would).
[[noreturn]] void WriteThenVanish(const std::string& dir, int n) {
  DatabaseOptions options;
  options.log_writes = true;
  auto db = Database::Open(dir, options);
  if (!db.ok()) _exit(3);
  for (int i = 0; i < n; ++i) {
    if (!(*db)
             ->MutateRow("t", fmt::format("row{:04}", i),
                         {Mutation::SetCell("a", "q", std::to_string(i), Ms(1)),
                          Mutation::SetCell("a", "r", std::to_string(i), Ms(1))})
             .ok()) {
      _exit(4);
    }
  }
  _exit(0);
}

void RunChild(const std::string& dir, int n) {
  pid_t child = fork();
  if (child == 0) WriteThenVanish(dir, n);
  int status;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

std::string FormatVersion(const std::string& dir) {
  // The version is read through a read-only open's note-free path: the
  // meta entry as LMDB's tool would show it is not at hand, so ask Open:
  // a database of format 3 with a log is noted on a read-only open.
  std::string note;
  DatabaseOptions options;
  options.read_only = true;
  options.note = [&](const std::string& n) { note = n; };
  auto db = Database::Open(dir, options);
  return note;
}

TEST(WritePathTest, ACrashLeavesALogThatTheNextOpenReplays) {
  TempDir dir;
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok());
    ASSERT_OK((*db)->CreateTable("t", {{"a", GcRule::Never(), ValueType::kBytes}}));
  }
  RunChild(dir.path(), 50);
  bool has_log = false;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    has_log = has_log || entry.path().filename().string().starts_with("wal-");
  }
  ASSERT_TRUE(has_log) << "the writes must still be in the log";
  EXPECT_NE(FormatVersion(dir.path()).find("cannot replay"), std::string::npos);
  std::string note;
  DatabaseOptions options;
  options.note = [&](const std::string& n) { note = n; };
  auto db = Database::Open(dir.path(), options);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  EXPECT_EQ(note, "recovered 50 writes from the write-ahead log");
  std::vector<Row> rows = ReadAll(db->get());
  ASSERT_EQ(rows.size(), 50u);
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(rows[i].key, fmt::format("row{:04}", i));
    EXPECT_EQ(rows[i].cells.size(), 2u);
  }
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    EXPECT_FALSE(entry.path().filename().string().starts_with("wal-")) << "replayed logs are deleted";
  }
}

// The log's last record cut at each of its bytes: every write before it
// replays whole, the cut one not at all.
TEST(WritePathTest, ALogCutAtEveryByteOfItsLastRecordReplaysEveryWriteBeforeIt) {
  TempDir dir;
  const std::string crashed = dir.Sub("crashed");
  {
    auto db = Database::Open(crashed);
    ASSERT_TRUE(db.ok());
    ASSERT_OK((*db)->CreateTable("t", {{"a", GcRule::Never(), ValueType::kBytes}}));
  }
  constexpr int kRows = 6;
  RunChild(crashed, kRows);
  std::string segment;
  for (const auto& entry : fs::directory_iterator(crashed)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("wal-") && fs::file_size(entry.path()) > kWriteLogMagic.size()) segment = name;
  }
  ASSERT_FALSE(segment.empty());
  const uint64_t size = fs::file_size(fs::path(crashed) / segment);
  uint64_t last_record_start = 0, offset = kWriteLogMagic.size();
  ASSERT_TRUE(ReadWriteLog((fs::path(crashed) / segment).string(), [&](std::string_view record) {
                last_record_start = offset;
                offset += kRecordHeaderBytes + record.size();
                return Status::OK();
              }).ok());
  ASSERT_EQ(offset, size);
  for (uint64_t cut = last_record_start; cut <= size; ++cut) {
    SCOPED_TRACE("cut at byte " + std::to_string(cut) + " of " + std::to_string(size));
    const std::string copy = dir.Sub("copy");
    fs::remove_all(copy);
    fs::copy(crashed, copy);
    fs::resize_file(fs::path(copy) / segment, cut);
    auto db = Database::Open(copy);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    std::vector<Row> rows = ReadAll(db->get());
    const size_t expected = cut == size ? kRows : kRows - 1;
    ASSERT_EQ(rows.size(), expected);
    for (size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(rows[i].key, fmt::format("row{:04}", i));
      EXPECT_EQ(rows[i].cells.size(), 2u) << "a replayed row is torn";
    }
  }
}

}  // namespace
}  // namespace lbt
