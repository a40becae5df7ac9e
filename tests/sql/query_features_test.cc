// Query features beyond a plain SELECT: DISTINCT aggregates, SELECT *
// EXCEPT/REPLACE, window function calls. Results are worked out from
// GoogleSQL's documented semantics (Bigtable's reference pages; BigQuery's
// and Spanner's where Bigtable's is thin, as each test says).

#include <gtest/gtest.h>

#include "local/local_bigtable.h"
#include "sql/query.h"
#include "tests/sql/query_lines.h"
#include "tests/test_util.h"

namespace lbt::sql {
namespace {

using Lines = std::vector<std::string>;

class QueryFeaturesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bigtable_ = std::make_unique<LocalBigtable>(dir_.Sub("db"), DatabaseOptions{});
    // Games, tall and narrow (the seeds' layout): game#player#day.
    ASSERT_OK(bigtable_->CreateTable(
        "games", {{"g", GcRule::Never(), ValueType::kString}, {"n", GcRule::Never(), ValueType::kIntSum}}, {}, false));
    Put("LoL#Corrie#20150301", "false", 4, 10);
    Put("LoL#Corrie#20150303", "true", 9, 30);
    Put("LoL#Jo#20150302", "true", 7, 20);
    Put("LoL#Sam#20150302", "true", 7, 20);
    Put("Starcraft#Eriko#20150303", "true", 6, 5);
    Put("Starcraft#Eriko#20150304", "false", 2, 5);
  }

  void Put(const std::string& key, const std::string& win, int64_t kda, int64_t score) {
    ASSERT_OK(bigtable_->MutateRow(
        "games", key,
        {Mutation::SetCell("g", "win", win, 1000), Mutation::SetCell("g", "kda", std::to_string(kda), 1000),
         Mutation::AddToCell("n", "score", score, 1000)}));
  }

  Lines Rows(const std::string& query) {
    Result<testing::QueryResult> r = testing::RunQuery(bigtable_.get(), query);
    EXPECT_TRUE(r.ok()) << query << ": " << r.status().ToString();
    return r.ok() ? r->lines : Lines{};
  }

  std::string Error(const std::string& query) {
    Result<testing::QueryResult> r = testing::RunQuery(bigtable_.get(), query);
    EXPECT_FALSE(r.ok()) << query;
    return r.ok() ? "" : r.status().message();
  }

  testing::TempDir dir_;
  std::unique_ptr<LocalBigtable> bigtable_;
};

// ---- DISTINCT in aggregate calls (Bigtable's aggregate-function-calls page:
// `function_name([DISTINCT] function_arguments)`) ----

TEST_F(QueryFeaturesTest, DistinctAggregatesCountEachValueOnce) {
  EXPECT_EQ(Rows("SELECT COUNT(DISTINCT g['kda']) AS kdas, COUNT(g['kda']) AS all_kdas, "
                 "SUM(DISTINCT n['score']) AS s, SUM(n['score']) AS total FROM games"),
            (Lines{"5|6|65|90"}));
  // Per group, with NULLs left out as COUNT leaves them out.
  EXPECT_EQ(Rows("SELECT SPLIT(_key, '#')[OFFSET(0)] AS game, COUNT(DISTINCT g['win']) AS outcomes, "
                 "COUNT(DISTINCT g['nothing']) AS none, ARRAY_AGG(DISTINCT g['kda']) AS kdas FROM games "
                 "GROUP BY game ORDER BY game"),
            (Lines{"LoL|2|0|[4, 9, 7]", "Starcraft|2|0|[6, 2]"}));
  EXPECT_EQ(Rows("SELECT STRING_AGG(DISTINCT g['win'], ',') AS w FROM games"), (Lines{"false,true"}));
}

