// GoogleSQL over a local database: results worked out from the documented
// semantics, key-range pushdown measured by rows examined, and errors; the
// read planner on its own, over a table's schema.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "local/local_bigtable.h"
#include "sql/binder.h"
#include "sql/functions.h"
#include "sql/materialized_view.h"
#include "sql/parser.h"
#include "sql/query.h"
#include "sql/read_planner.h"
#include "tests/test_util.h"

namespace lbt::sql {
namespace {

class QueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bigtable_ = std::make_unique<LocalBigtable>(dir_.Sub("db"), DatabaseOptions{});
    // The seeds' mobile time series: phone#<id>#<date> and tablet#... rows.
    ASSERT_OK(bigtable_->CreateTable("mobile",
                                     {{"stats_summary", GcRule::Never(), ValueType::kBytes},
                                      {"cell", GcRule::MaxVersions(3), ValueType::kBytes},
                                      {"clicks", GcRule::Never(), ValueType::kIntSum}},
                                     {}, false));
    Put("phone#4c410523#20190501", "stats_summary", "os_build", "PQ2A.190405.003", 1000);
    Put("phone#4c410523#20190501", "cell", "data_plan", "true", 1000);
    Put("phone#4c410523#20190501", "cell", "data_plan", "false", 2000);
    Put("phone#4c410523#20190502", "stats_summary", "os_build", "PQ2A.190405.004", 1000);
    Put("phone#5c10102#20190501", "stats_summary", "os_build", "PQ2A.190401.002", 1000);
    Put("tablet#a0b81f74#20190501", "stats_summary", "os_build", "PQ2A.190401.002", 1000);
    Put("tablet#a0b81f74#20190501", "clicks", "day", EncodeInt64(7), 1000);
    Put("phone#5c10102#20190501", "clicks", "day", EncodeInt64(5), 1000);
  }

  void Put(const std::string& row, const std::string& family, const std::string& q, const std::string& v, int64_t ts) {
    ASSERT_OK(bigtable_->MutateRow("mobile", row, {Mutation::SetCell(family, q, v, ts)}));
  }

  // Each result row as "a|b|c" in the shell's text form.
  std::vector<std::string> Rows(const std::string& sql, QueryStats* stats = nullptr, Params params = {}) {
    ParamTypes types;
    for (const auto& [name, v] : params) types[name] = v.type();
    Result<std::unique_ptr<PreparedQuery>> q = Prepare(bigtable_.get(), sql, types);
    EXPECT_TRUE(q.ok()) << sql << ": " << q.status().ToString();
    if (!q.ok()) return {};
    Result<std::unique_ptr<ResultStream>> stream = (*q)->Execute(params);
    EXPECT_TRUE(stream.ok()) << stream.status().ToString();
    if (!stream.ok()) return {};
    std::vector<std::string> out;
    for (Values row; (*stream)->Next(&row);) {
      std::string line;
      for (size_t i = 0; i < row.size(); ++i) line += (i ? "|" : "") + row[i].ToText();
      out.push_back(line);
    }
    EXPECT_TRUE((*stream)->status().ok()) << (*stream)->status().ToString();
    if (stats != nullptr) *stats = (*stream)->stats();
    return out;
  }

  // The operators that ran `sql`, one line each: "<indent>NAME detail
  // (rows)", two spaces of indent per level.
  std::vector<std::string> RanPlan(const std::string& sql) {
    Result<std::unique_ptr<PreparedQuery>> q = Prepare(bigtable_.get(), sql, {});
    EXPECT_TRUE(q.ok()) << sql << ": " << q.status().ToString();
    if (!q.ok()) return {};
    Result<std::unique_ptr<ResultStream>> stream = (*q)->Execute({});
    EXPECT_TRUE(stream.ok()) << stream.status().ToString();
    if (!stream.ok()) return {};
    for (Values row; (*stream)->Next(&row);) {
    }
    EXPECT_TRUE((*stream)->status().ok()) << (*stream)->status().ToString();
    return PlanLines((*stream)->plan());
  }

  static std::vector<std::string> PlanLines(const QueryPlan& plan) {
    std::vector<std::string> out;
    for (const PlanNode& node : plan) {
      out.push_back(fmt::format("{}{} {} ({})", std::string(2 * static_cast<size_t>(node.depth), ' '), node.name,
                                node.detail, node.rows));
    }
    return out;
  }

  // The error a query gets, at prepare or while running.
  Status Error(const std::string& sql) {
    Result<std::unique_ptr<PreparedQuery>> q = Prepare(bigtable_.get(), sql, {});
    if (!q.ok()) return q.status();
    Result<std::unique_ptr<ResultStream>> stream = (*q)->Execute({});
    if (!stream.ok()) return stream.status();
    for (Values row; (*stream)->Next(&row);) {
    }
    return (*stream)->status();
  }

  testing::TempDir dir_;
  std::unique_ptr<LocalBigtable> bigtable_;
};

using Lines = std::vector<std::string>;

// SELECT *'s family columns come in creation order, the order a row's
// cells come in. Production documents no order for them (its ProtoSchema
// is "an ordered list"); the README says so.
TEST_F(QueryTest, SelectStarListsFamiliesInCreationOrder) {
  Result<std::unique_ptr<PreparedQuery>> q = Prepare(bigtable_.get(), "SELECT * FROM mobile", {});
  ASSERT_TRUE(q.ok()) << q.status().ToString();
  std::vector<std::string> names;
  for (const ResultColumn& c : (*q)->columns()) names.push_back(c.name);
  // Created stats_summary, cell, clicks: not their name order.
  EXPECT_EQ(names, (std::vector<std::string>{"_key", "stats_summary", "cell", "clicks"}));
}

// EXPLAIN's tree: each operator with what it does and the rows it handed
// on. WHERE filters the scan's rows, AGGREGATE groups what passes, SORT
// keeps only the LIMIT's rows, and PROJECT computes the select list and the
// sort key.
TEST_F(QueryTest, PlanOfWhereGroupByOrderByLimit) {
  EXPECT_EQ(RanPlan("SELECT stats_summary['os_build'] AS build, COUNT(*) AS n FROM mobile "
                    "WHERE STARTS_WITH(_key, 'phone#') OR clicks['day'] > 6 GROUP BY build ORDER BY n DESC LIMIT 1"),
            (Lines{"LIMIT 1 (1)", "  SORT COUNT(*) DESC (keeps the first 1) (1)",
                   "    PROJECT stats_summary['os_build'] AS build, COUNT(*) AS n (3)",
                   "      AGGREGATE GROUP BY stats_summary['os_build']: COUNT(*) (3)",
                   "        FILTER STARTS_WITH(_key, b'phone#') OR (clicks['day'] > 6) (4)",
                   "          SCAN mobile all rows; reads _key, clicks['day'], stats_summary['os_build'] (4)"}));
}

TEST_F(QueryTest, PlanOfAPlainSelect) {
  EXPECT_EQ(RanPlan("SELECT _key FROM mobile"), (Lines{"PROJECT _key (4)", "  SCAN mobile all rows; reads _key (4)"}));
}

// Without ORDER BY the LIMIT sits below the projection and stops the scan
// once it has its rows. A plan can be had without running the query
// (rows -1), with its parameters' values: here the key range and the LIMIT.
TEST_F(QueryTest, PlanOfAStreamingQueryAndPlanWithoutRunning) {
  EXPECT_EQ(RanPlan("SELECT _key, cell['data_plan'] FROM mobile WHERE _key >= 'phone#5' LIMIT 1"),
            (Lines{"PROJECT _key, cell['data_plan'] (1)", "  LIMIT 1 (1)", "    FILTER _key >= b'phone#5' (1)",
                   "      SCAN mobile [phone#5, end); reads _key, cell['data_plan'] (1)"}));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<PreparedQuery> q,
                       Prepare(bigtable_.get(), "SELECT _key FROM mobile WHERE _key = @k LIMIT @n OFFSET 1",
                               {{"k", Type::Bytes()}, {"n", Type::Int64()}}));
  ASSERT_OK_AND_ASSIGN(QueryPlan plan, q->Plan({{"k", Value::Bytes("a")}, {"n", Value::Int64(5)}}));
  EXPECT_EQ(PlanLines(plan), (Lines{"PROJECT _key (-1)", "  LIMIT 5 OFFSET 1 (-1)", "    FILTER _key = @k (-1)",
                                    "      SCAN mobile [a]; reads _key (-1)"}));
  EXPECT_EQ(q->Plan({{"k", Value::Bytes("a")}}).status().code(), Status::Code::kInvalidArgument);  // no @n
}

