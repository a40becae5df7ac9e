// Storage faults, concurrent processes and pathological data: each check
// fails if lbt loses an acknowledged write, shows half a row, wedges, or
// crashes instead of answering with a clear error.

#include <gtest/gtest.h>
#include <lmdb.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "storage/database.h"
#include "storage/rows/row_reader.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::Ms;
using testing::TempDir;

template <typename Fn>
pid_t Spawn(Fn fn) {
  pid_t pid = fork();
  if (pid == 0) _exit(fn());
  return pid;
}

int Wait(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::unique_ptr<Database> OpenWithTable(const std::string& dir,
                                        std::vector<FamilySpec> families = {{"cf", {}, ValueType::kBytes}}) {
  auto db = Database::Open(dir);
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  if (!db.ok()) return nullptr;
  Status s = (*db)->CreateTable("t", families);
  EXPECT_TRUE(s.ok() || s.IsAlreadyExists()) << s.ToString();
  return std::move(db).value();
}

TEST(FaultsTest, AFullDiskFailsTheWriteAndKeepsEarlierOnes) {
  TempDir dir;
  { auto db = OpenWithTable(dir.path()); }
  int acked[2];
  ASSERT_EQ(pipe(acked), 0);
  pid_t child = Spawn([&] {
    // The file may grow by at most 4 MiB more: then writes fail with EFBIG.
    signal(SIGXFSZ, SIG_IGN);
    struct stat st;
    stat((dir.path() + "/data.mdb").c_str(), &st);
    struct rlimit limit = {static_cast<rlim_t>(st.st_size) + (4 << 20), static_cast<rlim_t>(st.st_size) + (4 << 20)};
    setrlimit(RLIMIT_FSIZE, &limit);
    auto db = Database::Open(dir.path());
    if (!db.ok()) return 10;
    for (int i = 0;; ++i) {
      Status s = (*db)->MutateRow("t", "r" + std::to_string(i),
                                  {Mutation::SetCell("cf", "q", std::string(100 << 10, 'v'), Ms(1))});
      if (!s.ok()) {
        // The error must be the clear one, not a crash.
        fprintf(stderr, "write failed: %s\n", s.ToString().c_str());
        return s.message().find("rolled back") != std::string::npos || s.message().find("limit") != std::string::npos
                   ? 0
                   : 11;
      }
      if (write(acked[1], &i, sizeof i) != sizeof i) return 12;
    }
  });
  close(acked[1]);
  int last = -1, i;
  while (read(acked[0], &i, sizeof i) == sizeof i) last = i;
  close(acked[0]);
  EXPECT_EQ(Wait(child), 0) << "the write past the size limit must fail with a clear error";
  ASSERT_GT(last, 0);
  auto db = Database::Open(dir.path());
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  ASSERT_OK_AND_ASSIGN(int64_t rows, (*db)->CountRows("t"));
  EXPECT_EQ(rows, last + 1) << "every acknowledged write survives, the failed one is gone";
  ASSERT_OK((*db)->MutateRow("t", "after", {Mutation::SetCell("cf", "q", "v", Ms(1))}));
}

TEST(FaultsTest, ACorruptedFileIsRefusedNotACrash) {
  TempDir dir;
  {
    auto db = OpenWithTable(dir.path());
    ASSERT_OK(db->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "v", Ms(1))}));
  }
  {
    // Overwrite both meta pages with garbage.
    std::fstream f(dir.path() + "/data.mdb", std::ios::in | std::ios::out | std::ios::binary);
    std::string garbage(8192, '\x5a');
    f.write(garbage.data(), garbage.size());
  }
  pid_t child = Spawn([&] {
    auto db = Database::Open(dir.path());
    return db.ok() ? 1 : (db.status().message().empty() ? 2 : 0);
  });
  EXPECT_EQ(Wait(child), 0) << "opening a corrupted file must fail with a message, and not crash";
}