TEST_F(QueryFeaturesTest, DistinctNeedsAnAggregateAndAGroupableArgument) {
  EXPECT_NE(Error("SELECT UPPER(DISTINCT g['win']) FROM games")
                .find("Non-aggregate function UPPER does not "
                      "support DISTINCT"),
            std::string::npos);
  EXPECT_NE(Error("SELECT COUNT(DISTINCT g) FROM games").find("DISTINCT cannot be used with arguments of type MAP"),
            std::string::npos);
  EXPECT_NE(Error("SELECT COUNT(DISTINCT *) FROM games").find("Syntax error"), std::string::npos);
}

// ---- SELECT * EXCEPT / REPLACE (Bigtable's query-syntax page: select_all) ----

TEST_F(QueryFeaturesTest, SelectStarExceptAndReplace) {
  EXPECT_EQ(Rows("SELECT * EXCEPT (g) FROM games WHERE _key = 'LoL#Jo#20150302'"),
            (Lines{"LoL#Jo#20150302|{score: 20}"}));
  EXPECT_EQ(Rows("SELECT * EXCEPT (_key, n) REPLACE (g['kda'] AS g) FROM games WHERE _key = 'LoL#Jo#20150302'"),
            (Lines{"7"}));
  Result<testing::QueryResult> r =
      testing::RunQuery(bigtable_.get(), "SELECT * REPLACE (UPPER(CAST(_key AS STRING)) AS _key) FROM games LIMIT 1");
  ASSERT_OK(r.status());
  ASSERT_EQ(r->columns.size(), 3u);
  EXPECT_EQ(r->columns[0].name, "_key");
  EXPECT_EQ(r->columns[0].type->kind, TypeKind::kString);
  EXPECT_EQ(r->lines[0].substr(0, 20), "LOL#CORRIE#20150301|");
}

TEST_F(QueryFeaturesTest, ExceptAndReplaceNameColumnsThatExist) {
  EXPECT_NE(Error("SELECT * EXCEPT (nope) FROM games").find("Column nope in SELECT * EXCEPT list does not exist"),
            std::string::npos);
  EXPECT_NE(Error("SELECT * EXCEPT (g, g) FROM games").find("Duplicate column g in SELECT * EXCEPT list"),
            std::string::npos);
  EXPECT_NE(Error("SELECT * REPLACE (1 AS nope) FROM games")
                .find("Column nope in SELECT * REPLACE list does not "
                      "exist"),
            std::string::npos);
  EXPECT_NE(Error("SELECT * REPLACE (1) FROM games").find("Expected AS and a column name"), std::string::npos);
}

// ---- window function calls (Bigtable's window-function-calls, numbering
// and navigation pages; frames' semantics as BigQuery's page states them) ----

class WindowTest : public QueryFeaturesTest {
 protected:
  void SetUp() override {
    QueryFeaturesTest::SetUp();
    ASSERT_OK(bigtable_->CreateTable(
        "xs", {{"n", GcRule::Never(), ValueType::kIntSum}, {"s", GcRule::Never(), ValueType::kString}}, {}, false));
    // The numbering page's example values, x IN (1, 2, 2, 5, 8, 10, 10), in
    // two groups; one more row with no x.
    const int64_t xs[] = {1, 2, 2, 5, 8, 10, 10};
    for (int i = 0; i < 7; ++i) {
      ASSERT_OK(bigtable_->MutateRow(
          "xs", "k" + std::to_string(i + 1),
          {Mutation::AddToCell("n", "x", xs[i], 1000), Mutation::SetCell("s", "group", i < 4 ? "a" : "b", 1000)}));
    }
    ASSERT_OK(bigtable_->MutateRow("xs", "k8", {Mutation::SetCell("s", "group", "b", 1000)}));
  }
};

