// util/bytes: base64 both ways and the UTF-8 check.

#include "util/bytes.h"

#include <gtest/gtest.h>

#include <random>

namespace lbt {
namespace {

TEST(BytesTest, Base64MatchesRfc4648sVectorsAndRoundTrips) {
  const std::pair<const char*, const char*> vectors[] = {{"", ""},
                                                         {"f", "Zg=="},
                                                         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},
                                                         {"foob", "Zm9vYg=="},
                                                         {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(Base64Encode(plain), encoded);
    std::string back;
    ASSERT_TRUE(Base64Decode(encoded, &back)) << encoded;
    EXPECT_EQ(back, plain);
  }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 500; ++i) {
    std::string bytes(rng() % 40, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    std::string back;
    ASSERT_TRUE(Base64Decode(Base64Encode(bytes), &back));
    EXPECT_EQ(back, bytes);
  }
}

TEST(BytesTest, Base64DecodeTakesUrlSafeAndUnpaddedAndRefusesTheRest) {
  std::string out;
  ASSERT_TRUE(Base64Decode("Zm9vYg", &out));  // no padding
  EXPECT_EQ(out, "foob");
  ASSERT_TRUE(Base64Decode("-_8=", &out));  // URL-safe alphabet
  EXPECT_EQ(out, "\xfb\xff");
  EXPECT_FALSE(Base64Decode("Zm9v!", &out));
  EXPECT_FALSE(Base64Decode("Zg==Zg", &out));  // data after padding
  EXPECT_FALSE(Base64Decode("Z", &out));       // no encoding is 1 character long
}

TEST(BytesTest, Utf8ChecksShortestFormsAndRanges) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain ascii, longer than eight bytes"));
  EXPECT_TRUE(IsValidUtf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  EXPECT_FALSE(IsValidUtf8("\xc3"));              // cut short
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));          // an overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));      // a surrogate
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(IsValidUtf8("abcdefgh\xff"));      // after an ASCII word
}

TEST(BytesTest, AbbreviatedKeepsShortValuesAndCutsLongOnesBetweenCharacters) {
  EXPECT_EQ(Abbreviated("short"), "short");
  EXPECT_EQ(Abbreviated(std::string(64, 'x')), std::string(64, 'x'));
  EXPECT_EQ(Abbreviated(std::string(70000, 'x')), std::string(64, 'x') + "... (70000 bytes)");
  // A two-byte character straddling the cut is left out whole.
  const std::string accented = std::string(63, 'a') + "\xc3\xa9" + "b";
  EXPECT_EQ(Abbreviated(accented), std::string(63, 'a') + "... (66 bytes)");
}

// CompareBytes orders as memcmp then length, whatever the bytes (high
// ones too), wherever the first difference falls (within a word, past
// several, in the tail) and when one string is the other's prefix.
TEST(BytesTest, CompareBytesOrdersAsByteStrings) {
  std::mt19937 rng(11);
  auto sign = [](int c) { return c < 0 ? -1 : c > 0 ? 1 : 0; };
  for (int i = 0; i < 20000; ++i) {
    std::string a(rng() % 40, '\0');
    for (char& c : a) c = static_cast<char>(rng() % 4 == 0 ? 0xff - rng() % 3 : 'a' + rng() % 3);
    std::string b = a.substr(0, rng() % (a.size() + 1));
    if (rng() % 2 == 0) {
      for (int extra = rng() % 12; extra > 0; --extra) b.push_back(static_cast<char>(rng() % 256));
    }
    if (!b.empty() && rng() % 3 == 0) b[rng() % b.size()] = static_cast<char>(rng() % 256);
    ASSERT_EQ(CompareBytes(a, b), sign(std::string_view(a).compare(b))) << i;
    ASSERT_EQ(CompareBytes(b, a), sign(std::string_view(b).compare(a))) << i;
  }
  EXPECT_EQ(CompareBytes("", ""), 0);
  EXPECT_LT(CompareBytes("abcdefgh", "abcdefgh\x01"), 0);
  EXPECT_GT(CompareBytes("abcdefgh\x80", "abcdefgh\x7f"), 0);
}

TEST(BytesTest, JsonNestingIsMeasuredOutsideStrings) {
  EXPECT_TRUE(JsonNestsAtMost(R"([{"a": [1]}])", 3));
  EXPECT_FALSE(JsonNestsAtMost(R"([{"a": [1]}])", 2));
  EXPECT_TRUE(JsonNestsAtMost(R"(["[[[[", "\"[[["])", 1));  // brackets in strings, an escaped quote
  EXPECT_FALSE(JsonNestsAtMost(std::string(100000, '['), 8));
  EXPECT_TRUE(JsonNestsAtMost("", 0));
}

}  // namespace
}  // namespace lbt