TEST(FaultsTest, ADirectoryWeMayNotWriteIsRefusedClearly) {
  TempDir dir;
  {
    auto db = OpenWithTable(dir.path());
    ASSERT_OK(db->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "v", Ms(1))}));
  }
  pid_t child = Spawn([&] {
    // Root ignores permissions, so run as nobody; otherwise drop write access.
    if (geteuid() == 0) {
      if (setgid(65534) != 0 || setuid(65534) != 0) return 10;
    } else if (chmod(dir.path().c_str(), 0555) != 0) {
      return 11;
    }
    for (bool read_only : {false, true}) {
      DatabaseOptions options;
      options.read_only = read_only;
      auto db = Database::Open(dir.path(), options);
      if (db.ok()) continue;  // allowed where the files happen to be readable
      const std::string& m = db.status().message();
      if (m.find(dir.path()) == std::string::npos && m.find("ermission") == std::string::npos) return 12;
    }
    return 0;
  });
  EXPECT_EQ(Wait(child), 0) << "opening must fail with a message naming the problem, not crash";
  chmod(dir.path().c_str(), 0755);
}

// A database in a directory the user may read but not write opens
// read-only, as sqlite3 opens a file it cannot lock: without LMDB's lock
// file, saying so in one note. Writes stay refused.
TEST(FaultsTest, ReadOnlyOpensADirectoryItCannotWrite) {
  TempDir dir;
  {
    auto db = OpenWithTable(dir.path());
    ASSERT_OK(db->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "v", Ms(1))}));
  }
  for (const char* file : {"data.mdb", "lock.mdb", "lbt.lock"}) {
    chmod((std::filesystem::path(dir.path()) / file).c_str(), 0444);
  }
  chmod(dir.path().c_str(), 0555);
  pid_t child = Spawn([&] {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) return 10;
    std::string heard;
    DatabaseOptions options;
    options.read_only = true;
    options.note = [&](const std::string& note) { heard += note; };
    auto db = Database::Open(dir.path(), options);
    if (!db.ok()) return 11;
    if (heard.find("not writable") == std::string::npos || heard.find(dir.path()) == std::string::npos) return 12;
    auto row = (*db)->ReadRow("t", "r");
    if (!row.ok() || !row->has_value() || (**row).cells.at(0).value != "v") return 13;
    if ((*db)->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "w", Ms(2))}).ok()) return 14;
    // Opened for writing, the same directory is refused with the reason.
    auto writable = Database::Open(dir.path());
    if (writable.ok() || writable.status().message().find("ermission") == std::string::npos) return 15;
    return 0;
  });
  EXPECT_EQ(Wait(child), 0);
  chmod(dir.path().c_str(), 0755);
}

TEST(FaultsTest, AWriterKilledHoldingTheLockDoesNotWedgeOthers) {
  TempDir dir;
  { auto db = OpenWithTable(dir.path()); }
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t child = Spawn([&] {
    MDB_env* env;
    MDB_txn* txn;
    mdb_env_create(&env);
    mdb_env_set_maxdbs(env, 8);
    if (mdb_env_open(env, dir.path().c_str(), 0, 0600) != 0 || mdb_txn_begin(env, nullptr, 0, &txn) != 0) return 1;
    char c = 'x';
    if (write(ready[1], &c, 1) != 1) return 2;
    raise(SIGKILL);  // dies holding LMDB's write lock
    return 3;
  });
  char c;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  EXPECT_EQ(Wait(child), 128 + SIGKILL);
  auto db = Database::Open(dir.path());
  ASSERT_TRUE(db.ok());
  // A robust lock: the next writer recovers it instead of waiting forever.
  ASSERT_OK((*db)->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "v", Ms(1))}));
  close(ready[0]);
  close(ready[1]);
}