TEST_F(WindowTest, NumberingFunctionsOfTheReferenceExample) {
  EXPECT_EQ(Rows("SELECT n['x'] AS x, ROW_NUMBER() OVER (ORDER BY n['x']) AS row_num, "
                 "RANK() OVER (ORDER BY n['x']) AS rank, DENSE_RANK() OVER (ORDER BY n['x']) AS dense, "
                 "NTILE(2) OVER (ORDER BY n['x']) AS tile FROM xs WHERE _key != 'k8' ORDER BY x"),
            (Lines{"1|1|1|1|1", "2|2|2|2|1", "2|3|2|2|1", "5|4|4|3|1", "8|5|5|4|2", "10|6|6|5|2", "10|7|6|5|2"}));
  EXPECT_EQ(Rows("SELECT n['x'] AS x, ROUND(PERCENT_RANK() OVER (ORDER BY n['x']), 6) AS pr, "
                 "ROUND(CUME_DIST() OVER (ORDER BY n['x']), 6) AS cd FROM xs WHERE _key != 'k8' ORDER BY x"),
            (Lines{"1|0|0.142857", "2|0.166667|0.428571", "2|0.166667|0.428571", "5|0.5|0.571429",
                   "8|0.666667|0.714286", "10|0.833333|1", "10|0.833333|1"}));
  // Per partition, NULLs first in ascending order; peers tie.
  EXPECT_EQ(Rows("SELECT _key, RANK() OVER (PARTITION BY s['group'] ORDER BY n['x'] DESC) AS r, "
                 "ROW_NUMBER() OVER (PARTITION BY s['group'] ORDER BY n['x']) AS rn FROM xs"),
            (Lines{"k1|4|1", "k2|2|2", "k3|2|3", "k4|1|4", "k5|3|2", "k6|1|3", "k7|1|4", "k8|4|1"}));
}

TEST_F(WindowTest, NavigationFunctionsReadOtherRows) {
  EXPECT_EQ(Rows("SELECT _key, LAG(n['x']) OVER (ORDER BY _key) AS prev, LEAD(n['x'], 2, -1) OVER (ORDER BY _key) "
                 "AS next2, FIRST_VALUE(n['x']) OVER (PARTITION BY s['group'] ORDER BY _key) AS first, "
                 "LAST_VALUE(n['x']) OVER (PARTITION BY s['group'] ORDER BY _key ROWS BETWEEN CURRENT ROW AND "
                 "UNBOUNDED FOLLOWING) AS last FROM xs"),
            (Lines{"k1|NULL|2|1|5", "k2|1|5|1|5", "k3|2|8|1|5", "k4|2|10|1|5", "k5|5|10|8|NULL", "k6|8|NULL|8|NULL",
                   "k7|10|-1|8|NULL", "k8|10|-1|8|NULL"}));
  // IGNORE NULLS passes over k8's missing x; NTH_VALUE counts from the
  // frame's start.
  EXPECT_EQ(Rows("SELECT _key, LAST_VALUE(n['x'] IGNORE NULLS) OVER (PARTITION BY s['group'] ORDER BY _key ROWS "
                 "BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS last, NTH_VALUE(n['x'], 2) OVER (ORDER BY _key "
                 "ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS second FROM xs WHERE s['group'] = 'b'"),
            (Lines{"k5|10|10", "k6|10|10", "k7|10|10", "k8|NULL|NULL"}));
  // Percentiles of each group, NULLs ignored: a's 1, 2, 2, 5 and b's 8, 10, 10.
  EXPECT_EQ(Rows("SELECT _key, PERCENTILE_CONT(n['x'], 0.25) OVER (PARTITION BY s['group']) AS cont, "
                 "PERCENTILE_DISC(n['x'], 0.25) OVER (PARTITION BY s['group']) AS disc, "
                 "PERCENTILE_CONT(n['x'], 0 RESPECT NULLS) OVER (PARTITION BY s['group']) AS lowest FROM xs"),
            (Lines{"k1|1.75|1|1", "k2|1.75|1|1", "k3|1.75|1|1", "k4|1.75|1|1", "k5|9|8|NULL", "k6|9|8|NULL",
                   "k7|9|8|NULL", "k8|9|8|NULL"}));
}

