// Opening databases: creation, refusal of foreign directories and newer
// formats, file modes, read-only handles and several processes at once.

#include "storage/database.h"

#include <gtest/gtest.h>
#include <lmdb.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <random>

#include "filter/row_filter.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::Ms;
using testing::TempDir;

TEST(DatabaseTest, CreatesTheDirectoryOnFirstOpen) {
  TempDir dir;
  const std::string path = dir.Sub("a/b/db");
  ASSERT_OK_AND_ASSIGN(auto db, Database::Open(path));
  EXPECT_TRUE(std::filesystem::exists(path + "/data.mdb"));
}

TEST(DatabaseTest, MissingDatabasesAreNotCreatedWhenAskedNotTo) {
  TempDir dir;
  DatabaseOptions options;
  options.create_if_missing = false;
  EXPECT_TRUE(Database::Open(dir.Sub("none"), options).status().IsNotFound());
  options = {};
  options.read_only = true;
  EXPECT_TRUE(Database::Open(dir.Sub("none"), options).status().IsNotFound());
  EXPECT_FALSE(std::filesystem::exists(dir.Sub("none")));
}

TEST(DatabaseTest, FilesAreCreatedPrivate) {
  for (mode_t mask : {022, 0277}) {
    TempDir dir;
    mode_t old = ::umask(mask);
    { ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir.path())); }
    ::umask(old);
    for (const char* file : {"/data.mdb", "/lock.mdb"}) {
      struct stat st;
      ASSERT_EQ(::stat((dir.path() + file).c_str(), &st), 0);
      EXPECT_EQ(st.st_mode & 0777, 0600 & ~mask) << file << " with umask " << std::oct << mask;
    }
  }
}

TEST(DatabaseTest, RefusesDirectoriesThatAreNotLbtDatabases) {
  TempDir dir;
  { std::ofstream(dir.Sub("notes.txt")) << "hello"; }
  Status s = Database::Open(dir.path()).status();
  EXPECT_EQ(s.code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(s.message().find("not an lbt database"), std::string::npos) << s.message();
  EXPECT_FALSE(std::filesystem::exists(dir.Sub("data.mdb")));

  { std::ofstream(dir.Sub("file")) << "x"; }
  EXPECT_FALSE(Database::Open(dir.Sub("file")).ok());

  // An LMDB environment that some other program wrote.
  TempDir foreign;
  MDB_env* env;
  MDB_txn* txn;
  MDB_dbi dbi;
  ASSERT_EQ(mdb_env_create(&env), 0);
  ASSERT_EQ(mdb_env_open(env, foreign.path().c_str(), 0, 0600), 0);
  ASSERT_EQ(mdb_txn_begin(env, nullptr, 0, &txn), 0);
  ASSERT_EQ(mdb_dbi_open(txn, nullptr, 0, &dbi), 0);
  MDB_val k{1, const_cast<char*>("k")}, v{1, const_cast<char*>("v")};
  ASSERT_EQ(mdb_put(txn, dbi, &k, &v, 0), 0);
  ASSERT_EQ(mdb_txn_commit(txn), 0);
  mdb_env_close(env);
  s = Database::Open(foreign.path()).status();
  EXPECT_EQ(s.code(), Status::Code::kFailedPrecondition) << s.ToString();
}

TEST(DatabaseTest, RefusesANewerFormatVersion) {
  TempDir dir;
  { ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir.path())); }
  MDB_env* env;
  MDB_txn* txn;
  MDB_dbi meta;
  ASSERT_EQ(mdb_env_create(&env), 0);
  ASSERT_EQ(mdb_env_set_maxdbs(env, 8), 0);
  ASSERT_EQ(mdb_env_open(env, dir.path().c_str(), 0, 0600), 0);
  ASSERT_EQ(mdb_txn_begin(env, nullptr, 0, &txn), 0);
  ASSERT_EQ(mdb_dbi_open(txn, "meta", 0, &meta), 0);
  std::string key = "format_version", value = std::to_string(kFormatVersion + 1);
  MDB_val k{key.size(), key.data()}, v{value.size(), value.data()};
  ASSERT_EQ(mdb_put(txn, meta, &k, &v, 0), 0);
  ASSERT_EQ(mdb_txn_commit(txn), 0);
  mdb_env_close(env);

  Status s = Database::Open(dir.path()).status();
  EXPECT_EQ(s.code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(s.message().find("newer"), std::string::npos) << s.message();
}

