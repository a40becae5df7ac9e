// Output: a bounded capture keeps whole lines up to its bound, drops the
// rest, and says once that it is full.

#include "commands/core/output.h"

#include <gtest/gtest.h>

namespace lbt {
namespace {

TEST(OutputTest, ABoundedCaptureKeepsWholeLinesAndSaysOnce) {
  std::string captured;
  int said = 0;
  {
    Output out(&captured, 12, [&] { ++said; });
    out.Write("one\n");
    out.Write("two\nthr");  // 11 bytes so far
    out.Write("ee\n");      // past the bound: "three" is dropped whole
    out.Write("four\n");
    EXPECT_TRUE(out.full());
  }
  EXPECT_EQ(captured, "one\ntwo\n");
  EXPECT_EQ(said, 1);
}

TEST(OutputTest, ALineBegunInAFlushedCaptureIsDroppedToo) {
  std::string captured;
  Output out(&captured, 10, nullptr);
  out.Write("ab\ncd");
  out.Flush();  // the capture now ends inside a line
  out.Write("efghijk\n");
  EXPECT_TRUE(out.full());
  out.Flush();
  EXPECT_EQ(captured, "ab\n");
}

TEST(OutputTest, AnUnboundedCaptureTakesEverything) {
  std::string captured;
  {
    Output out(&captured);
    for (int i = 0; i < 1000; ++i) out.Write("0123456789\n");
    EXPECT_FALSE(out.full());
  }
  EXPECT_EQ(captured.size(), 11000u);
}

}  // namespace
}  // namespace lbt
