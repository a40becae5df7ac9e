// The live conformance suite: every scenario in tests/conformance/scenarios
// and a stream of random workloads run through Google's cbt against the
// official emulator and through lbt, and their stdout and success must
// agree, command by command. Deliberate differences are declared in the
// scenario ("#! differs <id>: <reason>") and listed in the README.
//
// Without cbt or the emulator the suite is skipped, unless LBT_REQUIRE_CBT=1
// (as in CI), which makes that a failure. LBT_CONFORMANCE_SEED and
// LBT_CONFORMANCE_ITERATIONS run the random part longer by hand.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "commands/core/tokenizer.h"
#include "tests/conformance/process.h"
#include "tests/test_util.h"

namespace lbt::conformance {
namespace {

namespace fs = std::filesystem;

std::string Env(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

const std::string kCbt = Env("LBT_CBT", "/usr/bin/cbt");
// LBT_BINARY lets a long run use a copy of lbt while the build moves on.
const std::string kLbt = Env("LBT_BINARY", LBT_BINARY);
const std::string kEmulator = Env("LBT_EMULATOR", "/usr/lib/google-cloud-sdk/platform/bigtable-emulator/cbtemulator");
constexpr const char* kInstallHint =
    "the conformance suite needs Google's cbt and the Bigtable emulator (Debian packages "
    "google-cloud-cli-cbt and google-cloud-cli-bigtable-emulator, or LBT_CBT / LBT_EMULATOR)";

// The emulator, started once per test process on a free loopback port.
class EmulatorEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    if (access(kCbt.c_str(), X_OK) != 0 || access(kEmulator.c_str(), X_OK) != 0) return;
    port_ = FreeLoopbackPort();
    pid_ = StartProcess({kEmulator, "-host", "127.0.0.1", "-port", std::to_string(port_)});
    available_ = pid_ > 0 && WaitForPort(port_, 10000);
    // cbt looks for gcloud credentials unless given some; the emulator
    // ignores them, and skipping the lookup makes each call ~40x faster.
    creds_ = (fs::temp_directory_path() / ("lbt-conformance-creds-" + std::to_string(getpid()) + ".json")).string();
    std::ofstream(creds_) << "{}";
    // Accepting connections is not yet serving: wait for a real answer.
    for (int attempt = 0; available_ && attempt < 50; ++attempt) {
      ProcessResult r = RunProcess({kCbt, "-project", "conformance", "-instance", "warmup", "-creds", creds_, "ls"},
                                   {"BIGTABLE_EMULATOR_HOST=" + host()});
      if (r.status == 0) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    available_ = false;
  }
  void TearDown() override {
    StopProcess(pid_);
    std::error_code ec;
    fs::remove(creds_, ec);
  }
  bool available() const { return available_; }
  std::string host() const { return "127.0.0.1:" + std::to_string(port_); }
  const std::string& creds() const { return creds_; }

 private:
  bool available_ = false;
  int pid_ = -1;
  int port_ = 0;
  std::string creds_;
};

EmulatorEnvironment* g_emulator = nullptr;

#define REQUIRE_CBT()                                                                         \
  do {                                                                                        \
    if (!g_emulator->available()) {                                                           \
      if (Env("LBT_REQUIRE_CBT", "") == "1") FAIL() << "LBT_REQUIRE_CBT=1: " << kInstallHint; \
      GTEST_SKIP() << "skipped: " << kInstallHint;                                            \
    }                                                                                         \
  } while (0)

struct Step {
  int line = 0;
  std::string text;
  std::vector<std::string> words;
  std::string difference;              // "<id>: <reason>" when declared
  bool difference_may_vanish = false;  // "#! may differ": the emulator is not deterministic here
};

// What the reference (cbt against the emulator) is compared with: lbt's
// own shell on a database, the real cbt against `lbt serve` on one, or
// lbt as a client of a remote Bigtable: of the same emulator (another
// instance there), or of `lbt serve`.
enum class Subject { kShell, kServed, kRemoteEmulator, kRemoteServed };

// The instance prefix of each way, so that no two share emulator state.
std::string InstancePrefix(Subject subject, bool random) {
  switch (subject) {
    case Subject::kShell: return random ? "r-" : "s-";
    case Subject::kServed: return random ? "rv-" : "v-";
    case Subject::kRemoteEmulator: return random ? "re-" : "e-";
    case Subject::kRemoteServed: return random ? "rl-" : "l-";
  }
  return "";
}

// `lbt serve` on a fresh database and a free port, stopped when destroyed.
class ServedDatabase {
 public:
  explicit ServedDatabase(const std::string& dir) : port_(FreeLoopbackPort()) {
    pid_ = StartProcess({kLbt, "serve", "--db", dir, "--port", std::to_string(port_)});
    ready_ = pid_ > 0 && WaitForPort(port_, 10000);
  }
  ~ServedDatabase() { StopProcess(pid_); }
  bool ready() const { return ready_; }
  std::string host() const { return "127.0.0.1:" + std::to_string(port_); }

