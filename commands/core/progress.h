// A one-line progress report for long operations. It appears on stderr
// only when stderr is a terminal, only after the operation has run for
// half a second, refreshes at most ten times a second, and erases itself
// when done, so it never pollutes a pipe or a log.

#ifndef LBT_COMMANDS_CORE_PROGRESS_H_
#define LBT_COMMANDS_CORE_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "commands/core/output.h"

namespace lbt {

class Progress {
 public:
  // `what` names the work, e.g. "reading t" or "importing data.csv".
  Progress(Output* err, std::string what, bool enabled = true);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Reports `rows` done so far, and bytes of `total_bytes` when known.
  void Update(int64_t rows, int64_t bytes = -1, int64_t total_bytes = -1);
  // Erases the line if it is shown, so that what is written next starts
  // a clean line. A later Update shows it again.
  void Clear();

 private:
  using Clock = std::chrono::steady_clock;
  Output* err_;
  std::string what_;
  bool enabled_;
  bool shown_ = false;
  Clock::time_point start_;
  Clock::time_point last_;
};

}  // namespace lbt

#endif  // LBT_COMMANDS_CORE_PROGRESS_H_
