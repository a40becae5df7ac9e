#include "commands/core/progress.h"

#include <fmt/format.h>

namespace lbt {

namespace {
constexpr auto kDelay = std::chrono::milliseconds(500);
constexpr auto kInterval = std::chrono::milliseconds(100);
}  // namespace

Progress::Progress(Output* err, std::string what, bool enabled)
    : err_(err), what_(std::move(what)), enabled_(enabled && err->IsTerminal()), start_(Clock::now()) {}

Progress::~Progress() { Clear(); }

void Progress::Clear() {
  if (!shown_) return;
  err_->Write("\r\033[K");
  err_->Flush();
  shown_ = false;
}

void Progress::Update(int64_t rows, int64_t bytes, int64_t total_bytes) {
  if (!enabled_) return;
  Clock::time_point now = Clock::now();
  if (now - start_ < kDelay || (shown_ && now - last_ < kInterval)) return;
  last_ = now;
  shown_ = true;
  double seconds = std::chrono::duration<double>(now - start_).count();
  std::string line = fmt::format("\r\033[K{}: {} rows, {:.0f} rows/s", what_, rows, rows / seconds);
  if (bytes >= 0 && total_bytes > 0) {
    double done = static_cast<double>(bytes) / static_cast<double>(total_bytes);
    double eta = done > 0 ? seconds * (1 - done) / done : 0;
    line += fmt::format(", {:.0f}% ({:.1f} of {:.1f} MiB), {:.0f}s left", done * 100, bytes / 1048576.0,
                        total_bytes / 1048576.0, eta);
  }
  err_->Write(line);
  err_->Flush();
}

}  // namespace lbt
