// The command table: one entry per command (name, usage, summary, help,
// handler) drives dispatch, `help`, completion and "did you mean".

#ifndef LBT_COMMANDS_COMMAND_TABLE_H_
#define LBT_COMMANDS_COMMAND_TABLE_H_

#include <string>
#include <string_view>
#include <vector>

#include "commands/output.h"
#include "commands/renderer.h"
#include "commands/session.h"
#include "api/status.h"

namespace lbt {

struct CommandSpec;

// What a handler works with while it runs.
struct CommandContext {
  Session* session;
  Renderer* renderer;
  Output* out;  // stdout: results only
  Output* err;  // stderr: notes and progress, never results
  const CommandSpec* spec;
  bool usage_error = false;

  // Marks the failure as a usage error (exit status 2) and returns it.
  Status Usage(const std::string& message);
  Bigtable* bigtable() const { return session->bigtable(); }
  // What only a local database can do; a FailedPrecondition naming the
  // command for a remote Bigtable.
  Result<LocalMaintenance*> LocalOnly() const;
};

using CommandHandler = Status (*)(CommandContext& ctx, const std::vector<std::string>& args);

// cbt options that lbt recognizes only to refuse them with a clear line;
// completion does not offer them.
inline constexpr std::string_view kRefusedOptions[] = {"format-file", "authorized-view"};

struct CommandSpec {
  std::string_view name;
  std::string_view usage;    // "read <table> [start=<row>] ..."
  std::string_view summary;  // one line
  std::string_view details;  // option descriptions and examples
  CommandHandler handler;
  // The option keys (without '=') the command accepts, for completion.
  std::vector<std::string_view> options;
};

// Every command lbt knows, in the order `help` lists them.
const std::vector<CommandSpec>& AllCommands();

// The command called `name`, or nullptr.
const CommandSpec* FindCommand(std::string_view name);

// The known name closest to `name` (by edit distance), or "" if none is
// close enough to be a plausible typo.
std::string SuggestCommand(std::string_view name);
std::string SuggestWord(std::string_view word, const std::vector<std::string_view>& candidates);

struct CommandOutcome {
  Status status;
  bool usage_error = false;
  bool hbase = false;  // errors read "ERROR: ..." as in the HBase shell
  // 0 success, 1 the command failed, 2 usage error.
  int ExitCode() const { return status.ok() ? 0 : usage_error ? 2 : 1; }
};

// Runs one tokenized cbt command. An empty word list does nothing.
CommandOutcome RunCommand(Session* session, Output* out, Output* err, const std::vector<std::string>& words);

// True if `statement` is in the HBase shell's language: its first word is
// an HBase command, or it is `count` with a quoted table ('t') or options.
bool IsHBaseStatement(std::string_view statement);

// If the text read so far should go on with the next line, appends what
// joins the two and returns true. It goes on when it ends inside a quote
// or after a continuing backslash (joined by the newline, which is part of
// the text), or, for an HBase statement, inside an open hash, array or
// call or after a comma (joined by a space: one statement, not two lines).
bool ContinuesOnNextLine(std::string* pending);

// Runs one statement in whichever dialect its first word names.
CommandOutcome RunStatement(Session* session, Output* out, Output* err, std::string_view statement);

// The one line that reports a failed command, e.g. "error: table 't' does
// not exist" or, for the HBase dialect, "ERROR: Unknown table t!".
std::string ErrorLine(const CommandOutcome& outcome);

}  // namespace lbt

#endif  // LBT_COMMANDS_COMMAND_TABLE_H_
