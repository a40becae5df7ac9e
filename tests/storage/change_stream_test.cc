// The change log (storage/format/change_log.h) and reading it
// (Database::ReadChangeStream): every kind of write records what it applied,
// in commit order, in the same transaction; failed writes record nothing;
// readers resume exactly from a position; retention and end times hold.
// Each test runs with writes straight to LMDB and through the log.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <random>
#include <thread>

#include "storage/database.h"
#include "storage/format/stores.h"
#include "storage/kv/lmdb_env.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::Ms;
using testing::TempDir;

constexpr std::chrono::milliseconds kNoWait{0};

std::string Text(const DataChange& c) {
  std::string out = fmt::format("{}{}:", c.type == DataChange::Type::kGarbageCollection ? "gc " : "", c.row_key);
  for (const Mutation& m : c.mutations) out += " " + testing::MutationText(m);
  return out;
}

class ChangeStreamTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { Open(); }

  void Open(GcMode gc = GcMode::kEager) {
    db_.reset();
    DatabaseOptions options;
    options.log_writes = GetParam();
    options.clock = clock_.Fn();
    options.gc = gc;
    auto db = Database::Open(dir_.path(), options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
  }

  void CreateStreamedTable() {
    ASSERT_OK(db_->CreateTable("t", {FamilySpec{"cf", {}, ValueType::kBytes}, FamilySpec{"b", {}, ValueType::kBytes}}));
    ASSERT_OK(db_->SetChangeStream("t", ChangeStreamConfig{kMicrosPerDay, 0}));
  }

  // Every change from `start` that is visible now, each as text.
  std::vector<std::string> ReadFrom(ChangeStreamRequest request, std::string* token = nullptr) {
    std::vector<std::string> out;
    auto stream = db_->ReadChangeStream("t", request);
    EXPECT_TRUE(stream.ok()) << stream.status().ToString();
    if (!stream.ok()) return out;
    for (;;) {
      Result<std::optional<DataChange>> next = (*stream)->Next(kNoWait);
      EXPECT_TRUE(next.ok()) << next.status().ToString();
      if (!next.ok() || !next->has_value()) break;
      out.push_back(Text(**next));
    }
    if (token != nullptr) *token = (*stream)->token();
    return out;
  }
  std::vector<std::string> ReadAll() { return ReadFrom(StartAt(start_)); }
  ChangeStreamRequest StartAt(int64_t micros) {
    ChangeStreamRequest request;
    request.start_micros = micros;
    return request;
  }

  TempDir dir_;
  testing::FakeClock clock_;
  int64_t start_ = clock_.now;
  std::unique_ptr<Database> db_;
};

// A client library's timestamp is recorded as the cell was written: cut to
// a MILLIS table's granularity, whole in a MICROS table.
TEST_P(ChangeStreamTest, ClientTimestampsAreRecordedAsTheyWereStored) {
  for (TimestampGranularity g : {TimestampGranularity::kMillis, TimestampGranularity::kMicros}) {
    const std::string table(GranularityName(g));
    ASSERT_OK(db_->CreateTable(table, NewTable{.families = {{"cf", {}, ValueType::kBytes}}, .granularity = g}));
    ASSERT_OK(db_->SetChangeStream(table, ChangeStreamConfig{kMicrosPerDay, 0}));
    Mutation m = Mutation::SetCell("cf", "a", "1", 1795694220123456);
    m.client_timestamp = true;
    ASSERT_OK(db_->MutateRow(table, "r", {m}));
    auto stream = db_->ReadChangeStream(table, StartAt(start_));
    ASSERT_OK(stream.status());
    Result<std::optional<DataChange>> next = (*stream)->Next(kNoWait);
    ASSERT_OK(next.status());
    ASSERT_TRUE(next->has_value());
    ASSERT_EQ((*next)->mutations.size(), 1u);
    EXPECT_EQ((*next)->mutations[0].timestamp,
              g == TimestampGranularity::kMillis ? 1795694220123000 : 1795694220123456);
    ASSERT_OK_AND_ASSIGN(std::optional<Row> row, db_->ReadRow(table, "r"));
    ASSERT_TRUE(row.has_value());
    EXPECT_EQ(row->cells[0].timestamp, (*next)->mutations[0].timestamp);
  }
}

