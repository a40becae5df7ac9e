// The upgrade from on-disk format 1: of the database the previous release
// wrote (tests/storage/fixtures/format1.dump, made by format1.cbt), of a larger
// one written here in format 1's layout, and of either killed with SIGKILL
// at many moments of the upgrade.

#include "storage/format/upgrade.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "local/local_bigtable.h"
#include "storage/catalog.h"
#include "storage/database.h"
#include "storage/format/key_codec.h"
#include "storage/format/stores.h"
#include "storage/kv/lmdb_env.h"
#include "storage/rows/row_reader.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

namespace fs = std::filesystem;
using testing::Ms;
using testing::ReadAll;
using testing::TempDir;

std::string FileBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Loads an `mdb_dump -a` text dump (tests/storage/fixtures/format1.dump) into
// a new LMDB environment in `dir`: each section names a database, and its
// data lines alternate key and value, in hex, each after one space.
void LoadDump(const fs::path& dump, const std::string& dir) {
  std::ifstream in(dump);
  ASSERT_TRUE(in) << "cannot read " << dump;
  ASSERT_OK_AND_ASSIGN(auto env, LmdbEnv::Open(dir, LmdbOptions{}));
  ASSERT_OK_AND_ASSIGN(auto txn, Txn::Begin(env.get(), /*write=*/true));
  auto unhex = [](std::string_view hex) {
    std::string bytes;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) {
      bytes.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
    }
    return bytes;
  };
  std::string name, line, key;
  MDB_dbi dbi = 0;
  bool in_data = false, have_key = false;
  while (std::getline(in, line)) {
    if (line.rfind("database=", 0) == 0) name = line.substr(9);
    if (line == "HEADER=END") {
      ASSERT_FALSE(name.empty()) << "a section names no database";
      ASSERT_OK_AND_ASSIGN(dbi, txn->OpenDbi(name.c_str(), /*create=*/true));
      in_data = true;
    } else if (line == "DATA=END") {
      in_data = false;
      name.clear();
    } else if (in_data && !line.empty() && line[0] == ' ') {
      if (!have_key) {
        key = unhex(std::string_view(line).substr(1));
      } else {
        ASSERT_OK(txn->Put(dbi, key, unhex(std::string_view(line).substr(1))));
      }
      have_key = !have_key;
    }
  }
  ASSERT_OK(txn->Commit());
}

// The database the release before format 2 wrote (format1.cbt), loaded
// from its dump.
std::string CopyFixture(const TempDir& dir) {
  const std::string db = dir.Sub("db");
  fs::create_directories(db);
  LoadDump(fs::path(LBT_SOURCE_DIR) / "tests/storage/fixtures/format1.dump", db);
  return db;
}

Cell C(std::string family, std::string qualifier, int64_t ts, std::string value) {
  return Cell{std::move(family), std::move(qualifier), ts, std::move(value), {}};
}

std::unique_ptr<Database> OpenOk(const std::string& dir, std::vector<std::string>* notes = nullptr,
                                 bool read_only = false) {
  DatabaseOptions options;
  options.read_only = read_only;
  if (notes != nullptr) options.note = [notes](const std::string& note) { notes->push_back(note); };
  Result<std::unique_ptr<Database>> db = Database::Open(dir, options);
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  return db.ok() ? std::move(db).value() : nullptr;
}