TEST_F(QueryTest, FamiliesAreMapsOfLatestValues) {
  EXPECT_EQ(Rows("SELECT _key, cell['data_plan'], stats_summary['os_build'] FROM mobile WHERE _key = "
                 "'phone#4c410523#20190501'"),
            (Lines{"phone#4c410523#20190501|false|PQ2A.190405.003"}));
  EXPECT_EQ(Rows("SELECT MAP_KEYS(stats_summary), cell['missing'] FROM mobile LIMIT 1"), (Lines{"[os_build]|NULL"}));
  // An aggregate family is MAP<BYTES, INT64>.
  EXPECT_EQ(Rows("SELECT SUM(clicks['day']) FROM mobile"), (Lines{"12"}));
}

TEST_F(QueryTest, HistoryAndUnpack) {
  EXPECT_EQ(Rows("SELECT ARRAY_LENGTH(cell['data_plan']) FROM mobile(with_history => TRUE) "
                 "WHERE _key = 'phone#4c410523#20190501'"),
            (Lines{"2"}));
  EXPECT_EQ(Rows("SELECT cell['data_plan'] FROM mobile(as_of => TIMESTAMP_MICROS(1500)) "
                 "WHERE _key = 'phone#4c410523#20190501'"),
            (Lines{"true"}));
  EXPECT_EQ(Rows("SELECT _key, UNIX_MICROS(_timestamp), cell['data_plan'] FROM "
                 "UNPACK((SELECT _key, cell FROM mobile(with_history => TRUE)))"),
            (Lines{"phone#4c410523#20190501|2000|false", "phone#4c410523#20190501|1000|true"}));
}

TEST_F(QueryTest, GroupByOrderByLimit) {
  EXPECT_EQ(Rows("SELECT SPLIT(SAFE_CONVERT_BYTES_TO_STRING(_key), '#')[OFFSET(0)] AS kind, COUNT(*) AS n "
                 "FROM mobile GROUP BY kind ORDER BY n DESC, kind"),
            (Lines{"phone|3", "tablet|1"}));
  EXPECT_EQ(Rows("SELECT _key FROM mobile ORDER BY _key DESC LIMIT 2 OFFSET 1"),
            (Lines{"phone#5c10102#20190501", "phone#4c410523#20190502"}));
  EXPECT_EQ(Rows("SELECT stats_summary['os_build'] AS b, COUNT(*) FROM mobile GROUP BY 1 HAVING COUNT(*) > 1"),
            (Lines{"PQ2A.190401.002|2"}));
  EXPECT_EQ(Rows("SELECT COUNT(*) FROM mobile WHERE _key = 'none'"), (Lines{"0"}));
}

TEST_F(QueryTest, NullsAndThreeValuedLogic) {
  EXPECT_EQ(Rows("SELECT COUNT(*) FROM mobile WHERE clicks['day'] > 6 OR cell['data_plan'] IS NULL"), (Lines{"3"}));
  EXPECT_EQ(
      Rows("SELECT NULL AND FALSE, NULL OR TRUE, NULL = 1, COALESCE(NULL, 3), IF(NULL, 1, 2) FROM mobile LIMIT 1"),
      (Lines{"false|true|NULL|3|2"}));
  EXPECT_EQ(Rows("SELECT 1 IN (2, NULL), 2 IN (2, NULL) FROM mobile LIMIT 1"), (Lines{"NULL|true"}));
}

// AND and OR take any number of operands, with the same three-valued
// logic as nested pairs; long IN lists of constants are searched, not
// scanned, with the same answers.
TEST_F(QueryTest, LongLogicalChainsAndInLists) {
  EXPECT_EQ(Rows("SELECT FALSE OR NULL OR FALSE, FALSE OR NULL OR TRUE, TRUE AND NULL AND TRUE, "
                 "TRUE AND NULL AND FALSE, NOT FALSE AND NOT FALSE AND TRUE FROM mobile LIMIT 1"),
            (Lines{"NULL|true|NULL|false|true"}));
  std::string list = "1";
  for (int i = 2; i <= 20; ++i) list += ", " + std::to_string(i);
  EXPECT_EQ(Rows("SELECT 3 IN (" + list + "), 21 IN (" + list + "), 21 IN (" + list + ", NULL), 20 IN (NULL, " + list +
                 "), NULL IN (" + list + "), 2.0 IN (" + list + ") FROM mobile LIMIT 1"),
            (Lines{"true|false|NULL|true|NULL|true"}));
  std::string keys = "'phone#4c410523#20190501', 'tablet#a0b81f74#20190501'";
  for (int i = 0; i < 30; ++i) keys += ", 'nope" + std::to_string(i) + "'";
  EXPECT_EQ(Rows("SELECT _key FROM mobile WHERE _key IN (" + keys + ") OR _key = 'phone#5c10102#20190501'"),
            (Lines{"phone#4c410523#20190501", "phone#5c10102#20190501", "tablet#a0b81f74#20190501"}));
  EXPECT_EQ(Rows("SELECT COUNT(*) FROM mobile WHERE _key NOT IN (" + keys + ")"), (Lines{"2"}));  // of 4
}

// Parentheses and calls nest 200 levels deep, each level counted once;
// deeper is refused with a message that says so, not a crash.
TEST_F(QueryTest, NestingLimits) {
  auto nested = [](int depth, const std::string& open, const std::string& inner) {
    std::string out;
    for (int i = 0; i < depth; ++i) out += open;
    out += inner;
    for (int i = 0; i < depth; ++i) out += ")";
    return out;
  };
  EXPECT_EQ(Rows("SELECT " + nested(190, "(", "7") + " FROM mobile LIMIT 1"), (Lines{"7"}));
  EXPECT_EQ(Rows("SELECT " + nested(190, "ABS(", "-7") + " FROM mobile LIMIT 1"), (Lines{"7"}));
  for (const std::string& deep : {nested(210, "(", "7"), nested(210, "ABS(", "7")}) {
    Result<std::unique_ptr<PreparedQuery>> q = Prepare(bigtable_.get(), "SELECT " + deep + " FROM mobile", {});
    ASSERT_FALSE(q.ok());
    EXPECT_EQ(q.status().message().rfind("Expression nests too deeply: more than 200 levels", 0), 0u)
        << q.status().message();
  }
}

TEST_F(QueryTest, FunctionsAndCasts) {
  EXPECT_EQ(Rows("SELECT TO_INT64(b'\\x00\\x00\\x00\\x00\\x00\\x00\\x01\\x00'), TO_HEX(b'\\x01\\xff'), "
                 "CAST('42' AS INT64) + 1, SAFE_CAST('x' AS INT64), UPPER('ab') || 'c' FROM mobile LIMIT 1"),
            (Lines{"256|01ff|43|NULL|ABc"}));
  EXPECT_EQ(Rows("SELECT FORMAT_TIMESTAMP('%F %T', TIMESTAMP_ADD(TIMESTAMP '2024-01-31 23:00:00', INTERVAL 2 HOUR)), "
                 "EXTRACT(DAY FROM TIMESTAMP '2024-02-29 12:00:00+00'), "
                 "TIMESTAMP_TRUNC(TIMESTAMP '2024-05-17 10:11:12', MONTH) FROM mobile LIMIT 1"),
            (Lines{"2024-02-01 01:00:00|29|2024-05-01 00:00:00+00"}));
  EXPECT_EQ(Rows("SELECT REGEXP_EXTRACT('phone#4c41', r'#(\\w+)'), CASE WHEN 1 > 2 THEN 'a' ELSE 'b' END "
                 "FROM mobile LIMIT 1"),
            (Lines{"4c41|b"}));
}