TEST_P(ChangeStreamTest, EveryKindOfWriteRecordsWhatItApplied) {
  CreateStreamedTable();
  const int64_t t = clock_.now;
  ASSERT_OK(db_->MutateRow("t", "r1", {Mutation::SetCell("cf", "a", "1"), Mutation::SetCell("b", "x", "2", Ms(7))}));
  ASSERT_OK(db_->MutateRow("t", "r1", {Mutation::DeleteFromColumn("cf", "a", {Ms(1), Ms(9)})}));
  ASSERT_OK(db_->MutateRow("t", "r2", {Mutation::SetCell("cf", "a", "v", Ms(1)), Mutation::DeleteFromFamily("b")}));
  ASSERT_OK(db_->MutateRow("t", "r2", {Mutation::DeleteFromRow()}));
  ASSERT_OK(db_->ReadModifyWriteRow("t", "r3", {ReadModifyWriteRule::Append("cf", "a", "xy")}).status());
  ASSERT_OK(db_->CheckAndMutateRow("t", "r3", std::nullopt, {Mutation::SetCell("b", "m", "hit", Ms(2))},
                                   {Mutation::SetCell("b", "m", "miss", Ms(2))})
                .status());
  ASSERT_OK(testing::WriteRows(
      db_.get(), "t",
      {{"r4", {Mutation::SetCell("cf", "a", "4", Ms(3))}}, {"r5", {Mutation::SetCell("cf", "a", "5", Ms(3))}}}));
  EXPECT_EQ(ReadAll(), (std::vector<std::string>{
                           fmt::format("r1: set cf:a@{}=1 set b:x@{}=2", t, Ms(7)),
                           fmt::format("r1: delcol cf:a[{},{})", Ms(1), Ms(9)),
                           fmt::format("r2: set cf:a@{}=v delfam b", Ms(1)),
                           "r2: delfam cf delfam b",
                           fmt::format("r3: set cf:a@{}=xy", t),
                           fmt::format("r3: set b:m@{}=hit", Ms(2)),
                           fmt::format("r4: set cf:a@{}=4", Ms(3)),
                           fmt::format("r5: set cf:a@{}=5", Ms(3)),
                       }));
}

TEST_P(ChangeStreamTest, FailedWritesAndOtherTablesRecordNothing) {
  CreateStreamedTable();
  ASSERT_OK(db_->CreateTable("plain", {FamilySpec{"cf", {}, ValueType::kBytes}}));
  ASSERT_OK(db_->MutateRow("plain", "r", {Mutation::SetCell("cf", "a", "1")}));
  EXPECT_TRUE(
      db_->MutateRow("t", "r", {Mutation::SetCell("cf", "a", "1"), Mutation::SetCell("nope", "a", "1")}).IsNotFound());
  Result<std::vector<Status>> statuses = db_->MutateRows(
      "t", {{"ok", {Mutation::SetCell("cf", "a", "1", Ms(1))}}, {"bad", {Mutation::SetCell("cf", "a", "1", 5)}}});
  ASSERT_OK(statuses.status());
  EXPECT_TRUE((*statuses)[1].IsInvalidArgument());
  EXPECT_EQ(ReadAll(), (std::vector<std::string>{fmt::format("ok: set cf:a@{}=1", Ms(1))}));
  EXPECT_EQ(db_->ReadChangeStream("plain", StartAt(start_)).status().code(), Status::Code::kFailedPrecondition);
}