TEST(UpgradeTest, TheFormatOneFixtureUpgradesWithNothingLost) {
  TempDir dir;
  const std::string db_dir = CopyFixture(dir);
  std::vector<std::string> notes;
  auto db = OpenOk(db_dir, &notes);
  ASSERT_NE(db, nullptr);
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_NE(notes[0].find("from format 1 to 2"), std::string::npos) << notes[0];
  EXPECT_NE(notes[1].find("upgraded to format 2: 9 cells"), std::string::npos) << notes[1];
  EXPECT_NE(notes[2].find("is now format 4"), std::string::npos) << notes[2];
  EXPECT_FALSE(fs::exists(fs::path(db_dir) / "upgrade.tmp"));

  ASSERT_OK_AND_ASSIGN(std::vector<std::string> tables, db->ListTables());
  EXPECT_EQ(tables, (std::vector<std::string>{"metrics", "wide"}));  // "gone" was dropped
  ASSERT_OK_AND_ASSIGN(TableSpec metrics, db->GetTable("metrics"));
  // Creation order was never recorded: the families take their name order.
  std::vector<std::string> order;
  for (const FamilySpec* f : metrics.FamiliesInCreationOrder()) order.push_back(f->name);
  EXPECT_EQ(order, (std::vector<std::string>{"alpha", "counts", "mid", "zeta"}));
  EXPECT_EQ(metrics.families.at("counts").value_type, ValueType::kIntSum);
  EXPECT_EQ(metrics.families.at("zeta").gc_rule,
            GcRule::Union({GcRule::MaxAge(36500LL * 86400 * 1000000), GcRule::MaxVersions(3)}));

  std::vector<Row> rows = ReadAll(db.get(), "metrics");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].key, "host1#0001");
  EXPECT_EQ(rows[0].cells, (std::vector<Cell>{C("alpha", "mem", Ms(1), "10"),
                                              C("counts", "hits", Ms(1), EncodeInt64(12)), C("mid", "q", Ms(1), "m"),
                                              C("zeta", "cpu", Ms(4), "0.8"), C("zeta", "cpu", Ms(3), "0.7")}));
  EXPECT_EQ(rows[1].cells, (std::vector<Cell>{C("alpha", "mem", Ms(1), "20")}));
  // A 600-byte key lived in the long-key store; it and the row index came over.
  std::vector<Row> wide = ReadAll(db.get(), "wide");
  ASSERT_EQ(wide.size(), 2u);
  EXPECT_EQ(wide[0].key, std::string(600, 'k'));
  EXPECT_EQ(wide[1].cells, (std::vector<Cell>{C("f", "q", Ms(1), "v"), C("f", "r", Ms(2), "w")}));
  ASSERT_OK_AND_ASSIGN(int64_t count, db->CountRows("wide"));
  EXPECT_EQ(count, 2);
  ASSERT_OK_AND_ASSIGN(std::vector<KeySample> samples, db->SampleRowKeys("wide", 1));
  ASSERT_EQ(samples.size(), 2u);  // the second row's key, then the end
  EXPECT_EQ(samples[0].row_key, "short");

  // A family created now sorts after the upgraded ones, whatever its name;
  // a table created now gets a new id.
  ASSERT_OK(db->ModifyFamilies("metrics", {FamilyChange::Create({"aaa", GcRule::Never(), ValueType::kBytes})}));
  ASSERT_OK(db->MutateRow("metrics", "host1#0001", {Mutation::SetCell("aaa", "x", "1", Ms(1))}));
  rows = ReadAll(db.get(), "metrics");
  EXPECT_EQ(rows[0].cells.back(), C("aaa", "x", Ms(1), "1"));
  ASSERT_OK(db->CreateTable("fresh", {{"f", {}, ValueType::kBytes}}));
  EXPECT_TRUE(ReadAll(db.get(), "fresh").empty());

  // Opened again, it is format 4 already: no upgrade.
  db.reset();
  notes.clear();
  db = OpenOk(db_dir, &notes);
  ASSERT_NE(db, nullptr);
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(ReadAll(db.get(), "metrics")[0].cells.size(), 6u);
}