// Timestamp arithmetic is exact to the microsecond up to 9999-12-31, and
// one step past either end is out of range (a double once rounded the year
// 10000 into it and lost microseconds past 2255).
TEST_F(QueryTest, TimestampArithmeticIsExactToItsLimits) {
  EXPECT_EQ(Rows("SELECT UNIX_MICROS(TIMESTAMP_ADD(TIMESTAMP '9999-12-31 23:59:59.999998', INTERVAL 1 MICROSECOND)), "
                 "UNIX_MICROS(TIMESTAMP_MICROS(253402300799999999)) FROM mobile LIMIT 1"),
            (Lines{"253402300799999999|253402300799999999"}));
  for (const char* query :
       {"SELECT TIMESTAMP_ADD(TIMESTAMP '9999-12-31 23:59:59', INTERVAL 1 SECOND) FROM mobile LIMIT 1",
        "SELECT TIMESTAMP_ADD(TIMESTAMP '9999-12-31 23:59:59.999999', INTERVAL 1 MICROSECOND) FROM mobile LIMIT 1",
        "SELECT TIMESTAMP_SUB(TIMESTAMP '0001-01-01 00:00:00', INTERVAL 1 MICROSECOND) FROM mobile LIMIT 1",
        "SELECT TIMESTAMP_MICROS(253402300800000000) FROM mobile LIMIT 1",
        "SELECT TIMESTAMP_SECONDS(9223372036854775807) FROM mobile LIMIT 1",
        "SELECT TIMESTAMP_ADD(TIMESTAMP '2000-01-01', INTERVAL 9223372036854775807 DAY) FROM mobile LIMIT 1"}) {
    EXPECT_EQ(Error(query).code(), Status::Code::kOutOfRange) << query;
  }
}

TEST_F(QueryTest, KeyPredicatesReadOnlyTheirRanges) {
  QueryStats stats;
  struct Case {
    std::string where;
    int64_t rows;  // rows in range
  };
  for (const Case& c : std::vector<Case>{{"_key = 'phone#4c410523#20190502'", 1},
                                         {"_key LIKE 'phone#4c%'", 2},
                                         {"STARTS_WITH(_key, b'tablet')", 1},
                                         {"_key >= 'phone#5' AND _key < 'tablet'", 1},
                                         {"_key BETWEEN 'phone#4c410523#20190501' AND 'phone#4c410523#20190502'", 2},
                                         {"_key IN ('tablet#a0b81f74#20190501', 'phone#5c10102#20190501')", 2},
                                         {"_key = 'tablet#a0b81f74#20190501' OR _key LIKE 'phone#5%'", 2},
                                         {"_key LIKE '%5c1%'", 4}}) {
    Rows("SELECT _key FROM mobile WHERE " + c.where, &stats);
    EXPECT_EQ(stats.rows_examined, c.rows) << c.where << " read " << stats.ranges;
  }
  Rows("SELECT _key FROM mobile WHERE _key LIKE '%5c1%'", &stats);
  EXPECT_EQ(stats.ranges, "all rows");
  EXPECT_EQ(stats.rows_returned, 1);
}

TEST_F(QueryTest, Parameters) {
  EXPECT_EQ(Rows("SELECT _key FROM mobile WHERE _key = @k", nullptr, {{"k", Value::Bytes("phone#5c10102#20190501")}}),
            (Lines{"phone#5c10102#20190501"}));
  // LIMIT and OFFSET take INT64 parameters too.
  EXPECT_EQ(Rows("SELECT _key FROM mobile ORDER BY _key LIMIT @n OFFSET @skip", nullptr,
                 {{"n", Value::Int64(1)}, {"skip", Value::Int64(1)}}),
            (Lines{"phone#4c410523#20190502"}));
  Result<std::unique_ptr<PreparedQuery>> negative =
      Prepare(bigtable_.get(), "SELECT _key FROM mobile LIMIT @n", {{"n", Type::Int64()}});
  ASSERT_OK(negative.status());
  EXPECT_FALSE((*negative)->Execute({{"n", Value::Int64(-1)}}).ok());
  EXPECT_FALSE(Prepare(bigtable_.get(), "SELECT _key FROM mobile LIMIT @n", {{"n", Type::String()}}).ok());
}

TEST_F(QueryTest, ParameterBindingsBeforeAQuery) {
  size_t start = 0;
  Result<std::vector<ParameterBinding>> b =
      ParseParameterBindings("@k=b'phone#1' @n=-5 @s='x' @t=TIMESTAMP '2019-05-01 00:00:00' SELECT 1", &start);
  ASSERT_OK(b.status());
  ASSERT_EQ(b->size(), 4u);
  EXPECT_EQ((*b)[0].value.type()->ToString(), "BYTES");
  EXPECT_EQ((*b)[1].value.int64(), -5);
  EXPECT_EQ((*b)[2].value.type()->ToString(), "STRING");
  EXPECT_EQ((*b)[3].value.int64(), 1556668800000000);
  EXPECT_EQ(std::string("@k=b'phone#1' @n=-5 @s='x' @t=TIMESTAMP '2019-05-01 00:00:00' SELECT 1").substr(start),
            "SELECT 1");
  EXPECT_FALSE(ParseParameterBindings("@k=foo SELECT 1", &start).ok());
}

TEST_F(QueryTest, ErrorsNameTheProblem) {
  auto message = [&](const std::string& sql) { return Error(sql).message(); };
  EXPECT_EQ(message("SELECT nope FROM mobile"), "Unrecognized name: nope [at 1:8]");
  EXPECT_EQ(message("SELECT FOO(1) FROM mobile"), "Function not found: FOO [at 1:8]");
  EXPECT_NE(message("SELECT LENGTH(1) FROM mobile").find("No matching signature for function LENGTH"),
            std::string::npos);
  EXPECT_NE(message("SELECT * FROM mobile JOIN other").find("Joins are not supported"), std::string::npos);
  EXPECT_NE(message("SELECT * FROM mobile UNION ALL SELECT * FROM mobile").find("Set operations"), std::string::npos);
  EXPECT_NE(message("SELECT * FROM (SELECT 1)").find("Subqueries"), std::string::npos);
  EXPECT_NE(message("WITH x AS (SELECT 1) SELECT 1 FROM x").find("WITH clauses"), std::string::npos);
  EXPECT_NE(message("SELECT _key, COUNT(*) FROM mobile").find("neither grouped nor aggregated"), std::string::npos);
  EXPECT_NE(message("SELECT 1 / 0 FROM mobile").find("division by zero"), std::string::npos);
  EXPECT_TRUE(Error("SELECT * FROM missing").IsNotFound());
  EXPECT_NE(message("SELECT * FROM mobile WHERE").find("Syntax error"), std::string::npos);
}

TEST_F(QueryTest, BitwiseOperatorsOnIntegersAndBytes) {
  // Shifts fill with zeros (no sign extension) and a shift past the width
  // leaves zero; BYTES are one big-endian bit string.
  EXPECT_EQ(Rows("SELECT 12 & 10, 12 | 10, 12 ^ 10, ~0, 1 << 62, -1 >> 60, 5 << 64, 1 & 3 | 4 FROM mobile LIMIT 1"),
            (Lines{"8|14|6|-1|4611686018427387904|15|0|5"}));
  EXPECT_EQ(Rows("SELECT TO_HEX(b'\\x0f\\xf0' | b'\\x01\\x01'), TO_HEX(~b'\\x00\\xff'), TO_HEX(b'\\x01\\x80' << 1), "
                 "TO_HEX(b'\\x01\\x80' >> 9), TO_HEX(b'\\xff' << 8) FROM mobile LIMIT 1"),
            (Lines{"0ff1|ff00|0300|0000|00"}));
  auto message = [&](const std::string& sql) { return Error(sql).message(); };
  EXPECT_NE(message("SELECT b'ab' & b'a' FROM mobile").find("needs BYTES of the same length"), std::string::npos);
  EXPECT_NE(message("SELECT 1 << -1 FROM mobile").find("negative"), std::string::npos);
  EXPECT_EQ(message("SELECT 1 & 'x' FROM mobile"),
            "No matching signature for operator & for argument types: INT64, STRING [at 1:10]");
}

