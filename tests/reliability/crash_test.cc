// Crash consistency: a child process writes rows and reports each commit
// on a pipe; the parent kills it with SIGKILL at seeded random moments,
// reopens the database and checks that it opens without repair, that every
// reported commit is fully there, and that no row is half written.
// Covers one transaction per row (a script of commands), batches of rows,
// and bulk loads (an import: rows in any order, sorted through temporary
// files, committed in key order). LBT_CRASH_SEED and LBT_CRASH_KILLS run
// it longer.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <random>
#include <set>
#include <thread>

#include <algorithm>
#include <filesystem>
#include <numeric>

#include "api/backup.h"
#include "api/instance_admin.h"
#include "local/local_bigtable.h"
#include "storage/database.h"
#include "storage/load/bulk_loader.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::Ms;

constexpr int kCellsPerRow = 6;

std::string RowKey(int64_t i) { return "row" + std::to_string(100000000 + i); }

// Every cell of row i carries i, so a reader can tell a complete row.
std::vector<Mutation> RowCells(int64_t i) {
  std::vector<Mutation> cells;
  for (int c = 0; c < kCellsPerRow; ++c) {
    cells.push_back(Mutation::SetCell("cf", "q" + std::to_string(c), std::to_string(i) + std::string(200, 'x'), Ms(1)));
  }
  return cells;
}

// The child: writes rows from `first` on, forever, writing the index of the
// last committed row to `ack` after each commit.
[[noreturn]] void Writer(const std::string& dir, int64_t first, int batch, int ack) {
  auto db = Database::Open(dir);
  if (!db.ok()) _exit(3);
  for (int64_t i = first;; i += batch) {
    Status s;
    if (batch == 1) {
      s = (*db)->MutateRow("t", RowKey(i), RowCells(i));
    } else {
      std::vector<RowMutation> rows;
      for (int k = 0; k < batch; ++k) rows.push_back({RowKey(i + k), RowCells(i + k)});
      s = testing::WriteRows(db->get(), "t", rows);  // one group commit
    }
    if (!s.ok()) _exit(4);
    int64_t last = i + batch - 1;
    if (write(ack, &last, sizeof last) != sizeof last) _exit(5);
  }
}

// Rows per bulk load, added in a shuffled order.
constexpr int64_t kLoadRows = 2000;

// The child of a bulk load: loads rows from `first` on, kLoadRows at a
// time, each load in small transactions and with little sort memory (so
// that runs go through the temporary file), writing the index of the last
// committed row after each commit. Rows commit in key order, and row i's
// key sorts before row i + 1's.
[[noreturn]] void Loader(const std::string& dir, int64_t first, int ack) {
  auto db = Database::Open(dir);
  if (!db.ok()) _exit(3);
  std::mt19937_64 rng(first);
  for (int64_t start = first;; start += kLoadRows) {
    std::vector<int64_t> order(kLoadRows);
    std::iota(order.begin(), order.end(), start);
    std::shuffle(order.begin(), order.end(), rng);
    BulkLoadOptions options;
    options.rows_per_commit = 50;
    options.sort_memory_bytes = 256 << 10;
    auto loader = (*db)->NewBulkLoad("t", options);
    if (!loader.ok()) _exit(4);
    for (int64_t i : order) {
      if (!(*loader)->Add({RowKey(i), RowCells(i)}).ok()) _exit(5);
    }
    Status s = (*loader)->Finish(
        [&](const BulkLoadStats& stats) {
          int64_t last = start + stats.rows_committed - 1;
          return write(ack, &last, sizeof last) == sizeof last ? Status::OK() : Status::IOError("ack");
        },
        nullptr);
    if (!s.ok()) _exit(6);
  }
}

// Checks the database after a crash. Returns the next row to write.
int64_t Verify(const std::string& dir, int64_t acknowledged) {
  auto db = Database::Open(dir);
  EXPECT_TRUE(db.ok()) << "the database must open without repair: " << db.status().ToString();
  if (!db.ok()) return -1;
  ReadOptions all;
  auto reader = (*db)->NewReader("t", all);
  EXPECT_TRUE(reader.ok());
  int64_t expected = 0;
  Row row;
  while ((*reader)->Next(&row)) {
    EXPECT_EQ(row.key, RowKey(expected)) << "rows must be committed in order, none missing";
    EXPECT_EQ(row.cells.size(), static_cast<size_t>(kCellsPerRow)) << "row " << row.key << " is half written";
    for (const Cell& c : row.cells) {
      EXPECT_EQ(c.value.substr(0, c.value.find('x')), std::to_string(expected)) << row.key;
    }
    ++expected;
  }
  EXPECT_OK((*reader)->status());
  EXPECT_GE(expected, acknowledged + 1) << "a commit that was reported is missing";
  return expected;
}

