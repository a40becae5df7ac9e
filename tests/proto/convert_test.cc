// The conversion between the engine's model and Bigtable's protos.

#include "proto/convert.h"
#include "proto/grpc_status.h"

#include <gtest/gtest.h>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

#include "tests/test_util.h"

namespace lbt::proto {
namespace {

// Every Bigtable filter kind goes to the engine's model and back unchanged.
TEST(ConvertTest, EveryRowFilterKindRoundTrips) {
  std::vector<v2::RowFilter> filters(20);
  filters[0].set_sink(true);
  filters[1].set_pass_all_filter(true);
  filters[2].set_block_all_filter(true);
  filters[3].set_row_key_regex_filter("a\xff.*");
  filters[4].set_row_sample_filter(0.25);
  filters[5].set_family_name_regex_filter("cf.*");
  filters[6].set_column_qualifier_regex_filter("q");
  filters[7].mutable_column_range_filter()->set_family_name("cf");
  filters[7].mutable_column_range_filter()->set_start_qualifier_open("a");
  filters[7].mutable_column_range_filter()->set_end_qualifier_closed("m");
  filters[8].mutable_timestamp_range_filter()->set_start_timestamp_micros(1000);
  filters[8].mutable_timestamp_range_filter()->set_end_timestamp_micros(5000);
  filters[9].set_value_regex_filter("\\d+");
  filters[10].mutable_value_range_filter()->set_start_value_closed("1");
  filters[10].mutable_value_range_filter()->set_end_value_open("9");
  filters[11].set_cells_per_row_offset_filter(2);
  filters[12].set_cells_per_row_limit_filter(3);
  filters[13].set_cells_per_column_limit_filter(1);
  filters[14].set_strip_value_transformer(true);
  filters[15].set_apply_label_transformer("hot");
  filters[16].mutable_value_bitmask_filter()->set_mask("\x0f");
  *filters[17].mutable_chain()->add_filters() = filters[5];
  *filters[17].mutable_chain()->add_filters() = filters[13];
  *filters[18].mutable_interleave()->add_filters() = filters[1];
  *filters[18].mutable_interleave()->add_filters() = filters[15];
  *filters[19].mutable_condition()->mutable_predicate_filter() = filters[9];
  *filters[19].mutable_condition()->mutable_true_filter() = filters[14];
  for (const v2::RowFilter& f : filters) {
    ASSERT_OK_AND_ASSIGN(Filter model, FromProto(f, "filter"));
    ASSERT_OK_AND_ASSIGN(v2::RowFilter back, ToProto(model));
    EXPECT_EQ(back.SerializeAsString(), f.SerializeAsString()) << f.ShortDebugString();
  }
}

TEST(ConvertTest, HBaseOnlyFiltersCannotBeSent) {
  EXPECT_FALSE(ToProto(Filter::Page(10)).ok());
  EXPECT_FALSE(ToProto(Filter::Chain({Filter::PassAll(), Filter::Skip(Filter::PassAll())})).ok());
}

TEST(ConvertTest, AnEmptyFilterIsRefusedWhereItStands) {
  v2::RowFilter f;
  f.mutable_chain()->add_filters()->set_pass_all_filter(true);
  f.mutable_chain()->add_filters();
  Result<Filter> r = FromProto(f, "filter");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("filter.chain.filters[1]"), std::string::npos) << r.status().message();
}

TEST(ConvertTest, MutationsRoundTripAndTimestampsAreChecked) {
  std::vector<Mutation> mutations = {
      Mutation::SetCell("cf", std::string("q\0\xff", 3), "v", 5000),
      Mutation::SetCell("cf", "q", "v", kServerTime),
      Mutation::AddToCell("sum", "n", -7, 2000),
      Mutation::DeleteFromColumn("cf", "q", TimestampRange{1000, 3000}),
      Mutation::DeleteFromFamily("cf"),
      Mutation::DeleteFromRow(),
  };
  for (const Mutation& m : mutations) {
    ASSERT_OK_AND_ASSIGN(Mutation back, FromProto(ToProto(m), "mutations[0]"));
    EXPECT_EQ(ToProto(back).SerializeAsString(), ToProto(m).SerializeAsString());
  }
  // Whether a timestamp fits is the table's granularity's to say; a
  // negative one other than -1 fits none.
  EXPECT_TRUE(FromProto(ToProto(Mutation::SetCell("cf", "q", "v", 1234)), "mutations[3]").ok());
  Result<Mutation> bad = FromProto(ToProto(Mutation::SetCell("cf", "q", "v", -5)), "mutations[3]");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("mutations[3].set_cell.timestamp_micros"), std::string::npos);
  // A client's own timestamp travels as one, both ways.
  Mutation stamped = Mutation::SetCell("cf", "q", "v", 1234567);
  stamped.client_timestamp = true;
  EXPECT_EQ(ToProto(stamped).timestamp_origin(), v2::Mutation::CLIENT_AUTO_GENERATED);
  ASSERT_OK_AND_ASSIGN(Mutation back, FromProto(ToProto(stamped), "m"));
  EXPECT_TRUE(back.client_timestamp);
  EXPECT_EQ(back.timestamp, 1234567);
  EXPECT_FALSE(FromProto(v2::Mutation(), "m").ok());
}