// INSTR, LEFT, RIGHT, LPAD, RPAD and OCTET_LENGTH, with the answers of
// GoogleSQL's reference examples: characters for STRING, bytes for BYTES.
TEST_F(QueryTest, PositionsCutsAndPaddingOfText) {
  // INSTR: forward from a position, backward from a negative one, the
  // n-th match (matches overlap), 0 when there is none.
  EXPECT_EQ(Rows("SELECT INSTR('banana', 'an'), INSTR('banana', 'an', 1, 2), INSTR('banana', 'an', 1, 3), "
                 "INSTR('banana', 'an', 3, 1), INSTR('banana', 'an', -1, 1), INSTR('banana', 'an', -3, 1), "
                 "INSTR('banana', 'ann'), INSTR('helloooo', 'oo', 1, 2), INSTR('abcabc', 'bc', -1, 2), "
                 "INSTR('abc', 'b', 9), INSTR('ñaña', 'a', 1, 2), INSTR(b'\\x00ab', b'b') FROM mobile LIMIT 1"),
            (Lines{"2|4|0|4|4|4|0|6|2|0|4|3"}));
  EXPECT_EQ(Rows("SELECT LEFT('apple', 3), RIGHT('apple', 3), LEFT('añb', 2), RIGHT('añb', 2), LEFT('ab', 9), "
                 "RIGHT('ab', 0), TO_HEX(LEFT(b'\\xab\\xcd\\xef', 2)) FROM mobile LIMIT 1"),
            (Lines{"app|ple|añ|ñb|ab||abcd"}));
  EXPECT_EQ(Rows("SELECT LPAD('12345', 8, 'a'), LPAD('12345', 8), LPAD('12345', 8, 'aba'), LPAD('12345', 3), "
                 "RPAD('12345', 8, 'a'), RPAD('12345', 8, 'aba'), LPAD('hello world', 7), RPAD('ñ', 3, 'é'), "
                 "TO_HEX(LPAD(b'\\xaa', 4, b'\\xbb')), OCTET_LENGTH('ñ') FROM mobile LIMIT 1"),
            (Lines{"aaa12345|   12345|aba12345|123|12345aaa|12345aba|hello w|ñéé|bbbbbbaa|2"}));
  auto message = [&](const std::string& sql) { return Error(sql).message(); };
  EXPECT_NE(message("SELECT INSTR('a', 'a', 0) FROM mobile").find("position must not be 0"), std::string::npos);
  EXPECT_NE(message("SELECT INSTR('a', 'a', 1, 0) FROM mobile").find("occurrence must be positive"), std::string::npos);
  EXPECT_NE(message("SELECT LEFT('a', -1) FROM mobile").find("must not be negative"), std::string::npos);
  EXPECT_NE(message("SELECT LPAD('a', 3, '') FROM mobile").find("pattern must not be empty"), std::string::npos);
  EXPECT_NE(message("SELECT RPAD('a', -1) FROM mobile").find("must not be negative"), std::string::npos);
  EXPECT_EQ(message("SELECT LPAD('a', 3, b'x') FROM mobile").rfind("No matching signature for function LPAD", 0), 0u);
  EXPECT_EQ(Rows("SELECT LPAD(CAST(NULL AS STRING), 3) IS NULL, INSTR('a', CAST(NULL AS STRING)) IS NULL FROM mobile "
                 "LIMIT 1"),
            (Lines{"true|true"}));
}

// The trigonometric and hyperbolic functions, LOG with a base, IEEE_DIVIDE,
// IS_INF and IS_NAN: NaN outside a domain, an error at a pole or on
// overflow, as GoogleSQL's tables give them.
TEST_F(QueryTest, TrigonometryLogarithmsAndIeeeDivision) {
  EXPECT_EQ(Rows("SELECT ROUND(SIN(1.5707963267948966), 6), COS(0), ROUND(TAN(1), 6), ROUND(ASIN(1) * 2, 6), ACOS(1), "
                 "ROUND(ATAN(1) * 4, 6), ROUND(ATAN2(1, -1), 6), IS_NAN(ACOS(2)), IS_NAN(ASIN(-1.5)) "
                 "FROM mobile LIMIT 1"),
            (Lines{"1|1|1.557408|3.141593|0|3.141593|2.356194|true|true"}));
  EXPECT_EQ(Rows("SELECT ROUND(COT(1), 6), ROUND(CSC(1), 6), SEC(0), ROUND(SINH(1), 6), COSH(0), ROUND(TANH(1), 6), "
                 "ROUND(ASINH(1), 6), ACOSH(1), ROUND(ATANH(0.5), 6), IS_NAN(ACOSH(0.5)), ROUND(COTH(1), 6), "
                 "ROUND(CSCH(1), 6), SECH(0) FROM mobile LIMIT 1"),
            (Lines{"0.642093|1.188395|1|1.175201|1|0.761594|0.881374|0|0.549306|true|1.313035|0.850918|1"}));
  EXPECT_EQ(Rows("SELECT LOG(100, 10), LOG(8, 2), ROUND(LOG(10), 6), IEEE_DIVIDE(20, 4), IEEE_DIVIDE(1, 0), "
                 "IEEE_DIVIDE(-1, 0), IS_NAN(IEEE_DIVIDE(0, 0)), IS_INF(IEEE_DIVIDE(-1, 0)), IS_INF(1), IS_NAN(1) "
                 "FROM mobile LIMIT 1"),
            (Lines{"2|3|2.302585|5|inf|-inf|true|true|false|false"}));
  auto message = [&](const std::string& sql) { return Error(sql).message(); };
  for (const char* pole : {"COT(0)", "CSC(0)", "COTH(0)", "CSCH(0)"}) {
    EXPECT_NE(message(fmt::format("SELECT {} FROM mobile", pole)).find("pole at 0"), std::string::npos) << pole;
  }
  EXPECT_NE(message("SELECT COSH(1000) FROM mobile").find("overflow"), std::string::npos);
  EXPECT_NE(message("SELECT SINH(-1000) FROM mobile").find("overflow"), std::string::npos);
  EXPECT_NE(message("SELECT LOG(0) FROM mobile").find("not positive"), std::string::npos);
  EXPECT_NE(message("SELECT LOG(10, 1) FROM mobile").find("base must be positive and not 1"), std::string::npos);
  EXPECT_EQ(message("SELECT SIN('x') FROM mobile").rfind("No matching signature for function SIN", 0), 0u);
}

// The SAFE_ arithmetic functions: the operator's result, or NULL where it
// would fail.
TEST_F(QueryTest, SafeArithmeticIsNullWhereTheOperatorFails) {
  EXPECT_EQ(Rows("SELECT SAFE_ADD(5, 4), SAFE_SUBTRACT(5, 4), SAFE_MULTIPLY(20, 4), SAFE_DIVIDE(20, 4), "
                 "SAFE_NEGATE(1), SAFE_ADD(1.5, 1) FROM mobile LIMIT 1"),
            (Lines{"9|1|80|5|-1|2.5"}));
  EXPECT_EQ(Rows("SELECT SAFE_ADD(9223372036854775807, 1), SAFE_SUBTRACT(-9223372036854775807, 2), "
                 "SAFE_MULTIPLY(9223372036854775807, 2), SAFE_DIVIDE(1, 0), SAFE_DIVIDE(0, 0), "
                 "SAFE_NEGATE(-9223372036854775807 - 1), SAFE_MULTIPLY(1e308, 10) FROM mobile LIMIT 1"),
            (Lines{"NULL|NULL|NULL|NULL|NULL|NULL|NULL"}));
  auto message = [&](const std::string& sql) { return Error(sql).message(); };
  EXPECT_EQ(message("SELECT SAFE_ADD('a', 1) FROM mobile").rfind("No matching signature for function SAFE_ADD", 0), 0u);
  EXPECT_NE(message("SELECT 1 / 0 FROM mobile").find("division by zero"), std::string::npos) << "the operator fails";
}

