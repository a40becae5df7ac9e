// Replays the scenarios in tests/golden/cbt through lbt and compares with
// what the real cbt printed for them (see tests/golden/cbt/README.md).

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "commands/core/command_table.h"
#include "commands/core/tokenizer.h"
#include "local/local_bigtable.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class GoldenTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    setenv("TZ", "UTC", 1);
    tzset();
    // Scenarios name their data files relative to the source tree.
    fs::current_path(LBT_SOURCE_DIR);
  }
};

TEST_P(GoldenTest, MatchesRealCbt) {
  const fs::path dir = fs::path(LBT_SOURCE_DIR) / "tests/golden/cbt";
  const std::string name = GetParam();
  testing::TempDir db_dir;
  Session session(SessionOptions{}, std::make_unique<LocalBigtable>(db_dir.Sub("db"), DatabaseOptions{}));
  std::string stdout_text, stderr_text;
  Output out(&stdout_text), err(&stderr_text);

  std::istringstream expected_exits(ReadFile(dir / (name + ".exit")));
  std::istringstream script(ReadFile(dir / (name + ".cbt")));
  std::string line;
  int command = 0;
  while (std::getline(script, line)) {
    if (line.empty() || line[0] == '#') continue;
    ++command;
    auto words = Tokenize(line);
    ASSERT_TRUE(words.ok()) << line;
    CommandOutcome outcome = RunCommand(&session, &out, &err, *words);
    int expected = -1;
    expected_exits >> expected;
    EXPECT_EQ(outcome.ExitCode() != 0, expected != 0)
        << name << " command " << command << ": " << line << "\n  lbt said: " << outcome.status.ToString();
  }
  out.Flush();
  // Latency is wall time: compare everything but its value.
  static const std::regex kLatency("frontend_server_latency: [0-9]+ms");
  stdout_text = std::regex_replace(stdout_text, kLatency, "frontend_server_latency: Nms");
  const std::string expected =
      std::regex_replace(ReadFile(dir / (name + ".out")), kLatency, "frontend_server_latency: Nms");
  if (stdout_text != expected) {
    // Leave lbt's output beside the build for a readable diff.
    fs::path actual = fs::path(LBT_BINARY_DIR) / "golden-actual" / (name + ".out");
    fs::create_directories(actual.parent_path());
    std::ofstream(actual, std::ios::binary) << stdout_text;
    ADD_FAILURE() << "stdout of scenario " << name << " differs from real cbt's; see\n  diff "
                  << (dir / (name + ".out")).string() << " " << actual.string();
  }
}

std::vector<std::string> Scenarios() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(fs::path(LBT_SOURCE_DIR) / "tests/golden/cbt")) {
    if (entry.path().extension() == ".cbt") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Cbt, GoldenTest, ::testing::ValuesIn(Scenarios()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace lbt