 private:
  int port_;
  int pid_ = -1;
  bool ready_ = false;
};

// Runs one command line through both tools and reports a disagreement.
class Comparer {
 public:
  Comparer(std::string instance, Subject subject = Subject::kShell)
      : instance_(std::move(instance)), subject_(subject) {
    if (subject == Subject::kServed || subject == Subject::kRemoteServed) {
      served_ = std::make_unique<ServedDatabase>(db_.Sub("db"));
      EXPECT_TRUE(served_->ready()) << "lbt serve did not start";
    }
  }

  // Returns "" when the tools agree, else a readable report.
  std::string Compare(const Step& step) {
    std::vector<std::string> cbt = {kCbt,      "-project", "conformance",      "-instance",
                                    instance_, "-creds",   g_emulator->creds()};
    cbt.insert(cbt.end(), step.words.begin(), step.words.end());
    ProcessResult want = RunProcess(cbt, {"BIGTABLE_EMULATOR_HOST=" + g_emulator->host(), "TZ=UTC"});
    ProcessResult got;
    if (subject_ == Subject::kServed) {
      got = RunProcess(cbt, {"BIGTABLE_EMULATOR_HOST=" + served_->host(), "TZ=UTC"});
    } else if (subject_ == Subject::kRemoteEmulator || subject_ == Subject::kRemoteServed) {
      // lbt with cbt's own flags; on the emulator, an instance of its own.
      const bool emulator = subject_ == Subject::kRemoteEmulator;
      std::vector<std::string> lbt = {
          kLbt,     "-project",         "conformance", "-instance", emulator ? instance_ + "-lbt" : instance_,
          "-creds", g_emulator->creds()};
      lbt.insert(lbt.end(), step.words.begin(), step.words.end());
      got = RunProcess(lbt, {"BIGTABLE_EMULATOR_HOST=" + (emulator ? g_emulator->host() : served_->host()), "TZ=UTC",
                             "LBT_HISTFILE=/dev/null"});
    } else {
      std::vector<std::string> lbt = {kLbt, "--db", db_.Sub("db")};
      lbt.insert(lbt.end(), step.words.begin(), step.words.end());
      got = RunProcess(lbt, {"TZ=UTC", "LBT_HISTFILE=/dev/null"});
    }
    // Latency and waitforreplication's time are wall time on both sides:
    // compare everything but their values.
    static const std::regex kLatency("frontend_server_latency: [0-9]+ms");
    static const std::regex kWaitTime("up to [0-9]{4}/[0-9]{2}/[0-9]{2}-[0-9]{2}:[0-9]{2}:[0-9]{2} to be replicated");
    for (std::string* out : {&want.out, &got.out}) {
      *out = std::regex_replace(*out, kLatency, "frontend_server_latency: Nms");
      *out = std::regex_replace(*out, kWaitTime, "up to T to be replicated");
    }
    if (want.out == got.out && (want.status == 0) == (got.status == 0)) return "";
    std::ostringstream report;
    report << "line " << step.line << ": " << step.text << "\n";
    if ((want.status == 0) != (got.status == 0)) {
      report << "  cbt exit " << want.status << ", lbt exit " << got.status << "\n";
      report << "  cbt stderr: " << LastLine(want.err) << "\n  lbt stderr: " << LastLine(got.err) << "\n";
    }
    if (want.out != got.out) report << FirstDifference(want.out, got.out);
    return report.str();
  }

 private:
  static std::string LastLine(const std::string& text) {
    std::string t = text;
    while (!t.empty() && t.back() == '\n') t.pop_back();
    size_t nl = t.rfind('\n');
    return nl == std::string::npos ? t : t.substr(nl + 1);
  }

