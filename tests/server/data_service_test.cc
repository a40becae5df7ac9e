// The Data API through gRPC: reads, writes, and production's answers to bad
// requests, each of which must leave the database as it was.

#include <google/protobuf/stubs/strutil.h>

#include <thread>

#include "google/bigtable/v2/feature_flags.pb.h"

#include "tests/server/server_fixture.h"

namespace lbt::testing {
namespace {

using grpc::StatusCode;

class DataServiceTest : public ServerTest {
 protected:
  void SetUp() override {
    ServerTest::SetUp();
    CreateTable("t", {"cf", "other"});
    for (const char* key : {"a", "b", "c", "d"}) {
      ASSERT_TRUE(MutateRow("t", key, {Mutation::SetCell("cf", "q", std::string("v") + key, Ms(1))}).ok());
    }
  }

  // Asserts the call fails with `code` and a message naming `field`, and
  // that the database did not change.
  template <typename Call>
  void ExpectRefused(Call call, StatusCode code, const std::string& field) {
    const std::string before = Dump();
    grpc::Status s = call();
    EXPECT_EQ(s.error_code(), code) << s.error_message();
    EXPECT_NE(s.error_message().find(field), std::string::npos) << s.error_message();
    EXPECT_EQ(Dump(), before);
  }

  static v2::ReadRowsRequest Range(v2::RowRange range) {
    v2::ReadRowsRequest r;
    *r.mutable_rows()->add_row_ranges() = std::move(range);
    return r;
  }
};

TEST_F(DataServiceTest, ReadsEveryBoundKind) {
  v2::RowRange r;
  r.set_start_key_open("a");
  r.set_end_key_closed("c");
  EXPECT_EQ(RowKeys(Read(Range(r)).rows), (std::vector<std::string>{"b", "c"}));
  r.set_start_key_closed("a");
  r.set_end_key_open("c");
  EXPECT_EQ(RowKeys(Read(Range(r)).rows), (std::vector<std::string>{"a", "b"}));
  v2::ReadRowsRequest keys;
  keys.mutable_rows()->add_row_keys("d");
  keys.mutable_rows()->add_row_keys("b");
  EXPECT_EQ(RowKeys(Read(keys).rows), (std::vector<std::string>{"b", "d"}));
}

TEST_F(DataServiceTest, ReadsReversedWithALimit) {
  v2::ReadRowsRequest r;
  r.set_reversed(true);
  r.set_rows_limit(3);
  EXPECT_EQ(RowKeys(Read(r).rows), (std::vector<std::string>{"d", "c", "b"}));
}

TEST_F(DataServiceTest, AppliesFilters) {
  v2::ReadRowsRequest r;
  auto* chain = r.mutable_filter()->mutable_chain();
  chain->add_filters()->set_row_key_regex_filter("[bc]");
  chain->add_filters()->set_strip_value_transformer(true);
  ReadResult result = Read(r);
  ASSERT_EQ(RowKeys(result.rows), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(result.rows[0].cells[0].value, "");
}

TEST_F(DataServiceTest, FullStatsRideOnTheLastResponse) {
  v2::ReadRowsRequest r;
  r.set_request_stats_view(v2::ReadRowsRequest::REQUEST_STATS_FULL);
  r.mutable_filter()->set_value_regex_filter("va");
  ReadResult result = Read(r);
  const auto& stats = result.stats.full_read_stats_view().read_iteration_stats();
  EXPECT_EQ(stats.rows_seen_count(), 4);
  EXPECT_EQ(stats.rows_returned_count(), 1);
  EXPECT_EQ(stats.cells_returned_count(), 1);
}

// A client that announces last_scanned_row_responses learns how far a read
// looked past its last row, so a retry need not scan those rows again.
TEST_F(DataServiceTest, ReportsTheLastScannedRowWhenTheClientAsks) {
  v2::ReadRowsRequest r;
  r.set_table_name(TableName("t"));
  r.mutable_filter()->set_value_regex_filter("v[ab]");
  for (bool announce : {false, true}) {
    grpc::ClientContext context;
    if (announce) {
      v2::FeatureFlags flags;
      flags.set_last_scanned_row_responses(true);
      std::string encoded;
      google::protobuf::WebSafeBase64Escape(flags.SerializeAsString(), &encoded);
      context.AddMetadata("bigtable-features", encoded);
    }
    auto stream = bigtable_->ReadRows(&context, r);
    std::string last_scanned;
    v2::ReadRowsResponse response;
    while (stream->Read(&response)) {
      if (!response.last_scanned_row_key().empty()) last_scanned = response.last_scanned_row_key();
    }
    ASSERT_TRUE(stream->Finish().ok());
    EXPECT_EQ(last_scanned, announce ? "d" : "");
  }
}

TEST_F(DataServiceTest, ALargeValueArrivesInPiecesAndWhole) {
  std::string big(5 << 20, 'x');
  for (size_t i = 0; i < big.size(); i += 4096) big[i] = static_cast<char>(i / 4096);
  ASSERT_TRUE(
      MutateRow("t", "big", {Mutation::SetCell("cf", "q", big, Ms(2)), Mutation::SetCell("cf", "r", "small", Ms(2))})
          .ok());
  v2::ReadRowsRequest r;
  r.mutable_rows()->add_row_keys("big");
  ReadResult result = Read(r);
  ASSERT_TRUE(result.status.ok()) << result.status.error_message();
  ASSERT_EQ(result.rows.size(), 1u);
  ASSERT_EQ(result.rows[0].cells.size(), 2u);
  EXPECT_EQ(result.rows[0].cells[0].value, big);
  EXPECT_EQ(result.rows[0].cells[1].value, "small");
  EXPECT_GE(result.chunks, 6) << "a value is split into chunks of about 1 MiB";
}

TEST_F(DataServiceTest, MutateRowsReportsEachEntry) {
  v2::MutateRowsRequest request;
  request.set_table_name(TableName("t"));
  auto add = [&](const std::string& key, const std::string& family) {
    auto* e = request.add_entries();
    e->set_row_key(key);
    *e->add_mutations() = proto::ToProto(Mutation::SetCell(family, "q", "new", Ms(5)));
  };
  add("x", "cf");
  add("y", "nope");
  add("", "cf");
  add("z", "cf");
  const EntriesResult result = MutateRowsEntries(request);
  ASSERT_TRUE(result.status.ok());
  EXPECT_EQ(result.codes, (std::vector<int>{0, StatusCode::NOT_FOUND, StatusCode::INVALID_ARGUMENT, 0}));
  EXPECT_EQ(RowKeys(ReadAll(db_.get(), "t")), (std::vector<std::string>{"a", "b", "c", "d", "x", "z"}));
}

// MutateRows is served from its request's bytes (parsed onto an arena):
// bytes that are no MutateRowsRequest are refused, naming the request, and
// write nothing.
TEST_F(DataServiceTest, MutateRowsRefusesBytesThatAreNoRequest) {
  ExpectRefused(
      [&] {
        const std::string garbage("\x0a\xff\xff\xff\xff\x0f", 6);  // a length past the end
        grpc::Slice slice(garbage);
        grpc::ByteBuffer request(&slice, 1);
        grpc::ClientContext context;
        const grpc::internal::RpcMethod method("/google.bigtable.v2.Bigtable/MutateRows",
                                               grpc::internal::RpcMethod::SERVER_STREAMING);
        std::unique_ptr<grpc::ClientReader<grpc::ByteBuffer>> reader(
            grpc::internal::ClientReaderFactory<grpc::ByteBuffer>::Create(channel_.get(), method, &context, request));
        grpc::ByteBuffer response;
        while (reader->Read(&response)) {
        }
        return reader->Finish();
      },
      StatusCode::INVALID_ARGUMENT, "MutateRowsRequest");
}

TEST_F(DataServiceTest, CheckAndMutateTakesTheBranchThePredicateChooses) {
  v2::CheckAndMutateRowRequest request;
  request.set_table_name(TableName("t"));
  request.set_row_key("a");
  request.mutable_predicate_filter()->set_value_regex_filter("va");
  *request.add_true_mutations() = proto::ToProto(Mutation::SetCell("cf", "hit", "1", Ms(3)));
  *request.add_false_mutations() = proto::ToProto(Mutation::SetCell("cf", "miss", "1", Ms(3)));
  v2::CheckAndMutateRowResponse response;
  grpc::ClientContext context;
  ASSERT_TRUE(bigtable_->CheckAndMutateRow(&context, request, &response).ok());
  EXPECT_TRUE(response.predicate_matched());
  auto row = db_->ReadRow("t", "a");
  ASSERT_TRUE(row.ok() && row->has_value());
  EXPECT_EQ((*row)->cells[0].qualifier, "hit");
}

TEST_F(DataServiceTest, ReadModifyWriteReturnsTheNewCells) {
  v2::ReadModifyWriteRowRequest request;
  request.set_table_name(TableName("t"));
  request.set_row_key("counter");
  *request.add_rules() = proto::ToProto(ReadModifyWriteRule::Increment("cf", "n", 5));
  *request.add_rules() = proto::ToProto(ReadModifyWriteRule::Append("cf", "s", "ab"));
  for (int i = 0; i < 2; ++i) {
    v2::ReadModifyWriteRowResponse response;
    grpc::ClientContext context;
    ASSERT_TRUE(bigtable_->ReadModifyWriteRow(&context, request, &response).ok());
    ASSERT_EQ(response.row().families(0).columns_size(), 2);
    EXPECT_EQ(response.row().families(0).columns(0).cells(0).value(), EncodeInt64(5 * (i + 1)));
    EXPECT_EQ(response.row().families(0).columns(1).cells(0).value(), i == 0 ? "ab" : "abab");
  }
}

TEST_F(DataServiceTest, SampleRowKeysEndsWithTheTotal) {
  std::string value(100 << 10, 'v');
  for (int i = 0; i < 200; ++i) {
    ASSERT_TRUE(MutateRow("t", fmt::format("k{:04}", i), {Mutation::SetCell("cf", "q", value, Ms(1))}).ok());
  }
  v2::SampleRowKeysRequest request;
  request.set_table_name(TableName("t"));
  grpc::ClientContext context;
  auto stream = bigtable_->SampleRowKeys(&context, request);
  std::vector<v2::SampleRowKeysResponse> samples;
  v2::SampleRowKeysResponse response;
  while (stream->Read(&response)) samples.push_back(response);
  ASSERT_TRUE(stream->Finish().ok());
  ASSERT_GE(samples.size(), 4u) << "20 MiB of data sampled about every 4 MiB";
  for (size_t i = 1; i < samples.size(); ++i) EXPECT_GT(samples[i].offset_bytes(), samples[i - 1].offset_bytes());
  EXPECT_EQ(samples.back().row_key(), "");
  EXPECT_GE(samples.back().offset_bytes(), 200 * (100 << 10));

  // A row range limits the samples to it, offsets counted from its start.
  request.mutable_row_range()->set_start_key_closed("k0100");
  request.mutable_row_range()->set_end_key_open("k0150");
  grpc::ClientContext ranged_context;
  auto ranged = bigtable_->SampleRowKeys(&ranged_context, request);
  std::vector<v2::SampleRowKeysResponse> in_range;
  while (ranged->Read(&response)) in_range.push_back(response);
  ASSERT_TRUE(ranged->Finish().ok());
  ASSERT_GE(in_range.size(), 2u);
  for (size_t i = 0; i + 1 < in_range.size(); ++i) {
    EXPECT_GE(in_range[i].row_key(), "k0100");
    EXPECT_LT(in_range[i].row_key(), "k0150");
  }
  EXPECT_GE(in_range.back().offset_bytes(), 50 * (100 << 10));
  EXPECT_LT(in_range.back().offset_bytes(), 60 * (100 << 10));
}

TEST_F(DataServiceTest, BadWritesAreRefusedAsProductionRefusesThem) {
  auto write = [&](std::string key, Mutation m) { return [=, this] { return MutateRow("t", key, {m}); }; };
  ExpectRefused(write("", Mutation::SetCell("cf", "q", "v", Ms(1))), StatusCode::INVALID_ARGUMENT, "row_key");
  ExpectRefused(write(std::string(4097, 'k'), Mutation::SetCell("cf", "q", "v", Ms(1))), StatusCode::INVALID_ARGUMENT,
                "4096");
  ExpectRefused(write("a", Mutation::SetCell("cf", std::string(16 * 1024 + 1, 'q'), "v", Ms(1))),
                StatusCode::INVALID_ARGUMENT, "qualifier");
  ExpectRefused(write("a", Mutation::SetCell("cf", "q", "v", 1234)), StatusCode::INVALID_ARGUMENT, "MILLIS");
  ExpectRefused(write("a", Mutation::SetCell("nope", "q", "v", Ms(1))), StatusCode::NOT_FOUND, "nope");
  ExpectRefused([&] { return MutateRow("missing", "a", {Mutation::SetCell("cf", "q", "v", Ms(1))}); },
                StatusCode::NOT_FOUND, "missing");
  ExpectRefused([&] { return MutateRow("t", "a", std::vector<Mutation>(100001, Mutation::DeleteFromRow())); },
                StatusCode::INVALID_ARGUMENT, "100000");
  ExpectRefused([&] { return MutateRow("t", "a", {}); }, StatusCode::INVALID_ARGUMENT, "mutations");
}

// Java's client (2.82 on) stamps a SetCell without a timestamp with the
// microsecond clock and CLIENT_AUTO_GENERATED: production cuts such a
// timestamp to the table's milliseconds (data.proto), and still refuses one
// the user gave, or one of no stated origin, that does not fit them.
TEST_F(DataServiceTest, ClientGeneratedTimestampsAreCutToMilliseconds) {
  auto write = [&](int64_t micros, v2::Mutation::TimestampOrigin origin) {
    v2::MutateRowRequest request;
    request.set_table_name(TableName("t"));
    request.set_row_key("stamped");
    v2::Mutation* m = request.add_mutations();
    *m = proto::ToProto(Mutation::SetCell("cf", "q", "v" + std::to_string(micros), micros));
    m->set_timestamp_origin(origin);
    v2::MutateRowResponse response;
    grpc::ClientContext context;
    return bigtable_->MutateRow(&context, request, &response);
  };
  const int64_t stamped = 1795694220123456;
  grpc::Status s = write(stamped, v2::Mutation::CLIENT_AUTO_GENERATED);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v2::ReadRowsRequest read;
  read.mutable_rows()->add_row_keys("stamped");
  ReadResult result = Read(read);
  ASSERT_EQ(result.rows.size(), 1u);
  ASSERT_EQ(result.rows[0].cells.size(), 1u);
  EXPECT_EQ(result.rows[0].cells[0].timestamp, 1795694220123000);
  EXPECT_EQ(result.rows[0].cells[0].value, "v1795694220123456");
  // The server's time stays the server's time.
  EXPECT_TRUE(write(kServerTime, v2::Mutation::CLIENT_AUTO_GENERATED).ok());

  for (auto origin : {v2::Mutation::USER_SPECIFIED, v2::Mutation::TIMESTAMP_ORIGIN_UNSPECIFIED}) {
    ExpectRefused([&] { return write(stamped, origin); }, StatusCode::INVALID_ARGUMENT, "MILLIS");
  }
  ExpectRefused([&] { return write(-5, v2::Mutation::CLIENT_AUTO_GENERATED); }, StatusCode::INVALID_ARGUMENT,
                "timestamp_micros");
}

// A table created with MICROS granularity keeps any microsecond: the
// user's, and the client library's uncut (data.proto: a timestamp is cut
// "to match the table's granularity"). GetTable says so, across a restart,
// and the granularity cannot change.
TEST_F(DataServiceTest, AMicrosTableKeepsEveryMicrosecond) {
  {
    admin::CreateTableRequest create;
    create.set_parent(kInstance);
    create.set_table_id("fine");
    (*create.mutable_table()->mutable_column_families())["cf"];
    create.mutable_table()->set_granularity(admin::Table::MICROS);
    admin::Table table;
    grpc::ClientContext context;
    grpc::Status s = admin_->CreateTable(&context, create, &table);
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(table.granularity(), admin::Table::MICROS);
  }
  auto write = [&](const std::string& key, int64_t micros, v2::Mutation::TimestampOrigin origin) {
    v2::MutateRowRequest request;
    request.set_table_name(TableName("fine"));
    request.set_row_key(key);
    *request.add_mutations() = proto::ToProto(Mutation::SetCell("cf", "q", "v", micros));
    request.mutable_mutations(0)->set_timestamp_origin(origin);
    v2::MutateRowResponse response;
    grpc::ClientContext context;
    return bigtable_->MutateRow(&context, request, &response);
  };
  ASSERT_TRUE(write("user", 1795694220123456, v2::Mutation::USER_SPECIFIED).ok());
  ASSERT_TRUE(write("client", 1795694220654321, v2::Mutation::CLIENT_AUTO_GENERATED).ok());
  ASSERT_TRUE(write("unstated", 7, v2::Mutation::TIMESTAMP_ORIGIN_UNSPECIFIED).ok());
  for (int run = 0; run < 2; ++run) {
    SCOPED_TRACE(run == 0 ? "as written" : "after a restart");
    v2::ReadRowsRequest read;
    read.set_table_name(TableName("fine"));
    ReadResult result = Read(read);
    ASSERT_EQ(result.rows.size(), 3u);
    EXPECT_EQ(result.rows[0].key, "client");
    EXPECT_EQ(result.rows[0].cells[0].timestamp, 1795694220654321);
    EXPECT_EQ(result.rows[1].cells[0].timestamp, 7);
    EXPECT_EQ(result.rows[2].cells[0].timestamp, 1795694220123456);
    admin::GetTableRequest get;
    get.set_name(TableName("fine"));
    admin::Table table;
    grpc::ClientContext context;
    ASSERT_TRUE(admin_->GetTable(&context, get, &table).ok());
    EXPECT_EQ(table.granularity(), admin::Table::MICROS);
    Restart();
  }
  admin::UpdateTableRequest update;
  update.mutable_table()->set_name(TableName("fine"));
  update.mutable_table()->set_granularity(admin::Table::MILLIS);
  update.mutable_update_mask()->add_paths("granularity");
  google::longrunning::Operation op;
  grpc::ClientContext context;
  grpc::Status s = admin_->UpdateTable(&context, update, &op);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("granularity is immutable"), std::string::npos) << s.error_message();

  admin::CreateTableRequest odd;
  odd.set_parent(kInstance);
  odd.set_table_id("odd");
  odd.mutable_table()->set_granularity(static_cast<admin::Table::TimestampGranularity>(9));
  admin::Table table;
  grpc::ClientContext odd_context;
  s = admin_->CreateTable(&odd_context, odd, &table);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("table.granularity"), std::string::npos) << s.error_message();
}

// A write with an idempotency token applies once however often it is
// sent, through MutateRow and MutateRows alike; a token under 8 bytes is
// INVALID_ARGUMENT naming its field, and changes nothing.
TEST_F(DataServiceTest, AnIdempotencyTokenAppliesItsWriteOnce) {
  int64_t next_ms = 10;  // each attempt writes a cell of its own, unless it is a replay
  auto mutate_row = [&](const std::string& token) {
    v2::MutateRowRequest request;
    request.set_table_name(TableName("t"));
    request.set_row_key("once");
    *request.add_mutations() = proto::ToProto(Mutation::SetCell("cf", "q", "v", Ms(next_ms++)));
    request.mutable_idempotency()->set_token(token);
    v2::MutateRowResponse response;
    grpc::ClientContext context;
    return bigtable_->MutateRow(&context, request, &response);
  };
  auto mutate_rows = [&](const std::string& token) {
    v2::MutateRowsRequest request;
    request.set_table_name(TableName("t"));
    auto* entry = request.add_entries();
    entry->set_row_key("once");
    *entry->add_mutations() = proto::ToProto(Mutation::SetCell("cf", "q", "v", Ms(next_ms++)));
    entry->mutable_idempotency()->set_token(token);
    grpc::ClientContext context;
    auto stream = bigtable_->MutateRows(&context, request);
    v2::MutateRowsResponse response;
    grpc::Status entry_status;
    while (stream->Read(&response)) {
      for (const auto& e : response.entries()) {
        entry_status = grpc::Status(static_cast<grpc::StatusCode>(e.status().code()), e.status().message());
      }
    }
    grpc::Status s = stream->Finish();
    return s.ok() ? entry_status : s;
  };
  auto cells = [&] {
    v2::ReadRowsRequest read;
    read.mutable_rows()->add_row_keys("once");
    ReadResult result = Read(read);
    return result.rows.empty() ? size_t{0} : result.rows[0].cells.size();
  };
  ASSERT_TRUE(mutate_row("token-one").ok());
  ASSERT_TRUE(mutate_row("token-one").ok());
  EXPECT_EQ(cells(), 1u);
  ASSERT_TRUE(mutate_rows("token-two").ok());
  ASSERT_TRUE(mutate_rows("token-two").ok());
  EXPECT_EQ(cells(), 2u);
  ExpectRefused([&] { return mutate_row("short"); }, StatusCode::INVALID_ARGUMENT, "idempotency.token");
  grpc::Status s = mutate_rows("short");
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("entries[0].idempotency.token"), std::string::npos) << s.error_message();
  EXPECT_EQ(cells(), 2u);
}

