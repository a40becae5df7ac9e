// The shell's history file: statements from two shells open at once both
// stay, multi-line statements come back whole, the file is trimmed to the
// newest statements, and a file in the line editor's old format is read.

#include "shell/history.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/test_util.h"

namespace lbt {
namespace {

class HistoryTest : public ::testing::Test {
 protected:
  void SetUp() override { path_ = dir_.path() + "/history"; }
  testing::TempDir dir_;
  std::string path_;
};

TEST_F(HistoryTest, TwoShellsKeepBothTheirStatements) {
  // Each shell appends as it goes; neither rewrites the file from memory.
  ASSERT_TRUE(AppendHistoryFile(path_, "set t r1 cf:a=1"));  // shell A
  ASSERT_TRUE(AppendHistoryFile(path_, "read t"));           // shell B
  ASSERT_TRUE(AppendHistoryFile(path_, "count t"));          // shell A again
  EXPECT_EQ(ReadHistoryFile(path_), (std::vector<std::string>{"set t r1 cf:a=1", "read t", "count t"}));
}

TEST_F(HistoryTest, MultiLineStatementsAndBackslashesComeBackWhole) {
  const std::string query = "SELECT _key\nFROM t\nWHERE _key = 'a\\\\b';";
  ASSERT_TRUE(AppendHistoryFile(path_, query));
  ASSERT_TRUE(AppendHistoryFile(path_, "set t r $'\\x00'"));
  EXPECT_EQ(ReadHistoryFile(path_), (std::vector<std::string>{query, "set t r $'\\x00'"}));
}

TEST_F(HistoryTest, TidyKeepsTheNewestOnceTheFileHoldsTwiceAsMany) {
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(AppendHistoryFile(path_, "read t" + std::to_string(i)));
  TidyHistoryFile(path_, 10);
  EXPECT_EQ(ReadHistoryFile(path_).size(), 20u);  // not past twice 10 yet
  ASSERT_TRUE(AppendHistoryFile(path_, "read t20"));
  TidyHistoryFile(path_, 10);
  std::vector<std::string> kept = ReadHistoryFile(path_);
  ASSERT_EQ(kept.size(), 10u);
  EXPECT_EQ(kept.front(), "read t11");
  EXPECT_EQ(kept.back(), "read t20");
}

TEST_F(HistoryTest, TheLineEditorsFormatIsReadAndRewritten) {
  {
    std::ofstream out(path_, std::ios::binary);
    out << "_HiStOrY_V2_\nread\\040t\\040prefix=a\nset\\040t\\040r\\040cf:a=x\\\\y\n";
  }
  const std::vector<std::string> expected = {"read t prefix=a", "set t r cf:a=x\\y"};
  EXPECT_EQ(ReadHistoryFile(path_), expected);
  TidyHistoryFile(path_, 2000);
  ASSERT_TRUE(AppendHistoryFile(path_, "count t"));
  EXPECT_EQ(ReadHistoryFile(path_), (std::vector<std::string>{expected[0], expected[1], "count t"}));
}

}  // namespace
}  // namespace lbt