TEST(ConvertTest, GcRulesRoundTrip) {
  GcRule rule = GcRule::Union(
      {GcRule::MaxAge(1500000), GcRule::Intersection({GcRule::MaxVersions(3), GcRule::MaxAge(86400000000)})});
  ASSERT_OK_AND_ASSIGN(GcRule back, FromProto(ToProto(rule), "gc_rule"));
  EXPECT_TRUE(back == rule);
  ASSERT_OK_AND_ASSIGN(GcRule never, FromProto(admin::GcRule(), "gc_rule"));
  EXPECT_EQ(never.kind, GcRule::Kind::kNever);
}

TEST(ConvertTest, ValueTypes) {
  for (ValueType t : {ValueType::kBytes, ValueType::kIntSum, ValueType::kIntMin, ValueType::kIntMax, ValueType::kString,
                      ValueType::kStringUtf8Raw, ValueType::kHllInt64, ValueType::kHllBytes}) {
    ASSERT_OK_AND_ASSIGN(ValueType back, ValueTypeFromProto(ToProto(t), "value_type"));
    EXPECT_EQ(back, t);
  }
  admin::Type no_encoding;
  no_encoding.mutable_string_type();
  ASSERT_OK_AND_ASSIGN(ValueType string, ValueTypeFromProto(no_encoding, "value_type"));
  EXPECT_EQ(string, ValueType::kString) << "a string without an encoding is UTF-8 bytes";
  // hllpp_unique_count: int64 inputs, raw bytes (an input type left out
  // is raw, types.proto says), nothing else.
  admin::Type hll;
  hll.mutable_aggregate_type()->mutable_hllpp_unique_count();
  ASSERT_OK_AND_ASSIGN(ValueType raw, ValueTypeFromProto(hll, "value_type"));
  EXPECT_EQ(raw, ValueType::kHllBytes);
  hll.mutable_aggregate_type()->mutable_input_type()->mutable_int64_type();
  ASSERT_OK_AND_ASSIGN(ValueType ints, ValueTypeFromProto(hll, "value_type"));
  EXPECT_EQ(ints, ValueType::kHllInt64);
  hll.mutable_aggregate_type()->mutable_input_type()->mutable_string_type();
  EXPECT_FALSE(ValueTypeFromProto(hll, "value_type").ok());
}

TEST(ConvertTest, RowRangesMustNotBeInverted) {
  v2::RowSet rows;
  auto* r = rows.add_row_ranges();
  r->set_start_key_closed("b");
  r->set_end_key_closed("b");
  EXPECT_TRUE(FromProto(rows, "rows").ok()) << "[b, b] holds b";
  r->set_end_key_open("b");
  EXPECT_FALSE(FromProto(rows, "rows").ok());
  r->set_end_key_open("");
  EXPECT_TRUE(FromProto(rows, "rows").ok()) << "an empty end key is no end";
}

TEST(ConvertTest, StatusCodes) {
  EXPECT_EQ(ToGrpcStatus(Status::NotFound("x")).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(ToGrpcStatus(Status::OutOfRange("x")).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ToGrpcStatus(Status::FailedPrecondition("x")).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ToGrpcStatus(Status::InvalidArgument("why")).error_message(), "why");
}

// A retry delay travels as google.rpc.RetryInfo in the status details, in
// a call's status and in a MutateRows entry's alike, and comes back.
TEST(ConvertTest, RetryDelaysRideInRetryInfo) {
  const Status delayed = Status::Unavailable("busy").WithRetryDelay(1500);
  const grpc::Status wire = ToGrpcStatus(delayed);
  EXPECT_EQ(wire.error_code(), grpc::StatusCode::UNAVAILABLE);
  google::rpc::Status rich;
  ASSERT_TRUE(rich.ParseFromString(wire.error_details()));
  ASSERT_EQ(rich.details_size(), 1);
  google::rpc::RetryInfo retry;
  ASSERT_TRUE(rich.details(0).UnpackTo(&retry));
  EXPECT_EQ(retry.retry_delay().seconds(), 1);
  EXPECT_EQ(retry.retry_delay().nanos(), 500'000'000);
  EXPECT_EQ(FromGrpcStatus(wire).retry_delay_ms(), 1500);
  const google::rpc::Status entry = ToRpcStatus(delayed);
  ASSERT_EQ(entry.details_size(), 1);
  EXPECT_EQ(FromRpcStatus(entry).retry_delay_ms(), 1500);
  EXPECT_EQ(FromRpcStatus(entry).code(), Status::Code::kUnavailable);
  // Without one, no details at all.
  EXPECT_TRUE(ToGrpcStatus(Status::Unavailable("busy")).error_details().empty());
  EXPECT_EQ(FromGrpcStatus(ToGrpcStatus(Status::Unavailable("busy"))).retry_delay_ms(), -1);
}

}  // namespace
}  // namespace lbt::proto
