#include "proto/query_convert.h"

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace lbt::proto {
namespace {

using sql::Type;
using sql::Value;

TEST(QueryConvertTest, Crc32cMatchesTheCastagnoliCheckValue) {
  // The standard check value of CRC-32C, and one longer than a word.
  EXPECT_EQ(Crc32c("123456789"), 0xE3069283u);
  EXPECT_EQ(Crc32c(""), 0u);
  const std::string long_text(1000, 'x');
  EXPECT_EQ(Crc32c(long_text), Crc32c(long_text));
  EXPECT_NE(Crc32c(long_text), Crc32c(long_text.substr(1)));
}

// Every type, NULLs and nesting included, survives the wire.
TEST(QueryConvertTest, ValuesRoundTripThroughTheirTypes) {
  const sql::TypePtr history =
      Type::Map(Type::Bytes(), Type::Array(Type::Struct({{"timestamp", Type::Timestamp()}, {"value", Type::Bytes()}})));
  const sql::TypePtr cell = history->value->element;
  std::vector<Value> values = {
      Value::Bytes(std::string("a\0b", 3)),
      Value::String("héllo"),
      Value::Int64(-42),
      Value::Float64(2.5),
      Value::Float32(1.25f),
      Value::Bool(true),
      Value::Timestamp(-1),  // just before the epoch
      Value::Timestamp(1556668800123456),
      Value::Date(18017),
      Value::Null(Type::String()),
      Value::Array(Type::Array(Type::Int64()), {Value::Int64(1), Value::Null(Type::Int64())}),
      Value::Map(history,
                 {{Value::Bytes("q"),
                   Value::Array(history->value, {Value::Struct(cell, {Value::Timestamp(2000), Value::Bytes("v2")}),
                                                 Value::Struct(cell, {Value::Timestamp(1000), Value::Bytes("v1")})})}}),
  };
  for (const Value& v : values) {
    const v2::Type wire_type = ToProto(*v.type());
    Result<sql::TypePtr> type = SqlTypeFromProto(wire_type, "t");
    ASSERT_OK(type.status());
    EXPECT_TRUE(sql::SameType(*type, v.type())) << v.type()->ToString();
    Result<Value> back = SqlValueFromProto(ToProto(v), *type, "v");
    ASSERT_OK(back.status());
    EXPECT_EQ(back->is_null(), v.is_null());
    EXPECT_EQ(back->ToText(), v.ToText()) << v.type()->ToString();
  }
}

TEST(QueryConvertTest, AValueOfTheWrongKindNamesTheField) {
  v2::Value wire;
  wire.set_string_value("5");
  Result<Value> v = SqlValueFromProto(wire, Type::Int64(), "params[n]");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().message(), "params[n]: a INT64 value cannot hold string_value");
  v2::Type aggregate;
  aggregate.mutable_aggregate_type();
  EXPECT_FALSE(SqlTypeFromProto(aggregate, "param_types[x]").ok());
  EXPECT_FALSE(SqlTypeFromProto(v2::Type(), "param_types[x]").ok());
}

std::vector<sql::ResultColumn> Columns() { return {{"k", Type::Bytes()}, {"n", Type::Int64()}}; }

sql::Values RowOf(int i) { return {Value::Bytes("row" + std::to_string(i)), Value::Int64(i)}; }

// Batches of a few rows each, as the server sends them, become the same
// rows on the client, released only at resume tokens.
TEST(QueryConvertTest, BatchesBecomeTheSameRows) {
  ResultBatcher batcher(64);
  std::vector<v2::PartialResultSet> stream;
  for (int i = 0; i < 50; ++i) {
    if (batcher.Add(RowOf(i))) stream.push_back(batcher.Take("token" + std::to_string(i)));
  }
  stream.push_back(batcher.Take("final"));
  ASSERT_GT(stream.size(), 5u);

  ResultAssembler assembler(Columns());
  std::deque<sql::Values> rows;
  for (const v2::PartialResultSet& p : stream) {
    EXPECT_TRUE(p.has_batch_checksum());
    ASSERT_OK(assembler.Add(p, &rows));
  }
  ASSERT_OK(assembler.Finish());
  EXPECT_EQ(assembler.resume_token(), "final");
  ASSERT_EQ(rows.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(rows[i][1].int64(), i);
}

TEST(QueryConvertTest, ABatchIsSplitOverMessagesAndHeldUntilItsToken) {
  ResultBatcher batcher(1 << 20);
  batcher.Add(RowOf(1));
  batcher.Add(RowOf(2));
  v2::PartialResultSet whole = batcher.Take("t1");
  const std::string& data = whole.proto_rows_batch().batch_data();
  v2::PartialResultSet first, second, token;
  first.mutable_proto_rows_batch()->set_batch_data(data.substr(0, 5));
  second.mutable_proto_rows_batch()->set_batch_data(data.substr(5));
  second.set_batch_checksum(whole.batch_checksum());
  token.set_resume_token("t1");

  ResultAssembler assembler(Columns());
  std::deque<sql::Values> rows;
  ASSERT_OK(assembler.Add(first, &rows));
  ASSERT_OK(assembler.Add(second, &rows));
  EXPECT_TRUE(rows.empty());              // parsed, but not yet confirmed
  EXPECT_FALSE(assembler.Finish().ok());  // a stream ending here lost rows
  ASSERT_OK(assembler.Add(token, &rows));
  EXPECT_EQ(rows.size(), 2u);
  EXPECT_OK(assembler.Finish());
}

TEST(QueryConvertTest, ACorruptBatchOrAMisplacedTokenIsAnError) {
  ResultBatcher batcher(1 << 20);
  batcher.Add(RowOf(1));
  v2::PartialResultSet p = batcher.Take("t1");
  p.set_batch_checksum(p.batch_checksum() ^ 1);
  ResultAssembler corrupt(Columns());
  std::deque<sql::Values> rows;
  Status s = corrupt.Add(p, &rows);
  EXPECT_EQ(s.code(), Status::Code::kCorruption) << s.ToString();

  v2::PartialResultSet unfinished;
  unfinished.mutable_proto_rows_batch()->set_batch_data("\x12");
  unfinished.set_resume_token("t1");
  ResultAssembler misplaced(Columns());
  EXPECT_FALSE(misplaced.Add(unfinished, &rows).ok());
  EXPECT_TRUE(rows.empty());
}

TEST(QueryConvertTest, AResetDropsWhatCameSinceTheLastToken) {
  ResultBatcher batcher(1 << 20);
  batcher.Add(RowOf(1));
  v2::PartialResultSet stale = batcher.Take("");
  batcher.Add(RowOf(2));
  v2::PartialResultSet fresh = batcher.Take("t2");
  fresh.set_reset(true);
  ResultAssembler assembler(Columns());
  std::deque<sql::Values> rows;
  ASSERT_OK(assembler.Add(stale, &rows));
  ASSERT_OK(assembler.Add(fresh, &rows));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][1].int64(), 2);
}

TEST(QueryConvertTest, MetadataCarriesNamesAndTypes) {
  v2::ResultSetMetadata metadata = ToProto(Columns());
  Result<std::vector<sql::ResultColumn>> back = ColumnsFromProto(metadata, "metadata");
  ASSERT_OK(back.status());
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0].name, "k");
  EXPECT_EQ((*back)[1].type->ToString(), "INT64");
  EXPECT_FALSE(ColumnsFromProto(v2::ResultSetMetadata(), "metadata").ok());
}

}  // namespace
}  // namespace lbt::proto
