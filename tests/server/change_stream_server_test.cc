// Change streams through lbt serve's Data API (ReadChangeStream and
// GenerateInitialChangeStreamPartitions) and their configuration through
// the Table Admin API. The semantics are those of bigtable.proto's
// ReadChangeStream messages: partitions covering the key space, changes of
// a row in commit order, tokens in DataChange and Heartbeat messages that
// resume a partition exactly, a CloseStream once end_time has passed, and
// SetCell values chunked across messages. The emulator has no change
// streams to compare with.

#include <google/protobuf/util/time_util.h>
#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <map>

#include "proto/change_stream_convert.h"
#include "tests/server/server_fixture.h"

namespace lbt::testing {
namespace {

using google::protobuf::util::TimeUtil;
using grpc::StatusCode;

int64_t WallMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string Text(const std::vector<Mutation>& mutations) {
  std::string out;
  for (const Mutation& m : mutations) out += (out.empty() ? "" : " ") + testing::MutationText(m);
  return out;
}

// What one ReadChangeStream call returned.
struct StreamResult {
  grpc::Status status;
  std::vector<DataChange> changes;
  std::vector<std::string> tokens;  // of each change, then of each heartbeat
  int heartbeats = 0;
  int messages = 0;
  bool closed = false;
  std::vector<int64_t> watermarks;
};

class ChangeStreamServerTest : public ServerTest {
 protected:
  void SetUp() override {
    options_.log_writes = true;  // as lbt serve writes
    ServerTest::SetUp();
  }

  grpc::Status CreateStreamedTable(const std::string& table, int64_t retention_micros = kMicrosPerDay) {
    admin::CreateTableRequest request;
    request.set_parent(kInstance);
    request.set_table_id(table);
    (*request.mutable_table()->mutable_column_families())["cf"];
    (*request.mutable_table()->mutable_column_families())["other"];
    *request.mutable_table()->mutable_change_stream_config()->mutable_retention_period() =
        TimeUtil::MicrosecondsToDuration(retention_micros);
    admin::Table response;
    grpc::ClientContext context;
    return admin_->CreateTable(&context, request, &response);
  }

  std::vector<RowRange> Partitions(const std::string& table) {
    v2::GenerateInitialChangeStreamPartitionsRequest request;
    request.set_table_name(TableName(table));
    grpc::ClientContext context;
    auto reader = bigtable_->GenerateInitialChangeStreamPartitions(&context, request);
    std::vector<RowRange> out;
    v2::GenerateInitialChangeStreamPartitionsResponse response;
    while (reader->Read(&response)) {
      auto range = proto::FromProto(response.partition(), "partition");
      EXPECT_TRUE(range.ok());
      out.push_back(*range);
    }
    grpc::Status s = reader->Finish();
    EXPECT_TRUE(s.ok()) << s.error_message();
    return out;
  }

  // Reads until the stream ends, the deadline passes, or `stop_after`
  // changes came (0: no limit).
  StreamResult ReadStream(const v2::ReadChangeStreamRequest& request, std::chrono::milliseconds deadline,
                          size_t stop_after = 0) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + deadline);
    auto reader = bigtable_->ReadChangeStream(&context, request);
    StreamResult result;
    proto::ChangeAssembler assembler;
    v2::ReadChangeStreamResponse response;
    while (reader->Read(&response)) {
      ++result.messages;
      if (response.has_heartbeat()) {
        ++result.heartbeats;
        result.tokens.push_back(response.heartbeat().continuation_token().token());
        EXPECT_TRUE(response.heartbeat().continuation_token().has_partition());
        result.watermarks.push_back(TimeUtil::TimestampToMicroseconds(response.heartbeat().estimated_low_watermark()));
      } else if (response.has_close_stream()) {
        result.closed = true;
        EXPECT_EQ(response.close_stream().status().code(), 0);
        EXPECT_EQ(response.close_stream().continuation_tokens_size(), 0);
      } else {
        auto change = assembler.Add(response.data_change());
        EXPECT_TRUE(change.ok()) << change.status().ToString();
        if (change.ok() && change->has_value()) {
          result.changes.push_back(std::move(**change));
          result.tokens.push_back(response.data_change().token());
          result.watermarks.push_back(
              TimeUtil::TimestampToMicroseconds(response.data_change().estimated_low_watermark()));
          if (stop_after != 0 && result.changes.size() == stop_after) {
            context.TryCancel();
            break;
          }
        }
      }
    }
    result.status = reader->Finish();
    return result;
  }