// Bigtable's 100,000 mutations are a request's, whichever lists or entries
// hold them: counted once, over the whole request.
TEST_F(DataServiceTest, TheMutationLimitCountsTheWholeRequest) {
  const std::vector<Mutation> half(50001, Mutation::DeleteFromRow());
  ExpectRefused(
      [&] {
        v2::MutateRowsRequest request;
        request.set_table_name(TableName("t"));
        for (const char* key : {"a", "b"}) {
          auto* entry = request.add_entries();
          entry->set_row_key(key);
          for (const Mutation& m : half) *entry->add_mutations() = proto::ToProto(m);
        }
        grpc::ClientContext context;
        auto stream = bigtable_->MutateRows(&context, request);
        v2::MutateRowsResponse response;
        EXPECT_FALSE(stream->Read(&response)) << "no entry may be answered";
        return stream->Finish();
      },
      StatusCode::INVALID_ARGUMENT, "entries: 100002 mutations");
  auto check_and_mutate = [&](size_t on_true, size_t on_false) {
    v2::CheckAndMutateRowRequest request;
    request.set_table_name(TableName("t"));
    request.set_row_key("a");
    for (size_t i = 0; i < on_true; ++i) *request.add_true_mutations() = proto::ToProto(Mutation::DeleteFromRow());
    for (size_t i = 0; i < on_false; ++i) *request.add_false_mutations() = proto::ToProto(Mutation::DeleteFromRow());
    v2::CheckAndMutateRowResponse response;
    grpc::ClientContext context;
    return bigtable_->CheckAndMutateRow(&context, request, &response);
  };
  ExpectRefused([&] { return check_and_mutate(50001, 50000); }, StatusCode::INVALID_ARGUMENT,
                "true_mutations, false_mutations: 100001 mutations");
  // At the limit, both lists together are served.
  EXPECT_TRUE(check_and_mutate(50000, 50000).ok());
}