TEST_F(WindowTest, AggregatesOverFrames) {
  // The default frame with ORDER BY runs to the row's last peer: both 2s
  // see 5 = 1 + 2 + 2.
  EXPECT_EQ(Rows("SELECT n['x'] AS x, SUM(n['x']) OVER (ORDER BY n['x']) AS running, "
                 "SUM(n['x']) OVER (ORDER BY n['x'] ROWS UNBOUNDED PRECEDING) AS by_rows, "
                 "COUNT(*) OVER () AS all_rows FROM xs WHERE _key != 'k8' ORDER BY x, running"),
            (Lines{"1|1|1|7", "2|5|3|7", "2|5|5|7", "5|10|10|7", "8|18|18|7", "10|38|28|7", "10|38|38|7"}));
  // A sliding ROWS frame and a RANGE frame by value (x - 2 .. x).
  EXPECT_EQ(Rows("SELECT n['x'] AS x, AVG(n['x']) OVER (ORDER BY _key ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) "
                 "AS moving, COUNT(*) OVER (ORDER BY n['x'] RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) AS near, "
                 "MIN(n['x']) OVER (ORDER BY n['x'] DESC RANGE BETWEEN CURRENT ROW AND 3 FOLLOWING) AS down3 "
                 "FROM xs WHERE _key != 'k8'"),
            (Lines{"1|1.5|1|1", "2|1.6666666666666667|3|1", "2|3|3|1", "5|5|1|2", "8|7.666666666666667|1|5",
                   "10|9.333333333333334|3|8", "10|10|3|8"}));
  // Over the grouped rows: a rank of groups by their counts.
  EXPECT_EQ(Rows("SELECT s['group'] AS g, COUNT(*) AS c, SUM(COUNT(*)) OVER () AS total, "
                 "RANK() OVER (ORDER BY COUNT(*) DESC) AS r FROM xs GROUP BY g ORDER BY g"),
            (Lines{"a|4|8|1", "b|4|8|1"}));
  EXPECT_EQ(Rows("SELECT _key, COUNT(DISTINCT s['group']) OVER () AS groups FROM xs LIMIT 1"), (Lines{"k1|2"}));
}

TEST_F(WindowTest, NamedWindowsBuildOnEachOther) {
  EXPECT_EQ(Rows("SELECT _key, ROW_NUMBER() OVER w AS rn, SUM(n['x']) OVER (w ROWS BETWEEN 1 PRECEDING AND CURRENT "
                 "ROW) AS pair FROM xs WHERE s['group'] = 'a' WINDOW g AS (PARTITION BY s['group']), w AS (g ORDER "
                 "BY _key DESC)"),
            (Lines{"k1|4|3", "k2|3|4", "k3|2|7", "k4|1|5"}));
}

TEST_F(WindowTest, ThePlanShowsTheWindowAndKeepsTheKeyRange) {
  Result<testing::QueryResult> r = testing::RunQuery(
      bigtable_.get(), "SELECT _key, RANK() OVER (ORDER BY n['x']) AS r FROM xs WHERE _key >= 'k5' LIMIT 2");
  ASSERT_OK(r.status());
  EXPECT_EQ(r->lines, (Lines{"k5|2", "k6|3"}));
  EXPECT_EQ(r->stats.ranges, "[k5, end)");
  EXPECT_EQ(r->stats.rows_examined, 4);
  Result<std::unique_ptr<PreparedQuery>> q = Prepare(
      bigtable_.get(), "SELECT _key, RANK() OVER (ORDER BY n['x']) AS r FROM xs WHERE _key >= 'k5' LIMIT 2", {});
  ASSERT_OK(q.status());
  Result<QueryPlan> plan = (*q)->Plan({});
  ASSERT_OK(plan.status());
  std::string operators;
  for (const PlanNode& node : *plan) operators += node.name + ":" + node.detail + ";";
  EXPECT_NE(operators.find("WINDOW:RANK() OVER (ORDER BY n['x']);"), std::string::npos) << operators;
}