  v2::ReadChangeStreamRequest Request(const std::string& table, const RowRange& partition) {
    v2::ReadChangeStreamRequest request;
    request.set_table_name(TableName(table));
    *request.mutable_partition() = proto::ToProto(partition);
    return request;
  }

  void Expect(const std::string& row, std::vector<Mutation> mutations) {
    expected_[row].push_back(Text(mutations));
    ++expected_total_;
  }

  // Checks that `changes` hold each expected change once, each row's in order.
  void CheckExactlyOnce(const std::vector<DataChange>& changes) {
    std::map<std::string, std::vector<std::string>> got;
    std::map<std::string, int64_t> last_commit;
    for (const DataChange& c : changes) {
      got[c.row_key].push_back(Text(c.mutations));
      EXPECT_GT(c.commit_micros, last_commit[c.row_key]) << "row " << c.row_key << ": commit order";
      last_commit[c.row_key] = c.commit_micros;
    }
    EXPECT_EQ(changes.size(), expected_total_);
    EXPECT_TRUE(got == expected_) << "the changes of some row differ";
    for (const auto& [row, list] : expected_) {
      if (got[row] != list) {
        ADD_FAILURE() << "row " << row << ": got " << got[row].size() << " changes, expected " << list.size();
        break;
      }
    }
  }

  std::map<std::string, std::vector<std::string>> expected_;
  size_t expected_total_ = 0;
};

