// Running a program and capturing what it prints (for the conformance
// suite, which compares the real cbt with lbt).

#ifndef LBT_TESTS_CONFORMANCE_PROCESS_H_
#define LBT_TESTS_CONFORMANCE_PROCESS_H_

#include <string>
#include <vector>

namespace lbt::conformance {

struct ProcessResult {
  std::string out;
  std::string err;
  int status = -1;  // exit status, or 128 + signal
};

// Runs argv[0] with `argv`, with `env` ("NAME=value") added to this
// process's environment, and waits for it.
ProcessResult RunProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env);

// Starts argv[0] in the background; returns its pid. Its stderr goes to
// the file `stderr_path` (created or truncated), or nowhere if empty.
int StartProcess(const std::vector<std::string>& argv, const std::string& stderr_path = "");
// Sends `signal` and waits; returns the exit status, or 128 + the signal
// that ended it.
int StopProcess(int pid, int signal = 15 /* SIGTERM */);

// A TCP port on 127.0.0.1 that nothing listens on right now.
int FreeLoopbackPort();
// Waits until something accepts connections on 127.0.0.1:port.
bool WaitForPort(int port, int timeout_ms);

}  // namespace lbt::conformance

#endif  // LBT_TESTS_CONFORMANCE_PROCESS_H_