TEST_F(WindowTest, ErrorsNameTheRule) {
  auto error = [&](const std::string& query, const std::string& expected) {
    std::string message = Error(query);
    EXPECT_NE(message.find(expected), std::string::npos) << query << ": " << message;
  };
  error("SELECT RANK() OVER () FROM xs", "Window ORDER BY is required for analytic function RANK");
  error("SELECT PERCENTILE_CONT(n['x'], 0.5) OVER (ORDER BY _key) FROM xs",
        "Window ORDER BY is not allowed for analytic function PERCENTILE_CONT");
  error("SELECT RANK() OVER (ORDER BY _key ROWS 1 PRECEDING) FROM xs",
        "Window framing clause is not allowed for analytic function RANK");
  error("SELECT _key FROM xs WHERE ROW_NUMBER() OVER () = 1", "Analytic function ROW_NUMBER not allowed in WHERE");
  error("SELECT ROW_NUMBER() OVER w FROM xs", "Unrecognized window alias w");
  error("SELECT SUM(ROW_NUMBER() OVER ()) OVER () FROM xs", "Analytic function not allowed in window function");
  error("SELECT COUNT(DISTINCT _key) OVER (ORDER BY _key) FROM xs", "takes no ORDER BY or frame");
  error("SELECT NTILE(0) OVER (ORDER BY _key) FROM xs", "NTILE's argument must be a positive integer, not 0");
  error("SELECT NTILE(n['x']) OVER (ORDER BY _key) FROM xs", "Argument 1 of NTILE must be a constant");
  error("SELECT LAG(_key, -1) OVER (ORDER BY _key) FROM xs", "The offset to LAG must be a non-negative integer");
  error("SELECT SUM(n['x']) OVER (ORDER BY _key ROWS BETWEEN CURRENT ROW AND 1 PRECEDING) FROM xs",
        "A window frame cannot start after its end");
  error("SELECT SUM(n['x']) OVER (ORDER BY _key RANGE 1 PRECEDING) FROM xs",
        "A RANGE frame with an offset needs exactly one window ORDER BY expression, of a numeric type");
  error("SELECT SUM(n['x']) OVER (ORDER BY _key ROWS -1 PRECEDING) FROM xs",
        "offset must be a non-negative constant INT64");
  error("SELECT UPPER(s['group']) OVER () FROM xs", "Function UPPER does not support an OVER clause");
  error("SELECT LEAD(_key IGNORE NULLS) OVER (ORDER BY _key) FROM xs",
        "IGNORE NULLS and RESPECT NULLS are not allowed for window function LEAD");
  error("SELECT s['group'] AS g FROM xs GROUP BY g HAVING RANK() OVER (ORDER BY g) = 1",
        "Analytic function not allowed in HAVING clause");
  error("SELECT _key FROM xs QUALIFY ROW_NUMBER() OVER () = 1", "QUALIFY clauses are not supported by Bigtable");
}

// ---- pipe syntax (Bigtable's pipe-syntax page) ----