// LBT_CRASH_SEED and LBT_CRASH_KILLS, or their defaults.
uint64_t CrashSeed() { return std::stoull(std::getenv("LBT_CRASH_SEED") ? std::getenv("LBT_CRASH_SEED") : "2026"); }
int CrashKills() { return std::atoi(std::getenv("LBT_CRASH_KILLS") ? std::getenv("LBT_CRASH_KILLS") : "24"); }

// A database in `dir` with table t of one family, cf.
void CreateCrashTable(const std::string& dir) {
  auto db = Database::Open(dir);
  ASSERT_TRUE(db.ok());
  ASSERT_OK((*db)->CreateTable("t", {{"cf", {}, ValueType::kBytes}}));
}

// Forks a child that runs `body` with the write end of a pipe (it never
// returns), kills it with SIGKILL after `delay`, and returns the pipe's
// read end and the child's wait status.
std::pair<int, int> RunAndKill(const std::function<void(int ack)>& body, std::chrono::microseconds delay) {
  int ack[2];
  if (pipe(ack) != 0) return {-1, 0};
  pid_t child = fork();
  if (child == 0) {
    close(ack[0]);
    body(ack[1]);
    _exit(7);
  }
  close(ack[1]);
  std::this_thread::sleep_for(delay);
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  return {ack[0], status};
}

// batch 0: bulk loads.
void CrashRepeatedly(int batch) {
  const int kills = CrashKills();
  std::mt19937_64 rng(CrashSeed() + batch);
  testing::TempDir dir;
  CreateCrashTable(dir.path());
  int64_t next = 0, acknowledged = -1;
  for (int k = 0; k < kills; ++k) {
    auto [ack, status] = RunAndKill(
        [&](int ack_fd) {
          if (batch == 0) Loader(dir.path(), next, ack_fd);
          Writer(dir.path(), next, batch, ack_fd);
        },
        std::chrono::microseconds(2000 + rng() % 40000));
    ASSERT_GE(ack, 0);
    int64_t last;
    while (read(ack, &last, sizeof last) == sizeof last) acknowledged = last;
    close(ack);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer stopped by itself, exit " << WEXITSTATUS(status);
    next = Verify(dir.path(), acknowledged);
    ASSERT_GE(next, 0);
    // A bulk load's temporary file never outlives its process.
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
      const std::string name = entry.path().filename().string();
      EXPECT_TRUE(name == "data.mdb" || name == "lock.mdb" || name == "lbt.lock" || name == "wal.lock")
          << "left behind: " << name;
    }
    if (::testing::Test::HasFailure()) return;
  }
  std::cout << "[ crash ] " << kills << " kills, " << next << " rows committed, batch " << batch << "\n";
}

TEST(CrashTest, OneTransactionPerRowSurvivesSigkill) { CrashRepeatedly(1); }

// ---- writes through the write-ahead log (DatabaseOptions::log_writes) ----

constexpr int kLogWriters = 8;

std::string ThreadRowKey(int thread, int64_t n) { return fmt::format("w{}-{:09}", thread, n); }

// What a writer thread acknowledges: the iteration it finished.
struct Ack {
  int64_t thread;
  int64_t n;
};

// The child: kLogWriters threads, each writing its rows in order (even
// iterations one row, odd ones a batch of two, the second a marker) and
// then incrementing its counter, acknowledging each finished iteration.
[[noreturn]] void LoggedWriters(const std::string& dir, const std::vector<int64_t>& first, int ack) {
  DatabaseOptions options;
  options.log_writes = true;
  auto db = Database::Open(dir, options);
  if (!db.ok()) _exit(3);
  std::vector<std::thread> threads;
  for (int t = 0; t < kLogWriters; ++t) {
    threads.emplace_back([&, t] {
      for (int64_t n = first[t];; ++n) {
        Status s;
        if (n % 2 == 0) {
          s = (*db)->MutateRow("t", ThreadRowKey(t, n), RowCells(n));
        } else {
          s = testing::WriteRows(db->get(), "t", {{ThreadRowKey(t, n), RowCells(n)}});
        }
        if (s.ok()) {
          s = (*db)
                  ->ReadModifyWriteRow("t", "counters",
                                       {ReadModifyWriteRule::Increment("cf", "c" + std::to_string(t), 1)})
                  .status();
        }
        if (!s.ok()) _exit(4);
        Ack a{t, n};
        if (write(ack, &a, sizeof a) != sizeof a) _exit(5);
      }
    });
  }
  for (auto& th : threads) th.join();
  _exit(0);
}

