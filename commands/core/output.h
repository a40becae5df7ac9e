// Output: a buffered byte sink over a FILE* or a string. It flushes when
// its buffer passes a bound, so a long read streams instead of piling up.

#ifndef LBT_COMMANDS_CORE_OUTPUT_H_
#define LBT_COMMANDS_CORE_OUTPUT_H_

#include <cstdio>
#include <string>
#include <string_view>

namespace lbt {

class Output {
 public:
  // Writes to `file`, which must outlive this object.
  explicit Output(FILE* file) : file_(file) {}
  // Appends to `*capture` (for tests).
  explicit Output(std::string* capture) : capture_(capture) {}
  ~Output() { Flush(); }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  void Write(std::string_view bytes) {
    buffer_.append(bytes);
    if (buffer_.size() >= kFlushBytes) Flush();
  }
  void Flush();
  // True if the bytes go to a terminal.
  bool IsTerminal() const;

 private:
  static constexpr size_t kFlushBytes = 64 * 1024;
  FILE* file_ = nullptr;
  std::string* capture_ = nullptr;
  std::string buffer_;
};

}  // namespace lbt

#endif  // LBT_COMMANDS_CORE_OUTPUT_H_