TEST_F(QueryFeaturesTest, PipeOperatorsTransformTheTableStepByStep) {
  // FROM, WHERE into the scan, EXTEND, AGGREGATE, then WHERE over the groups.
  EXPECT_EQ(Rows("FROM games |> WHERE _key < 'Z' |> EXTEND SPLIT(CAST(_key AS STRING), '#')[OFFSET(0)] AS game "
                 "|> AGGREGATE COUNT(*) AS played, SUM(n['score']) AS score GROUP BY game |> WHERE played > 2"),
            (Lines{"LoL|4|80"}));
  EXPECT_EQ(Rows("FROM games |> SELECT _key, g['kda'] AS kda |> ORDER BY kda DESC, _key |> LIMIT 2 OFFSET 1"),
            (Lines{"LoL#Jo#20150302|7", "LoL#Sam#20150302|7"}));
  // A LIMIT after a LIMIT limits the first one's rows.
  EXPECT_EQ(Rows("SELECT _key FROM games LIMIT 3 |> LIMIT 5 |> ORDER BY _key DESC |> LIMIT 1"),
            (Lines{"LoL#Jo#20150302"}));
  EXPECT_EQ(Rows("FROM games |> AGGREGATE COUNT(*) AS c GROUP AND ORDER BY g['win'] AS won DESC"),
            (Lines{"true|4", "false|2"}));
  // ASC or DESC after an item or a key orders by it, the keys' first.
  EXPECT_EQ(Rows("FROM games |> AGGREGATE COUNT(*) AS c ASC GROUP BY g['win'] AS won"), (Lines{"false|2", "true|4"}));
  EXPECT_EQ(Rows("FROM games |> AGGREGATE SUM(n['score']) AS s DESC GROUP BY g['win'] AS won ASC"),
            (Lines{"false|15", "true|75"}));
  EXPECT_EQ(Rows("FROM games |> EXTEND ROW_NUMBER() OVER (ORDER BY _key DESC) AS rn |> WHERE rn <= 2 "
                 "|> DROP g, n |> RENAME rn AS position"),
            (Lines{"Starcraft#Eriko#20150303|2", "Starcraft#Eriko#20150304|1"}));
  EXPECT_EQ(Rows("FROM games |> SET g = g['win'] |> AS t |> WHERE t._key = 'LoL#Jo#20150302' |> SELECT t.g"),
            (Lines{"true"}));
  EXPECT_EQ(Rows("FROM games |> AGGREGATE COUNT(*) AS rows_read"), (Lines{"6"}));
}

TEST_F(QueryFeaturesTest, PipeQueriesKeepKeyRangesAndParameters) {
  Result<testing::QueryResult> r = testing::RunQuery(
      bigtable_.get(), "FROM games |> WHERE STARTS_WITH(_key, @game) |> AGGREGATE COUNT(*) AS n |> WHERE n > @min",
      {{"game", Value::Bytes("Starcraft#")}, {"min", Value::Int64(1)}});
  ASSERT_OK(r.status());
  EXPECT_EQ(r->lines, (Lines{"2"}));
  EXPECT_EQ(r->stats.ranges, "[Starcraft#, Starcraft$)");
  EXPECT_EQ(r->stats.rows_examined, 2);
}

TEST_F(QueryFeaturesTest, PipeOperatorsBigtableHasNoCounterpartForAreRefused) {
  EXPECT_NE(Error("FROM games |> SELECT COUNT(*)")
                .find("Aggregate function COUNT not allowed in pipe SELECT; use |> "
                      "AGGREGATE"),
            std::string::npos);
  EXPECT_NE(Error("FROM games |> JOIN games").find("Joins are not supported by Bigtable"), std::string::npos);
  EXPECT_NE(Error("FROM games |> UNION ALL (FROM games)").find("Set operations"), std::string::npos);
  EXPECT_NE(Error("FROM games |> PIVOT (COUNT(*) FOR g IN ('x'))").find("Pipe operators PIVOT are not supported"),
            std::string::npos);
  EXPECT_NE(Error("FROM games |> FROB").find("Expected a pipe operator after |>"), std::string::npos);
  EXPECT_NE(Error("FROM games |> RENAME nope AS x").find("Column nope in pipe RENAME does not exist"),
            std::string::npos);
  std::string chain = "FROM games";
  for (int i = 0; i < 70; ++i) chain += " |> LIMIT 5";
  EXPECT_NE(Error(chain).find("at most 64 stages"), std::string::npos);
}

// ---- IN UNNEST ----

