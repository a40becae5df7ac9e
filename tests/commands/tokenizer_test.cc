#include "commands/core/tokenizer.h"

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace lbt {
namespace {

using Words = std::vector<std::string>;

Words T(std::string_view line) {
  auto words = Tokenize(line);
  EXPECT_TRUE(words.ok()) << words.status().ToString();
  return words.ok() ? *words : Words{};
}

TEST(TokenizerTest, SplitsOnWhitespace) {
  EXPECT_EQ(T("read  t\tprefix=a "), (Words{"read", "t", "prefix=a"}));
  EXPECT_EQ(T(""), Words{});
  EXPECT_EQ(T("   "), Words{});
}

TEST(TokenizerTest, QuotesFollowTheShell) {
  EXPECT_EQ(T("set t 'a b' \"c d\""), (Words{"set", "t", "a b", "c d"}));
  EXPECT_EQ(T("x='it''s'"), (Words{"x=its"}));
  EXPECT_EQ(T(R"("a\"b\\c\$d\n")"), (Words{R"(a"b\c$d\n)"}));
  EXPECT_EQ(T(R"('a\nb')"), (Words{R"(a\nb)"}));
  EXPECT_EQ(T(R"(a\ b)"), (Words{"a b"}));
  EXPECT_EQ(T("\"families=cf:maxage=10d||maxversions=1\""), (Words{"families=cf:maxage=10d||maxversions=1"}));
}

TEST(TokenizerTest, AnsiCQuotingYieldsBytes) {
  EXPECT_EQ(T(R"($'\x41\x00\xff')"), (Words{std::string("A\0\xff", 3)}));
  EXPECT_EQ(T(R"($'\224\257\0\n\t\\\'')"), (Words{std::string("\224\257\0\n\t\\'", 7)}));
  EXPECT_EQ(T(R"(cf:a=$'\x01'@1000)"), (Words{"cf:a=\x01@1000"}));
  EXPECT_FALSE(Tokenize(R"($'\xZZ')").ok());
}

TEST(TokenizerTest, CommentsAndContinuations) {
  EXPECT_EQ(T("read t # all rows"), (Words{"read", "t"}));
  EXPECT_EQ(T("# just a comment"), Words{});
  EXPECT_EQ(T("a#b"), (Words{"a#b"}));
  EXPECT_EQ(T("'#not'"), (Words{"#not"}));
  EXPECT_EQ(T("set t r \\\ncf:a=1"), (Words{"set", "t", "r", "cf:a=1"}));
  EXPECT_EQ(T("set t r \\\n  cf:a=1"), (Words{"set", "t", "r", "cf:a=1"}));
  EXPECT_EQ(T("ab\\\ncd"), (Words{"abcd"}));
}

TEST(TokenizerTest, IncompleteInput) {
  EXPECT_TRUE(IsIncomplete("set t 'unclosed"));
  EXPECT_TRUE(IsIncomplete("set t \"unclosed"));
  EXPECT_TRUE(IsIncomplete("set t $'unclosed"));
  EXPECT_TRUE(IsIncomplete("set t r \\"));
  EXPECT_FALSE(IsIncomplete("set t 'closed'"));
  EXPECT_FALSE(IsIncomplete("# it's a comment"));
  EXPECT_FALSE(Tokenize("'unclosed").ok());
}

TEST(TokenizerTest, SplitsStatementsOutsideQuotes) {
  EXPECT_EQ(SplitStatements("ls; read t ;count t"), (Words{"ls", " read t ", "count t"}));
  EXPECT_EQ(SplitStatements("set t r 'a;b'; ls"), (Words{"set t r 'a;b'", " ls"}));
  EXPECT_EQ(SplitStatements("ls # x; y\nread t"), (Words{"ls # x; y", "read t"}));
  EXPECT_EQ(SplitStatements(";;  ;"), Words{});
}

}  // namespace
}  // namespace lbt
