// The command table: one entry per command of every dialect (cbt's, the
// HBase shell's, and the shell's own source/exit/quit) with its name,
// usage, help, argument count and handler. It drives dispatch, `help`,
// completion and "did you mean", and checks argument counts before a
// handler runs.

#ifndef LBT_COMMANDS_COMMAND_TABLE_H_
#define LBT_COMMANDS_COMMAND_TABLE_H_

#include <string>
#include <string_view>
#include <vector>

#include "commands/hbase_syntax.h"
#include "commands/output.h"
#include "commands/renderer.h"
#include "commands/session.h"
#include "api/status.h"

namespace lbt {

struct CommandSpec;

enum class Dialect {
  kCbt,    // read t prefix=a: words, then key=value options
  kHBase,  // scan 't', {LIMIT => 1}: Ruby-like arguments
  kShell,  // source, exit, quit: run by the shell itself, around commands
};

// What a handler of either dialect works with while it runs.
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

using CbtHandler = Status (*)(CommandContext& ctx, const std::vector<std::string>& args);
using HBaseHandler = Status (*)(CommandContext& ctx, const std::vector<HValue>& args);

// How many arguments a command takes (cbt: words after the name, options
// included; HBase: comma-separated arguments), checked before its handler
// runs, and what they are, for the message: "createfamily needs a table
// and a family".
struct ArgCount {
  static constexpr int kMany = 1 << 30;
  int min = 0;
  int max = kMany;
  std::string_view what;
};

// cbt options that lbt recognizes only to refuse them with a clear line;
// completion does not offer them.
inline constexpr std::string_view kRefusedOptions[] = {"format-file", "authorized-view"};

struct CommandSpec {
  std::string_view name;
  Dialect dialect = Dialect::kCbt;
  std::string_view usage;    // "read <table> [start=<row>] ..."
  std::string_view summary;  // one line ("" for commands help does not list)
  std::string_view details;  // option descriptions and examples
  CbtHandler cbt = nullptr;      // set for Dialect::kCbt
  HBaseHandler hbase = nullptr;  // set for Dialect::kHBase
  ArgCount args;
  // The option keys the command accepts: cbt's key= options (without '='),
  // or the keys of an HBase command's hash. Parsing and completion use them.
  std::vector<std::string_view> options;
};

// Entries of each dialect, built by the module that holds its handlers.
CommandSpec CbtCommand(std::string_view name, std::string_view usage, std::string_view summary,
                       std::string_view details, CbtHandler handler, ArgCount args,
                       std::vector<std::string_view> options = {});
CommandSpec HBaseCommand(std::string_view name, std::string_view usage, std::string_view summary,
                         std::string_view details, HBaseHandler handler, ArgCount args,
                         std::vector<std::string_view> options = {});
std::vector<CommandSpec> CbtCommands();    // cbt_commands.cc
std::vector<CommandSpec> HBaseCommands();  // hbase_commands.cc

// Every command lbt knows, of every dialect, in the order `help` lists them.
const std::vector<CommandSpec>& AllCommands();

// The command of `dialect` called `name`, or nullptr.
const CommandSpec* FindCommand(std::string_view name, Dialect dialect = Dialect::kCbt);
// The command called `name` in any dialect (cbt's first), or nullptr.
const CommandSpec* FindAnyCommand(std::string_view name);

// The usage error for `args` arguments if the spec's count refuses them,
// else OK.
Status CheckArgCount(const CommandSpec& spec, size_t args);

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

// True if the first word of `statement` is `word`; sets *rest to the text
// after it as written (quotes kept).
bool FirstWordIs(std::string_view statement, std::string_view word, std::string* rest);

// True if `statement` is a SQL query: it starts with SELECT (any case), or
// it is `sql <query>`. Sets *query to the query's text as written.
bool IsSqlStatement(std::string_view statement, std::string* query);

// If the text read so far should go on with the next line, appends what
// joins the two and returns true. It goes on when it ends inside a quote
// or after a continuing backslash (joined by the newline, which is part of
// the text), or, for an HBase statement, inside an open hash, array or
// call or after a comma (joined by a space: one statement, not two lines),
// and for a statement that starts with SELECT, until it ends with `;`.
bool ContinuesOnNextLine(std::string* pending);

// Runs one statement in whichever dialect its first word names.
CommandOutcome RunStatement(Session* session, Output* out, Output* err, std::string_view statement);

// The one line that reports a failed command, e.g. "error: table 't' does
// not exist" or, for the HBase dialect, "ERROR: Unknown table t!".
std::string ErrorLine(const CommandOutcome& outcome);

}  // namespace lbt

#endif  // LBT_COMMANDS_COMMAND_TABLE_H_
