// Statements: what kind a line of text is, decided in one place for
// `lbt <command>`, scripts, pipes and the interactive shell alike, and
// running it in its language.

#ifndef LBT_COMMANDS_CORE_STATEMENT_H_
#define LBT_COMMANDS_CORE_STATEMENT_H_

#include <string>
#include <string_view>
#include <vector>

#include "commands/core/command_table.h"

namespace lbt {

enum class StatementKind {
  kEmpty,    // only blanks or a comment
  kCbt,      // words, then key=value options: read t prefix=a
  kHBase,    // the HBase shell's: scan 't', {LIMIT => 5}
  kSql,      // SELECT ... or FROM ... (any case), or sql [@p=v ...] [EXPLAIN] ...
  kExplain,  // explain [analyze] <statement>, the statement kept as typed
  kSource,   // source <file>: run by the script runner
  kExit,     // exit or quit: leaves the interactive shell
};

struct Statement {
  StatementKind kind = StatementKind::kEmpty;
  std::string text;                // as typed
  std::vector<std::string> words;  // kCbt and kSource: the words, unquoted
  Status error;                    // kCbt: why the words could not be split
  std::string query;               // kSql: the query (after `sql`, if typed)
};

// What `text` is. An HBase statement is one whose first word is an HBase
// command (both languages have `count`: HBase's takes a quoted table).
Statement ClassifyStatement(std::string_view text);

// Runs a statement in its language. kSource and kExit belong to the shell
// and scripts around commands: here they are refused as usage errors.
CommandOutcome RunStatement(Session* session, Output* out, Output* err, const Statement& statement);
CommandOutcome RunStatement(Session* session, Output* out, Output* err, std::string_view text);

// True if `statement` is in the HBase shell's language.
bool IsHBaseStatement(std::string_view statement);

// True if `statement` is a SQL query: it starts with SELECT or FROM (any case), or
// it is `sql <query>`. Sets *query to the query's text as written.
bool IsSqlStatement(std::string_view statement, std::string* query);

// True if the first word of `statement` is `word`; sets *rest to the text
// after it as written (quotes kept).
bool FirstWordIs(std::string_view statement, std::string_view word, std::string* rest);

// If the text read so far should go on with the next line, appends what
// joins the two and returns true. It goes on when it ends inside a quote
// or after a continuing backslash (joined by the newline, which is part of
// the text), or, for an HBase statement, inside an open hash, array or
// call or after a comma (joined by a space: one statement, not two lines),
// and for a statement that starts with SELECT, until it ends with `;`.
bool ContinuesOnNextLine(std::string* pending);

}  // namespace lbt

#endif  // LBT_COMMANDS_CORE_STATEMENT_H_