TEST(DatabaseTest, ReadOnlyHandlesReadButDoNotWrite) {
  TempDir dir;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir.path()));
    ASSERT_OK(db->CreateTable("t", {{"cf", {}, ValueType::kBytes}}));
    ASSERT_OK(db->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "v", Ms(1))}));
  }
  DatabaseOptions ro;
  ro.read_only = true;
  ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir.path(), ro));
  ASSERT_OK_AND_ASSIGN(auto row, db->ReadRow("t", "r"));
  EXPECT_TRUE(row.has_value());
  EXPECT_FALSE(db->MutateRow("t", "r", {Mutation::DeleteFromRow()}).ok());
  EXPECT_FALSE(db->CreateTable("u").ok());
}

// Runs `fn` in a child process; returns its exit status.
template <typename Fn>
pid_t Spawn(Fn fn) {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(fn());
  return pid;
}

int Wait(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(DatabaseTest, SeveralProcessesWriteAndReadAtOnce) {
  TempDir dir;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir.path()));
    ASSERT_OK(db->CreateTable("t", {{"cf", {}, ValueType::kBytes}}));
  }
  constexpr int kWriters = 3, kRows = 200;
  std::vector<pid_t> children;
  for (int w = 0; w < kWriters; ++w) {
    children.push_back(Spawn([&, w] {
      auto db = Database::Open(dir.path());
      if (!db.ok()) return 10;
      for (int i = 0; i < kRows; ++i) {
        // Every row gets two cells in one mutation: readers must see both or neither.
        std::string row = "w" + std::to_string(w) + "-" + std::to_string(i);
        Status s = (*db)->MutateRow(
            "t", row, {Mutation::SetCell("cf", "a", "1", Ms(1)), Mutation::SetCell("cf", "b", "2", Ms(1))});
        if (!s.ok()) return 11;
      }
      return 0;
    }));
  }
  ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir.path()));
  for (int scan = 0; scan < 20; ++scan) {
    for (const Row& row : testing::ReadAll(db.get(), "t")) {
      ASSERT_EQ(row.cells.size(), 2u) << "half-applied row " << row.key;
    }
  }
  for (pid_t pid : children) EXPECT_EQ(Wait(pid), 0);
  ASSERT_OK_AND_ASSIGN(int64_t n, db->CountRows("t"));
  EXPECT_EQ(n, kWriters * kRows);
}

TEST(DatabaseTest, ReadersAreNotBlockedByAnOpenWrite) {
  TempDir dir;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir.path()));
    ASSERT_OK(db->CreateTable("t", {{"cf", {}, ValueType::kBytes}}));
    ASSERT_OK(db->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "v", Ms(1))}));
  }
  // The child holds LMDB's write lock until the parent has read. A reader
  // that waited for the lock would never read, and the child, given up on
  // after its deadline, would exit 3.
  testing::PipeSignal locked, read;
  pid_t child = Spawn([&] {
    MDB_env* env;
    MDB_txn* txn;
    if (mdb_env_create(&env) != 0 || mdb_env_set_maxdbs(env, 8) != 0 ||
        mdb_env_open(env, dir.path().c_str(), 0, 0600) != 0 || mdb_txn_begin(env, nullptr, 0, &txn) != 0) {
      return 1;
    }
    if (!locked.Notify()) return 2;
    const bool reader_done = read.WaitFor();
    mdb_txn_abort(txn);
    mdb_env_close(env);
    return reader_done ? 0 : 3;
  });
  ASSERT_TRUE(locked.WaitFor());
  ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir.path()));
  ASSERT_OK_AND_ASSIGN(auto row, db->ReadRow("t", "r"));
  EXPECT_TRUE(row.has_value());
  read.Notify();
  EXPECT_EQ(Wait(child), 0) << "the reader waited for the writer";
}