// Instances need no upgrade: an older release's tables, bare names in the
// catalog, are the default instance's, and another instance's tables are
// added beside them without touching them.
TEST(UpgradeTest, AnOlderDatabasesTablesAreTheDefaultInstances) {
  TempDir dir;
  const std::string db_dir = CopyFixture(dir);
  ASSERT_NE(OpenOk(db_dir), nullptr);  // upgraded to format 2, then closed
  LocalBigtable root(db_dir, DatabaseOptions{});
  ASSERT_OK_AND_ASSIGN(std::vector<std::string> tables, root.ListTables());
  EXPECT_EQ(tables, (std::vector<std::string>{"metrics", "wide"}));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Bigtable> other, root.instance_admin()->OpenTables({"p", "i"}));
  ASSERT_OK_AND_ASSIGN(std::vector<std::string> none, other->ListTables());
  EXPECT_TRUE(none.empty());
  ASSERT_OK(other->CreateTable("metrics", {{"f", {}, ValueType::kBytes}}, {}, false));
  ASSERT_OK_AND_ASSIGN(int64_t older, root.CountRows("metrics", RowRange::All()));
  EXPECT_EQ(older, 2);  // the older table, untouched
  ASSERT_OK_AND_ASSIGN(int64_t newer, other->CountRows("metrics", RowRange::All()));
  EXPECT_EQ(newer, 0);
}

TEST(UpgradeTest, AReadOnlyOpenOfFormatOneSaysHowToUpgradeAndChangesNothing) {
  TempDir dir;
  const std::string db_dir = CopyFixture(dir);
  const std::string before = FileBytes(fs::path(db_dir) / "data.mdb");
  DatabaseOptions options;
  options.read_only = true;
  Result<std::unique_ptr<Database>> db = Database::Open(db_dir, options);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(db.status().message().find("format version 1"), std::string::npos) << db.status().ToString();
  EXPECT_NE(db.status().message().find("without --read-only, as a user who can write"), std::string::npos)
      << db.status().ToString();
  EXPECT_EQ(FileBytes(fs::path(db_dir) / "data.mdb"), before);
}

TEST(UpgradeTest, AnotherProcessHoldingTheDatabaseDefersTheUpgrade) {
  TempDir dir;
  const std::string db_dir = CopyFixture(dir);
  // What an older lbt holding the database open looks like: the shared lock.
  const int fd = ::open((fs::path(db_dir) / "lbt.lock").c_str(), O_RDWR | O_CREAT, 0600);
  ASSERT_GE(fd, 0);
  testing::PipeSignal locked;
  const pid_t child = ::fork();
  if (child == 0) {
    ::flock(fd, LOCK_SH);
    locked.Notify();
    ::pause();
    ::_exit(0);
  }
  if (!locked.WaitFor()) {
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    FAIL() << "the child did not take the lock";
  }
  Result<std::unique_ptr<Database>> db = Database::Open(db_dir);
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  ::close(fd);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(db.status().message().find("another process has it open"), std::string::npos) << db.status().ToString();
  // Once it is gone, the upgrade runs.
  EXPECT_NE(OpenOk(db_dir), nullptr);
}

// Several processes that open a format-1 database at once: one upgrades
// it, the others wait for it and open the upgraded database.
TEST(UpgradeTest, ProcessesOpeningAtOnceWaitForOneUpgrade) {
  TempDir dir;
  const std::string db_dir = CopyFixture(dir);
  std::vector<pid_t> children;
  for (int i = 0; i < 4; ++i) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      Result<std::unique_ptr<Database>> db = Database::Open(db_dir);
      ::_exit(db.ok() && (*db)->CountRows("metrics").ok() ? 0 : 1);
    }
    children.push_back(child);
  }
  for (pid_t child : children) {
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a process failed to open the database";
  }
  auto db = OpenOk(db_dir);
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(ReadAll(db.get(), "metrics").size(), 2u);
}

// ---- a larger format-1 database ----

// Format 1's layout, as the release before format 2 wrote it: the table id
// in 4 bytes, then the escaped row, family name and qualifier.
std::string FormatOneTablePrefix(TableId table) {
  std::string out;
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(table >> shift));
  return out;
}

std::string FormatOneCellKey(TableId table, std::string_view row, std::string_view family, std::string_view qualifier,
                             int64_t ts) {
  std::string key = FormatOneTablePrefix(table);
  AppendEscaped(&key, row);
  AppendEscaped(&key, family);
  AppendEscaped(&key, qualifier);
  AppendTimestamp(&key, ts);
  return key;
}