// After a crash: each thread's rows are a whole prefix that holds every
// acknowledged one, and its counter holds every acknowledged increment and
// at most one more per round (one not yet acknowledged when killed).
// Returns the next row of each thread.
std::vector<int64_t> VerifyLogged(const std::string& dir, const std::vector<int64_t>& acknowledged,
                                  const std::vector<int64_t>& increments_acked, int rounds) {
  std::vector<int64_t> next(kLogWriters, 0);
  auto db = Database::Open(dir);
  EXPECT_TRUE(db.ok()) << "the database must open and replay its log: " << db.status().ToString();
  if (!db.ok()) return {};
  auto reader = (*db)->NewReader("t", ReadOptions{});
  EXPECT_TRUE(reader.ok());
  Row row;
  std::vector<int64_t> counters(kLogWriters, 0);
  while ((*reader)->Next(&row)) {
    if (row.key == "counters") {
      // Each column's newest cell comes first: the counter's value.
      std::set<std::string> seen;
      for (const Cell& c : row.cells) {
        if (!seen.insert(c.qualifier).second) continue;
        int64_t v = 0;
        for (char ch : c.value) v = (v << 8) | static_cast<unsigned char>(ch);
        counters[std::stoi(c.qualifier.substr(1))] = v;
      }
      continue;
    }
    const int t = row.key[1] - '0';
    const int64_t n = std::stoll(row.key.substr(3));
    EXPECT_EQ(n, next[t]) << "thread " << t << "'s rows must be a prefix: " << row.key;
    EXPECT_EQ(row.cells.size(), static_cast<size_t>(kCellsPerRow)) << "row " << row.key << " is torn";
    for (const Cell& c : row.cells) EXPECT_EQ(c.value.substr(0, c.value.find('x')), std::to_string(n)) << row.key;
    next[t] = n + 1;
  }
  EXPECT_OK((*reader)->status());
  for (int t = 0; t < kLogWriters; ++t) {
    EXPECT_GE(next[t], acknowledged[t] + 1) << "thread " << t << ": an acknowledged write is missing";
    EXPECT_GE(counters[t], increments_acked[t]) << "thread " << t << ": an acknowledged increment is missing";
    EXPECT_LE(counters[t], increments_acked[t] + rounds) << "thread " << t << ": an increment applied twice";
  }
  return next;
}

