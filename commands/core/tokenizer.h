// Splits a command line into words the way a POSIX shell would, so that a
// line copied from a `cbt` example works unchanged:
//
//   'single'   literal bytes
//   "double"   backslash escapes only \ " $ ` and newline, as in sh
//   $'ansi'    C escapes: \n \t \r \a \b \e \f \v \\ \' \" \? \xHH \NNN \0
//   \c         outside quotes, the character c itself
//   # ...      a comment, where a word would start
//
// Words are bytes: $'\x00' yields a NUL, which a process argument cannot
// carry but a script line can.

#ifndef LBT_COMMANDS_CORE_TOKENIZER_H_
#define LBT_COMMANDS_CORE_TOKENIZER_H_

#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"

namespace lbt {

// Splits `line` into words. A line that ends inside a quote is an error
// (see IsIncomplete to tell when more input should follow).
Result<std::vector<std::string>> Tokenize(std::string_view line);

// True if `text` ends inside a quote or with a backslash that continues the
// line, so an interactive or script reader should append the next line.
bool IsIncomplete(std::string_view text);

// Splits `text` at ';' and newlines outside quotes and comments, keeping
// each statement's text as written. Empty statements are dropped.
std::vector<std::string> SplitStatements(std::string_view text);

}  // namespace lbt

#endif  // LBT_COMMANDS_CORE_TOKENIZER_H_