TEST(DatabaseTest, CompactShrinksTheFileAndKeepsTheData) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir.path()));
  ASSERT_OK(db->CreateTable("t", {{"cf", {}, ValueType::kBytes}}));
  std::vector<RowMutation> rows;
  for (int i = 0; i < 2000; ++i) {
    rows.push_back({"r" + std::to_string(i), {Mutation::SetCell("cf", "q", std::string(2000, 'v'), Ms(1))}});
  }
  ASSERT_OK(testing::WriteRows(db.get(), "t", rows));
  ASSERT_OK(db->DropRowRange("t", "r1"));
  ASSERT_OK_AND_ASSIGN(int64_t before, db->CountRows("t"));
  ASSERT_OK_AND_ASSIGN(CompactStats stats, db->Compact());
  EXPECT_LT(stats.bytes_after, stats.bytes_before / 2) << stats.bytes_before << " -> " << stats.bytes_after;
  ASSERT_OK_AND_ASSIGN(int64_t after, db->CountRows("t"));
  EXPECT_EQ(after, before);
  ASSERT_OK(db->MutateRow("t", "new", {Mutation::SetCell("cf", "q", "v", Ms(1))}));
  struct stat st;
  ASSERT_EQ(::stat((dir.path() + "/data.mdb").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0077, 0u) << "the compacted file stays private";
}

TEST(DatabaseTest, CompactIsRefusedWhileAnotherProcessHasTheDatabase) {
  TempDir dir;
  { ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir.path())); }
  // The child keeps the database open until the parent's compaction has
  // been refused.
  testing::PipeSignal opened, refused;
  pid_t child = Spawn([&] {
    auto db = Database::Open(dir.path());
    if (!db.ok() || !opened.Notify()) return 1;
    return refused.WaitFor() ? 0 : 2;
  });
  ASSERT_TRUE(opened.WaitFor());
  ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir.path()));
  Status s = db->Compact().status();
  EXPECT_EQ(s.code(), Status::Code::kFailedPrecondition) << s.ToString();
  refused.Notify();
  EXPECT_EQ(Wait(child), 0);
  EXPECT_OK(db->Compact().status());
}

TEST(DatabaseTest, DropRowRangeDeletesByPrefix) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir.path()));
  ASSERT_OK(db->CreateTable("t", {{"cf", {}, ValueType::kBytes}}));
  for (const char* k : {"a", "ab", "abc", "b"}) {
    ASSERT_OK(db->MutateRow("t", k, {Mutation::SetCell("cf", "q", "v", Ms(1))}));
  }
  ASSERT_OK(db->MutateRow("t", std::string("a\0", 2), {Mutation::SetCell("cf", "q", "v", Ms(1))}));
  ASSERT_OK(db->DropRowRange("t", "ab"));
  EXPECT_EQ(testing::RowKeys(testing::ReadAll(db.get(), "t")),
            (std::vector<std::string>{"a", std::string("a\0", 2), "b"}));
  ASSERT_OK(db->DropRowRange("t", ""));
  EXPECT_TRUE(testing::ReadAll(db.get(), "t").empty());
  ASSERT_OK_AND_ASSIGN(int64_t n, db->CountRows("t"));
  EXPECT_EQ(n, 0);
}