  static std::vector<std::string> Lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
  }

  // The first differing line with a little context from both outputs.
  static std::string FirstDifference(const std::string& want, const std::string& got) {
    std::vector<std::string> a = Lines(want), b = Lines(got);
    size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    std::ostringstream out;
    out << "  stdout differs at line " << i + 1 << " (cbt " << a.size() << " lines, lbt " << b.size() << " lines):\n";
    size_t from = i >= 2 ? i - 2 : 0;
    for (size_t k = from; k < i; ++k) out << "      " << a[k] << "\n";
    for (size_t k = i; k < std::min(a.size(), i + 3); ++k) out << "  cbt " << ::testing::PrintToString(a[k]) << "\n";
    for (size_t k = i; k < std::min(b.size(), i + 3); ++k) out << "  lbt " << ::testing::PrintToString(b[k]) << "\n";
    return out.str();
  }

  std::string instance_;
  Subject subject_;
  testing::TempDir db_;
  std::unique_ptr<ServedDatabase> served_;  // declared after db_: stops before it is removed
};

// ---- scenarios ----

fs::path ScenarioDir() { return fs::path(LBT_SOURCE_DIR) / "tests/conformance/scenarios"; }

std::vector<Step> ParseScenario(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<Step> steps;
  std::string pending_difference;
  bool pending_may_vanish = false;
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    static const std::string kDiffers = "#! differs ";
    static const std::string kMayDiffer = "#! may differ ";
    if (line.rfind(kDiffers, 0) == 0) {
      pending_difference = line.substr(kDiffers.size());
      pending_may_vanish = false;
      continue;
    }
    if (line.rfind(kMayDiffer, 0) == 0) {
      pending_difference = line.substr(kMayDiffer.size());
      pending_may_vanish = true;
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    Result<std::vector<std::string>> words = Tokenize(line);
    EXPECT_TRUE(words.ok()) << path << ":" << line_number << ": " << words.status().ToString();
    if (!words.ok()) continue;
    for (const std::string& w : *words) {
      EXPECT_EQ(w.find('\0'), std::string::npos) << path << ":" << line_number << ": cbt cannot take NUL bytes";
    }
    steps.push_back(Step{line_number, line, *words, pending_difference, pending_may_vanish});
    pending_difference.clear();
    pending_may_vanish = false;
  }
  return steps;
}

std::vector<std::string> ScenarioNames() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(ScenarioDir())) {
    if (entry.path().extension() == ".cbt") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Declared differences that lie on the client's side rather than in the
// engine: lbt's shell parses and prints them, and the real cbt talking to
// `lbt serve` does it its own way (it truncates timestamps to milliseconds
// before sending them, and sends no request for an inverted range), so
// through the server these steps agree.
const std::set<std::string> kClientSideDifferences = {"newline-values", "ignored-options", "timestamp-granularity",
                                                      "inverted-range"};

std::string DifferenceId(const Step& step) { return step.difference.substr(0, step.difference.find(':')); }

// Whether a declared difference still shows in this way of running: engine
// differences show wherever lbt's engine answers, client-side ones
// wherever lbt's shell parses and prints.
bool DifferenceShows(const Step& step, Subject subject) {
  if (step.difference.empty()) return false;
  const bool client_side = kClientSideDifferences.count(DifferenceId(step)) > 0;
  switch (subject) {
    case Subject::kShell:
    case Subject::kRemoteServed: return true;
    case Subject::kServed: return !client_side;
    case Subject::kRemoteEmulator: return client_side;
  }
  return true;
}

void RunScenario(const std::string& name, Subject subject) {
  // Each run gets its own emulator instance: the emulator keeps every table.
  Comparer comparer(InstancePrefix(subject, false) + name, subject);
  for (const Step& step : ParseScenario(ScenarioDir() / (name + ".cbt"))) {
    std::string report = comparer.Compare(step);
    if (step.difference_may_vanish) continue;  // either outcome is expected
    const bool declared = DifferenceShows(step, subject);
    if (declared) {
      EXPECT_FALSE(report.empty()) << name << ".cbt line " << step.line << ": the declared difference '"
                                   << step.difference << "' no longer differs; remove the declaration";
    } else {
      EXPECT_TRUE(report.empty()) << name << ".cbt " << report;
    }
  }
}

class ScenarioTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ScenarioTest, AgreesWithCbt) {
  REQUIRE_CBT();
  RunScenario(GetParam(), Subject::kShell);
}

