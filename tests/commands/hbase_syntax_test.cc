#include "commands/hbase/syntax.h"

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace lbt {
namespace {

std::vector<HValue> P(std::string_view text) {
  auto args = ParseHBaseArgs(text);
  EXPECT_TRUE(args.ok()) << text << ": " << args.status().ToString();
  return args.ok() ? *args : std::vector<HValue>{};
}

TEST(HBaseSyntaxTest, StringsNumbersAndConstants) {
  auto a = P(R"( 't', "d", 42, -7, 1.5, true, nil, VERSIONS)");
  ASSERT_EQ(a.size(), 8u);
  EXPECT_EQ(a[0].text, "t");
  EXPECT_EQ(a[1].text, "d");
  EXPECT_EQ(a[2].integer, 42);
  EXPECT_EQ(a[3].integer, -7);
  EXPECT_EQ(a[4].kind, HValue::Kind::kFloat);
  EXPECT_TRUE(a[5].boolean);
  EXPECT_EQ(a[6].kind, HValue::Kind::kNil);
  EXPECT_EQ(a[7].text, "VERSIONS");
}

TEST(HBaseSyntaxTest, DoubleQuotesTakeRubyEscapes) {
  auto a = P(R"("\x00\xff\n\t\003\u00e9\"\\", 'a\'b\\c\n')");
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].text, std::string("\0\xff\n\t\x03\xc3\xa9\"\\", 9));
  EXPECT_EQ(a[1].text, R"(a'b\c\n)");
}

TEST(HBaseSyntaxTest, HashesArraysAndTrailingHashes) {
  auto a = P(R"('t', {NAME => 'f1', VERSIONS => 3}, {TIMERANGE => [1, 2], 'delete' => 'f2'})");
  ASSERT_EQ(a.size(), 3u);
  ASSERT_TRUE(a[1].IsHash());
  EXPECT_EQ(a[1].Find("NAME")->text, "f1");
  EXPECT_EQ(a[1].Find("VERSIONS")->integer, 3);
  EXPECT_EQ(a[2].Find("TIMERANGE")->items.size(), 2u);
  EXPECT_EQ(a[2].Find("delete")->text, "f2");
  auto b = P("'t', NAME => 'f1', VERSIONS => 5");
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[1].Find("VERSIONS")->integer, 5);
  EXPECT_TRUE(P("").empty());
}

TEST(HBaseSyntaxTest, ErrorsSayWhere) {
  for (const char* bad : {"'unclosed", "\"unclosed", "'a' 'b'", "{NAME => 'f'", "[1, 2", "{'a' 'b'}",
                          "'t', NAME => 'f', 3", R"("\xZZ")", "99999999999999999999"}) {
    auto r = ParseHBaseArgs(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_NE(r.status().message().find("syntax error at character"), std::string::npos) << bad;
    }
  }
}

TEST(HBaseSyntaxTest, SplitsTheCommandName) {
  std::string name, args;
  ASSERT_TRUE(SplitHBaseCommand("  scan 't', {LIMIT => 1}", &name, &args));
  EXPECT_EQ(name, "scan");
  EXPECT_EQ(args, " 't', {LIMIT => 1}");
  EXPECT_FALSE(SplitHBaseCommand("'t'", &name, &args));
}

}  // namespace
}  // namespace lbt
