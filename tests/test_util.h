// Helpers shared by the test suite.

#ifndef LBT_TESTS_TEST_UTIL_H_
#define LBT_TESTS_TEST_UTIL_H_

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "api/status.h"
#include "storage/database.h"
#include "storage/rows/row_reader.h"

#define ASSERT_OK(expr)                            \
  do {                                             \
    const ::lbt::Status lbt_s_ = (expr);           \
    ASSERT_TRUE(lbt_s_.ok()) << lbt_s_.ToString(); \
  } while (0)
#define EXPECT_OK(expr)                            \
  do {                                             \
    const ::lbt::Status lbt_s_ = (expr);           \
    EXPECT_TRUE(lbt_s_.ok()) << lbt_s_.ToString(); \
  } while (0)

// Declares `lhs` from a Result, failing the test on error.
#define ASSERT_OK_AND_ASSIGN(lhs, rexpr) ASSERT_OK_AND_ASSIGN_IMPL_(LBT_CONCAT_(test_result_, __LINE__), lhs, rexpr)
#define ASSERT_OK_AND_ASSIGN_IMPL_(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                               \
  ASSERT_TRUE(tmp.ok()) << tmp.status().ToString(); \
  lhs = std::move(tmp).value()

namespace lbt {
// Lets GoogleTest print cells readably in failure messages.
inline void PrintTo(const Cell& c, std::ostream* os) {
  *os << "{" << ::testing::PrintToString(c.family) << ":" << ::testing::PrintToString(c.qualifier) << " @"
      << c.timestamp << " = " << ::testing::PrintToString(c.value);
  for (const std::string& l : c.labels) *os << " [" << l << "]";
  *os << "}";
}
}  // namespace lbt

namespace lbt::testing {

// A fresh directory under the system's temp dir, removed when destroyed.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    const char* base = std::getenv("TMPDIR");
    path_ = std::filesystem::path(base != nullptr ? base : "/tmp") /
            ("lbt-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string path() const { return path_.string(); }
  std::string Sub(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// A clock the test moves by hand, in microseconds.
struct FakeClock {
  int64_t now = 1'700'000'000'000'000;
  std::function<int64_t()> Fn() {
    return [this] { return now; };
  }
};

// Opens (creating) a database in `dir` whose clock is `clock`'s.
// Writes many rows at once, as a test's setup does: each row atomically, all
// of them in one group commit (Database::MutateRowsEach). Returns the first
// row's error, if any failed.
inline Status WriteRows(Database* db, std::string_view table, const std::vector<RowMutation>& rows) {
  Result<std::vector<Status>> statuses = db->MutateRows(table, rows);
  if (!statuses.ok()) return statuses.status();
  for (const Status& s : *statuses) {
    if (!s.ok()) return s;
  }
  return Status::OK();
}

inline std::unique_ptr<Database> OpenWithClock(const std::string& dir, FakeClock* clock) {
  DatabaseOptions options;
  options.clock = clock->Fn();
  auto db = Database::Open(dir, options);
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  return db.ok() ? std::move(db).value() : nullptr;
}

// Random bytes that favour 0x00 and 0xFF, the bytes escaping must handle.
inline std::string RandomBytes(std::mt19937_64& rng, size_t max_len, size_t min_len = 0) {
  std::uniform_int_distribution<size_t> len(min_len, max_len);
  std::uniform_int_distribution<int> pick(0, 9);
  std::uniform_int_distribution<int> byte(0, 255);
  std::string s(len(rng), '\0');
  for (char& c : s) {
    int p = pick(rng);
    c = p < 3 ? '\x00' : p < 6 ? '\xff' : p < 7 ? '\x01' : static_cast<char>(byte(rng));
  }
  return s;
}

// Reads every row of a reader, failing the test on error.
inline std::vector<Row> Drain(RowReader* reader) {
  std::vector<Row> rows;
  Row row;
  while (reader->Next(&row)) rows.push_back(row);
  EXPECT_TRUE(reader->status().ok()) << reader->status().ToString();
  return rows;
}

inline std::vector<Row> ReadAll(Database* db, const std::string& table, ReadOptions options = {}) {
  auto reader = db->NewReader(table, options);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return {};
  return Drain(reader->get());
}

// A mutation as change stream tests compare them: "set cf:a@1000=v",
// "add ...", "delcol cf:a[0,5000)", "delfam cf".
inline std::string MutationText(const Mutation& m) {
  switch (m.kind) {
    case Mutation::Kind::kSetCell: return fmt::format("set {}:{}@{}={}", m.family, m.qualifier, m.timestamp, m.value);
    case Mutation::Kind::kAddToCell:
      return fmt::format("add {}:{}@{}+{}", m.family, m.qualifier, m.timestamp, m.int_value);
    case Mutation::Kind::kDeleteFromColumn:
      return fmt::format("delcol {}:{}[{},{})", m.family, m.qualifier, m.range.start_micros, m.range.end_micros);
    case Mutation::Kind::kDeleteFromFamily: return fmt::format("delfam {}", m.family);
    case Mutation::Kind::kDeleteFromRow: return "delrow";
  }
  return "?";
}

inline std::vector<std::string> RowKeys(const std::vector<Row>& rows) {
  std::vector<std::string> keys;
  for (const Row& r : rows) keys.push_back(r.key);
  return keys;
}

// A one-shot signal from one process to another over a pipe, made before a
// fork so that both sides hold it: one side Notify()s once it holds a lock
// or is ready, the other WaitFor()s that. The wait has a deadline, so a
// signal that never comes fails the test instead of hanging it.
class PipeSignal {
 public:
  PipeSignal() { EXPECT_EQ(::pipe(fds_), 0); }
  ~PipeSignal() {
    ::close(fds_[0]);
    ::close(fds_[1]);
  }
  PipeSignal(const PipeSignal&) = delete;
  PipeSignal& operator=(const PipeSignal&) = delete;

  bool Notify() {
    const char c = 'x';
    return ::write(fds_[1], &c, 1) == 1;
  }
  // True once notified; false if `deadline` passes first.
  bool WaitFor(std::chrono::milliseconds deadline = std::chrono::seconds(30)) {
    pollfd p{fds_[0], POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(deadline.count())) != 1) return false;
    char c;
    return ::read(fds_[0], &c, 1) == 1;
  }

 private:
  int fds_[2] = {-1, -1};
};

// Polls `condition` until it holds or `deadline` passes; returns its last
// value. For a state another thread or process reaches in its own time.
template <typename Condition>
bool PollUntil(Condition condition, std::chrono::milliseconds deadline = std::chrono::seconds(30)) {
  const auto give_up = std::chrono::steady_clock::now() + deadline;
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= give_up) return condition();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// Microseconds for a whole number of milliseconds.
constexpr int64_t Ms(int64_t ms) { return ms * 1000; }

}  // namespace lbt::testing

#endif  // LBT_TESTS_TEST_UTIL_H_
