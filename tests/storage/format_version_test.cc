// Formats 2 and 3 becoming 4 and 5: a database an older lbt wrote (with or
// without a log it left behind) opens with nothing lost, is marked so that
// the older lbt refuses it from then on, and survives SIGKILL at any moment
// of that open.

#include "storage/format/format_version.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <lmdb.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "storage/database.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

namespace fs = std::filesystem;
using testing::Ms;
using testing::ReadAll;
using testing::TempDir;

// Runs `fn` on the meta store of the database in `dir`, as LMDB's own tools
// would, in a child process: LMDB must not open one file twice in a process.
// Returns the child's exit code.
int InChild(const std::string& dir, const std::function<int(MDB_txn*, MDB_dbi)>& fn) {
  const pid_t child = ::fork();
  if (child == 0) {
    MDB_env* env;
    MDB_txn* txn;
    MDB_dbi meta;
    if (mdb_env_create(&env) != 0 || mdb_env_set_maxdbs(env, 8) != 0 || mdb_env_open(env, dir.c_str(), 0, 0600) != 0 ||
        mdb_txn_begin(env, nullptr, 0, &txn) != 0 || mdb_dbi_open(txn, "meta", 0, &meta) != 0) {
      ::_exit(100);
    }
    const int code = fn(txn, meta);
    ::_exit(mdb_txn_commit(txn) == 0 ? code : 101);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 102;
}

// The format version stored in `dir`, read from outside this process.
int StoredVersion(const std::string& dir) {
  return InChild(dir, [](MDB_txn* txn, MDB_dbi meta) {
    std::string key = "format_version";
    MDB_val k{key.size(), key.data()}, v;
    if (mdb_get(txn, meta, &k, &v) != 0) return 103;
    return std::stoi(std::string(static_cast<const char*>(v.mv_data), v.mv_size));
  });
}

// Stores `version` as an older lbt would have left it.
void StoreVersion(const std::string& dir, int version) {
  const int code = InChild(dir, [version](MDB_txn* txn, MDB_dbi meta) {
    std::string key = "format_version", value = std::to_string(version);
    MDB_val k{key.size(), key.data()}, v{value.size(), value.data()};
    return mdb_put(txn, meta, &k, &v, 0) == 0 ? 0 : 104;
  });
  ASSERT_EQ(code, 0);
}

// Opens `dir` for writing, collecting notes; with or without a log.
std::unique_ptr<Database> Open(const std::string& dir, bool log_writes, std::vector<std::string>* notes) {
  DatabaseOptions options;
  options.log_writes = log_writes;
  options.note = [notes](const std::string& note) { notes->push_back(note); };
  Result<std::unique_ptr<Database>> db = Database::Open(dir, options);
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  return db.ok() ? std::move(db).value() : nullptr;
}

constexpr int kRows = 40;

// A table of kRows rows "row0000".. with two cells each.
void WriteRows(Database* db, int from, int to) {
  for (int i = from; i < to; ++i) {
    ASSERT_OK(db->MutateRow("t", fmt::format("row{:04}", i),
                            {Mutation::SetCell("a", "q", std::to_string(i), Ms(1)),
                             Mutation::SetCell("a", "r", std::to_string(i), Ms(2))}));
  }
}

void ExpectRows(Database* db, int count) {
  std::vector<Row> rows = ReadAll(db, "t");
  ASSERT_EQ(rows.size(), static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    EXPECT_EQ(rows[i].key, fmt::format("row{:04}", i));
    ASSERT_EQ(rows[i].cells.size(), 2u) << rows[i].key;
    EXPECT_EQ(rows[i].cells[0].value, std::to_string(i));
  }
}

// A database an lbt of format 2 wrote and closed: kRows rows in LMDB.
std::string FormatTwoDatabase(const TempDir& dir) {
  const std::string db_dir = dir.Sub("db");
  {
    std::vector<std::string> notes;
    auto db = Open(db_dir, /*log_writes=*/false, &notes);
    EXPECT_TRUE(notes.empty()) << "a new database is format 4 from the start";
    EXPECT_OK(db->CreateTable("t", {{"a", GcRule::Never(), ValueType::kBytes}}));
    WriteRows(db.get(), 0, kRows);
  }
  EXPECT_EQ(StoredVersion(db_dir), kAtRestFormatVersion);
  StoreVersion(db_dir, kCellFormatVersion);
  return db_dir;
}

// A database an lbt of format 3 crashed on: its last writes only in the log.
std::string FormatThreeDatabaseWithALog(const TempDir& dir) {
  const std::string db_dir = dir.Sub("db");
  {
    std::vector<std::string> notes;
    auto db = Open(db_dir, /*log_writes=*/false, &notes);
    EXPECT_OK(db->CreateTable("t", {{"a", GcRule::Never(), ValueType::kBytes}}));
    WriteRows(db.get(), 0, kRows / 2);
  }
  const pid_t child = ::fork();
  if (child == 0) {
    DatabaseOptions options;
    options.log_writes = true;
    Result<std::unique_ptr<Database>> db = Database::Open(db_dir, options);
    if (!db.ok()) ::_exit(1);
    WriteRows(db->get(), kRows / 2, kRows);
    ::_exit(::testing::Test::HasFailure() ? 2 : 0);  // vanishes with its log unreplayed
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_EQ(StoredVersion(db_dir), kLiveLogFormatVersion);
  StoreVersion(db_dir, kLogFormatVersion);
  return db_dir;
}

TEST(FormatVersionTest, AFormatTwoDatabaseBecomesFourWithNothingRewritten) {
  TempDir dir;
  const std::string db_dir = FormatTwoDatabase(dir);
  std::vector<std::string> notes;
  auto db = Open(db_dir, /*log_writes=*/false, &notes);
  ASSERT_NE(db, nullptr);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("is now format 4 (nothing was rewritten)"), std::string::npos) << notes[0];
  // Marked before anything is written, so an older lbt refuses it from now on.
  EXPECT_EQ(StoredVersion(db_dir), kAtRestFormatVersion);
  ExpectRows(db.get(), kRows);
  db.reset();
  EXPECT_EQ(StoredVersion(db_dir), kAtRestFormatVersion);
  notes.clear();
  db = Open(db_dir, /*log_writes=*/false, &notes);
  EXPECT_TRUE(notes.empty()) << notes[0];
}

TEST(FormatVersionTest, AReadOnlyOpenReadsFormatTwoAndLeavesIt) {
  TempDir dir;
  const std::string db_dir = FormatTwoDatabase(dir);
  {
    DatabaseOptions options;
    options.read_only = true;
    ASSERT_OK_AND_ASSIGN(auto db, Database::Open(db_dir, options));
    ExpectRows(db.get(), kRows);
  }
  EXPECT_EQ(StoredVersion(db_dir), kCellFormatVersion);
}

TEST(FormatVersionTest, AFormatThreeLogReplaysAndTheDatabaseBecomesFiveThenFour) {
  TempDir dir;
  const std::string db_dir = FormatThreeDatabaseWithALog(dir);
  std::vector<std::string> notes;
  auto db = Open(db_dir, /*log_writes=*/true, &notes);
  ASSERT_NE(db, nullptr);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0], fmt::format("recovered {} writes from the write-ahead log", kRows / 2));
  EXPECT_NE(notes[1].find("is now format 4"), std::string::npos) << notes[1];
  EXPECT_EQ(StoredVersion(db_dir), kLiveLogFormatVersion);
  ExpectRows(db.get(), kRows);
  db.reset();
  EXPECT_EQ(StoredVersion(db_dir), kAtRestFormatVersion);
}