// A closed gate (a stopping server) turns every RPC away, served or not,
// before its handler runs.
TEST_F(DataServiceTest, AStoppingServerTurnsEveryRpcAway) {
  ASSERT_TRUE(runtime_->gate()->CloseAndDrain(std::chrono::milliseconds(0)));
  const std::string before = Dump();
  grpc::Status s = MutateRow("t", "new", {Mutation::SetCell("cf", "q", "v", Ms(1))});
  EXPECT_EQ(s.error_code(), StatusCode::UNAVAILABLE) << s.error_message();
  EXPECT_EQ(Read(v2::ReadRowsRequest()).status.error_code(), StatusCode::UNAVAILABLE);
  grpc::ClientContext context;
  admin::GetBackupRequest backup;
  admin::Backup response;
  EXPECT_EQ(admin_->GetBackup(&context, backup, &response).error_code(), StatusCode::UNAVAILABLE);
  EXPECT_EQ(Dump(), before);
}

TEST_F(DataServiceTest, BadReadsAreRefusedAsProductionRefusesThem) {
  auto read = [&](v2::ReadRowsRequest r) { return [=, this] { return Read(r).status; }; };
  v2::RowRange inverted;
  inverted.set_start_key_closed("c");
  inverted.set_end_key_open("a");
  ExpectRefused(read(Range(inverted)), StatusCode::INVALID_ARGUMENT, "start_key must be less than end_key");
  v2::RowRange empty;
  empty.set_start_key_closed("c");
  empty.set_end_key_open("c");
  ExpectRefused(read(Range(empty)), StatusCode::INVALID_ARGUMENT, "rows.row_ranges[0]");

  v2::ReadRowsRequest one_chain;
  one_chain.mutable_filter()->mutable_chain()->add_filters()->set_pass_all_filter(true);
  ExpectRefused(read(one_chain), StatusCode::INVALID_ARGUMENT, "at least two");
  v2::ReadRowsRequest bad_regex;
  bad_regex.mutable_filter()->set_value_regex_filter("(");
  ExpectRefused(read(bad_regex), StatusCode::INVALID_ARGUMENT, "valueRegexFilter");
  v2::ReadRowsRequest negative;
  negative.mutable_filter()->set_cells_per_row_limit_filter(-1);
  ExpectRefused(read(negative), StatusCode::INVALID_ARGUMENT, "must be positive");
  v2::ReadRowsRequest negative_limit;
  negative_limit.set_rows_limit(-1);
  ExpectRefused(read(negative_limit), StatusCode::INVALID_ARGUMENT, "rows_limit");
  v2::ReadRowsRequest unknown;
  unknown.set_table_name(TableName("missing"));
  ExpectRefused(read(unknown), StatusCode::NOT_FOUND, "missing");
  v2::ReadRowsRequest bad_name;
  bad_name.set_table_name("tables/t");
  ExpectRefused(read(bad_name), StatusCode::INVALID_ARGUMENT, "table_name");
}

