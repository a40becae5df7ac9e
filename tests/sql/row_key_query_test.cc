// SQL over a table's row-key schema (structured row keys): the fields as
// columns, `_key` as a pseudocolumn, keys that do not decode, and the key
// ranges a WHERE clause on the leading fields reads, measured by rows
// examined.

#include <gtest/gtest.h>

#include "api/row_key_codec.h"
#include "local/local_bigtable.h"
#include "sql/query.h"
#include "tests/sql/query_lines.h"
#include "tests/test_util.h"

namespace lbt::sql {
namespace {

using Lines = std::vector<std::string>;
using FieldType = RowKeyField::Type;

class RowKeyQueryTest : public ::testing::Test {
 protected:
  void SetUp() override { bigtable_ = std::make_unique<LocalBigtable>(dir_.Sub("db"), DatabaseOptions{}); }

  void Create(const std::string& table, RowKeySchema schema) {
    NewTable spec;
    spec.families = {{"stats", GcRule::Never(), ValueType::kString}};
    spec.row_key_schema = std::move(schema);
    ASSERT_OK(bigtable_->CreateTable(table, spec));
  }

  void Put(const std::string& table, const std::string& key, const std::string& value) {
    ASSERT_OK(bigtable_->MutateRow(table, key, {Mutation::SetCell("stats", "v", value, 1000)}));
  }

  // The seeds' time series: device#reverse-timestamp, delimited by '#'.
  void CreateReadings() {
    RowKeySchema s;
    s.fields = {{"device", FieldType::kString}, {"rts", FieldType::kString}};
    s.delimiter = "#";
    Create("readings", s);
    for (const char* key : {"phone1#9000", "phone1#8000", "phone2#9500", "phone10#1", "tablet#7000"}) {
      Put("readings", key, key);
    }
  }

  Result<Lines> Query(const std::string& sql, QueryStats* stats = nullptr, const Params& params = {}) {
    LBT_ASSIGN_OR_RETURN(testing::QueryResult result, testing::RunQuery(bigtable_.get(), sql, params));
    columns_ = std::move(result.columns);
    if (stats != nullptr) *stats = result.stats;
    return std::move(result.lines);
  }

  Lines Rows(const std::string& sql, QueryStats* stats = nullptr, Params params = {}) {
    Result<Lines> rows = Query(sql, stats, std::move(params));
    EXPECT_TRUE(rows.ok()) << sql << ": " << rows.status().ToString();
    return rows.ok() ? *rows : Lines{};
  }

  std::vector<std::string> ColumnNames() const {
    std::vector<std::string> names;
    for (const ResultColumn& c : columns_) names.push_back(c.name + ":" + c.type->ToString());
    return names;
  }