// Base32 both ways, with RFC 4648's test vectors: padded out, read back
// with or without padding and in either case; other text is an error.
TEST_F(QueryTest, Base32BothWays) {
  EXPECT_EQ(Rows("SELECT TO_BASE32(b''), TO_BASE32(b'f'), TO_BASE32(b'fo'), TO_BASE32(b'foo'), TO_BASE32(b'foob'), "
                 "TO_BASE32(b'fooba'), TO_BASE32(b'foobar'), TO_BASE32(b'abcde\\xFF') FROM mobile LIMIT 1"),
            (Lines{"|MY======|MZXQ====|MZXW6===|MZXW6YQ=|MZXW6YTB|MZXW6YTBOI======|MFRGGZDF74======"}));
  EXPECT_EQ(Rows("SELECT CAST(FROM_BASE32('MZXW6YTBOI======') AS STRING), CAST(FROM_BASE32('mzxw6ytboi') AS STRING), "
                 "TO_HEX(FROM_BASE32('MFRGGZDF74======')), FROM_BASE32('') = b'' FROM mobile LIMIT 1"),
            (Lines{"foobar|foobar|6162636465ff|true"}));
  for (const char* bad : {"MZXW6YTBOI1=====", "M=======", "MZX"}) {
    EXPECT_NE(Error(fmt::format("SELECT FROM_BASE32('{}') FROM mobile", bad)).message().find("not valid base32"),
              std::string::npos)
        << bad;
  }
}

// Code points, with the reference's examples: CHR, UNICODE,
// TO_CODE_POINTS and back.
TEST_F(QueryTest, CodePointsOfTextAndBack) {
  // U+F9B5 is a CJK compatibility ideograph, EF A6 B5 in UTF-8.
  EXPECT_EQ(Rows("SELECT CHR(65), CHR(255), CHR(513), CHR(1024), CHR(97), CHR(0xF9B5), CHR(0) = '', "
                 "UNICODE('âbcd'), UNICODE(''), UNICODE('a') FROM mobile LIMIT 1"),
            (Lines{"A|ÿ|ȁ|Ѐ|a|\xEF\xA6\xB5|true|226|0|97"}));
  EXPECT_EQ(
      Rows("SELECT CODE_POINTS_TO_STRING([65, 255, 513, 1024]), CODE_POINTS_TO_STRING([97, 0, 0xF9B5]), "
           "CODE_POINTS_TO_STRING([65, 255, NULL, 1024]) IS NULL, TO_HEX(CODE_POINTS_TO_BYTES([65, 98, 67, 100])), "
           "ARRAY_LENGTH(TO_CODE_POINTS('例a')), TO_CODE_POINTS('例a')[OFFSET(0)], "
           "TO_CODE_POINTS(b'\\xffA')[OFFSET(0)], CODE_POINTS_TO_STRING(TO_CODE_POINTS('ñandú')) "
           "FROM mobile LIMIT 1"),
      (Lines{"AÿȁЀ|a\xEF\xA6\xB5|true|41624364|2|20363|255|ñandú"}));
  auto message = [&](const std::string& sql) { return Error(sql).message(); };
  EXPECT_NE(message("SELECT CHR(0xD800) FROM mobile").find("not a valid Unicode code point"), std::string::npos);
  EXPECT_NE(message("SELECT CHR(-1) FROM mobile").find("not a valid Unicode code point"), std::string::npos);
  EXPECT_NE(message("SELECT CODE_POINTS_TO_STRING([0x110000]) FROM mobile").find("not a valid Unicode code point"),
            std::string::npos);
  EXPECT_NE(message("SELECT CODE_POINTS_TO_BYTES([256]) FROM mobile").find("not a byte"), std::string::npos);
  EXPECT_EQ(message("SELECT UNICODE(b'a') FROM mobile").rfind("No matching signature for function UNICODE", 0), 0u);
}

// ARRAY_CONCAT and GENERATE_ARRAY, with the reference's examples.
TEST_F(QueryTest, ArraysConcatenatedAndGenerated) {
  EXPECT_EQ(
      Rows(
          "SELECT ARRAY_LENGTH(ARRAY_CONCAT([1, 2], [3, 4], [5, 6])), ARRAY_CONCAT([1, 2], [3, 4], [5, 6])[OFFSET(4)], "
          "ARRAY_LENGTH(GENERATE_ARRAY(1, 5)), GENERATE_ARRAY(0, 10, 3)[OFFSET(3)], "
          "ARRAY_LENGTH(GENERATE_ARRAY(0, 10, 3)), GENERATE_ARRAY(10, 0, -3)[OFFSET(3)], "
          "ARRAY_LENGTH(GENERATE_ARRAY(2, 2)), ARRAY_LENGTH(GENERATE_ARRAY(10, 0)), "
          "GENERATE_ARRAY(0.5, 2.5)[OFFSET(2)], ARRAY_LENGTH(GENERATE_ARRAY(0, 1, 0.25)), "
          "GENERATE_ARRAY(9223372036854775806, 9223372036854775807)[OFFSET(1)] FROM mobile LIMIT 1"),
      (Lines{"6|5|5|9|4|1|1|0|2.5|5|9223372036854775807"}));
  EXPECT_EQ(
      Rows("SELECT GENERATE_ARRAY(5, CAST(NULL AS INT64)) IS NULL, ARRAY_LENGTH(ARRAY_CONCAT([b'x'], MAP_KEYS(cell))) "
           "FROM mobile WHERE _key = 'phone#4c410523#20190502'"),
      (Lines{"true|1"}));
  auto message = [&](const std::string& sql) { return Error(sql).message(); };
  EXPECT_NE(message("SELECT GENERATE_ARRAY(1, 5, 0) FROM mobile").find("step must not be 0"), std::string::npos);
  EXPECT_NE(message("SELECT GENERATE_ARRAY(0, 9223372036854775807) FROM mobile").find("at most"), std::string::npos);
  EXPECT_EQ(message("SELECT ARRAY_CONCAT([1], ['a']) FROM mobile")
                .rfind("No matching signature for function ARRAY_CONCAT", 0),
            0u);
}

