// Threads for background work, which take no asynchronous signals.
//
// Ctrl-C and SIGTERM belong to the threads that act on them: the shell's
// line editor and command loop on the main thread, lbt serve's sigwait.
// The kernel may hand a process's signal to any thread that does not block
// it, and a background thread (a fold, a pass, a read-ahead) can do
// nothing with one: a SIGTERM it took would end lbt serve without its
// clean shutdown, and a Ctrl-C that the line editor passes on could land
// there after the editor had returned (the shell then read it as Ctrl-D).

#ifndef LBT_UTIL_BACKGROUND_THREAD_H_
#define LBT_UTIL_BACKGROUND_THREAD_H_

#include <pthread.h>
#include <signal.h>

#include <thread>
#include <utility>

namespace lbt {

// Starts `body` on a new thread with SIGINT, SIGTERM, SIGHUP and SIGQUIT
// blocked; the calling thread's signal mask is left as it was.
template <typename Body>
std::thread StartBackgroundThread(Body&& body) {
  sigset_t blocked, before;
  sigemptyset(&blocked);
  for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&blocked, signal);
  pthread_sigmask(SIG_BLOCK, &blocked, &before);  // a new thread starts with its creator's mask
  std::thread thread(std::forward<Body>(body));
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  return thread;
}

}  // namespace lbt

#endif  // LBT_UTIL_BACKGROUND_THREAD_H_