// Row i of the synthetic table: families "b" and "a" (so that name order
// and the order written differ), some keys long enough for the long-key
// store, some with NUL bytes.
Row SyntheticRow(int i) {
  Row row;
  row.key = fmt::format("row{:06}", i);
  if (i % 97 == 0) row.key += std::string(520, 'x');
  if (i % 13 == 0) row.key += std::string("\0nul", 4);
  row.cells = {C("a", "q", Ms(2), fmt::format("a2-{}", i)), C("a", "q", Ms(1), fmt::format("a1-{}", i)),
               C("b", std::string("p\0", 2), Ms(1), fmt::format("b-{}", i))};
  return row;
}

// Writes `rows` synthetic rows into table 1, "t", in format 1, and cells of
// a dropped table 2 that the upgrade must leave out.
void WriteFormatOne(const std::string& dir, int rows) {
  fs::create_directories(dir);
  LmdbOptions lmdb;
  lmdb.sync = false;
  lmdb.initial_map_bytes = 1ull << 30;
  ASSERT_OK_AND_ASSIGN(auto env, LmdbEnv::Open(dir, lmdb));
  ASSERT_OK_AND_ASSIGN(auto txn, Txn::Begin(env.get(), /*write=*/true));
  Stores stores;
  ASSERT_OK(OpenStores(txn.get(), /*create=*/true, &stores));
  ASSERT_OK(txn->Put(stores.meta, kMetaFormatVersion, "1"));
  ASSERT_OK(txn->Put(stores.meta, kMetaCatalogVersion, "3"));
  ASSERT_OK(txn->Put(stores.meta, kMetaNextTableId, "3"));
  ASSERT_OK_AND_ASSIGN(MDB_dbi catalog, txn->OpenDbi(kCatalogDb, false));
  ASSERT_OK(txn->Put(catalog, "table:t",
                     R"({"id":1,"families":[{"name":"a","gc_rule":{"never":true},"value_type":"bytes"},)"
                     R"({"name":"b","gc_rule":{"max_versions":1},"value_type":"bytes"}]})"));
  for (int i = 0; i < rows; ++i) {
    const Row row = SyntheticRow(i);
    uint64_t size = 0;
    for (const Cell& c : row.cells) {
      ASSERT_OK(stores.cells.Put(txn.get(), FormatOneCellKey(1, row.key, c.family, c.qualifier, c.timestamp), c.value));
      size += c.family.size() + c.qualifier.size() + c.value.size() + 8;
    }
    std::string row_key = FormatOneTablePrefix(1);
    AppendEscaped(&row_key, row.key);
    ASSERT_OK(stores.rows.Put(txn.get(), row_key, EncodeInt64(static_cast<int64_t>(size))));
    ASSERT_OK(stores.cells.Put(txn.get(), FormatOneCellKey(2, row.key, "f", "q", Ms(1)), "dropped"));
  }
  ASSERT_OK(txn->Commit());
}

void ExpectSyntheticRows(Database* db, int rows) {
  std::vector<Row> read = ReadAll(db, "t");
  ASSERT_EQ(read.size(), static_cast<size_t>(rows));
  std::vector<Row> expected;
  for (int i = 0; i < rows; ++i) expected.push_back(SyntheticRow(i));
  std::sort(expected.begin(), expected.end(), [](const Row& a, const Row& b) { return a.key < b.key; });
  for (int i = 0; i < rows; ++i) {
    ASSERT_EQ(read[i].key, expected[i].key) << i;
    ASSERT_EQ(read[i].cells, expected[i].cells) << read[i].key;
  }
  ASSERT_OK_AND_ASSIGN(int64_t count, db->CountRows("t"));
  EXPECT_EQ(count, rows);
  ASSERT_OK_AND_ASSIGN(std::vector<KeySample> samples, db->SampleRowKeys("t", 1ull << 40));
  int64_t bytes = 0;
  for (const Row& row : expected) {
    for (const Cell& c : row.cells)
      bytes += static_cast<int64_t>(c.family.size() + c.qualifier.size() + c.value.size() + 8);
  }
  EXPECT_EQ(samples.back().offset_bytes, bytes) << "the row index came over whole";
}