TEST_F(ChangeStreamServerTest, AMixedWorkloadIsReadExactlyOnceAcrossPartitionsAndARestart) {
  ASSERT_TRUE(CreateStreamedTable("t").ok());
  const int64_t start = WallMicros();

  // An import first: 2,600 rows of 4 KB, enough data for several partitions.
  {
    ASSERT_OK_AND_ASSIGN(auto load, db_->NewBulkLoad("t", {}));
    for (int i = 0; i < 2600; ++i) {
      const std::string row = fmt::format("imp#{:05}", i);
      const std::vector<Mutation> cells = {Mutation::SetCell("cf", "a", std::string(4000, 'a' + i % 26), 1000)};
      ASSERT_OK(load->Add({row, cells}));
      Expect(row, cells);
    }
    ASSERT_OK(load->Finish(nullptr, nullptr));
  }
  ASSERT_TRUE(
      MutateRow("t", "r1", {Mutation::SetCell("cf", "a", "v1", 1000), Mutation::SetCell("other", "b", "v2", 2000)})
          .ok());
  Expect("r1", {Mutation::SetCell("cf", "a", "v1", 1000), Mutation::SetCell("other", "b", "v2", 2000)});
  ASSERT_TRUE(MutateRow("t", "r1", {Mutation::DeleteFromColumn("cf", "a", {0, 5000})}).ok());
  Expect("r1", {Mutation::DeleteFromColumn("cf", "a", {0, 5000})});
  ASSERT_TRUE(
      MutateRow("t", "r2", {Mutation::SetCell("cf", "a", "x", 1000), Mutation::DeleteFromFamily("other")}).ok());
  Expect("r2", {Mutation::SetCell("cf", "a", "x", 1000), Mutation::DeleteFromFamily("other")});
  ASSERT_TRUE(MutateRow("t", "r2", {Mutation::DeleteFromRow()}).ok());
  Expect("r2", {Mutation::DeleteFromFamily("cf"), Mutation::DeleteFromFamily("other")});
  {
    v2::MutateRowsRequest request;
    request.set_table_name(TableName("t"));
    for (const std::string row : {"r3", "r4"}) {
      auto* entry = request.add_entries();
      entry->set_row_key(row);
      *entry->add_mutations() = proto::ToProto(Mutation::SetCell("cf", "a", row, 3000));
      Expect(row, {Mutation::SetCell("cf", "a", row, 3000)});
    }
    grpc::ClientContext context;
    auto reader = bigtable_->MutateRows(&context, request);
    v2::MutateRowsResponse response;
    while (reader->Read(&response)) {
    }
    ASSERT_TRUE(reader->Finish().ok());
  }
  for (int i = 0; i < 2; ++i) {
    v2::ReadModifyWriteRowRequest request;
    request.set_table_name(TableName("t"));
    request.set_row_key("r5");
    auto* rule = request.add_rules();
    rule->set_family_name("cf");
    rule->set_column_qualifier(i == 0 ? "n" : "s");
    if (i == 0) {
      rule->set_increment_amount(5);
    } else {
      rule->set_append_value("ab");
    }
    v2::ReadModifyWriteRowResponse response;
    grpc::ClientContext context;
    ASSERT_TRUE(bigtable_->ReadModifyWriteRow(&context, request, &response).ok());
    const auto& cell = response.row().families(0).columns(0).cells(0);
    Expect("r5", {Mutation::SetCell("cf", i == 0 ? "n" : "s", cell.value(), cell.timestamp_micros())});
  }
  {
    v2::CheckAndMutateRowRequest request;
    request.set_table_name(TableName("t"));
    request.set_row_key("r1");
    *request.add_true_mutations() = proto::ToProto(Mutation::SetCell("cf", "c", "yes", 3000));
    *request.add_false_mutations() = proto::ToProto(Mutation::SetCell("cf", "c", "no", 3000));
    v2::CheckAndMutateRowResponse response;
    grpc::ClientContext context;
    ASSERT_TRUE(bigtable_->CheckAndMutateRow(&context, request, &response).ok());
    ASSERT_TRUE(response.predicate_matched());
    Expect("r1", {Mutation::SetCell("cf", "c", "yes", 3000)});
  }
  {
    admin::DropRowRangeRequest request;
    request.set_name(TableName("t"));
    request.set_row_key_prefix("r3");
    google::protobuf::Empty response;
    grpc::ClientContext context;
    ASSERT_TRUE(admin_->DropRowRange(&context, request, &response).ok());
    Expect("r3", {Mutation::DeleteFromFamily("cf"), Mutation::DeleteFromFamily("other")});
  }
  const std::string big(3 << 20, 'z');  // over one message's worth: chunked
  ASSERT_TRUE(MutateRow("t", "zbig", {Mutation::SetCell("cf", "a", big, 4000)}).ok());
  Expect("zbig", {Mutation::SetCell("cf", "a", big, 4000)});
  const int64_t end = WallMicros();

  // Every partition, from the start to the end: each change once.
  std::vector<RowRange> partitions = Partitions("t");
  ASSERT_GE(partitions.size(), 2u);
  std::vector<DataChange> all;
  for (const RowRange& p : partitions) {
    v2::ReadChangeStreamRequest request = Request("t", p);
    *request.mutable_start_time() = TimeUtil::MicrosecondsToTimestamp(start);
    *request.mutable_end_time() = TimeUtil::MicrosecondsToTimestamp(end);
    StreamResult r = ReadStream(request, std::chrono::seconds(30));
    ASSERT_TRUE(r.status.ok()) << r.status.error_message();
    EXPECT_TRUE(r.closed) << "a stream past its end time closes with OK";
    for (DataChange& c : r.changes) {
      EXPECT_TRUE(p.Contains(c.row_key));
      EXPECT_EQ(c.type, DataChange::Type::kUser);
      all.push_back(std::move(c));
    }
  }
  CheckExactlyOnce(all);

  // Half of the last partition, a restart, more writes, then the rest
  // from the last token: nothing lost, nothing twice.
  const RowRange last = partitions.back();
  v2::ReadChangeStreamRequest first = Request("t", last);
  *first.mutable_start_time() = TimeUtil::MicrosecondsToTimestamp(start);
  StreamResult part = ReadStream(first, std::chrono::seconds(30), 3);
  ASSERT_EQ(part.changes.size(), 3u);
  Restart();
  ASSERT_TRUE(MutateRow("t", "zz-after", {Mutation::SetCell("cf", "a", "late", 5000)}).ok());
  v2::ReadChangeStreamRequest rest = Request("t", last);
  auto* token = rest.mutable_continuation_tokens()->add_tokens();
  *token->mutable_partition() = proto::ToProto(last);
  token->set_token(part.tokens.back());
  *rest.mutable_end_time() = TimeUtil::MicrosecondsToTimestamp(WallMicros());
  StreamResult after = ReadStream(rest, std::chrono::seconds(30));
  ASSERT_TRUE(after.status.ok()) << after.status.error_message();
  std::vector<std::string> got, want;
  for (const DataChange& c : part.changes) got.push_back(c.row_key + ": " + Text(c.mutations));
  for (const DataChange& c : after.changes) got.push_back(c.row_key + ": " + Text(c.mutations));
  for (const DataChange& c : all) {
    if (last.Contains(c.row_key)) want.push_back(c.row_key + ": " + Text(c.mutations));
  }
  want.push_back("zz-after: " + Text({Mutation::SetCell("cf", "a", "late", 5000)}));
  EXPECT_EQ(got, want);
}