// The same scenario as the real cbt sends it to `lbt serve`.
TEST_P(ScenarioTest, CbtThroughServeAgreesWithCbt) {
  REQUIRE_CBT();
  RunScenario(GetParam(), Subject::kServed);
}

// lbt as a client of the emulator: the service answers, lbt prints.
TEST_P(ScenarioTest, LbtRemoteOnEmulatorAgreesWithCbt) {
  REQUIRE_CBT();
  RunScenario(GetParam(), Subject::kRemoteEmulator);
}

// lbt as a client of `lbt serve`: lbt at both ends of the wire.
TEST_P(ScenarioTest, LbtRemoteOnServeAgreesWithCbt) {
  REQUIRE_CBT();
  RunScenario(GetParam(), Subject::kRemoteServed);
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param;
  for (char& c : n) {
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return n;
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ScenarioTest, ::testing::ValuesIn(ScenarioNames()), TestName);

// Every declared difference names an id from the README's table, so the
// two lists cannot drift apart. "#! differs" must differ on every run;
// "#! may differ" marks where the emulator itself is not deterministic
// (it collects garbage in the background, at moments of its choosing).
TEST(DeclaredDifferences, AreListedInTheReadme) {
  std::ifstream readme(fs::path(LBT_SOURCE_DIR) / "README.md");
  std::stringstream text;
  text << readme.rdbuf();
  std::set<std::string> ids;
  std::regex row(R"(^\| `([a-z0-9-]+)` \|)");
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, row)) ids.insert(m[1]);
  }
  int declared = 0;
  for (const std::string& name : ScenarioNames()) {
    for (const Step& step : ParseScenario(ScenarioDir() / (name + ".cbt"))) {
      if (step.difference.empty()) continue;
      ++declared;
      std::string id = step.difference.substr(0, step.difference.find(':'));
      EXPECT_TRUE(ids.count(id)) << name << ".cbt line " << step.line << " declares '" << id
                                 << "', which the README's difference table does not list";
      EXPECT_NE(step.difference.find(": "), std::string::npos) << "a declaration needs '<id>: <reason>'";
    }
  }
  EXPECT_GT(declared, 0);
}

TEST(Scenarios, ThereAreAtLeastSixty) { EXPECT_GE(ScenarioNames().size(), 60u); }

// ---- instance goldens ----

// cbt's instance, cluster and app-profile commands have no reference in the
// emulator, which serves no Instance Admin API. Their expected answers are
// recorded in tests/golden/instances (scripts/record-instance-golden.sh) and
// checked against Bigtable's documentation; the real cbt through `lbt
// serve`, lbt's shell on a database and lbt in remote mode on `lbt serve`
// must each print them, and succeed or fail where they say.
fs::path InstanceGoldenDir() { return fs::path(LBT_SOURCE_DIR) / "tests/golden/instances"; }