constexpr int kSyntheticRows = 6000;

TEST(UpgradeTest, ALargerDatabaseUpgradesInBatchesWithNothingLost) {
  TempDir dir;
  const std::string db_dir = dir.Sub("db");
  WriteFormatOne(db_dir, kSyntheticRows);
  UpgradeOptions options;
  options.batch_entries = 1000;
  int batches = 0;
  options.after_batch = [&](int n) { batches = n; };
  ASSERT_OK(UpgradeDatabase(db_dir, 1, options));
  EXPECT_GE(batches, 20);  // 18,000 cells and 6,000 rows, 1,000 at a time
  auto db = OpenOk(db_dir);
  ASSERT_NE(db, nullptr);
  ExpectSyntheticRows(db.get(), kSyntheticRows);
}

// Runs `upgrade` in a child process that kills itself, or is killed, at
// some moment; then the database must open and hold every row. Sets
// *unfinished when the kill came before the upgrade was done (the open
// after it upgraded again).
void ExpectSurvivesKill(const std::string& db_dir, const std::function<void()>& upgrade, int kill_after_micros,
                        bool* unfinished) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    upgrade();
    ::_exit(0);
  }
  if (kill_after_micros >= 0) {
    std::this_thread::sleep_for(std::chrono::microseconds(kill_after_micros));
    ::kill(child, SIGKILL);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  std::vector<std::string> notes;
  auto db = OpenOk(db_dir, &notes);
  ASSERT_NE(db, nullptr);
  *unfinished = !notes.empty() && notes[0].find("from format 1 to 2") != std::string::npos;
  ExpectSyntheticRows(db.get(), kSyntheticRows);
}

TEST(UpgradeTest, AKillAtAnyMomentLeavesADatabaseThatOpensWhole) {
  // Killed after each of several batches, by seed: the old file is intact
  // and the next open upgrades it.
  for (int seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE(fmt::format("killed after batch {}", seed * 5));
    TempDir dir;
    const std::string db_dir = dir.Sub("db");
    WriteFormatOne(db_dir, kSyntheticRows);
    bool unfinished = false;
    ExpectSurvivesKill(
        db_dir,
        [&] {
          UpgradeOptions options;
          options.batch_entries = 1000;
          options.after_batch = [&](int n) {
            if (n == seed * 5) ::raise(SIGKILL);
          };
          (void)UpgradeDatabase(db_dir, 1, options);
        },
        -1, &unfinished);
    EXPECT_TRUE(unfinished);
  }
  // Killed from outside at random moments of a whole open, the flush and
  // the rename included: moments within the time an open takes here.
  int64_t open_micros = 0;
  {
    TempDir dir;
    const std::string db_dir = dir.Sub("db");
    WriteFormatOne(db_dir, kSyntheticRows);
    const auto start = std::chrono::steady_clock::now();
    bool unfinished = false;
    ExpectSurvivesKill(
        db_dir, [&] { (void)Database::Open(db_dir); }, -1, &unfinished);
    open_micros =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
    EXPECT_FALSE(unfinished);
  }
  std::mt19937 rng(2026);
  int unfinished_rounds = 0;
  for (int round = 0; round < 10; ++round) {
    const int micros = std::uniform_int_distribution<int>(0, static_cast<int>(open_micros / 2))(rng);
    SCOPED_TRACE(fmt::format("killed after {} us", micros));
    TempDir dir;
    const std::string db_dir = dir.Sub("db");
    WriteFormatOne(db_dir, kSyntheticRows);
    bool unfinished = false;
    ExpectSurvivesKill(
        db_dir, [&] { (void)Database::Open(db_dir); }, micros, &unfinished);
    unfinished_rounds += unfinished;
  }
  EXPECT_GT(unfinished_rounds, 0) << "no kill came during an upgrade";
  std::printf("%d of 10 random kills came during the upgrade\n", unfinished_rounds);
}

}  // namespace
}  // namespace lbt