TEST_F(ChangeStreamServerTest, AnIdleStreamSendsHeartbeatsWithTokensThatResume) {
  ASSERT_TRUE(CreateStreamedTable("t").ok());
  v2::ReadChangeStreamRequest request = Request("t", RowRange::All());
  *request.mutable_heartbeat_duration() = TimeUtil::MillisecondsToDuration(100);
  StreamResult idle = ReadStream(request, std::chrono::milliseconds(1200));
  EXPECT_EQ(idle.status.error_code(), StatusCode::DEADLINE_EXCEEDED);
  EXPECT_GE(idle.heartbeats, 4);
  EXPECT_TRUE(idle.changes.empty());
  for (size_t i = 1; i < idle.watermarks.size(); ++i) EXPECT_GE(idle.watermarks[i], idle.watermarks[i - 1]);
  EXPECT_GT(idle.watermarks.back(), WallMicros() - 1'000'000) << "an idle stream's watermark follows the clock";

  // A write after the last heartbeat is the first thing its token reads.
  ASSERT_TRUE(MutateRow("t", "k", {Mutation::SetCell("cf", "a", "1", 1000)}).ok());
  v2::ReadChangeStreamRequest resume = Request("t", RowRange::All());
  auto* token = resume.mutable_continuation_tokens()->add_tokens();
  *token->mutable_partition() = proto::ToProto(RowRange::All());
  token->set_token(idle.tokens.back());
  StreamResult next = ReadStream(resume, std::chrono::seconds(10), 1);
  ASSERT_EQ(next.changes.size(), 1u);
  EXPECT_EQ(next.changes[0].row_key, "k");
  EXPECT_EQ(next.changes[0].mutations.size(), 1u);
}

