// Output: a buffered byte sink over a FILE* or a string. It flushes when
// its buffer passes a bound, so a long read streams instead of piling up.

#ifndef LBT_COMMANDS_CORE_OUTPUT_H_
#define LBT_COMMANDS_CORE_OUTPUT_H_

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

namespace lbt {

class Output {
 public:
  // Writes to `file`, which must outlive this object.
  explicit Output(FILE* file) : file_(file) {}
  // Appends to `*capture` (for tests).
  explicit Output(std::string* capture) : capture_(capture) {}
  // Appends to `*capture` at most `max_bytes`, in whole lines: the line
  // that would pass the bound is dropped, with everything after it, and
  // `on_full` runs once then (to stop the command that writes).
  Output(std::string* capture, size_t max_bytes, std::function<void()> on_full)
      : capture_(capture), max_bytes_(max_bytes), on_full_(std::move(on_full)) {}
  ~Output() { Flush(); }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  void Write(std::string_view bytes) {
    if (max_bytes_ > 0 && !Fits(bytes)) return;
    buffer_.append(bytes);
    if (buffer_.size() >= kFlushBytes) Flush();
  }
  void Flush();
  // True if the bytes go to a terminal.
  bool IsTerminal() const;
  // True once a bounded capture dropped bytes.
  bool full() const { return full_; }

 private:
  static constexpr size_t kFlushBytes = 64 * 1024;
  FILE* file_ = nullptr;
  // Whether `bytes` fit a bounded capture; past the bound, keeps the whole
  // lines written so far, marks it full and says so once.
  bool Fits(std::string_view bytes);

  std::string* capture_ = nullptr;
  std::string buffer_;
  size_t max_bytes_ = 0;  // 0: unbounded
  std::function<void()> on_full_;
  bool full_ = false;
};

}  // namespace lbt

#endif  // LBT_COMMANDS_CORE_OUTPUT_H_