TEST(FaultsTest, OverlappingWritersNeverShowAHalfAppliedRow) {
  TempDir dir;
  { auto db = OpenWithTable(dir.path()); }
  constexpr int kWriters = 3, kRounds = 150, kRows = 20;
  std::vector<pid_t> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.push_back(Spawn([&, w] {
      auto db = Database::Open(dir.path());
      if (!db.ok()) return 1;
      for (int round = 0; round < kRounds; ++round) {
        std::string stamp = std::to_string(w) + ":" + std::to_string(round);
        std::string row = "r" + std::to_string(round % kRows);
        Status s = (*db)->MutateRow(
            "t", row, {Mutation::SetCell("cf", "a", stamp, Ms(1)), Mutation::SetCell("cf", "b", stamp, Ms(1))});
        if (!s.ok()) return 2;
      }
      return 0;
    }));
  }
  // A reader in read-only mode scans while they write.
  DatabaseOptions ro;
  ro.read_only = true;
  auto reader_db = Database::Open(dir.path(), ro);
  ASSERT_TRUE(reader_db.ok()) << reader_db.status().ToString();
  for (int scan = 0; scan < 30; ++scan) {
    for (const Row& row : testing::ReadAll(reader_db->get(), "t")) {
      ASSERT_EQ(row.cells.size(), 2u) << row.key;
      EXPECT_EQ(row.cells[0].value, row.cells[1].value) << "row " << row.key << " mixes two writes";
    }
  }
  for (pid_t w : writers) EXPECT_EQ(Wait(w), 0);
  ASSERT_OK_AND_ASSIGN(int64_t rows, (*reader_db)->CountRows("t"));
  EXPECT_EQ(rows, kRows);
}

TEST(FaultsTest, ManyVersionsOfOneCell) {
  TempDir dir;
  auto db = OpenWithTable(dir.path());
  constexpr int kVersions = 100000;
  for (int start = 0; start < kVersions; start += 10000) {
    std::vector<Mutation> cells;
    for (int v = start; v < start + 10000; ++v)
      cells.push_back(Mutation::SetCell("cf", "q", std::to_string(v), Ms(v + 1)));
    ASSERT_OK(db->MutateRow("t", "hot", cells));
  }
  ReadOptions latest;
  latest.cells_per_column_limit = 1;
  ASSERT_OK_AND_ASSIGN(auto row, db->ReadRow("t", "hot", latest));
  ASSERT_EQ(row->cells.size(), 1u);
  EXPECT_EQ(row->cells[0].value, std::to_string(kVersions - 1));
  ASSERT_OK_AND_ASSIGN(auto all, db->ReadRow("t", "hot"));
  EXPECT_EQ(all->cells.size(), static_cast<size_t>(kVersions));
  ASSERT_OK(db->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::MaxVersions(3))}));
  ASSERT_OK(db->MutateRow("t", "hot", {Mutation::SetCell("cf", "q", "new", Ms(kVersions + 1))}));
  ASSERT_OK(db->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::Never())}));
  ASSERT_OK_AND_ASSIGN(all, db->ReadRow("t", "hot"));
  EXPECT_EQ(all->cells.size(), 3u) << "a write collects the column's old versions";
}

TEST(FaultsTest, ManyTablesAndFamilies) {
  TempDir dir;
  auto db = Database::Open(dir.path());
  ASSERT_TRUE(db.ok());
  for (int i = 0; i < 1000; ++i) ASSERT_OK((*db)->CreateTable("table" + std::to_string(i)));
  ASSERT_OK_AND_ASSIGN(auto tables, (*db)->ListTables());
  EXPECT_EQ(tables.size(), 1000u);
  std::vector<FamilySpec> families;
  for (int f = 0; f < 100; ++f) families.push_back({"f" + std::to_string(f), {}, ValueType::kBytes});
  ASSERT_OK((*db)->CreateTable("wide", families));
  std::vector<Mutation> cells;
  for (int f = 0; f < 100; ++f) cells.push_back(Mutation::SetCell("f" + std::to_string(f), "q", "v", Ms(1)));
  ASSERT_OK((*db)->MutateRow("wide", "r", cells));
  ASSERT_OK_AND_ASSIGN(auto row, (*db)->ReadRow("wide", "r"));
  EXPECT_EQ(row->cells.size(), 100u);
  ASSERT_OK((*db)->DeleteTable("table500"));
  ASSERT_OK_AND_ASSIGN(tables, (*db)->ListTables());
  EXPECT_EQ(tables.size(), 1000u);  // 999 + wide
}

}  // namespace
}  // namespace lbt