// A token names a position the stream reached. One forged past it, as a
// start time in the future, is INVALID_ARGUMENT: resumed there, the stream
// would skip every change committed before the clock caught up.
TEST_F(ChangeStreamServerTest, ATokenPastTheStreamIsRefused) {
  ASSERT_TRUE(CreateStreamedTable("t").ok());
  ASSERT_OK_AND_ASSIGN(TableSpec spec, db_->GetTable("t"));
  auto resume_at = [&](int64_t position) {
    v2::ReadChangeStreamRequest request = Request("t", RowRange::All());
    auto* token = request.mutable_continuation_tokens()->add_tokens();
    *token->mutable_partition() = proto::ToProto(RowRange::All());
    token->set_token(EncodeChangeStreamToken({spec.id, position}));
    return request;
  };
  StreamResult forged = ReadStream(resume_at(WallMicros() + 3'600'000'000), std::chrono::seconds(5));
  EXPECT_EQ(forged.status.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(forged.status.error_message().find("continuation_tokens: "), std::string::npos)
      << forged.status.error_message();
  EXPECT_NE(forged.status.error_message().find("past the end of the change stream of table 't'"), std::string::npos)
      << forged.status.error_message();
  EXPECT_EQ(forged.messages, 0);
  StreamResult last = ReadStream(resume_at(std::numeric_limits<int64_t>::max()), std::chrono::seconds(5));
  EXPECT_EQ(last.status.error_code(), StatusCode::INVALID_ARGUMENT) << last.status.error_message();

  // A position the stream has reached resumes: the write after it comes.
  // (Commit times start at the clock's millisecond.)
  const int64_t reached = WallMicros() / 1000 * 1000 - 1;
  ASSERT_TRUE(MutateRow("t", "k", {Mutation::SetCell("cf", "a", "1", 1000)}).ok());
  StreamResult resumed = ReadStream(resume_at(reached), std::chrono::seconds(10), 1);
  ASSERT_EQ(resumed.changes.size(), 1u) << resumed.status.error_message();
  EXPECT_EQ(resumed.changes[0].row_key, "k");
}

// heartbeat_duration is any valid Duration, however long; heartbeats never
// come faster than it asks (1.4e10 s once overflowed the clock and sent
// one every poll).
TEST_F(ChangeStreamServerTest, AHugeHeartbeatIntervalSendsNoHeartbeats) {
  ASSERT_TRUE(CreateStreamedTable("t").ok());
  v2::ReadChangeStreamRequest request = Request("t", RowRange::All());
  request.mutable_heartbeat_duration()->set_seconds(14'000'000'000);
  StreamResult idle = ReadStream(request, std::chrono::milliseconds(800));
  EXPECT_EQ(idle.status.error_code(), StatusCode::DEADLINE_EXCEEDED) << idle.status.error_message();
  EXPECT_EQ(idle.heartbeats, 0);

  // Past protobuf's Duration range, or not positive: the field is named.
  for (int64_t seconds : {int64_t{INT64_MAX}, int64_t{0}, int64_t{-5}}) {
    request.mutable_heartbeat_duration()->set_seconds(seconds);
    grpc::Status s = ReadStream(request, std::chrono::seconds(5)).status;
    EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT) << seconds;
    EXPECT_NE(s.error_message().find("heartbeat_duration"), std::string::npos) << s.error_message();
  }
  request.clear_heartbeat_duration();
  request.mutable_start_time()->set_seconds(INT64_MAX);
  grpc::Status s = ReadStream(request, std::chrono::seconds(5)).status;
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("start_time"), std::string::npos) << s.error_message();
}

// The threads of this process.
int ThreadCount() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  }
  return -1;
}

// An open change stream.
struct OpenStream {
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReader<v2::ReadChangeStreamResponse>> reader;
};

// Opens `count` streams of `request` at once, then returns those whose
// first response (a heartbeat: idle) came, and the statuses of the others.
std::vector<std::unique_ptr<OpenStream>> OpenStreams(v2::Bigtable::Stub* stub,
                                                     const v2::ReadChangeStreamRequest& request, int count,
                                                     std::vector<grpc::Status>* refused) {
  std::vector<std::unique_ptr<OpenStream>> started;
  for (int i = 0; i < count; ++i) {
    auto stream = std::make_unique<OpenStream>();
    stream->reader = stub->ReadChangeStream(&stream->context, request);
    started.push_back(std::move(stream));
  }
  std::vector<std::unique_ptr<OpenStream>> open;
  for (auto& stream : started) {
    v2::ReadChangeStreamResponse first;
    if (stream->reader->Read(&first)) {
      open.push_back(std::move(stream));
    } else {
      refused->push_back(stream->reader->Finish());
    }
  }
  return open;
}

void CancelAll(std::vector<std::unique_ptr<OpenStream>>* open) {
  for (auto& stream : *open) stream->context.TryCancel();
  for (auto& stream : *open) stream->reader->Finish();
  open->clear();
}

class BoundedChangeStreamTest : public ChangeStreamServerTest {
 protected:
  void SetUp() override {
    stream_bounds_.change_streams = 64;
    ChangeStreamServerTest::SetUp();
  }
};

// GetTable's status: an admin call, answered while streams stay open.
grpc::Status GetTableThrough(admin::BigtableTableAdmin::Stub* stub, const std::string& table) {
  admin::GetTableRequest get;
  get.set_name(TableName(table));
  admin::Table got;
  grpc::ClientContext context;
  return stub->GetTable(&context, get, &got);
}