// kill -9 at seeded moments while 8 threads write through the log: single
// rows, batches and increments. Every acknowledged write is there after
// the restart, and no row is torn.
TEST(CrashTest, LoggedWritesFromEightThreadsSurviveSigkill) {
  const int kills = CrashKills();
  std::mt19937_64 rng(CrashSeed() + 7);
  testing::TempDir dir;
  CreateCrashTable(dir.path());
  std::vector<int64_t> next(kLogWriters, 0), acknowledged(kLogWriters, -1), increments(kLogWriters, 0);
  int64_t total_acks = 0;
  for (int k = 0; k < kills; ++k) {
    auto [ack, status] = RunAndKill([&](int ack_fd) { LoggedWriters(dir.path(), next, ack_fd); },
                                    std::chrono::microseconds(5000 + rng() % 60000));
    ASSERT_GE(ack, 0);
    Ack a;
    while (read(ack, &a, sizeof a) == sizeof a) {
      acknowledged[a.thread] = std::max(acknowledged[a.thread], a.n);
      ++increments[a.thread];
      ++total_acks;
    }
    close(ack);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writers stopped by themselves, exit " << WEXITSTATUS(status);
    next = VerifyLogged(dir.path(), acknowledged, increments, k + 1);
    ASSERT_EQ(next.size(), static_cast<size_t>(kLogWriters));
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(total_acks, kills) << "the writers must have acknowledged writes for the test to mean anything";
  std::cout << "[ crash ] " << kills << " kills, " << total_acks << " acknowledged iterations through the log\n";
}

TEST(CrashTest, BatchesOfRowsSurviveSigkill) { CrashRepeatedly(50); }

TEST(CrashTest, BulkLoadsSurviveSigkill) { CrashRepeatedly(0); }

// ---- backups and restores ----

// A child makes backup b<k> of table t and restores it into table r<k>,
// reporting each one done (2k for the backup, 2k+1 for the restore); it is
// killed at a seeded moment. Whatever the moment, every backup and every
// table the instance shows is whole (a restore holds every row of t), and
// every reported one is there.
TEST(CrashTest, BackupsAndRestoresAreWholeOrInvisible) {
  const InstanceName instance{"p", "crash-inst"};
  constexpr int kRows = 20000;
  testing::TempDir dir;
  {
    LocalBigtable root(dir.path(), DatabaseOptions{});
    InstanceSpec spec;
    spec.name = instance;
    spec.display_name = "Crash instance";
    spec.clusters.push_back(ClusterSpec{.id = "crash-c1", .location = "projects/p/locations/z", .serve_nodes = 1});
    ASSERT_OK(root.instance_admin()->CreateInstance(spec));
    ASSERT_OK_AND_ASSIGN(auto tables, root.instance_admin()->OpenTables(instance));
    ASSERT_OK(tables->CreateTable("t", {{"cf"}}, {}, false));
    std::vector<RowMutation> rows;
    for (int i = 0; i < kRows; ++i) rows.push_back({RowKey(i), {Mutation::SetCell("cf", "q", RowKey(i), Ms(1))}});
    ASSERT_OK(tables->MutateRows("t", rows).status());
  }
  const int kills = std::max(3, CrashKills() / 4);
  std::mt19937_64 rng(CrashSeed());
  std::set<int64_t> reported;
  for (int k = 0; k < kills; ++k) {
    auto [ack, status] = RunAndKill(
        [&](int ack_fd) {
          LocalBigtable root(dir.path(), DatabaseOptions{});
          InstanceAdmin* admin = root.instance_admin();
          const int64_t expire = root.NowMicros() + int64_t{7} * 24 * 3600 * 1000000;
          for (int64_t step = 2 * k;; step += 2 * kills) {
            auto backup =
                (*admin->OpenTables(instance))->CreateBackup("crash-c1", fmt::format("b{}", step), "t", expire);
            if (!backup.ok()) _exit(3);
            if (write(ack_fd, &step, sizeof step) != sizeof step) _exit(4);
            if (!(*admin->OpenTables(instance))->RestoreTable(*backup, fmt::format("r{}", step)).ok()) _exit(5);
            const int64_t restored = step + 1;
            if (write(ack_fd, &restored, sizeof restored) != sizeof restored) _exit(4);
          }
        },
        std::chrono::microseconds(5000 + rng() % 150000));
    ASSERT_GE(ack, 0);
    for (int64_t done; read(ack, &done, sizeof done) == sizeof done;) reported.insert(done);
    close(ack);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the child stopped by itself, exit " << WEXITSTATUS(status);

    LocalBigtable root(dir.path(), DatabaseOptions{});
    InstanceAdmin* admin = root.instance_admin();
    ASSERT_OK_AND_ASSIGN(auto tables, admin->OpenTables(instance));
    ASSERT_OK_AND_ASSIGN(std::vector<BackupSpec> backups, (*admin->OpenTables(instance))->ListBackups("-"));
    std::set<int64_t> seen;
    for (const BackupSpec& b : backups) seen.insert(std::stoll(b.id.substr(1)));
    ASSERT_OK_AND_ASSIGN(std::vector<std::string> names, tables->ListTables());
    for (const std::string& name : names) {
      if (name == "t") continue;
      ASSERT_OK_AND_ASSIGN(int64_t count, tables->CountRows(name, RowRange::All()));
      EXPECT_EQ(count, kRows) << name << " is a half-made restore";
      seen.insert(std::stoll(name.substr(1)) + 1);
    }
    for (int64_t done : reported) EXPECT_TRUE(seen.count(done)) << "reported step " << done << " is missing";
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(reported.size(), 0u) << "the child must have finished some backups for the test to mean anything";
  std::cout << "[ crash ] " << kills << " kills during backups and restores, " << reported.size() << " finished\n";
}

// The value of `result`, or `fallback` where it failed.
template <typename T>
T ValueOr(Result<T> result, T fallback) {
  return result.ok() ? std::move(result).value() : std::move(fallback);
}

// Kill moments for an operation that takes about `took` uninterrupted:
// spread over it and a little past, so that most land inside it.
std::chrono::microseconds KillMoment(std::mt19937_64& rng, std::chrono::microseconds took) {
  return std::chrono::microseconds(1000 + rng() % static_cast<uint64_t>(took.count() * 6 / 5 + 1));
}

// How long `op` takes, for KillMoment: a measurement, not an assertion.
std::chrono::microseconds Took(const std::function<void()>& op) {
  const auto start = std::chrono::steady_clock::now();
  op();
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
}

constexpr int kDropRows = 20000;

// Table `table` of kDropRows rows of about 1 KB.
void FillTable(Bigtable* tables, const std::string& table) {
  ASSERT_OK(tables->CreateTable(table, {{"cf"}}, {}, false));
  std::vector<RowMutation> rows;
  for (int i = 0; i < kDropRows; ++i) rows.push_back({RowKey(i), RowCells(i)});
  ASSERT_OK_AND_ASSIGN(std::vector<Status> written, tables->MutateRows(table, rows));
  for (const Status& row : written) ASSERT_OK(row);
}

// A database of two tables: "keep", small, and "big".
void MakeTwoTables(const std::string& dir) {
  LocalBigtable tables(dir, DatabaseOptions{});
  ASSERT_OK(tables.CreateTable("keep", {{"cf"}}, {}, false));
  ASSERT_OK(tables.MutateRow("keep", "k", {Mutation::SetCell("cf", "q", "v", Ms(1))}));
  FillTable(&tables, "big");
}

// kill -9 at seeded moments of a DeleteTable of 20k rows: after a restart
// the table is there whole, or it is gone and so are its cells (the next
// writable open finishes a deletion cut short: compacted, the file is as
// small as after an uninterrupted one).
TEST(CrashTest, ADeletionCutShortFinishesAtTheNextOpen) {
  uint64_t baseline = 0;
  std::chrono::microseconds took{};
  {
    testing::TempDir dir;
    MakeTwoTables(dir.path());
    auto db = Database::Open(dir.path());
    ASSERT_OK(db.status());
    took = Took([&] { ASSERT_OK((*db)->DeleteTable("big")); });
    ASSERT_OK_AND_ASSIGN(CompactStats compacted, (*db)->Compact());
    baseline = compacted.bytes_after;
  }
  std::mt19937_64 rng(CrashSeed() + 11);
  int cut_short = 0;
  for (int k = 0; k < 8; ++k) {
    testing::TempDir dir;
    MakeTwoTables(dir.path());
    auto [ack, status] = RunAndKill(
        [&](int ack_fd) {
          auto db = Database::Open(dir.path());
          if (!db.ok() || !(*db)->DeleteTable("big").ok()) _exit(3);
          const char done = 1;
          if (write(ack_fd, &done, 1) != 1) _exit(4);
          pause();
        },
        KillMoment(rng, took));
    char done = 0;
    const bool finished = read(ack, &done, 1) == 1;
    close(ack);
    ASSERT_TRUE(WIFSIGNALED(status));
    auto db = Database::Open(dir.path());
    ASSERT_OK(db.status());
    if ((*db)->GetTable("big").ok()) {
      ASSERT_OK_AND_ASSIGN(int64_t rows, (*db)->CountRows("big", RowRange::All()));
      EXPECT_EQ(rows, kDropRows) << "kill " << k;
      continue;
    }
    if (!finished) ++cut_short;
    ASSERT_OK_AND_ASSIGN(CompactStats compacted, (*db)->Compact());
    EXPECT_LE(compacted.bytes_after, baseline + baseline / 10 + (64 << 10))
        << "kill " << k << ": the deleted table's cells are still in the file";
    EXPECT_EQ(ValueOr((*db)->CountRows("keep", RowRange::All()), int64_t{-1}), 1);
  }
  std::cout << "[ crash ] 8 kills during a table deletion, " << cut_short << " cut it short\n";
}

// kill -9 at seeded moments of DeleteInstance: after a restart the
// instance is there whole (its table, views, backup), or gone whole; and
// an instance made again with its id starts empty.
TEST(CrashTest, DeletingAnInstanceIsAllOrNothing) {
  const InstanceName name{"p", "doomed"};
  InstanceSpec spec;
  spec.name = name;
  spec.display_name = "Doomed";
  spec.clusters.push_back(ClusterSpec{.id = "doomed-c1", .location = "projects/p/locations/z", .serve_nodes = 1});
  auto make = [&](const std::string& dir) {
    LocalBigtable root(dir, DatabaseOptions{});
    InstanceAdmin* admin = root.instance_admin();
    ASSERT_OK(admin->CreateInstance(spec));
    ASSERT_OK_AND_ASSIGN(auto tables, admin->OpenTables(name));
    FillTable(tables.get(), "t");
    ASSERT_OK(admin->CreateLogicalView(name, {"lv", "SELECT _key FROM t", true, ""}).status());
    MaterializedViewSpec view{.id = "mv", .query = "SELECT _key FROM t ORDER BY _key", .source_table = "t"};
    ASSERT_OK(admin->CreateMaterializedView(name, view).status());
    ASSERT_OK((*admin->OpenTables(name))
                  ->CreateBackup("doomed-c1", "b", "t", root.NowMicros() + int64_t{7} * 24 * 3600 * 1000000)
                  .status());
    IamPolicy policy;
    policy.bindings.push_back({.role = "roles/bigtable.reader", .members = {"user:a@example.com"}});
    ASSERT_OK(admin->SetIamPolicy(name.Full(), policy).status());
  };
  std::chrono::microseconds took{};
  {
    testing::TempDir dir;
    make(dir.path());
    LocalBigtable root(dir.path(), DatabaseOptions{});
    took = Took([&] { ASSERT_OK(root.instance_admin()->DeleteInstance(name)); });
  }
  std::mt19937_64 rng(CrashSeed() + 13);
  for (int k = 0; k < 8; ++k) {
    testing::TempDir dir;
    make(dir.path());
    auto [ack, status] = RunAndKill(
        [&](int) {
          LocalBigtable root(dir.path(), DatabaseOptions{});
          if (!root.instance_admin()->DeleteInstance(name).ok()) _exit(3);
          pause();
        },
        KillMoment(rng, took));
    close(ack);
    ASSERT_TRUE(WIFSIGNALED(status));
    LocalBigtable root(dir.path(), DatabaseOptions{});
    InstanceAdmin* admin = root.instance_admin();
    ASSERT_OK_AND_ASSIGN(auto tables, admin->OpenTables(name));
    if (admin->GetInstance(name).ok()) {
      EXPECT_EQ(ValueOr(tables->ListTables(), std::vector<std::string>{}), std::vector<std::string>{"t"});
      EXPECT_EQ(ValueOr(tables->CountRows("t", RowRange::All()), int64_t{-1}), kDropRows) << "kill " << k;
      EXPECT_EQ(ValueOr(admin->ListLogicalViews(name), std::vector<LogicalViewSpec>{}).size(), 1u) << "kill " << k;
      EXPECT_EQ(ValueOr(admin->ListMaterializedViews(name), std::vector<MaterializedViewSpec>{}).size(), 1u);
      EXPECT_EQ(ValueOr((*admin->OpenTables(name))->ListBackups("-"), std::vector<BackupSpec>{}).size(), 1u)
          << "kill " << k;
      ASSERT_OK(admin->DeleteInstance(name));
    }
    ASSERT_OK(admin->CreateInstance(spec));
    EXPECT_TRUE(ValueOr(tables->ListTables(), std::vector<std::string>{"?"}).empty()) << "kill " << k;
    EXPECT_TRUE(ValueOr(admin->ListLogicalViews(name), std::vector<LogicalViewSpec>{{}}).empty()) << "kill " << k;
    EXPECT_TRUE(ValueOr(admin->ListMaterializedViews(name), std::vector<MaterializedViewSpec>{{}}).empty())
        << "kill " << k;
    EXPECT_TRUE(ValueOr((*admin->OpenTables(name))->ListBackups("-"), std::vector<BackupSpec>{{}}).empty())
        << "kill " << k;
    EXPECT_TRUE(
        ValueOr(admin->GetIamPolicy(name.Full()), IamPolicy{.bindings = {{.role = "failed"}}}).bindings.empty());
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace
}  // namespace lbt