  testing::TempDir dir_;
  std::unique_ptr<LocalBigtable> bigtable_;
  std::vector<ResultColumn> columns_;
};

// structured-row-key-queries: SELECT * lists the fields, then the
// families; `_key` becomes a pseudocolumn, selected only by name.
TEST_F(RowKeyQueryTest, FieldsAreColumnsAndKeyIsAPseudocolumn) {
  CreateReadings();
  EXPECT_EQ(Rows("SELECT * FROM readings WHERE device = 'tablet'"), (Lines{"tablet|7000|{v: tablet#7000}"}));
  EXPECT_EQ(ColumnNames(), (Lines{"device:STRING", "rts:STRING", "stats:MAP<BYTES, STRING>"}));
  EXPECT_EQ(Rows("SELECT _key, rts FROM readings WHERE device = 'phone1'"),
            (Lines{"phone1#8000|8000", "phone1#9000|9000"}));
  EXPECT_EQ(Rows("SELECT device, COUNT(*) AS n FROM readings GROUP BY device ORDER BY device"),
            (Lines{"phone1|2", "phone10|1", "phone2|1", "tablet|1"}));
  EXPECT_EQ(Rows("SELECT CAST(rts AS INT64) + 1 FROM readings WHERE device = 'phone2'"), (Lines{"9501"}));
}

TEST_F(RowKeyQueryTest, LeadingFieldsReadOnlyTheirKeyRange) {
  CreateReadings();
  struct Case {
    std::string where;
    std::string ranges;
    int64_t examined, returned;
  };
  for (const Case& c :
       std::vector<Case>{// "phone1#" leaves out phone10, which a prefix "phone1" would read.
                         {"device = 'phone1'", "[phone1#, phone1$)", 2, 2},
                         {"device IN ('phone2', 'tablet')", "[phone2#, phone2$), [tablet#, tablet$)", 2, 2},
                         {"device = 'phone1' AND rts = '8000'", "[phone1#8000]", 1, 1},
                         {"rts = '8000' AND device = 'phone1'", "[phone1#8000]", 1, 1},
                         {"device = 'phone1' AND STARTS_WITH(rts, '9')", "[phone1#9, phone1#:)", 1, 1},
                         {"STARTS_WITH(device, 'phone1')", "[phone1, phone2)", 3, 3},
                         {"device LIKE 'tab%'", "[tab, tac)", 1, 1},
                         {"device = 'phone1' OR device = 'tablet'", "[phone1#, phone1$), [tablet#, tablet$)", 3, 3},
                         {"rts = '8000'", "all rows", 5, 1},
                         {"device = NULL", "no rows", 0, 0}}) {
    QueryStats stats;
    Rows("SELECT rts FROM readings WHERE " + c.where, &stats);
    EXPECT_EQ(stats.ranges, c.ranges) << c.where;
    EXPECT_EQ(stats.rows_examined, c.examined) << c.where;
    EXPECT_EQ(stats.rows_returned, c.returned) << c.where;
  }
  // A parameter fixes the range at each execution.
  QueryStats stats;
  EXPECT_EQ(Rows("SELECT rts FROM readings WHERE device = @d", &stats, {{"d", Value::String("phone2")}}),
            (Lines{"9500"}));
  EXPECT_EQ(stats.ranges, "[phone2#, phone2$)");
}

TEST_F(RowKeyQueryTest, AKeyThatDoesNotDecodeFailsAQueryReadingItsFields) {
  CreateReadings();
  Put("readings", "stray", "x");
  Result<Lines> fields = Query("SELECT device FROM readings");
  ASSERT_FALSE(fields.ok());
  EXPECT_EQ(fields.status().message(),
            "row key \"stray\" does not decode as the table's row-key schema: it has 1 part, not 2");
  // Queries that leave the fields alone read every row as before.
  EXPECT_EQ(Rows("SELECT COUNT(*) FROM readings"), (Lines{"6"}));
  EXPECT_EQ(Rows("SELECT _key FROM readings WHERE _key = 'stray'"), (Lines{"stray"}));
  // A range the fields fix never reaches the stray key.
  EXPECT_EQ(Rows("SELECT rts FROM readings WHERE device = 'tablet'"), (Lines{"7000"}));
}

TEST_F(RowKeyQueryTest, OrderedCodeKeysWithIntegerAndTimestampFields) {
  RowKeySchema s;
  s.encoding = RowKeySchema::Encoding::kOrderedCodeBytes;
  s.fields = {{"user", FieldType::kBytes},
              {"n", FieldType::kInt64, RowKeyField::IntEncoding::kOrderedCodeBytes},
              {"at", FieldType::kTimestamp}};
  Create("events", s);
  auto key = [&](const std::string& user, int64_t n, int64_t at) {
    return EncodeRowKey(s, {{user, 0}, {"", n}, {"", at}});
  };
  Put("events", key("u1", -1, 1000000), "a");
  Put("events", key("u1", 300, 2000000), "b");
  Put("events", key("u2", 5, 0), "c");
  Put("events", key(std::string("u\0", 2), 5, 0), "d");
  EXPECT_EQ(Rows("SELECT n, at, stats['v'] FROM events WHERE user = b'u1' ORDER BY n"),
            (Lines{"-1|1970-01-01 00:00:01+00|a", "300|1970-01-01 00:00:02+00|b"}));
  QueryStats stats;
  EXPECT_EQ(
      Rows("SELECT stats['v'] FROM events WHERE user = b'u1' AND n = 300 AND at = TIMESTAMP_MICROS(2000000)", &stats),
      (Lines{"b"}));
  EXPECT_EQ(stats.rows_examined, 1);
  EXPECT_EQ(stats.ranges.substr(0, 1), "[");
  EXPECT_EQ(Rows("SELECT stats['v'] FROM events WHERE user = b'u\\x00'", &stats), (Lines{"d"}));
  EXPECT_EQ(stats.rows_examined, 1);
}

TEST_F(RowKeyQueryTest, SingletonBigEndianKeys) {
  RowKeySchema s;
  s.encoding = RowKeySchema::Encoding::kSingleton;
  s.fields = {{"id", FieldType::kInt64}};
  Create("accounts", s);
  for (int64_t id : {int64_t{1}, int64_t{5}, int64_t{1} << 40})
    Put("accounts", EncodeRowKey(s, {{"", id}}), std::to_string(id));
  QueryStats stats;
  EXPECT_EQ(Rows("SELECT id, stats['v'] FROM accounts WHERE id = 5", &stats), (Lines{"5|5"}));
  EXPECT_EQ(stats.rows_examined, 1);
  EXPECT_EQ(Rows("SELECT id FROM accounts WHERE id > 1 ORDER BY id DESC"), (Lines{"1099511627776", "5"}));
}

TEST_F(RowKeyQueryTest, UnpackCarriesTheFields) {
  CreateReadings();
  ASSERT_OK(bigtable_->MutateRow("readings", "tablet#7000", {Mutation::SetCell("stats", "v", "older", 0)}));
  EXPECT_EQ(Rows("SELECT device, rts, stats['v'] FROM UNPACK((SELECT device, rts, stats FROM "
                 "readings(with_history => TRUE))) WHERE device = 'tablet'"),
            (Lines{"tablet|7000|tablet#7000", "tablet|7000|older"}));
}

}  // namespace
}  // namespace lbt::sql
