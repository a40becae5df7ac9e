// The command table derives each command's usage, argument counts and
// "needs" message from its spec: checked on commands of both languages.

#include "commands/core/command_table.h"

#include <gtest/gtest.h>

namespace lbt {
namespace {

const CommandSpec& Cbt(std::string_view name) {
  const CommandSpec* spec = FindCommand(name, Dialect::kCbt);
  EXPECT_NE(spec, nullptr) << name;
  return *spec;
}

const CommandSpec& HBase(std::string_view name) {
  const CommandSpec* spec = FindCommand(name, Dialect::kHBase);
  EXPECT_NE(spec, nullptr) << name;
  return *spec;
}

TEST(CommandTableTest, UsageShowsArgumentsThenShownOptions) {
  EXPECT_EQ(Cbt("count").Usage(),
            "count <table> [prefix=<row-key-prefix>] [filter=<json>] [authorized-view=<view-id>]");
  EXPECT_EQ(Cbt("ls").Usage(), "ls [table]");
  // app-profile is quiet: not shown.
  EXPECT_EQ(Cbt("set").Usage(),
            "set <table> <row> <family>:<column>=<value>[@<timestamp>] ... [authorized-view=<view-id>]");
  EXPECT_EQ(Cbt("version").Usage(), "version");
}

TEST(CommandTableTest, HBaseUsageSeparatesArgumentsWithCommasAfterTheFirst) {
  EXPECT_EQ(HBase("put").Usage(), "put 't', 'r', 'f:q', 'value' [, ts]");
  EXPECT_EQ(HBase("list").Usage(), "list ['regex']");
  EXPECT_EQ(HBase("count").Usage(),
            "count 't' [, {INTERVAL =>, STARTROW =>, STOPROW =>, ROWPREFIXFILTER =>, FILTER =>}]");
}

TEST(CommandTableTest, CountsComeFromArgumentsAndOptions) {
  auto count = [](const CommandSpec& spec) { return std::pair{spec.Count().min, spec.Count().max}; };
  EXPECT_EQ(count(Cbt("deletecolumn")), (std::pair{4, 6}));  // four words, app-profile= and authorized-view=
  EXPECT_EQ(count(Cbt("set")), (std::pair{3, ArgCount::kMany}));
  EXPECT_EQ(count(Cbt("ls")), (std::pair{0, 1}));
  EXPECT_EQ(count(HBase("scan")), (std::pair{1, 2}));       // the table and one hash
  EXPECT_EQ(count(HBase("deleteall")), (std::pair{2, 4}));  // its hash key is quiet: no extra argument
}

TEST(CommandTableTest, ArgumentCountErrorsNameWhatIsNeeded) {
  EXPECT_EQ(CheckArgCount(Cbt("createfamily"), 1).message(), "createfamily needs a table and a family");
  EXPECT_EQ(CheckArgCount(Cbt("setvaluetype"), 4).message(), "setvaluetype takes a table, a family and a type");
  EXPECT_EQ(CheckArgCount(Cbt("ls"), 2).message(), "ls takes at most 1 argument");
  EXPECT_EQ(CheckArgCount(Cbt("version"), 1).message(), "version takes no arguments");
  EXPECT_TRUE(CheckArgCount(Cbt("read"), 5).ok());
}

}  // namespace
}  // namespace lbt