// Streams past their bound are refused at once, naming the bound, and the
// other calls go on; a place comes free when a stream ends.
TEST_F(BoundedChangeStreamTest, StreamsPastTheirBoundAreRefusedAndOtherCallsGoOn) {
  ASSERT_TRUE(CreateStreamedTable("t").ok());
  v2::ReadChangeStreamRequest request = Request("t", RowRange::All());
  *request.mutable_heartbeat_duration() = TimeUtil::MillisecondsToDuration(20);
  std::vector<grpc::Status> refused;
  std::vector<std::unique_ptr<OpenStream>> open = OpenStreams(bigtable_.get(), request, 64 + 8, &refused);
  EXPECT_EQ(open.size(), 64u);
  ASSERT_EQ(refused.size(), 8u);
  EXPECT_EQ(refused.front().error_code(), StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(refused.front().error_message().find("at most 64 change streams"), std::string::npos)
      << refused.front().error_message();

  grpc::Status write = MutateRow("t", "k", {Mutation::SetCell("cf", "a", "1", 1000)});
  EXPECT_TRUE(write.ok()) << write.error_message();
  grpc::Status got = GetTableThrough(admin_.get(), "t");
  EXPECT_TRUE(got.ok()) << got.error_message();

  CancelAll(&open);
  // Their places come free as the server sees them cancelled.
  bool reopened = false;
  for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
       !reopened && std::chrono::steady_clock::now() < deadline;) {
    OpenStream again;
    again.reader = bigtable_->ReadChangeStream(&again.context, request);
    v2::ReadChangeStreamResponse first;
    reopened = again.reader->Read(&first);
    again.context.TryCancel();
    again.reader->Finish();
  }
  EXPECT_TRUE(reopened);
}

// An idle stream holds no thread. On gRPC's synchronous server each held
// one, and 520 idle streams left none to other calls: MutateRow and
// GetTable failed RESOURCE_EXHAUSTED. 2,000 idle streams now leave the
// process's threads where they were, and writes, reads and admin calls
// are served while they stay open; each stream then sees the write.
TEST_F(ChangeStreamServerTest, ThousandsOfIdleStreamsHoldNoThreadAndOtherCallsGoOn) {
  ASSERT_TRUE(CreateStreamedTable("t").ok());
  v2::ReadChangeStreamRequest request = Request("t", RowRange::All());
  *request.mutable_heartbeat_duration() = TimeUtil::MillisecondsToDuration(50);
  const int threads_before = ThreadCount();
  std::vector<grpc::Status> refused;
  std::vector<std::unique_ptr<OpenStream>> open = OpenStreams(bigtable_.get(), request, 2000, &refused);
  ASSERT_EQ(open.size(), 2000u) << (refused.empty() ? "" : refused.front().error_message());
  // The client's own threads (gRPC's in-process transport) may grow a
  // little; a thread per stream would add 2,000.
  EXPECT_LT(ThreadCount(), threads_before + 100);

  for (int i = 0; i < 20; ++i) {
    grpc::Status write = MutateRow("t", "k" + std::to_string(i), {Mutation::SetCell("cf", "a", "1", 1000)});
    ASSERT_TRUE(write.ok()) << write.error_message();
  }
  grpc::Status got = GetTableThrough(admin_.get(), "t");
  EXPECT_TRUE(got.ok()) << got.error_message();
  // Every stream delivers the first write, after its heartbeats.
  int delivered = 0;
  for (auto& stream : open) {
    for (v2::ReadChangeStreamResponse response; stream->reader->Read(&response);) {
      if (response.has_data_change()) {
        ++delivered;
        break;
      }
    }
  }
  EXPECT_EQ(delivered, 2000);
  CancelAll(&open);
}

