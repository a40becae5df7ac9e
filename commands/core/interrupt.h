// A process-wide "stop what you are doing" flag: the shell raises it from
// its SIGINT handler; long commands check it between rows and stop with a
// Cancelled status, leaving the database as the last commit left it.

#ifndef LBT_COMMANDS_CORE_INTERRUPT_H_
#define LBT_COMMANDS_CORE_INTERRUPT_H_

#include <atomic>

namespace lbt {

inline std::atomic<bool>& InterruptFlag() {
  static std::atomic<bool> flag{false};
  return flag;
}

// Async-signal-safe.
inline void RequestInterrupt() { InterruptFlag().store(true, std::memory_order_relaxed); }
inline bool InterruptRequested() { return InterruptFlag().load(std::memory_order_relaxed); }
inline void ClearInterrupt() { InterruptFlag().store(false, std::memory_order_relaxed); }

}  // namespace lbt

#endif  // LBT_COMMANDS_CORE_INTERRUPT_H_