TEST_F(DataServiceTest, RpcsLbtDoesNotServeSayWhich) {
  grpc::ClientContext context;
  auto session = bigtable_->OpenTable(&context);
  v2::SessionResponse response;
  while (session->Read(&response)) {
  }
  grpc::Status s = session->Finish();
  EXPECT_EQ(s.error_code(), StatusCode::UNIMPLEMENTED);
  EXPECT_NE(s.error_message().find("OpenTable"), std::string::npos) << s.error_message();
}

// Clients of the session protocol ask for their configuration first
// (Java's retry a refusal five times and log it, Go's poll): lbt answers
// that every request stays on the classic RPCs, and that the answer holds.
TEST_F(DataServiceTest, ClientConfigurationKeepsClientsOnTheClassicRpcs) {
  v2::GetClientConfigurationRequest request;
  request.set_instance_name(TableName("t").substr(0, TableName("t").find("/tables/")));
  v2::ClientConfiguration config;
  {
    grpc::ClientContext context;
    grpc::Status s = bigtable_->GetClientConfiguration(&context, request, &config);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  EXPECT_TRUE(config.has_session_configuration());
  EXPECT_EQ(config.session_configuration().session_load(), 0);
  EXPECT_EQ(config.polling_case(), v2::ClientConfiguration::kStopPolling);
  EXPECT_TRUE(config.stop_polling());

  request.set_instance_name("instances/i");
  grpc::ClientContext context;
  grpc::Status s = bigtable_->GetClientConfiguration(&context, request, &config);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message().rfind("instance_name: ", 0), 0u) << s.error_message();
}

