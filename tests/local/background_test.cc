// LocalServices: a local database's background work, its jobs run at once
// and then on their interval, and stopped by one Stop that joins them all;
// automated backups among them, in lbt serve and the shell alike.

#include "local/background.h"
#include "api/backup.h"
#include "api/instance_admin.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "local/local_bigtable.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

constexpr int64_t kDay = int64_t{24} * 3600 * 1000000;
const InstanceName kA{"proj", "inst-a"};

// An instance with a cluster, and a table whose automated backup policy
// makes a backup due at once.
void MakeBackupDue(InstanceAdmin* admin) {
  InstanceSpec spec;
  spec.name = kA;
  spec.display_name = "Instance A";
  spec.clusters.push_back(ClusterSpec{.id = "inst-a-c1", .location = "projects/proj/locations/us-east1-b"});
  spec.clusters.back().serve_nodes = 1;
  ASSERT_OK(admin->CreateInstance(spec));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Bigtable> tables, admin->OpenTables(kA));
  ASSERT_OK(tables->CreateTable("events", {{"cf"}}, {}, false));
  ASSERT_OK(tables->MutateRow("events", "r", {Mutation::SetCell("cf", "q", "1", 1000)}));
  ASSERT_OK(tables->SetAutomatedBackupPolicy("events", AutomatedBackupPolicy{7 * kDay, 0}));
}

size_t AutomatedBackups(InstanceAdmin* admin) {
  Result<std::vector<BackupSpec>> backups = (*admin->OpenTables(kA))->ListBackups("-");
  EXPECT_TRUE(backups.ok()) << backups.status().ToString();
  if (!backups.ok()) return 0;
  size_t n = 0;
  for (const BackupSpec& b : *backups) n += b.id.rfind("auto-events-", 0) == 0 ? 1 : 0;
  return n;
}

TEST(LocalServicesTest, TakesADueAutomatedBackupAtStart) {
  testing::TempDir dir;
  LocalBigtable root(dir.Sub("db"), DatabaseOptions{});
  ASSERT_NO_FATAL_FAILURE(MakeBackupDue(root.instance_admin()));
  LocalServices services([](const Status& s) { ADD_FAILURE() << s.ToString(); });
  services.Start(AutomatedBackupsJob(root.local()));
  EXPECT_TRUE(testing::PollUntil([&] { return AutomatedBackups(root.instance_admin()) == 1; }));
  services.Stop();
  EXPECT_EQ(AutomatedBackups(root.instance_admin()), 1u) << "not due again for a day";
}

// The first run is never skipped, even by a Stop that comes before it: a
// one-shot command takes what is due before it exits.
TEST(LocalServicesTest, StopRightAfterStartStillRunsEachJobOnce) {
  std::atomic<int> runs{0};
  LocalServices services(nullptr);
  services.Start(BackgroundJob{.name = "count", .interval = std::chrono::hours(1), .run = [&] {
                                 runs.fetch_add(1);
                                 return Status::OK();
                               }});
  services.Stop();
  EXPECT_EQ(runs.load(), 1);
  EXPECT_EQ(services.runs(), 1);
}

// Stop waits for a run under way to finish, and wakes a job waiting out its
// interval (an hour here, which the test would time out on).
TEST(LocalServicesTest, StopJoinsEveryJob) {
  std::mutex mu;
  std::condition_variable changed;
  bool entered = false, released = false;
  std::atomic<int> order{0};
  int finished_at = 0, stopped_at = 0;
  LocalServices services(nullptr);
  services.Start(BackgroundJob{.name = "idle", .interval = std::chrono::hours(1), .run = [] { return Status::OK(); }});
  services.Start(BackgroundJob{.name = "held", .interval = std::chrono::hours(1), .run = [&] {
                                 std::unique_lock<std::mutex> lock(mu);
                                 entered = true;
                                 changed.notify_all();
                                 changed.wait(lock, [&] { return released; });
                                 finished_at = ++order;
                                 return Status::OK();
                               }});
  {
    std::unique_lock<std::mutex> lock(mu);
    ASSERT_TRUE(changed.wait_for(lock, std::chrono::seconds(30), [&] { return entered; }));
  }
  std::thread stopper([&] {
    services.Stop();
    stopped_at = ++order;
  });
  {
    std::lock_guard<std::mutex> lock(mu);
    released = true;
  }
  changed.notify_all();
  stopper.join();
  EXPECT_EQ(finished_at, 1);
  EXPECT_EQ(stopped_at, 2) << "Stop returned before the run under way finished";
  EXPECT_EQ(services.runs(), 2);
}

// A job's errors are reported once per distinct message in a row, named.
TEST(LocalServicesTest, ReportsAnErrorOnceNamingItsJob) {
  std::mutex mu;
  std::vector<std::string> reported;
  LocalServices services([&](const Status& s) {
    std::lock_guard<std::mutex> lock(mu);
    reported.push_back(s.message());
  });
  services.Start(BackgroundJob{.name = "failing", .interval = std::chrono::milliseconds(1), .run = [] {
                                 return Status::FailedPrecondition("no");
                               }});
  EXPECT_TRUE(testing::PollUntil([&] { return services.runs() >= 3; }));
  services.Stop();
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_EQ(reported, std::vector<std::string>{"failing: no"});
}

// The shell starts the same work: a one-shot command takes a due
// automated backup (before, only lbt serve took them).
TEST(LocalServicesTest, AShellCommandTakesADueAutomatedBackup) {
  testing::TempDir dir;
  {
    LocalBigtable root(dir.Sub("db"), DatabaseOptions{});
    ASSERT_NO_FATAL_FAILURE(MakeBackupDue(root.instance_admin()));
  }
  const std::string command = fmt::format("'{}' --db '{}' ls > /dev/null", LBT_BINARY, dir.Sub("db"));
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  LocalBigtable root(dir.Sub("db"), DatabaseOptions{});
  EXPECT_EQ(AutomatedBackups(root.instance_admin()), 1u);
}

}  // namespace
}  // namespace lbt
