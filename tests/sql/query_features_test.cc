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

}  // namespace
}  // namespace lbt::sql
