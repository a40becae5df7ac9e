#include "commands/core/output.h"

#include <unistd.h>

namespace lbt {

void Output::Flush() {
  if (buffer_.empty()) return;
  if (capture_ != nullptr) {
    capture_->append(buffer_);
  } else if (file_ != nullptr) {
    fwrite(buffer_.data(), 1, buffer_.size(), file_);
    fflush(file_);
  }
  buffer_.clear();
}

bool Output::Fits(std::string_view bytes) {
  if (full_) return false;
  if (capture_->size() + buffer_.size() + bytes.size() <= max_bytes_) return true;
  full_ = true;
  // Keep what was written up to its last whole line: in the buffer if it
  // holds a line end, else in the capture.
  if (const size_t line_end = buffer_.rfind('\n'); line_end != std::string::npos) {
    buffer_.resize(line_end + 1);
    Flush();
  } else {
    buffer_.clear();
    const size_t kept = capture_->rfind('\n');
    capture_->resize(kept == std::string::npos ? 0 : kept + 1);
  }
  if (on_full_) on_full_();
  return false;
}

bool Output::IsTerminal() const { return file_ != nullptr && isatty(fileno(file_)) == 1; }

}  // namespace lbt
