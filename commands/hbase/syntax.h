// The argument syntax of the HBase shell (a subset of Ruby):
//
//   scan 'vehicles', {ROWPREFIXFILTER => 'STC#22#', LIMIT => 10}
//   alter 't', NAME => 'f1', VERSIONS => 5      # trailing hash, no braces
//   put 't', "\x00\xff", 'f:q', 'value', 1700000000000
//
// Single-quoted strings are literal (only \' and \\ escape); double-quoted
// strings take Ruby's escapes: \n \t \r \a \b \e \f \v \s \0, octal \NNN,
// hex \xHH and \uHHHH. Bare words such as NAME or VERSIONS are the shell's
// constants and stand for their own names.

#ifndef LBT_COMMANDS_HBASE_SYNTAX_H_
#define LBT_COMMANDS_HBASE_SYNTAX_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/status.h"

namespace lbt {

struct HashEntry;

struct HValue {
  enum class Kind { kString, kInteger, kFloat, kBool, kNil, kArray, kHash };
  Kind kind = Kind::kNil;
  std::string text;  // kString (also a bare constant's name)
  int64_t integer = 0;
  double real = 0;
  bool boolean = false;
  std::vector<HValue> items;       // kArray
  std::vector<HashEntry> entries;  // kHash, in order

  bool IsString() const { return kind == Kind::kString; }
  bool IsHash() const { return kind == Kind::kHash; }
  // The entry under `key`, or nullptr.
  const HValue* Find(std::string_view key) const;
  // How the value reads in an error message.
  std::string Describe() const;
};

struct HashEntry {
  std::string key;  // a name or a string
  HValue value;
};

// Splits a statement into the command name and the text of its arguments.
// Returns false if the statement does not start with a word.
bool SplitHBaseCommand(std::string_view statement, std::string* name, std::string* args);

// Parses the arguments after the command name.
Result<std::vector<HValue>> ParseHBaseArgs(std::string_view text);

// True if `args` ends inside a quote, an open hash, array or call, or
// after a comma or `=>`: the statement goes on on the next line, as it
// would in the HBase shell.
bool HBaseArgsAreIncomplete(std::string_view args);

}  // namespace lbt

#endif  // LBT_COMMANDS_HBASE_SYNTAX_H_
