// Background threads take no asynchronous signals, and leave their
// creator's signal mask as it was.

#include "util/background_thread.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>

namespace lbt {
namespace {

bool Blocked(int signal) {
  sigset_t mask;
  pthread_sigmask(SIG_BLOCK, nullptr, &mask);
  return sigismember(&mask, signal) == 1;
}

TEST(BackgroundThreadTest, TakesNoInterruptOrTerminationAndLeavesItsCreatorAsItWas) {
  ASSERT_FALSE(Blocked(SIGINT));
  bool interrupt = false, terminate = false, hangup = false, quit = false;
  std::thread worker = StartBackgroundThread([&] {
    interrupt = Blocked(SIGINT);
    terminate = Blocked(SIGTERM);
    hangup = Blocked(SIGHUP);
    quit = Blocked(SIGQUIT);
  });
  worker.join();
  EXPECT_TRUE(interrupt);
  EXPECT_TRUE(terminate);
  EXPECT_TRUE(hangup);
  EXPECT_TRUE(quit);
  EXPECT_FALSE(Blocked(SIGINT)) << "the creating thread keeps its mask";
  EXPECT_FALSE(Blocked(SIGTERM));
}

}  // namespace
}  // namespace lbt
