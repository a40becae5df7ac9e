// Tab completion, driven by the command table: what each place in a line
// is offered.

#include "shell/completion.h"
#include "local/local_bigtable.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/test_util.h"

namespace lbt {
namespace {

class CompletionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session_ =
        std::make_unique<Session>(SessionOptions{}, std::make_unique<LocalBigtable>(dir_.Sub("db"), DatabaseOptions{}));
    ASSERT_OK(session_->bigtable()->CreateTable(
        "metrics", {{"cf", GcRule::Never(), ValueType::kBytes}, {"stats", GcRule::Never(), ValueType::kBytes}}, {},
        false));
  }

  std::vector<std::string> Complete(const std::string& line) {
    size_t start = line.find_last_of(" \t");
    return CompletionCandidates(session_.get(), line, start == std::string::npos ? 0 : start + 1);
  }

  testing::TempDir dir_;
  std::unique_ptr<Session> session_;
};

using V = std::vector<std::string>;

TEST_F(CompletionTest, EachPositionGetsWhatTheUsageLineNames) {
  EXPECT_EQ(Complete("set metr"), V{"metrics"});
  EXPECT_EQ(Complete("setgcpolicy metrics "), (V{"cf", "stats"})) << "a family, not 'cf:'";
  EXPECT_EQ(Complete("set metrics row1 s"), V{"stats:"});
  EXPECT_EQ(Complete("deletecolumn metrics row1 c"), V{"cf"});
  EXPECT_TRUE(Complete("createfamily metrics ").empty()) << "a new family has no name to complete";
}

TEST_F(CompletionTest, OptionsComeAfterThePositionalsAndNeverRefusedOnes) {
  V options = Complete("read metrics ");
  EXPECT_NE(std::find(options.begin(), options.end(), "prefix="), options.end());
  EXPECT_EQ(std::find(options.begin(), options.end(), "format-file="), options.end()) << "refused: never offered";
  EXPECT_NE(std::find(options.begin(), options.end(), "authorized-view="), options.end());
  EXPECT_EQ(std::find(options.begin(), options.end(), "cf:"), options.end()) << "read takes no bare family";
  EXPECT_EQ(Complete("read metrics columns=s"), V{"columns=stats:"});
  EXPECT_TRUE(Complete("lookup metrics ").empty()) << "the row comes first";
}

TEST_F(CompletionTest, SqlCompletesTablesAfterFromAndFunctionNamesElsewhere) {
  EXPECT_EQ(Complete("SELECT coun"), (std::vector<std::string>{"count(", "countif("}));
  EXPECT_EQ(Complete("SELECT ROW_N"), (std::vector<std::string>{"ROW_NUMBER("}));
  EXPECT_EQ(Complete("SELECT x FROM t |> EXTEND json_val"), (std::vector<std::string>{"json_value("}));
}

TEST_F(CompletionTest, FilesForImportExportAndSource) {
  std::filesystem::create_directories(dir_.Sub("data"));
  std::ofstream(dir_.Sub("data/rows.csv")) << "x";
  const std::string folder = dir_.Sub("da");
  EXPECT_EQ(Complete("import metrics " + folder), V{dir_.Sub("data") + "/"});
  EXPECT_EQ(Complete("export metrics " + dir_.Sub("data/r")), V{dir_.Sub("data/rows.csv")});
  EXPECT_EQ(Complete("source " + dir_.Sub("data/r")), V{dir_.Sub("data/rows.csv")});
}

TEST_F(CompletionTest, HBaseStatementsGetQuotedTablesAndOptionKeys) {
  EXPECT_EQ(Complete("scan 'm"), V{"'metrics'"});
  EXPECT_EQ(Complete("scan "), V{"'metrics'"});
  EXPECT_EQ(Complete("scan 'metrics', {ROW"), V{"{ROWPREFIXFILTER =>"});
  V keys = Complete("scan 'metrics', {LIMIT => 1, ");
  EXPECT_NE(std::find(keys.begin(), keys.end(), "STARTROW =>"), keys.end());
  V get_keys = Complete("get 'metrics', 'r', {COL");
  EXPECT_EQ(get_keys, (V{"{COLUMN =>", "{COLUMNS =>"}));
}

}  // namespace
}  // namespace lbt