// Threads of one process share a Database: concurrent writes commit in
// groups, a write that fails leaves the others of its group applied, and
// readers on other threads see whole rows.
TEST(DatabaseTest, ManyThreadsWriteAndReadOneDatabase) {
  testing::TempDir dir;
  auto opened = Database::Open(dir.path());
  ASSERT_TRUE(opened.ok());
  std::unique_ptr<Database> db = std::move(opened).value();
  ASSERT_OK(
      db->CreateTable("t", {{"a", GcRule::Never(), ValueType::kBytes}, {"b", GcRule::Never(), ValueType::kBytes}}));
  constexpr int kThreads = 8, kWrites = 100;
  std::atomic<int> torn{0}, refused{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kWrites; ++i) {
        const std::string key = "t" + std::to_string(t) + "-" + std::to_string(i);
        // Every tenth write names a family the table lacks and must fail alone.
        const std::string family = i % 10 == 9 ? "nope" : "b";
        Status s = db->MutateRow("t", key,
                                 {Mutation::SetCell("a", "q", key, 1000), Mutation::SetCell(family, "q", key, 1000)});
        if (!s.ok()) {
          ++refused;
          continue;
        }
        auto row = db->ReadRow("t", key);
        if (!row.ok() || !row->has_value() || (*row)->cells.size() != 2) ++torn;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(torn.load(), 0);
  EXPECT_EQ(refused.load(), kThreads * kWrites / 10);
  EXPECT_EQ(testing::ReadAll(db.get(), "t").size(), static_cast<size_t>(kThreads * kWrites * 9 / 10));
}

// LookupRows answers many keys from one snapshot: each entry is what
// ReadRow gives for its key, in the order asked, repeats and absent keys
// included, with the read's columns and filter applied row by row.
TEST(DatabaseTest, LookupRowsAnswersInTheOrderAsked) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir.Sub("db")));
  ASSERT_OK(db->CreateTable("t", {{"a", GcRule::Never()}, {"b", GcRule::Never()}}));
  std::vector<RowMutation> rows;
  for (int i = 0; i < 500; i += 2) {
    rows.push_back({"k" + std::to_string(1000 + i),
                    {Mutation::SetCell("a", "x", std::to_string(i), Ms(1)), Mutation::SetCell("a", "x", "older", Ms(0)),
                     Mutation::SetCell("b", "y", "b", Ms(1))}});
  }
  ASSERT_OK(testing::WriteRows(db.get(), "t", rows));
  std::mt19937_64 rng(9);
  std::vector<std::string> keys;
  for (int i = 0; i < 300; ++i) keys.push_back("k" + std::to_string(1000 + rng() % 520));  // odd: absent
  keys.push_back(keys.front());
  ReadOptions options;
  options.columns = {ColumnSelector{"a", std::nullopt}};
  ASSERT_OK_AND_ASSIGN(auto filter, CompileFilter(Filter::CellsPerColumnLimit(1)));
  options.filter = filter.get();
  ASSERT_OK_AND_ASSIGN(std::vector<std::optional<Row>> found, db->LookupRows("t", keys, options));
  ASSERT_EQ(found.size(), keys.size());
  int present = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_OK_AND_ASSIGN(std::optional<Row> one, db->ReadRow("t", keys[i], options));
    ASSERT_EQ(found[i].has_value(), one.has_value()) << keys[i];
    if (!one) continue;
    ++present;
    EXPECT_EQ(found[i]->key, keys[i]);
    EXPECT_EQ(found[i]->cells, one->cells);
    ASSERT_EQ(found[i]->cells.size(), 1u);  // column a only, its newest cell
  }
  EXPECT_GT(present, 100);
  EXPECT_LT(present, static_cast<int>(keys.size()));
  EXPECT_TRUE(db->LookupRows("nope", keys).status().IsNotFound());
  ASSERT_OK_AND_ASSIGN(auto with_empty, db->LookupRows("t", {"k1000", "", "k1000"}));
  EXPECT_TRUE(with_empty[0].has_value() && with_empty[2].has_value() && !with_empty[1].has_value());
  ASSERT_OK_AND_ASSIGN(auto none, db->LookupRows("t", {}));
  EXPECT_TRUE(none.empty());
}

