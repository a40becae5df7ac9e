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

bool Output::IsTerminal() const { return file_ != nullptr && isatty(fileno(file_)) == 1; }

}  // namespace lbt
