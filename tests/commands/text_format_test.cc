#include "commands/render/text_format.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>

namespace lbt {
namespace {

TEST(TextFormatTest, GoQuoteEscapesLikeStrconvQuote) {
  EXPECT_EQ(GoQuote("hello"), R"("hello")");
  EXPECT_EQ(GoQuote(R"(quo"te\back)"), R"("quo\"te\\back")");
  EXPECT_EQ(GoQuote("\a\b\f\n\r\t\v"), R"("\a\b\f\n\r\t\v")");
  EXPECT_EQ(GoQuote(std::string("\0\x01\x1f\x7f", 4)), R"("\x00\x01\x1f\x7f")");
  EXPECT_EQ(GoQuote("\xff\xfe"), R"("\xff\xfe")");
  EXPECT_EQ(GoQuote("caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80"), "\"caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80\"");
  EXPECT_EQ(GoQuote("\xc2\x85\xe2\x80\x8b\xc2\xa0"), R"("\u0085\u200b\u00a0")");
  EXPECT_EQ(GoQuote("\xf3\xa0\x80\x81"), R"("\U000e0001")");
  // Overlong encodings and surrogates are invalid UTF-8: byte by byte.
  EXPECT_EQ(GoQuote("\xc0\x80"), R"("\xc0\x80")");
  EXPECT_EQ(GoQuote("\xed\xa0\x80"), R"("\xed\xa0\x80")");
  EXPECT_EQ(GoQuote("\xe6\x97"), R"("\xe6\x97")");
}

TEST(TextFormatTest, PaddingCountsRunes) {
  EXPECT_EQ(RuneCount("\xe6\x97\xa5\xe6\x9c\xac"), 2u);
  EXPECT_EQ(RuneCount("\xff\xfe"), 2u);
  EXPECT_EQ(PadRight("\xe6\x97\xa5", 3), "\xe6\x97\xa5  ");
  EXPECT_EQ(PadRight("abcdef", 3), "abcdef");
}

TEST(TextFormatTest, Base64RoundTrips) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode(std::string("\0\xff", 2)), "AP8=");
  std::string out;
  ASSERT_TRUE(Base64Decode("AP8=", &out));
  EXPECT_EQ(out, std::string("\0\xff", 2));
  ASSERT_TRUE(Base64Decode("AP8", &out));
  EXPECT_EQ(out, std::string("\0\xff", 2));
  EXPECT_FALSE(Base64Decode("A*8=", &out));
}

TEST(TextFormatTest, TimestampsUseTheLocalZone) {
  setenv("TZ", "UTC", 1);
  tzset();
  EXPECT_EQ(FormatCbtTimestamp(1'000'000), "1970/01/01-00:00:01.000000");
  EXPECT_EQ(FormatCbtTimestamp(1'700'000'000'123'000), "2023/11/14-22:13:20.123000");
  setenv("TZ", "Asia/Tokyo", 1);
  tzset();
  EXPECT_EQ(FormatCbtTimestamp(0), "1970/01/01-09:00:00.000000");
  setenv("TZ", "UTC", 1);
  tzset();
}

TEST(TextFormatTest, TabWriterAlignsWithTabs) {
  TabWriter tw(0, 8, 5);
  tw.AddLine("Family Name\tGC Policy\tValue Type");
  tw.AddLine("cf\tversions() > 2\t{}");
  tw.AddLine("abcdefghijklmnopqrst\t\t{}");
  EXPECT_EQ(tw.Render(),
            "Family Name\t\t\tGC Policy\t\tValue Type\n"
            "cf\t\t\t\tversions() > 2\t\t{}\n"
            "abcdefghijklmnopqrst\t\t\t\t\t{}\n");
}

}  // namespace
}  // namespace lbt
