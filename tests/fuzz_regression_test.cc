// Replays every saved fuzz input (tests/fuzz_inputs/<target>/*: seeds and
// inputs that once crashed) through its fuzz target, so a fixed crash
// stays fixed without running the fuzzer.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "fuzz/targets.h"

namespace lbt::fuzz {
namespace {

namespace fs = std::filesystem;

TEST(FuzzRegressionTest, SavedInputsRunClean) {
  const fs::path root = fs::path(LBT_SOURCE_DIR) / "tests/fuzz_inputs";
  int inputs = 0;
  for (const NamedTarget& target : AllTargets()) {
    const fs::path dir = root / target.name;
    ASSERT_TRUE(fs::is_directory(dir)) << "no saved inputs for " << target.name;
    for (const auto& entry : fs::directory_iterator(dir)) {
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream bytes;
      bytes << in.rdbuf();
      const std::string data = bytes.str();
      SCOPED_TRACE(entry.path().string());
      target.fn(reinterpret_cast<const uint8_t*>(data.data()), data.size());
      ++inputs;
    }
  }
  EXPECT_GT(inputs, 20);
}

}  // namespace
}  // namespace lbt::fuzz