TEST_P(ChangeStreamTest, DropsBulkLoadsAndCollectionPassesAreRecorded) {
  Open(GcMode::kLazy);
  ASSERT_OK(db_->CreateTable("t", {FamilySpec{"cf", GcRule::MaxVersions(1), ValueType::kBytes}}));
  ASSERT_OK(db_->SetChangeStream("t", ChangeStreamConfig{kMicrosPerDay, 0}));
  ASSERT_OK(db_->MutateRow("t", "a1",
                           {Mutation::SetCell("cf", "q", "old", Ms(1)), Mutation::SetCell("cf", "q", "new", Ms(2))}));
  ASSERT_OK(db_->MutateRow("t", "b1", {Mutation::SetCell("cf", "q", "x", Ms(1))}));
  ASSERT_OK(db_->MutateRow("t", "b2", {Mutation::SetCell("cf", "q", "y", Ms(1))}));
  ASSERT_OK_AND_ASSIGN(auto loader, db_->NewBulkLoad("t", {}));
  ASSERT_OK(loader->Add({"c1", {Mutation::SetCell("cf", "q", "loaded", Ms(4))}}));
  ASSERT_OK(loader->Add({"a1", {Mutation::SetCell("cf", "q", "merged", Ms(5))}}));
  ASSERT_OK(loader->Finish(nullptr, nullptr));
  loader.reset();
  ASSERT_OK(db_->DropRowRange("t", "b"));
  ASSERT_OK(db_->CollectGarbage("t", nullptr).status());
  EXPECT_EQ(ReadAll(), (std::vector<std::string>{
                           fmt::format("a1: set cf:q@{}=old set cf:q@{}=new", Ms(1), Ms(2)),
                           fmt::format("b1: set cf:q@{}=x", Ms(1)),
                           fmt::format("b2: set cf:q@{}=y", Ms(1)),
                           // the load writes in key order
                           fmt::format("a1: set cf:q@{}=merged", Ms(5)),
                           fmt::format("c1: set cf:q@{}=loaded", Ms(4)),
                           "b1: delfam cf",
                           "b2: delfam cf",
                           // lazy GC kept the older cells of a1 until the pass
                           fmt::format("gc a1: delcol cf:q[{},{}) delcol cf:q[{},{})", Ms(2), Ms(3), Ms(1), Ms(2)),
                       }));
}

// One stream kept open through idle polls (which, on a logged database,
// skip the scan while nothing was written): each later write of the
// table, logged or direct, reaches it, and another table's do not.
TEST_P(ChangeStreamTest, AnIdleStreamSeesEachLaterWriteOfItsTable) {
  CreateStreamedTable();
  ASSERT_OK(db_->CreateTable("u", {FamilySpec{"cf", {}, ValueType::kBytes}}));
  ASSERT_OK(db_->SetChangeStream("u", ChangeStreamConfig{kMicrosPerDay, 0}));
  ASSERT_OK_AND_ASSIGN(auto stream, db_->ReadChangeStream("t", StartAt(start_)));
  auto next = [&]() -> std::optional<std::string> {
    Result<std::optional<DataChange>> change = stream->Next(kNoWait);
    EXPECT_TRUE(change.ok()) << change.status().ToString();
    if (!change.ok() || !change->has_value()) return std::nullopt;
    return Text(**change);
  };
  EXPECT_EQ(next(), std::nullopt);
  EXPECT_EQ(next(), std::nullopt);
  ASSERT_OK(db_->MutateRow("u", "elsewhere", {Mutation::SetCell("cf", "a", "1", Ms(1))}));
  EXPECT_EQ(next(), std::nullopt);
  ASSERT_OK(db_->MutateRow("t", "r1", {Mutation::SetCell("cf", "a", "1", Ms(1))}));
  EXPECT_EQ(next(), fmt::format("r1: set cf:a@{}=1", Ms(1)));
  EXPECT_EQ(next(), std::nullopt);
  ASSERT_OK(testing::WriteRows(db_.get(), "t", {{"r2", {Mutation::SetCell("cf", "a", "2", Ms(2))}}}));
  EXPECT_EQ(next(), fmt::format("r2: set cf:a@{}=2", Ms(2)));
  EXPECT_EQ(next(), std::nullopt);
  ASSERT_OK_AND_ASSIGN(auto loader, db_->NewBulkLoad("t", {}));
  ASSERT_OK(loader->Add({"r3", {Mutation::SetCell("cf", "a", "3", Ms(3))}}));
  ASSERT_OK(loader->Finish(nullptr, nullptr));
  loader.reset();
  EXPECT_EQ(next(), fmt::format("r3: set cf:a@{}=3", Ms(3)));
  EXPECT_EQ(next(), std::nullopt);
  ASSERT_OK(db_->DropRowRange("t", "r1"));
  EXPECT_EQ(next(), "r1: delfam cf delfam b");
  EXPECT_EQ(next(), std::nullopt);
}

