// Formatting helpers that reproduce cbt's output byte for byte. cbt is
// written in Go, so these follow Go's rules: strconv.Quote for values,
// rune counts for padding, text/tabwriter for tables.

#ifndef LBT_COMMANDS_RENDER_TEXT_FORMAT_H_
#define LBT_COMMANDS_RENDER_TEXT_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/bytes.h"

namespace lbt {

// Go's strconv.Quote: "..." with \" and \\ escaped, \a \b \f \n \r \t \v
// for those controls, other control bytes and invalid UTF-8 as \xHH,
// non-printable runes as \uHHHH or \UHHHHHHHH, printable runes kept.
std::string GoQuote(std::string_view bytes);

// The number of runes Go counts in `bytes` (each invalid byte is one).
size_t RuneCount(std::string_view bytes);

// `s` padded with spaces on the right to `width` runes (Go's %-Ns).
std::string PadRight(std::string_view s, size_t width);

// A cell timestamp as cbt prints it, in the local time zone:
// 2006/01/02-15:04:05.000000
std::string FormatCbtTimestamp(int64_t micros);

// A span as the shell takes it: "7d", "36h", "90m", "5s".
std::string FormatSpan(int64_t micros);

// Go's text/tabwriter with tab padding: cells end with '\t'; each column is
// as wide as its widest cell plus `padding`, rounded up to a multiple of
// `tab_width`, and filled with tabs. The last cell of a line is not padded.
class TabWriter {
 public:
  TabWriter(size_t min_width, size_t tab_width, size_t padding)
      : min_width_(min_width), tab_width_(tab_width), padding_(padding) {}
  // Adds one line of text holding '\t'-terminated cells (no newline).
  void AddLine(std::string_view line);
  // The aligned text, each line ending in '\n'.
  std::string Render() const;

 private:
  void AssignWidths(size_t column, size_t begin, size_t end, std::vector<std::vector<size_t>>* widths) const;

  size_t min_width_, tab_width_, padding_;
  std::vector<std::vector<std::string>> lines_;  // cells; the last is unterminated
};

}  // namespace lbt

#endif  // LBT_COMMANDS_RENDER_TEXT_FORMAT_H_