// Writers and readers on many threads at once: every acknowledged write is
// read back, and no read sees half a row.
TEST_F(DataServiceTest, ConcurrentClientsSeeWholeRows) {
  constexpr int kThreads = 8, kRowsEach = 50;
  std::atomic<int> torn{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRowsEach; ++i) {
        const std::string key = fmt::format("w{}-{:03}", t, i);
        grpc::Status s = MutateRow(
            "t", key, {Mutation::SetCell("cf", "a", key, Ms(1)), Mutation::SetCell("other", "b", key, Ms(1))});
        EXPECT_TRUE(s.ok()) << s.error_message();
        v2::ReadRowsRequest r;
        r.mutable_rows()->add_row_keys(key);
        ReadResult result = Read(r);
        if (result.rows.size() != 1 || result.rows[0].cells.size() != 2) ++torn;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(torn.load(), 0);
  EXPECT_EQ(ReadAll(db_.get(), "t").size(), 4u + kThreads * kRowsEach);
}

}  // namespace
}  // namespace lbt::testing
namespace lbt::testing {
namespace {

// Many small rows fill several responses; every row arrives whole.
TEST_F(DataServiceTest, ManyRowsSpanSeveralResponses) {
  std::vector<RowMutation> rows;
  for (int i = 0; i < 30000; ++i) {
    rows.push_back({fmt::format("host{:04}#{}", i % 1000, 1700000000000 + i / 1000 * 60000),
                    {Mutation::SetCell("cf", "cpu", "12.34", Ms(1)), Mutation::SetCell("cf", "mem", "56.78", Ms(1))}});
  }
  ASSERT_OK(WriteRows(db_.get(), "t", rows));
  v2::ReadRowsRequest r;
  auto* chain = r.mutable_filter()->mutable_chain();
  chain->add_filters()->set_strip_value_transformer(true);
  chain->add_filters()->set_cells_per_row_limit_filter(1);
  ReadResult result = Read(r);
  ASSERT_TRUE(result.status.ok()) << result.status.error_message();
  EXPECT_EQ(result.rows.size(), 30004u);
  EXPECT_GT(result.responses, 1);
}

// Production sends a row's families in creation order and counts
// cells_per_row_limit/offset in that order (googleapis/java-bigtable#154);
// so does lbt serve, across a restart too.
TEST_F(DataServiceTest, FamiliesComeInCreationOrderAndCellsPerRowCountsSo) {
  {
    admin::CreateTableRequest create;
    create.set_parent(kInstance);
    create.set_table_id("o");
    admin::Table table;
    grpc::ClientContext context;
    ASSERT_TRUE(admin_->CreateTable(&context, create, &table).ok());
  }
  for (const char* family : {"zeta", "alpha"}) {  // one call each: zeta is created first
    admin::ModifyColumnFamiliesRequest modify;
    modify.set_name(TableName("o"));
    auto* m = modify.add_modifications();
    m->set_id(family);
    m->mutable_create();
    admin::Table table;
    grpc::ClientContext context;
    ASSERT_TRUE(admin_->ModifyColumnFamilies(&context, modify, &table).ok());
  }
  ASSERT_TRUE(
      MutateRow("o", "r", {Mutation::SetCell("alpha", "a", "1", Ms(1)), Mutation::SetCell("zeta", "z", "2", Ms(1))})
          .ok());
  auto families = [&](v2::ReadRowsRequest request) {
    request.set_table_name(TableName("o"));
    request.mutable_rows()->add_row_keys("r");
    ReadResult result = Read(request);
    EXPECT_TRUE(result.status.ok()) << result.status.error_message();
    std::vector<std::string> names;
    for (const Row& row : result.rows) {
      for (const Cell& c : row.cells) names.push_back(c.family);
    }
    return names;
  };
  v2::ReadRowsRequest limit;
  limit.mutable_filter()->set_cells_per_row_limit_filter(1);
  v2::ReadRowsRequest offset;
  offset.mutable_filter()->set_cells_per_row_offset_filter(1);
  for (int run = 0; run < 2; ++run) {
    SCOPED_TRACE(run == 0 ? "as written" : "after a restart");
    EXPECT_EQ(families({}), (std::vector<std::string>{"zeta", "alpha"}));
    EXPECT_EQ(families(limit), (std::vector<std::string>{"zeta"}));
    EXPECT_EQ(families(offset), (std::vector<std::string>{"alpha"}));
    // ReadModifyWriteRow answers with the changed cells in the same order.
    v2::ReadModifyWriteRowRequest rmw;
    rmw.set_table_name(TableName("o"));
    rmw.set_row_key("counters");
    *rmw.add_rules() = proto::ToProto(ReadModifyWriteRule::Append("alpha", "a", "+"));
    *rmw.add_rules() = proto::ToProto(ReadModifyWriteRule::Append("zeta", "z", "+"));
    v2::ReadModifyWriteRowResponse response;
    grpc::ClientContext context;
    ASSERT_TRUE(bigtable_->ReadModifyWriteRow(&context, rmw, &response).ok());
    ASSERT_EQ(response.row().families_size(), 2);
    EXPECT_EQ(response.row().families(0).name(), "zeta");
    EXPECT_EQ(response.row().families(1).name(), "alpha");
    Restart();
  }
}

}  // namespace
}  // namespace lbt::testing