TEST(FormatVersionTest, AShellOpenReplaysAFormatThreeLogIntoFormatFour) {
  TempDir dir;
  const std::string db_dir = FormatThreeDatabaseWithALog(dir);
  std::vector<std::string> notes;
  auto db = Open(db_dir, /*log_writes=*/false, &notes);
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(StoredVersion(db_dir), kAtRestFormatVersion);
  ExpectRows(db.get(), kRows);
}

// Killed at random moments of a writable open of a format-3 database with a
// log (replay, fold, the version's rewrite) and of writes after it: the
// next open has every row, and the version never goes back to 2 or 3 once
// it has moved.
TEST(FormatVersionTest, AKillAtAnyMomentOfTheMoveLeavesADatabaseThatOpensWhole) {
  std::mt19937 rng(2027);
  int moved = 0, unmoved = 0;
  for (int round = 0; round < 12; ++round) {
    const int micros = std::uniform_int_distribution<int>(0, round % 3 == 0 ? 20000 : 5000)(rng);
    SCOPED_TRACE(fmt::format("killed after {} us", micros));
    TempDir dir;
    const std::string db_dir = FormatThreeDatabaseWithALog(dir);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      DatabaseOptions options;
      options.log_writes = round % 2 == 0;
      Result<std::unique_ptr<Database>> db = Database::Open(db_dir, options);
      if (!db.ok()) ::_exit(1);
      for (int i = 0; i < 1000; ++i) {
        (void)(*db)->MutateRow("t", fmt::format("zz{:04}", i), {Mutation::SetCell("a", "q", "x", Ms(1))});
      }
      ::pause();
    }
    std::this_thread::sleep_for(std::chrono::microseconds(micros));  // a random moment, not a synchronization
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    const int version = StoredVersion(db_dir);
    ASSERT_TRUE(version == kLogFormatVersion || version == kAtRestFormatVersion || version == kLiveLogFormatVersion)
        << version;
    (version == kLogFormatVersion ? unmoved : moved) += 1;
    std::vector<std::string> notes;
    auto db = Open(db_dir, /*log_writes=*/false, &notes);
    ASSERT_NE(db, nullptr);
    std::vector<Row> rows = ReadAll(db.get(), "t");
    ASSERT_GE(rows.size(), static_cast<size_t>(kRows));
    for (int i = 0; i < kRows; ++i) EXPECT_EQ(rows[i].key, fmt::format("row{:04}", i));
    for (size_t i = kRows; i < rows.size(); ++i) EXPECT_EQ(rows[i].key, fmt::format("zz{:04}", i - kRows));
    db.reset();
    EXPECT_EQ(StoredVersion(db_dir), kAtRestFormatVersion);
  }
  std::printf("%d of 12 kills came after the move, %d before it\n", moved, unmoved);
}

}  // namespace
}  // namespace lbt