TEST_F(QueryFeaturesTest, InUnnestReadsOnlyTheArraysKeys) {
  const Value keys = Value::Array(Type::Array(Type::Bytes()),
                                  {Value::Bytes("LoL#Jo#20150302"), Value::Bytes("zzz"), Value::Null(Type::Bytes())});
  Result<testing::QueryResult> r =
      testing::RunQuery(bigtable_.get(), "SELECT _key FROM games WHERE _key IN UNNEST(@keys)", {{"keys", keys}});
  ASSERT_OK(r.status());
  EXPECT_EQ(r->lines, (Lines{"LoL#Jo#20150302"}));
  EXPECT_EQ(r->stats.ranges, "[LoL#Jo#20150302], [zzz]");
  EXPECT_EQ(r->stats.rows_examined, 1);
  // Three-valued: a NULL element makes a miss unknown; an empty array holds nothing.
  EXPECT_EQ(Rows("SELECT 2 IN UNNEST([1, 2, 3]), 5 IN UNNEST([1, NULL]), 1 IN UNNEST(CAST([] AS ARRAY<INT64>)), "
                 "NULL IN UNNEST([1]), 'x' NOT IN UNNEST(['y'])"),
            (Lines{"true|NULL|false|NULL|true"}));
  EXPECT_NE(Error("SELECT 1 IN UNNEST(['a'])").find("No matching signature for operator IN UNNEST"), std::string::npos);
}

// ---- what a review found: pipe aliases, ambiguity, QUALIFY's work, rules ----

TEST_F(QueryFeaturesTest, PipeStagesKeepTheTableNameAndRefuseAmbiguity) {
  // "A pipe operator can see every alias that exists in the table preceding the pipe" (pipe-syntax page).
  EXPECT_EQ(Rows("FROM games |> AS x |> LIMIT 1 |> SELECT x._key"), (Lines{"LoL#Corrie#20150301"}));
  EXPECT_EQ(Rows("FROM games |> EXTEND 1 AS e |> ORDER BY _key DESC |> LIMIT 1 |> SELECT games._key"),
            (Lines{"Starcraft#Eriko#20150304"}));
  EXPECT_NE(Error("FROM games |> EXTEND 1 AS g |> SELECT g").find("Column name g is ambiguous"), std::string::npos);
  EXPECT_NE(Error("FROM games |> DROP _key, g, n").find("Pipe DROP dropped all columns"), std::string::npos);
  EXPECT_NE(Error("FROM games |> DROP nope").find("Column nope in pipe DROP does not exist"), std::string::npos);
  EXPECT_NE(Error("FROM games |> SET nope = 1").find("Column nope in pipe SET does not exist"), std::string::npos);
  EXPECT_NE(Error("FROM games |> AGGREGATE _key").find("Each item of |> AGGREGATE must be an aggregate"),
            std::string::npos);
  EXPECT_NE(Error("FROM games |> AGGREGATE COUNT(*) OVER () AS c").find("must be an aggregate"), std::string::npos);
}

TEST_F(QueryFeaturesTest, PipeWhereFiltersOnWindowFunctions) {
  // Pipe WHERE does QUALIFY's work (pipe-syntax page).
  Result<testing::QueryResult> r =
      testing::RunQuery(bigtable_.get(), "FROM games |> WHERE ROW_NUMBER() OVER (ORDER BY _key DESC) <= 2");
  ASSERT_OK(r.status());
  EXPECT_EQ(r->lines.size(), 2u);
  ASSERT_EQ(r->columns.size(), 3u);  // the table's columns, not the hidden window's
  EXPECT_EQ(r->columns[0].name, "_key");
  EXPECT_EQ(r->lines[0].substr(0, 24), "Starcraft#Eriko#20150303");
}

TEST_F(QueryFeaturesTest, NamedWindowsComeBeforeTheirUseAndOnce) {
  EXPECT_NE(Error("SELECT ROW_NUMBER() OVER w1 FROM games WINDOW w1 AS (w2), w2 AS (ORDER BY _key)")
                .find("Unrecognized window alias w2"),
            std::string::npos);
  EXPECT_NE(Error("SELECT ROW_NUMBER() OVER w1 FROM games WINDOW w1 AS (ORDER BY _key), w1 AS (ORDER BY _key DESC)")
                .find("Duplicate window alias w1"),
            std::string::npos);
  EXPECT_NE(Error("SELECT ARRAY_AGG(g['kda'] IGNORE NULLS) FROM games").find("not supported by Bigtable in aggregate"),
            std::string::npos);
}
}  // namespace
}  // namespace lbt::sql