// ModifyColumnFamilies' changes commit together: a refused one leaves the
// families, and the cells of any family an earlier change dropped, as they were.
// A table's granularity decides which timestamps fit it: a MILLIS table
// refuses one that is not whole milliseconds (writes and delete ranges) and
// cuts a client library's own; a MICROS table keeps any microsecond. The
// granularity is kept across a reopen.
TEST(DatabaseTest, GranularityDecidesWhichTimestampsFit) {
  TempDir dir;
  {
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<Database> db, Database::Open(dir.path()));
    ASSERT_OK(db->CreateTable("milli", {{"cf", GcRule::Never(), ValueType::kBytes}}));
    ASSERT_OK(db->CreateTable("micro", NewTable{.families = {{"cf", GcRule::Never(), ValueType::kBytes}},
                                                .granularity = TimestampGranularity::kMicros}));
  }
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Database> db, Database::Open(dir.path()));
  EXPECT_EQ(db->GetTable("milli")->granularity, TimestampGranularity::kMillis);
  EXPECT_EQ(db->GetTable("micro")->granularity, TimestampGranularity::kMicros);

  Status refused = db->MutateRow("milli", "r", {Mutation::SetCell("cf", "q", "v", 1234)});
  EXPECT_EQ(refused.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(refused.message().find("table 'milli'"), std::string::npos) << refused.message();
  EXPECT_EQ(db->MutateRow("milli", "r", {Mutation::DeleteFromColumn("cf", "q", {1, 2000})}).code(),
            Status::Code::kInvalidArgument);
  ASSERT_OK(db->MutateRow("micro", "r", {Mutation::SetCell("cf", "q", "v", 1234)}));
  ASSERT_OK(db->MutateRow("micro", "r", {Mutation::SetCell("cf", "q", "w", 1235)}));
  ASSERT_OK(db->MutateRow("micro", "r", {Mutation::DeleteFromColumn("cf", "q", {1235, 1236})}));

  Mutation client = Mutation::SetCell("cf", "c", "v", 1795694220123456);
  client.client_timestamp = true;
  ASSERT_OK(db->MutateRow("milli", "r", {client}));
  ASSERT_OK(db->MutateRow("micro", "r", {client}));
  Mutation negative = client;
  negative.timestamp = -5;
  EXPECT_EQ(db->MutateRow("micro", "r", {negative}).code(), Status::Code::kInvalidArgument);

  auto stamps = [&](const std::string& table) {
    std::vector<int64_t> out;
    Result<std::optional<Row>> row = db->ReadRow(table, "r");
    EXPECT_TRUE(row.ok() && row->has_value());
    if (row.ok() && row->has_value()) {
      for (const Cell& c : (*row)->cells) out.push_back(c.timestamp);
    }
    return out;
  };
  EXPECT_EQ(stamps("milli"), (std::vector<int64_t>{1795694220123000}));
  EXPECT_EQ(stamps("micro"), (std::vector<int64_t>{1795694220123456, 1234}));
}

TEST(DatabaseTest, FamilyChangesCommitAllOrNothing) {
  TempDir dir;
  auto opened = Database::Open(dir.path());
  ASSERT_TRUE(opened.ok());
  std::unique_ptr<Database> db = std::move(opened).value();
  ASSERT_OK(
      db->CreateTable("t", {{"a", GcRule::Never(), ValueType::kBytes}, {"b", GcRule::Never(), ValueType::kBytes}}));
  ASSERT_OK(db->MutateRow("t", "r", {Mutation::SetCell("a", "q", "kept", Ms(1))}));
  auto families = [&] {
    std::vector<std::string> names;
    Result<TableSpec> spec = db->GetTable("t");
    for (const auto& [name, family] : spec->families) names.push_back(name);
    return names;
  };
  Status refused =
      db->ModifyFamilies("t", {FamilyChange::Create({"c", GcRule::Never(), ValueType::kBytes}), FamilyChange::Drop("a"),
                               FamilyChange::SetGcRule("b", GcRule::MaxVersions(1)),
                               FamilyChange::Create({"b", GcRule::Never(), ValueType::kBytes})});
  EXPECT_TRUE(refused.IsAlreadyExists()) << refused.ToString();
  EXPECT_EQ(families(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(db->GetTable("t")->families.at("b").gc_rule, GcRule::Never());
  ASSERT_OK_AND_ASSIGN(std::optional<Row> row, db->ReadRow("t", "r"));
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->cells.at(0).value, "kept");

  // The same without the refused change: all of it, at once. A family made
  // and dropped in one request leaves nothing behind.
  ASSERT_OK(db->ModifyFamilies(
      "t", {FamilyChange::Create({"c", GcRule::Never(), ValueType::kBytes}), FamilyChange::Drop("a"),
            FamilyChange::SetGcRule("b", GcRule::MaxVersions(1)),
            FamilyChange::Create({"d", GcRule::Never(), ValueType::kBytes}), FamilyChange::Drop("d")}));
  EXPECT_EQ(families(), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(db->GetTable("t")->families.at("b").gc_rule, GcRule::MaxVersions(1));
  ASSERT_OK_AND_ASSIGN(row, db->ReadRow("t", "r"));
  EXPECT_FALSE(row.has_value());

  // A table created protected is protected from its first commit.
  ASSERT_OK(db->CreateTable(
      "p", NewTable{.families = {{"f", GcRule::Never(), ValueType::kBytes}}, .deletion_protection = true}));
  EXPECT_TRUE(db->GetTable("p")->deletion_protection);
  EXPECT_EQ(db->ModifyFamilies("p", {FamilyChange::Drop("f")}).code(), Status::Code::kFailedPrecondition);
}

}  // namespace
}  // namespace lbt