TEST_P(ChangeStreamTest, APositionResumesExactlyAfterAReopen) {
  CreateStreamedTable();
  std::mt19937_64 rng(7);
  std::vector<std::string> written;
  for (int i = 0; i < 300; ++i) {
    const std::string row = fmt::format("r{}", rng() % 40);
    const std::string value = std::to_string(i);
    ASSERT_OK(db_->MutateRow("t", row, {Mutation::SetCell("cf", "q", value, Ms(1 + i))}));
    written.push_back(fmt::format("{}: set cf:q@{}={}", row, Ms(1 + i), value));
    if (i % 7 == 0) clock_.now += 1000;
  }
  // Read part of the stream, keep the position, reopen, resume.
  std::vector<std::string> got;
  std::string token;
  {
    ASSERT_OK_AND_ASSIGN(auto stream, db_->ReadChangeStream("t", StartAt(start_)));
    for (int i = 0; i < 120; ++i) {
      ASSERT_OK_AND_ASSIGN(std::optional<DataChange> change, stream->Next(kNoWait));
      ASSERT_TRUE(change.has_value());
      got.push_back(Text(*change));
    }
    token = stream->token();
  }
  Open();
  ChangeStreamRequest resume;
  resume.resume.push_back({RowRange::All(), token});
  for (const std::string& c : ReadFrom(resume)) got.push_back(c);
  EXPECT_EQ(got, written);
}

TEST_P(ChangeStreamTest, PartitionsSplitTheRowsAndEachReadsItsOwn) {
  CreateStreamedTable();
  std::vector<RowMutation> rows;
  for (int i = 0; i < 3000; ++i) {
    rows.push_back({fmt::format("k{:05}", i), {Mutation::SetCell("cf", "q", std::string(4000, 'v'), Ms(1))}});
  }
  ASSERT_OK(testing::WriteRows(db_.get(), "t", rows));
  ASSERT_OK_AND_ASSIGN(std::vector<RowRange> partitions, db_->ChangeStreamPartitions("t"));
  ASSERT_GE(partitions.size(), 2u) << "12 MB of rows make more than one partition";
  size_t total = 0;
  for (const RowRange& p : partitions) {
    ChangeStreamRequest request = StartAt(start_);
    request.partition = p;
    std::vector<std::string> changes = ReadFrom(request);
    EXPECT_FALSE(changes.empty());
    total += changes.size();
  }
  EXPECT_EQ(total, rows.size()) << "the partitions cover every row once";
}