// Readings for the statistical and bitwise aggregates: INT64 values in an
// intsum family, grouped by the key's first letter. Group a is the
// textbook series 2 4 4 4 5 5 7 9 (mean 5, population deviation 2); b has
// one value; c none (its row has another column); d sits 10^9 off zero.
class AggregateStatsTest : public QueryTest {
 protected:
  void SetUp() override {
    QueryTest::SetUp();
    ASSERT_OK(bigtable_->CreateTable("readings", {{"m", GcRule::Never(), ValueType::kIntSum}}, {}, false));
    int i = 0;
    for (int64_t v : {2, 4, 4, 4, 5, 5, 7, 9}) Add(fmt::format("a#{}", i++), "v", v);
    Add("b#0", "v", 7);
    Add("c#0", "w", 1);
    for (int64_t v : {4, 7, 13, 16}) Add(fmt::format("d#{}", v), "v", 1'000'000'000 + v);
  }
  void Add(const std::string& row, const std::string& column, int64_t v) {
    ASSERT_OK(bigtable_->MutateRow("readings", row, {Mutation::SetCell("m", column, EncodeInt64(v), 1000)}));
  }
};

TEST_F(AggregateStatsTest, VariancesAndDeviationsOfIntegers) {
  EXPECT_EQ(Rows("SELECT STDDEV_POP(m['v']), VAR_POP(m['v']), VAR_SAMP(m['v']), VARIANCE(m['v']), "
                 "STDDEV(m['v']) = STDDEV_SAMP(m['v']) FROM readings WHERE _key LIKE 'a#%'"),
            (Lines{"2|4|4.571428571428571|4.571428571428571|true"}));
  // Sums of squares would lose every digit here (they give -170.67).
  EXPECT_EQ(Rows("SELECT VAR_SAMP(m['v']), VAR_POP(m['v']) FROM readings WHERE _key LIKE 'd#%'"), (Lines{"30|22.5"}));
}

// NULLs are passed over: one value gives the population forms 0 and the
// sample forms NULL; none gives NULL, in a group and over no rows at all.
TEST_F(AggregateStatsTest, NullsOneRowAndNoRowsPerGroup) {
  EXPECT_EQ(Rows("SELECT SUBSTR(CAST(_key AS STRING), 1, 1) AS g, COUNT(m['v']), STDDEV_POP(m['v']), "
                 "STDDEV_SAMP(m['v']), COVAR_POP(m['v'], m['v']), COVAR_SAMP(m['v'], m['v']), "
                 "CORR(m['v'], 2 * m['v'] + 1) FROM readings WHERE _key < 'd' GROUP BY g ORDER BY g"),
            (Lines{"a|8|2|2.138089935299395|4|4.571428571428571|1", "b|1|0|NULL|0|NULL|NULL",
                   "c|0|NULL|NULL|NULL|NULL|NULL"}));
  // A pair with either side NULL is passed over: a's pairs with w are none.
  EXPECT_EQ(Rows("SELECT COVAR_POP(m['v'], m['w']), CORR(m['w'], m['v']) FROM readings"), (Lines{"NULL|NULL"}));
  EXPECT_EQ(Rows("SELECT VARIANCE(m['v']), STDDEV_POP(m['v']), COVAR_POP(m['v'], m['v']), CORR(m['v'], m['v']), "
                 "BIT_AND(m['v']), BIT_OR(m['v']), BIT_XOR(m['v']) FROM readings WHERE _key = 'none'"),
            (Lines{"NULL|NULL|NULL|NULL|NULL|NULL|NULL"}));
}

// INT64 and FLOAT64 mix in one call; NaN or an infinity makes the result
// NaN, and so does a series without variance for CORR.
TEST_F(AggregateStatsTest, MixedTypesNaNAndInfinity) {
  EXPECT_EQ(Rows("SELECT CORR(m['v'], -0.5 * m['v']), COVAR_SAMP(CAST(m['v'] AS FLOAT64), m['v']) FROM readings "
                 "WHERE _key LIKE 'a#%'"),
            (Lines{"-1|4.571428571428571"}));
  EXPECT_EQ(Rows("SELECT VAR_POP(IF(m['v'] = 9, CAST('inf' AS FLOAT64), m['v'])), "
                 "STDDEV_SAMP(IF(m['v'] = 9, CAST('nan' AS FLOAT64), m['v'])), "
                 "CORR(m['v'], IF(m['v'] = 2, CAST('-inf' AS FLOAT64), m['v'])) FROM readings WHERE _key LIKE 'a#%'"),
            (Lines{"nan|nan|nan"}));
  EXPECT_EQ(Rows("SELECT VAR_POP(CAST('inf' AS FLOAT64)), CORR(m['v'], 3) FROM readings WHERE _key LIKE 'a#%'"),
            (Lines{"nan|nan"}));
}

TEST_F(AggregateStatsTest, BitAggregatesOfIntegersPerGroup) {
  // a: 2 4 4 4 5 5 7 9; b: 7; c: no value.
  EXPECT_EQ(Rows("SELECT SUBSTR(CAST(_key AS STRING), 1, 1) AS g, BIT_AND(m['v']), BIT_OR(m['v']), BIT_XOR(m['v']) "
                 "FROM readings WHERE _key < 'd' GROUP BY g ORDER BY g"),
            (Lines{"a|0|15|8", "b|7|7|7", "c|NULL|NULL|NULL"}));
  EXPECT_EQ(Rows("SELECT BIT_AND(-1 - m['v']), BIT_OR(-m['v']) FROM readings WHERE _key LIKE 'a#%'"),
            (Lines{"-16|-1"}));
}

// A wrong argument is one line naming the function as called, alias
// included.
TEST_F(AggregateStatsTest, WrongArgumentTypesNameTheFunction) {
  auto message = [&](const std::string& sql) { return Error(sql).message(); };
  EXPECT_EQ(message("SELECT STDDEV(_key) FROM readings"),
            "No matching signature for aggregate function STDDEV for argument types: BYTES [at 1:8]");
  EXPECT_EQ(message("SELECT VARIANCE(m['v'] > 1) FROM readings"),
            "No matching signature for aggregate function VARIANCE for argument types: BOOL [at 1:8]");
  EXPECT_EQ(message("SELECT CORR(m['v']) FROM readings"),
            "No matching signature for aggregate function CORR for argument types: INT64 [at 1:8]");
  EXPECT_EQ(message("SELECT COVAR_POP(m['v'], 'x') FROM readings"),
            "No matching signature for aggregate function COVAR_POP for argument types: INT64, STRING [at 1:8]");
  EXPECT_EQ(message("SELECT BIT_XOR(1.5) FROM readings"),
            "No matching signature for aggregate function BIT_XOR for argument types: FLOAT64 [at 1:8]");
  EXPECT_EQ(message("SELECT BIT_AND(_key) FROM readings"),
            "No matching signature for aggregate function BIT_AND for argument types: BYTES [at 1:8]");
}

// Production keeps BIT_AND, BIT_OR and BIT_XOR in materialized views, and
// not the statistical aggregates.
TEST_F(AggregateStatsTest, MaterializedViewsKeepBitAggregatesOnly) {
  Result<std::string> bits = CheckMaterializedViewQuery(
      bigtable_.get(), "SELECT _key AS k, BIT_OR(m['v']) AS b, BIT_XOR(m['v']) AS x FROM readings GROUP BY k");
  EXPECT_TRUE(bits.ok()) << bits.status().ToString();
  Result<std::string> stats =
      CheckMaterializedViewQuery(bigtable_.get(), "SELECT _key AS k, STDDEV(m['v']) AS s FROM readings GROUP BY k");
  ASSERT_FALSE(stats.ok());
  EXPECT_NE(stats.status().message().find("(GoogleSQL:stddev is not stable)"), std::string::npos)
      << stats.status().ToString();
}

TEST_F(QueryTest, DateArithmeticArrayConcatenationAndFloatOverflow) {
  EXPECT_EQ(Rows("SELECT DATE '2024-02-28' + 1, 2 + DATE '2024-12-31', DATE '2024-03-01' - 1, [1, 2] || [3] "
                 "FROM mobile LIMIT 1"),
            (Lines{"2024-02-29|2025-01-02|2024-02-29|[1, 2, 3]"}));
  EXPECT_NE(Error("SELECT DATE '9999-12-31' + 1 FROM mobile").message().find("DATE out of range"), std::string::npos);
  // Infinities only from operands that are infinite already.
  EXPECT_NE(Error("SELECT 1e308 * 10 FROM mobile").message().find("floating point overflow"), std::string::npos);
  EXPECT_NE(Error("SELECT 1e308 / 1e-10 FROM mobile").message().find("floating point overflow"), std::string::npos);
  EXPECT_EQ(Rows("SELECT CAST('inf' AS FLOAT64) * 2 FROM mobile LIMIT 1"), (Lines{"inf"}));
}

TEST_F(QueryTest, TimeRangeOptionsNeedHistory) {
  // Bigtable takes after/before only with history; as_of gives the latest
  // values at a time.
  EXPECT_EQ(Error("SELECT _key FROM mobile(after => TIMESTAMP_MICROS(1000))").message(),
            "after needs with_history => TRUE (as_of reads the latest values at a time) [at 1:34]");
  EXPECT_FALSE(Error("SELECT _key FROM mobile(before_or_equal => TIMESTAMP_MICROS(1000))").ok());
  EXPECT_EQ(
      Rows("SELECT ARRAY_LENGTH(cell['data_plan']) FROM mobile(with_history => TRUE, after => TIMESTAMP_MICROS(1000)) "
           "WHERE _key = 'phone#4c410523#20190501'"),
      (Lines{"1"}));
}

TEST_F(QueryTest, UnknownTableIsNotFoundWithItsPlace) {
  Status s = Error("SELECT _key FROM missing");
  EXPECT_TRUE(s.IsNotFound());
  EXPECT_EQ(s.message(), "Table not found: missing [at 1:18]");
  EXPECT_EQ(Error("SELECT _key FROM UNPACK((SELECT _key FROM gone(with_history => TRUE)))").message(),
            "Table not found: gone [at 1:43]");
}

// Text columns read as numbers take a shorter path (CAST(CAST(b AS STRING)
// AS T) converts the bytes in place, and plain decimals skip the C
// library): it must give what the cast of a STRING gives, errors included.
TEST_F(QueryTest, TextColumnsCastToNumbersAsStringsDo) {
  const std::vector<std::string> texts = {"63.46",
                                          "-0.5",
                                          "7",
                                          "-12",
                                          "007.50",
                                          ".5",
                                          "5.",
                                          "1e3",
                                          "1.5E-2",
                                          " 5",
                                          "+5",
                                          "0x1F",
                                          "inf",
                                          "-inf",
                                          "nan",
                                          "0.1",
                                          "123456789012345.6",
                                          "1234567890123456.7",
                                          "9223372036854775807",
                                          "9223372036854775808",
                                          "-9223372036854775808",
                                          "abc",
                                          "",
                                          "-",
                                          ".",
                                          "1.2.3",
                                          "\xff"};
  ASSERT_OK(bigtable_->CreateTable("text", {{"m", GcRule::Never(), ValueType::kBytes}}, {}, false));
  for (size_t i = 0; i < texts.size(); ++i) {
    ASSERT_OK(bigtable_->MutateRow("text", fmt::format("r{:02d}", i), {Mutation::SetCell("m", "v", texts[i], 1000)}));
  }
  for (const char* type : {"FLOAT64", "INT64", "FLOAT32", "BOOL", "TIMESTAMP"}) {
    for (size_t i = 0; i < texts.size(); ++i) {
      const std::string where = fmt::format(" FROM text WHERE _key = 'r{:02d}'", i);
      const std::string fused = fmt::format("SELECT SAFE_CAST(CAST(m['v'] AS STRING) AS {})", type) + where;
      const std::string general =
          fmt::format("SELECT SAFE_CAST(SAFE_CONVERT_BYTES_TO_STRING(m['v']) AS {})", type) + where;
      if (texts[i] == "\xff") {  // not UTF-8: the inner CAST fails, or gives NULL when it is SAFE
        EXPECT_NE(Error(fused).message().find("Invalid UTF-8"), std::string::npos);
        EXPECT_EQ(Rows(fmt::format("SELECT CAST(SAFE_CAST(m['v'] AS STRING) AS {})", type) + where), (Lines{"NULL"}));
        continue;
      }
      EXPECT_EQ(Rows(fused), Rows(general)) << type << " of '" << texts[i] << "'";
      Status strict = Error(fmt::format("SELECT CAST(CAST(m['v'] AS STRING) AS {})", type) + where);
      Status strict_general =
          Error(fmt::format("SELECT CAST(SAFE_CONVERT_BYTES_TO_STRING(m['v']) AS {})", type) + where);
      EXPECT_EQ(strict.message(), strict_general.message()) << type << " of '" << texts[i] << "'";
    }
  }
  // Decimal text reads as the same number as the literal written alike.
  for (size_t i : {0, 1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 17}) {
    EXPECT_EQ(Rows(fmt::format("SELECT CAST(CAST(m['v'] AS STRING) AS FLOAT64) = {} FROM text WHERE _key = 'r{:02d}'",
                               texts[i], i)),
              (Lines{"true"}))
        << texts[i];
  }
  EXPECT_EQ(Rows("SELECT SUM(SAFE_CAST(CAST(m['v'] AS STRING) AS INT64)), COUNT(*) FROM text WHERE _key < 'r04'"),
            (Lines{"-5|4"}));
}

TEST(Utf8Test, OnlyWellFormedUtf8IsValid) {
  for (const char* good : {"", "abc", "h\xc3\xa9llo", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf",
                           "\xed\x9f\xbf", "ascii long enough for the 8-byte path \xc3\xa9"}) {
    EXPECT_TRUE(IsValidUtf8(good)) << good;
  }
  // Overlong forms, surrogates, past U+10FFFF, truncated and stray bytes.
  for (const char* bad : {"\xc0\x80", "\xc1\xbf", "\xe0\x80\x80", "\xf0\x80\x80\x80", "\xed\xa0\x80", "\xed\xbf\xbf",
                          "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "\xc3", "\x80", "abcdefgh\xff"}) {
    EXPECT_FALSE(IsValidUtf8(bad)) << bad;
  }
}

TEST_F(QueryTest, CastOfBytesToStringRefusesMalformedUtf8) {
  EXPECT_NE(Error("SELECT CAST(b'\\xc0\\x80' AS STRING) FROM mobile").message().find("Invalid UTF-8"),
            std::string::npos);
  EXPECT_EQ(Rows("SELECT SAFE_CAST(b'\\xed\\xa0\\x80' AS STRING), SAFE_CONVERT_BYTES_TO_STRING(b'a\\xc0\\x80') "
                 "FROM mobile LIMIT 1"),
            (Lines{"NULL|a\uFFFD\uFFFD"}));
}

// The decimal fast path gives strtod's double, bit for bit.
TEST(ParsePlainNumberTest, DecimalsMatchStrtod) {
  std::mt19937_64 rng(7);
  for (int n = 0; n < 200000; ++n) {
    std::string text = rng() % 4 == 0 ? "-" : "";
    const int digits = 1 + static_cast<int>(rng() % 18);
    const int point = static_cast<int>(rng() % (digits + 2)) - 1;  // -1: none
    for (int i = 0; i < digits; ++i) {
      if (i == point) text += '.';
      text += static_cast<char>('0' + rng() % 10);
    }
    Value v;
    const double expected = std::strtod(text.c_str(), nullptr);
    ASSERT_TRUE(ParsePlainNumber(text, TypeKind::kFloat64, &v)) << text;
    ASSERT_EQ(v.kind(), TypeKind::kFloat64);
    const double got = v.float64();
    ASSERT_EQ(std::memcmp(&expected, &got, sizeof expected), 0) << text;
  }
  Value v;
  EXPECT_FALSE(ParsePlainNumber("0x1p3", TypeKind::kFloat64, &v));
  EXPECT_FALSE(ParsePlainNumber(" 1", TypeKind::kFloat64, &v));
  EXPECT_FALSE(ParsePlainNumber("1.5", TypeKind::kInt64, &v));
  EXPECT_TRUE(ParsePlainNumber("-42", TypeKind::kInt64, &v));
  EXPECT_EQ(v.int64(), -42);
}

// The read planner alone: a query bound to the seeds' mobile table (no
// database), and what it would read.
class ReadPlannerTest : public ::testing::Test {
 protected:
  ReadPlannerTest() {
    table_.name = "mobile";
    table_.AddFamily({"stats_summary", GcRule::Never(), ValueType::kBytes});
    table_.AddFamily({"cell", GcRule::MaxVersions(3), ValueType::kBytes});
    table_.AddFamily({"clicks", GcRule::Never(), ValueType::kIntSum});
  }

  // Binds `sql` and plans its read into read_.
  void Plan(const std::string& sql, const ParamTypes& params = {}) {
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<Select> select, Parse(sql));
    ASSERT_OK_AND_ASSIGN(query_, Bind(std::move(select), table_, params, sql));
    read_ = PlanRead(query_.get());
  }

  // The key ranges an execution with `params` reads.
  std::string Ranges(const Params& params = {}) const {
    Evaluator constants(params);
    Result<KeyRangeSet> ranges = PlanRowRanges(*query_, constants);
    return ranges.ok() ? ranges->ToString() : ranges.status().ToString();
  }

  // Which families the scan reads, and how: "stats_summary:- cell:columns
  // clicks:map" (- for not at all).
  std::string Families() const {
    std::string out;
    for (size_t i = 0; i < read_.families.size(); ++i) {
      const FamilyRead& f = read_.families[i];
      out += (i ? " " : "") + query_->families[i].name + ":" + (!f.read ? "-" : f.as_map ? "map" : "columns");
      for (const std::string& q : f.only_columns) out += "[" + q + "]";
    }
    return out;
  }

  // The read's filter in short: chain(family(a|b), limit(1), strip), ...
  static std::string FilterText(const Filter& f) {
    std::string children;
    for (const Filter& c : f.children) children += (children.empty() ? "" : ", ") + FilterText(c);
    switch (f.kind) {
      case Filter::Kind::kChain: return "chain(" + children + ")";
      case Filter::Kind::kInterleave: return "interleave(" + children + ")";
      case Filter::Kind::kFamilyNameRegex: return "family" + f.pattern;
      case Filter::Kind::kCellsPerRowLimit: return fmt::format("row_limit({})", f.count);
      case Filter::Kind::kCellsPerColumnLimit: return fmt::format("column_limit({})", f.count);
      case Filter::Kind::kStripValue: return "strip";
      case Filter::Kind::kTimestampRange: return fmt::format("time[{}, {})", f.start_micros, f.end_micros);
      default: return "other";
    }
  }
  std::string FilterText() const { return read_.request.filter ? FilterText(*read_.request.filter) : "none"; }

  TableSpec table_;
  std::unique_ptr<BoundQuery> query_;
  ReadPlan read_;
};

// `cf['q']` of a family without history becomes an input slot of its own,
// holding the column's latest value; the other families are read only for
// one stripped cell, so that every row still counts.
TEST_F(ReadPlannerTest, ConstantSubscriptsBecomeCellColumnsAndUnusedFamiliesAreLeftOut) {
  Plan("SELECT cell['data_plan'], _key FROM mobile WHERE _key >= 'phone#' AND _key < 'phone$'");
  ASSERT_EQ(read_.cell_columns.size(), 1u);
  EXPECT_EQ(read_.cell_columns[0].family, 1u);
  EXPECT_EQ(read_.cell_columns[0].qualifier, "data_plan");
  EXPECT_EQ(query_->select[0]->kind, ExprKind::kSlot);
  EXPECT_EQ(query_->select[0]->slot, 4);  // after _key and the three families
  EXPECT_EQ(InputSlotNames(*query_, read_),
            (std::vector<std::string>{"_key", "stats_summary", "cell", "clicks", "cell['data_plan']"}));
  EXPECT_TRUE(read_.key_used);
  EXPECT_EQ(Families(), "stats_summary:- cell:columns clicks:-");
  EXPECT_EQ(FilterText(), "interleave(family(cell), chain(family(stats_summary|clicks), row_limit(1), strip))");
  EXPECT_EQ(read_.request.cells_per_column_limit, 1);
  EXPECT_EQ(Ranges(), "[phone#, phone$)");
}

TEST_F(ReadPlannerTest, CountStarReadsOneStrippedCellPerRowAndNoKey) {
  Plan("SELECT COUNT(*) FROM mobile");
  EXPECT_FALSE(read_.key_used);
  EXPECT_TRUE(read_.cell_columns.empty());
  EXPECT_EQ(Families(), "stats_summary:- cell:- clicks:-");
  EXPECT_EQ(FilterText(), "chain(row_limit(1), strip)");
  EXPECT_EQ(Ranges(), "all rows");
}

// With history a column is an array of cells, so a subscript narrows the
// family's map to the columns named instead.
TEST_F(ReadPlannerTest, HistorySubscriptsNarrowTheFamilysMap) {
  Plan("SELECT cell['data_plan'], MAP_KEYS(stats_summary) FROM mobile(with_history => TRUE, latest_n => 2)");
  EXPECT_TRUE(read_.cell_columns.empty());
  EXPECT_EQ(Families(), "stats_summary:map cell:map[data_plan] clicks:-");
  EXPECT_EQ(read_.request.cells_per_column_limit, 2);
  EXPECT_FALSE(read_.key_used);
}

TEST_F(ReadPlannerTest, TimeOptionsBecomeTheReadsFilter) {
  Plan("SELECT cell FROM mobile(as_of => TIMESTAMP_MICROS(1500))");
  EXPECT_EQ(FilterText(),
            "chain(chain(time[0, 2000), column_limit(1)), "
            "interleave(family(cell), chain(family(stats_summary|clicks), row_limit(1), strip)))");
}

// UNPACK's timestamps come from every cell of the families it reads, so
// they are read whole, never as cell columns.
TEST_F(ReadPlannerTest, UnpackReadsWholeFamilies) {
  Plan("SELECT _key, cell['data_plan'] FROM UNPACK((SELECT _key, cell FROM mobile(with_history => TRUE)))");
  EXPECT_TRUE(read_.cell_columns.empty());
  EXPECT_TRUE(read_.key_used);
  EXPECT_EQ(Families(), "cell:map");
}

// Ranges are planned per execution: a parameter moves them.
TEST_F(ReadPlannerTest, KeyRangesFollowEachExecutionsParameters) {
  Plan("SELECT _key FROM mobile WHERE _key = @k OR STARTS_WITH(_key, 'tablet')", {{"k", Type::Bytes()}});
  EXPECT_EQ(Ranges({{"k", Value::Bytes("phone#1")}}), "[phone#1], [tablet, tableu)");
  EXPECT_EQ(Ranges({{"k", Value::Bytes("a")}}), "[a], [tablet, tableu)");
  EXPECT_EQ(Ranges({{"k", Value::Null(Type::Bytes())}}), "[tablet, tableu)");
}

// Each family registers its functions through the one list in
// FunctionRegistry::Builtins(): a function of every family is found, with
// its check and its evaluation; aggregates are looked up apart.
TEST(FunctionRegistryTest, EveryFamilyIsRegistered) {
  for (const char* name : {"$add", "$bitand", "$eq", "CONCAT", "REGEXP_CONTAINS", "TO_HEX", "MAP_KEYS", "ARRAY_LENGTH",
                           "TIMESTAMP_TRUNC"}) {
    const Function* f = FindFunction(name);
    ASSERT_NE(f, nullptr) << name;
    EXPECT_EQ(f->name, name);
    EXPECT_NE(f->check, nullptr) << name;
    EXPECT_NE(f->eval, nullptr) << name;
  }
  EXPECT_TRUE(FindFunction("$in")->handles_nulls);
  EXPECT_FALSE(FindFunction("$eq")->handles_nulls);
  for (const char* name : {"SUM", "CORR", "STDDEV", "VARIANCE", "BIT_XOR"})
    ASSERT_NE(FindAggregate(name), nullptr) << name;
  EXPECT_EQ(FindFunction("SUM"), nullptr);
  EXPECT_EQ(FindAggregate("CONCAT"), nullptr);
  EXPECT_EQ(FindFunction("NO_SUCH_FUNCTION"), nullptr);
}

TEST(LikeTest, WildcardsAndEscapes) {
  EXPECT_TRUE(Like("phone#1", "phone#%", false));
  EXPECT_TRUE(Like("abc", "a_c", false));
  EXPECT_FALSE(Like("abd", "a_c", false));
  EXPECT_TRUE(Like("a%c", "a\\%c", false));
  EXPECT_FALSE(Like("abc", "a\\%c", false));
  EXPECT_TRUE(Like("ünï", "_n_", true));
}

TEST(ParserTest, TimestampsRoundTrip) {
  int64_t micros = 0;
  ASSERT_TRUE(ParseTimestamp("2024-02-29 12:34:56.789+01:00", &micros));
  EXPECT_EQ(FormatTimestamp(micros), "2024-02-29 11:34:56.789+00");
  EXPECT_EQ(FormatTimestampRfc3339(micros), "2024-02-29T11:34:56.789000Z");
  EXPECT_FALSE(ParseTimestamp("2023-02-29", &micros));
}

}  // namespace
}  // namespace lbt::sql