TEST_F(ChangeStreamServerTest, ConfigurationAndBadRequestsAnswerWithTheirField) {
  ASSERT_TRUE(CreateStreamedTable("t", 2 * kMicrosPerDay).ok());
  {
    admin::GetTableRequest request;
    request.set_name(TableName("t"));
    request.set_view(admin::Table::SCHEMA_VIEW);
    admin::Table table;
    grpc::ClientContext context;
    ASSERT_TRUE(admin_->GetTable(&context, request, &table).ok());
    EXPECT_EQ(TimeUtil::DurationToMicroseconds(table.change_stream_config().retention_period()), 2 * kMicrosPerDay);
  }
  grpc::Status s = CreateStreamedTable("short", kMicrosPerDay / 2);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("change_stream_config.retention_period"), std::string::npos) << s.error_message();

  auto update = [&](bool with_config, int64_t retention) {
    admin::UpdateTableRequest request;
    request.mutable_table()->set_name(TableName("t"));
    if (with_config) {
      *request.mutable_table()->mutable_change_stream_config()->mutable_retention_period() =
          TimeUtil::MicrosecondsToDuration(retention);
    }
    request.mutable_update_mask()->add_paths("change_stream_config");
    google::longrunning::Operation operation;
    grpc::ClientContext context;
    return admin_->UpdateTable(&context, request, &operation);
  };
  EXPECT_EQ(update(true, 9 * kMicrosPerDay).error_code(), StatusCode::INVALID_ARGUMENT);
  ASSERT_TRUE(update(true, 3 * kMicrosPerDay).ok());
  ASSERT_OK_AND_ASSIGN(TableSpec spec, db_->GetTable("t"));
  EXPECT_EQ(spec.change_stream->retention_micros, 3 * kMicrosPerDay);

  auto read_error = [&](v2::ReadChangeStreamRequest request) {
    return ReadStream(request, std::chrono::seconds(5)).status;
  };
  v2::ReadChangeStreamRequest bad_token = Request("t", RowRange::All());
  auto* token = bad_token.mutable_continuation_tokens()->add_tokens();
  *token->mutable_partition() = proto::ToProto(RowRange::All());
  token->set_token("garbage");
  s = read_error(bad_token);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("continuation_tokens.tokens[0].token"), std::string::npos) << s.error_message();

  v2::ReadChangeStreamRequest other_partition = bad_token;
  auto* t0 = other_partition.mutable_continuation_tokens()->mutable_tokens(0);
  ASSERT_OK_AND_ASSIGN(TableSpec t_spec, db_->GetTable("t"));
  const std::string t_token = EncodeChangeStreamToken({t_spec.id, WallMicros()});
  t0->set_token(t_token);
  *t0->mutable_partition() = proto::ToProto(RowRange::ClosedOpen("a", "m"));
  EXPECT_EQ(read_error(other_partition).error_code(), StatusCode::INVALID_ARGUMENT)
      << "a token's partition must be the request's";

  ASSERT_TRUE(CreateStreamedTable("t2").ok());
  v2::ReadChangeStreamRequest other_table = Request("t2", RowRange::All());
  auto* foreign = other_table.mutable_continuation_tokens()->add_tokens();
  *foreign->mutable_partition() = proto::ToProto(RowRange::All());
  foreign->set_token(t_token);
  s = read_error(other_table);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT) << "a token of another table's stream";
  EXPECT_NE(s.error_message().find("not a position in the change stream of table 't2'"), std::string::npos)
      << s.error_message();

  v2::ReadChangeStreamRequest too_early = Request("t", RowRange::All());
  *too_early.mutable_start_time() =
      TimeUtil::MicrosecondsToTimestamp(WallMicros() - 4 * kMicrosPerDay);  // retention: 3 days
  EXPECT_EQ(read_error(too_early).error_code(), StatusCode::INVALID_ARGUMENT);

  ASSERT_TRUE(update(false, 0).ok());
  EXPECT_EQ(read_error(Request("t", RowRange::All())).error_code(), StatusCode::FAILED_PRECONDITION)
      << "the stream is off";
  v2::ReadChangeStreamRequest no_partition = Request("t", RowRange::All());
  no_partition.clear_partition();
  EXPECT_EQ(read_error(no_partition).error_code(), StatusCode::INVALID_ARGUMENT);
}

}  // namespace
}  // namespace lbt::testing