TEST_P(ChangeStreamTest, EndTimeFinishesAndRetentionBoundsTheStart) {
  CreateStreamedTable();
  ASSERT_OK(db_->MutateRow("t", "a", {Mutation::SetCell("cf", "q", "1", Ms(1))}));
  const int64_t first = clock_.now;
  clock_.now += Ms(10'000);
  ASSERT_OK(db_->MutateRow("t", "b", {Mutation::SetCell("cf", "q", "2", Ms(1))}));
  ChangeStreamRequest request = StartAt(start_);
  request.end_micros = first;
  ASSERT_OK_AND_ASSIGN(auto stream, db_->ReadChangeStream("t", request));
  ASSERT_OK_AND_ASSIGN(std::optional<DataChange> change, stream->Next(kNoWait));
  ASSERT_TRUE(change.has_value());
  EXPECT_EQ(change->row_key, "a");
  ASSERT_OK_AND_ASSIGN(change, stream->Next(kNoWait));
  EXPECT_FALSE(change.has_value());
  EXPECT_TRUE(stream->finished()) << "the change after end_time ends the stream";
  // Its token resumes with the change after the end time, which it did not return.
  ChangeStreamRequest rest;
  rest.resume.push_back({RowRange::All(), stream->token()});
  EXPECT_EQ(ReadFrom(rest), (std::vector<std::string>{fmt::format("b: set cf:q@{}=2", Ms(1))}));
  stream.reset();

  // Before the stream was enabled nothing was recorded: a start there
  // starts at the enabling (production's bound is the retention).
  EXPECT_EQ(ReadFrom(StartAt(start_ - Ms(60'000))).size(), 2u);
  clock_.now += 2 * kMicrosPerDay;
  EXPECT_EQ(db_->ReadChangeStream("t", StartAt(start_)).status().code(), Status::Code::kInvalidArgument)
      << "outside the retention";
  Open();  // folds the log: pruning deletes what LMDB holds, where changes a day old always are
  ASSERT_OK_AND_ASSIGN(int64_t pruned, db_->PruneChangeLogs());
  EXPECT_EQ(pruned, 2);
  EXPECT_TRUE(ReadFrom(StartAt(clock_.now - kMicrosPerDay)).empty());
}

TEST_P(ChangeStreamTest, ConfigurationIsKeptAndTurningItOffDropsTheLog) {
  CreateStreamedTable();
  ASSERT_OK_AND_ASSIGN(TableSpec spec, db_->GetTable("t"));
  ASSERT_TRUE(spec.change_stream.has_value());
  EXPECT_EQ(spec.change_stream->retention_micros, kMicrosPerDay);
  EXPECT_EQ(spec.change_stream->enabled_micros, start_);
  EXPECT_TRUE(db_->SetChangeStream("t", ChangeStreamConfig{kMicrosPerDay - 1, 0}).IsInvalidArgument());
  EXPECT_TRUE(db_->SetChangeStream("t", ChangeStreamConfig{8 * kMicrosPerDay, 0}).IsInvalidArgument());
  ASSERT_OK(db_->MutateRow("t", "a", {Mutation::SetCell("cf", "q", "1", Ms(1))}));
  clock_.now += Ms(1);
  ASSERT_OK(db_->SetChangeStream("t", ChangeStreamConfig{3 * kMicrosPerDay, 0}));
  Open();
  ASSERT_OK_AND_ASSIGN(spec, db_->GetTable("t"));
  EXPECT_EQ(spec.change_stream->retention_micros, 3 * kMicrosPerDay);
  EXPECT_EQ(spec.change_stream->enabled_micros, start_) << "a change of retention keeps the stream";
  EXPECT_EQ(ReadAll().size(), 1u);
  ASSERT_OK(db_->SetChangeStream("t", std::nullopt));
  ASSERT_OK_AND_ASSIGN(spec, db_->GetTable("t"));
  EXPECT_FALSE(spec.change_stream.has_value());
  ASSERT_OK(db_->SetChangeStream("t", ChangeStreamConfig{kMicrosPerDay, 0}));
  EXPECT_TRUE(ReadFrom(StartAt(clock_.now)).empty()) << "the old log went with the stream";
}

TEST_P(ChangeStreamTest, TurningTheStreamOffAndOnEndsAReadThatSpansIt) {
  CreateStreamedTable();
  ASSERT_OK(db_->MutateRow("t", "a", {Mutation::SetCell("cf", "q", "1", Ms(1))}));
  ASSERT_OK_AND_ASSIGN(auto stream, db_->ReadChangeStream("t", StartAt(start_)));
  ASSERT_OK_AND_ASSIGN(std::optional<DataChange> change, stream->Next(kNoWait));
  ASSERT_TRUE(change.has_value());
  ASSERT_OK(db_->SetChangeStream("t", std::nullopt));
  ASSERT_OK(db_->MutateRow("t", "lost", {Mutation::SetCell("cf", "q", "2", Ms(1))}));
  clock_.now += Ms(1);
  ASSERT_OK(db_->SetChangeStream("t", ChangeStreamConfig{kMicrosPerDay, 0}));
  ASSERT_OK(db_->MutateRow("t", "b", {Mutation::SetCell("cf", "q", "3", Ms(1))}));
  const std::string before = stream->token();
  Result<std::optional<DataChange>> next = stream->Next(kNoWait);
  EXPECT_EQ(next.status().code(), Status::Code::kFailedPrecondition)
      << "a read that spans a gap in the stream ends rather than skip it";
  ChangeStreamRequest resume;
  resume.resume.push_back({RowRange::All(), before});
  EXPECT_TRUE(db_->ReadChangeStream("t", resume).status().IsInvalidArgument())
      << "nor does a token from before the gap resume across it";
}

TEST_P(ChangeStreamTest, ATokenBelongsToItsTable) {
  CreateStreamedTable();
  ASSERT_OK(db_->CreateTable("u", {FamilySpec{"cf", {}, ValueType::kBytes}}));
  ASSERT_OK(db_->SetChangeStream("u", ChangeStreamConfig{kMicrosPerDay, 0}));
  ASSERT_OK_AND_ASSIGN(auto stream, db_->ReadChangeStream("t", StartAt(start_)));
  ASSERT_OK(stream->Next(kNoWait).status());
  ChangeStreamRequest resume;
  resume.resume.push_back({RowRange::All(), stream->token()});
  EXPECT_OK(db_->ReadChangeStream("t", resume).status());
  EXPECT_TRUE(db_->ReadChangeStream("u", resume).status().IsInvalidArgument());
}

TEST_P(ChangeStreamTest, ReadsGiveBackTheirReaderSlots) {
  CreateStreamedTable();
  // Far more polls than LMDB has reader slots (1,024).
  ASSERT_OK_AND_ASSIGN(auto stream, db_->ReadChangeStream("t", StartAt(start_)));
  for (int i = 0; i < 3000; ++i) ASSERT_OK(stream->Next(kNoWait).status());
  ASSERT_OK(db_->MutateRow("t", "a", {Mutation::SetCell("cf", "q", "1", Ms(1))}));
  EXPECT_EQ(testing::ReadAll(db_.get(), "t").size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Writes, ChangeStreamTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Logged" : "Direct"; });

}  // namespace
}  // namespace lbt

namespace lbt {
namespace {

// A database of the release before the change log has no `changes` store:
// written here by dropping it from a new database. The format version
// stays: the store is an addition an older lbt reads past.
void DropChangesStore(const std::string& dir) {
  ASSERT_OK_AND_ASSIGN(auto env, LmdbEnv::Open(dir, LmdbOptions{}));
  ASSERT_OK_AND_ASSIGN(auto txn, Txn::Begin(env.get(), /*write=*/true));
  ASSERT_OK_AND_ASSIGN(MDB_dbi changes, txn->OpenDbi(kChangesDb, /*create=*/false));
  ASSERT_EQ(mdb_drop(txn->raw(), changes, 1), MDB_SUCCESS);
  ASSERT_OK(txn->Commit());
}

void MakeOlderDatabase(const std::string& dir) {
  {
    ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir));
    ASSERT_OK(db->CreateTable("t", {FamilySpec{"cf", {}, ValueType::kBytes}}));
    ASSERT_OK(db->MutateRow("t", "kept", {Mutation::SetCell("cf", "q", "v", Ms(1))}));
  }
  DropChangesStore(dir);
}

// The database opens whole, and its table can get a change stream that records.
void ExpectWholeAndStreamable(const std::string& dir) {
  ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir));
  EXPECT_EQ(testing::RowKeys(testing::ReadAll(db.get(), "t")), std::vector<std::string>{"kept"});
  ASSERT_OK(db->SetChangeStream("t", ChangeStreamConfig{kMicrosPerDay, 0}));
  ASSERT_OK(db->MutateRow("t", "new", {Mutation::SetCell("cf", "q", "v", Ms(1))}));
  ChangeStreamRequest request;
  request.start_micros = db->NowMicros() - Ms(60'000);
  ASSERT_OK_AND_ASSIGN(auto stream, db->ReadChangeStream("t", request));
  ASSERT_OK_AND_ASSIGN(std::optional<DataChange> change, stream->Next(kNoWait));
  ASSERT_TRUE(change.has_value());
  EXPECT_EQ(change->row_key, "new");
}

TEST(ChangeLogUpgradeTest, AnOlderDatabaseOpensReadOnlyAndGetsTheStoreWhenOpenedForWriting) {
  TempDir dir;
  MakeOlderDatabase(dir.path());
  {
    DatabaseOptions options;
    options.read_only = true;
    ASSERT_OK_AND_ASSIGN(auto db, Database::Open(dir.path(), options));
    EXPECT_EQ(testing::ReadAll(db.get(), "t").size(), 1u) << "read-only: no store, and nothing lost";
  }
  ExpectWholeAndStreamable(dir.path());
}

TEST(ChangeLogUpgradeTest, AKillWhileTheStoreIsCreatedLeavesADatabaseThatOpensWhole) {
  // Killed at random moments of the first writable open (the store is made
  // in one LMDB transaction: all or nothing).
  int64_t open_micros = 0;
  {
    TempDir dir;
    MakeOlderDatabase(dir.path());
    const auto start = std::chrono::steady_clock::now();
    ASSERT_OK(Database::Open(dir.path()).status());
    open_micros =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
  }
  std::mt19937 rng(29);
  for (int round = 0; round < 10; ++round) {
    const int micros = std::uniform_int_distribution<int>(0, static_cast<int>(open_micros))(rng);
    SCOPED_TRACE(fmt::format("killed after {} us", micros));
    TempDir dir;
    MakeOlderDatabase(dir.path());
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      (void)Database::Open(dir.path());
      ::_exit(0);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(micros));
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    ExpectWholeAndStreamable(dir.path());
  }
}

}  // namespace
}  // namespace lbt