std::vector<std::string> InstanceGoldenNames() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(InstanceGoldenDir())) {
    if (entry.path().extension() == ".cbt") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string ReadWhole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

enum class GoldenWay { kCbtThroughServe, kShell, kRemoteOnServe };

// Runs the scenario's lines one by one the given way; returns the stdout of
// all of them and each one's exit status, one per line, as recorded.
std::pair<std::string, std::string> RunInstanceGolden(const std::string& name, GoldenWay way) {
  testing::TempDir dir;
  std::unique_ptr<ServedDatabase> served;
  if (way != GoldenWay::kShell) {
    served = std::make_unique<ServedDatabase>(dir.Sub("served"));
    EXPECT_TRUE(served->ready()) << "lbt serve did not start";
  }
  const std::vector<std::string> instance = {"-project", "golden", "-instance", "golden-inst"};
  std::string out, exits;
  for (const Step& step : ParseScenario(InstanceGoldenDir() / (name + ".cbt"))) {
    std::vector<std::string> argv;
    std::vector<std::string> env = {"TZ=UTC", "LBT_HISTFILE=/dev/null"};
    if (way == GoldenWay::kShell) {
      argv = {kLbt, "--db", dir.Sub("db")};
    } else {
      argv = {way == GoldenWay::kCbtThroughServe ? kCbt : kLbt, "-creds", g_emulator->creds()};
      env.push_back("BIGTABLE_EMULATOR_HOST=" + served->host());
    }
    argv.insert(argv.end(), instance.begin(), instance.end());
    argv.insert(argv.end(), step.words.begin(), step.words.end());
    ProcessResult r = RunProcess(argv, env);
    out += r.out;
    exits += std::to_string(r.status) + "\n";
  }
  return {out, exits};
}

// Exit statuses agree when both are 0 or both are not (cbt exits 1 for
// every failure; lbt 2 for a usage error).
std::string Outcomes(const std::string& exits) {
  std::string out;
  std::istringstream in(exits);
  for (std::string line; std::getline(in, line);) out += line == "0" ? "ok\n" : "failed\n";
  return out;
}

class InstanceGoldenTest : public ::testing::TestWithParam<std::string> {
 protected:
  void Check(GoldenWay way) {
    REQUIRE_CBT();
    const std::string name = GetParam();
    auto [out, exits] = RunInstanceGolden(name, way);
    EXPECT_EQ(out, ReadWhole(InstanceGoldenDir() / (name + ".out")));
    EXPECT_EQ(Outcomes(exits), Outcomes(ReadWhole(InstanceGoldenDir() / (name + ".exit"))));
  }
};

TEST_P(InstanceGoldenTest, CbtThroughServe) { Check(GoldenWay::kCbtThroughServe); }
TEST_P(InstanceGoldenTest, Shell) { Check(GoldenWay::kShell); }
TEST_P(InstanceGoldenTest, RemoteOnServe) { Check(GoldenWay::kRemoteOnServe); }

INSTANTIATE_TEST_SUITE_P(InstanceGoldens, InstanceGoldenTest, ::testing::ValuesIn(InstanceGoldenNames()), TestName);

// ---- random workloads ----

class WorkloadGenerator {
 public:
  explicit WorkloadGenerator(uint64_t seed) : rng_(seed) {}

  std::vector<Step> Generate() {
    std::vector<Step> steps;
    auto add = [&](std::vector<std::string> words) {
      std::string text;
      for (const std::string& w : words) text += (text.empty() ? "" : " ") + ::testing::PrintToString(w);
      steps.push_back(Step{static_cast<int>(steps.size() + 1), text, std::move(words), ""});
    };
    add({"createtable", "t", "families=f1,f2"});
    for (int i = Uniform(4, 12); i > 0; --i) {
      std::vector<std::string> set = {"set", "t", RowKey()};
      for (int c = Uniform(1, 3); c > 0; --c) {
        set.push_back(Pick({"f1", "f2"}) + ":" + Qualifier() + "=" + Value() + "@" +
                      std::to_string(Uniform(1, 40) * 1000));
      }
      add(set);
    }
    for (int i = Uniform(0, 2); i > 0; --i) {
      if (Uniform(0, 1) == 0) {
        add({"deleterow", "t", KnownRow()});
      } else {
        add({"deletecolumn", "t", KnownRow(), Pick({"f1", "f2"}), Pick({"a", "b", "c"})});
      }
    }
    for (int i = Uniform(4, 8); i > 0; --i) add(Read());
    add({"lookup", "t", KnownRow()});
    add({"count", "t"});
    add({"count", "t", "prefix=" + Pick({"a", "u", "user#", "\xff", "b"})});
    return steps;
  }

 private:
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  std::string Pick(std::initializer_list<std::string> options) {
    auto it = options.begin();
    std::advance(it, Uniform(0, static_cast<int>(options.size()) - 1));
    return *it;
  }

  // Bytes from 0x01 to 0xff, leaving out only what cbt's own CLI mangles:
  // newlines (cut) and '@' (read as a timestamp).
  std::string Bytes(int max_len) {
    std::string s;
    for (int n = Uniform(0, max_len); n > 0; --n) {
      char c;
      do {
        c = static_cast<char>(Uniform(1, 255));
      } while (c == '\n' || c == '@');
      s.push_back(c);
    }
    return s;
  }

  std::string RowKey() {
    std::string key = Pick({"a", "ab", "abc", "b", "user#", "user#1", "user#12", "\xff", "\xc3\xa9", "z"}) +
                      (Uniform(0, 2) == 0 ? Bytes(3) : std::to_string(Uniform(0, 9)));
    rows_.push_back(key);
    return key;
  }
  std::string KnownRow() {
    return rows_.empty() || Uniform(0, 5) == 0 ? "missing" : rows_[Uniform(0, rows_.size() - 1)];
  }
  std::string Qualifier() { return Pick({"a", "b", "c", "long-qualifier-name", "q\xff", "\xc3\xa9t\xc3\xa9", ""}); }
  std::string Value() {
    switch (Uniform(0, 4)) {
      case 0: return "";
      case 1: return std::to_string(Uniform(0, 1000000));
      default: return Bytes(12);
    }
  }

  std::vector<std::string> Read() {
    std::vector<std::string> r = {"read", "t"};
    switch (Uniform(0, 3)) {
      case 0: r.push_back("prefix=" + Pick({"a", "ab", "user#", "user#1", "\xff", "\xc3"})); break;
      case 1: r.push_back("start=" + Pick({"a", "abc", "b", "user#1"})); break;
      case 2: r.push_back("start=" + Pick({"a", "ab"})), r.push_back("end=" + Pick({"b", "user#", "z"})); break;
      default: break;
    }
    if (Uniform(0, 3) == 0) r.push_back("count=" + std::to_string(Uniform(1, 5)));
    if (Uniform(0, 3) == 0) r.push_back("reversed=true");
    if (Uniform(0, 3) == 0) r.push_back("cells-per-column=" + std::to_string(Uniform(1, 3)));
    if (Uniform(0, 4) == 0) r.push_back("keys-only=true");
    if (Uniform(0, 3) == 0) r.push_back("columns=" + Pick({"f1:a", "f2:", "a", ":b", "f1:a,f2:b", "f1:[ab]", "f2:.*"}));
    if (Uniform(0, 4) == 0) r.push_back("regex=" + Pick({"a.*", "user#1.*", ".*b.*", "[ab].", ".*"}));
    return r;
  }

  std::mt19937_64 rng_;
  std::vector<std::string> rows_;
};

void RunRandomWorkloads(Subject subject, int default_iterations) {
  const uint64_t seed = std::stoull(Env("LBT_CONFORMANCE_SEED", "20261122"));
  const int iterations = std::stoi(Env("LBT_CONFORMANCE_ITERATIONS", std::to_string(default_iterations)));
  for (int i = 0; i < iterations; ++i) {
    std::vector<Step> steps = WorkloadGenerator(seed + i).Generate();
    Comparer comparer(InstancePrefix(subject, true) + std::to_string(seed) + "-" + std::to_string(i), subject);
    for (const Step& step : steps) {
      std::string report = comparer.Compare(step);
      if (report.empty()) continue;
      std::string workload;
      for (const Step& s : steps) workload += "    " + s.text + "\n";
      FAIL() << "workload " << i << " of seed " << seed << " (rerun with LBT_CONFORMANCE_SEED=" << seed + i
             << " LBT_CONFORMANCE_ITERATIONS=1) disagrees at " << report << "  the workload:\n"
             << workload;
    }
  }
  std::cout << "[ conformance ] " << iterations << " random workloads from seed " << seed << " agree\n";
}

TEST(RandomWorkloads, AgreeWithCbt) {
  REQUIRE_CBT();
  RunRandomWorkloads(Subject::kShell, 25);
}

TEST(RandomWorkloads, CbtThroughServeAgreesWithCbt) {
  REQUIRE_CBT();
  RunRandomWorkloads(Subject::kServed, 10);
}

TEST(RandomWorkloads, LbtRemoteOnEmulatorAgreesWithCbt) {
  REQUIRE_CBT();
  RunRandomWorkloads(Subject::kRemoteEmulator, 10);
}

TEST(RandomWorkloads, LbtRemoteOnServeAgreesWithCbt) {
  REQUIRE_CBT();
  RunRandomWorkloads(Subject::kRemoteServed, 10);
}

}  // namespace
}  // namespace lbt::conformance

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // Scenarios name their data files relative to the source tree.
  std::filesystem::current_path(LBT_SOURCE_DIR);
  lbt::conformance::g_emulator = new lbt::conformance::EmulatorEnvironment;
  ::testing::AddGlobalTestEnvironment(lbt::conformance::g_emulator);
  return RUN_ALL_TESTS();
}
