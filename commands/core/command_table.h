// The command table: one entry per command of every dialect (cbt's, the
// HBase shell's, and the shell's own source/exit/quit) with its name,
// usage, help, argument count and handler. It drives dispatch, `help`,
// completion and "did you mean", and checks argument counts before a
// handler runs.

#ifndef LBT_COMMANDS_CORE_COMMAND_TABLE_H_
#define LBT_COMMANDS_CORE_COMMAND_TABLE_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/instance_admin.h"
#include "api/status.h"
#include "api/table.h"
#include "commands/core/output.h"
#include "commands/core/session.h"
#include "commands/hbase/syntax.h"
#include "commands/render/renderer.h"

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
  // Set by authorized-view=<id> (UseViewIfNamed), or for a local
  // materialized view named as a table: what the command's reads and
  // writes of its table go through.
  std::optional<TableRef> table_ref;

  // Marks the failure as a usage error (exit status 2) and returns it.
  Status Usage(const std::string& message);
  Bigtable* bigtable() const { return session->bigtable(); }
  // The data operations of table `table`: through table_ref when it names
  // that table (a view of it, or a materialized view of that name).
  Result<std::unique_ptr<Table>> OpenTable(std::string_view table) const;
  // What only a local database can do; a FailedPrecondition naming the
  // command for a remote Bigtable.
  Result<LocalMaintenance*> LocalOnly() const;
  // The instances' admin (api/instance.h); a FailedPrecondition naming the
  // command where there is none.
  Result<InstanceAdmin*> Instances() const;
};

using CbtHandler = Status (*)(CommandContext& ctx, const std::vector<std::string>& args);
using HBaseHandler = Status (*)(CommandContext& ctx, const std::vector<HValue>& args);

// What a positional argument or an option's value names. Completion offers
// candidates of this kind; usage and help show the argument's `text`.
enum class ArgKind {
  kText,     // anything: a row key, a value, a regex, a policy
  kTable,    // an existing table
  kFamily,   // an existing column family of the command's table
  kColumn,   // family:qualifier, e.g. set's cells or read's columns=
  kFile,     // a path
  kCommand,  // a command's name
};

// How many times a positional argument comes, and how usage shows it.
enum class Arity {
  kOne,               // <x>
  kOptional,          // [<x>]
  kRepeated,          // <x> ...       (one or more)
  kOptionalRepeated,  // [<x> ...]     (zero or more)
  kRest,              // the rest of the line, at least one word, shown as `text` is
  kOptionalRest,      // the rest of the line, maybe nothing, shown as `text` is
};

struct Arg {
  std::string_view text;  // as usage shows it: "<table>", "'t'", "<family>:<column>=<value>[@<timestamp>]"
  std::string_view noun;  // as errors name it: "a table", "at least one cell"
  ArgKind kind = ArgKind::kText;
  Arity arity = Arity::kOne;
};

// How an option appears.
enum class OptionUse {
  kShown,    // in usage and completion
  kQuiet,    // accepted and completed, not in usage (app-profile, CACHE)
  kRefused,  // recognized only to refuse it with a clear line; never offered
};

// A cbt key=value option, or a key of an HBase command's hash of options.
struct Option {
  std::string_view key;    // "start"; "STARTROW"
  std::string_view value;  // as usage shows it: "<row>" ([start=<row>]); HBase shows "KEY =>"
  ArgKind kind = ArgKind::kText;
  OptionUse use = OptionUse::kShown;
};

// How many arguments a command takes (cbt: words after the name, options
// included; HBase: comma-separated arguments, one hash of options counting
// as one), derived from its spec and checked before its handler runs.
struct ArgCount {
  static constexpr int kMany = 1 << 30;
  int min = 0;
  int max = kMany;
};

// One command, declared once with designated initializers. Dispatch, the
// argument count check, usage, help, completion and "did you mean" all
// derive from it.
struct CommandSpec {
  std::string_view name;
  Dialect dialect = Dialect::kCbt;
  std::string_view summary;  // one line ("" for commands help does not list)
  std::vector<Arg> args;     // positional arguments, in order
  std::vector<Option> options;
  std::string_view details;      // option descriptions and examples, for help
  CbtHandler cbt = nullptr;      // set for Dialect::kCbt
  HBaseHandler hbase = nullptr;  // set for Dialect::kHBase

  // "read <table> [start=<row>] ...", "scan 't' [, {STARTROW =>, ...}]".
  std::string Usage() const;
  ArgCount Count() const;
  // What the required arguments are, for "createfamily needs a table and a
  // family"; "no arguments" when there are none.
  std::string Needs() const;
  // The option called `key`, or nullptr.
  const Option* FindOption(std::string_view key) const;
  // The keys of the options the command accepts (refused ones included).
  std::vector<std::string_view> OptionKeys() const;
};

// Arguments many commands share.
inline constexpr Arg kTableArg{.text = "<table>", .noun = "a table", .kind = ArgKind::kTable};
inline constexpr Arg kRowArg{.text = "<row>", .noun = "a row"};
inline constexpr Arg kFamilyArg{.text = "<family>", .noun = "a family", .kind = ArgKind::kFamily};
inline constexpr Arg kHBaseTableArg{.text = "'t'", .noun = "a table", .kind = ArgKind::kTable};
inline constexpr Arg kHBaseRowArg{.text = "'r'", .noun = "a row"};
inline constexpr Arg kHBaseColumnArg{.text = "'f:q'", .noun = "a column", .kind = ArgKind::kColumn};

// Every command lbt knows, of every dialect (commands/command_sets.cc).
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

// Runs one statement of the HBase shell's language: `scan 't', {LIMIT => 5}`.
// REQUIRES: its first word names an HBase command.
CommandOutcome RunHBaseCommand(Session* session, Output* out, Output* err, std::string_view statement);

// The one line that reports a failed command, e.g. "error: table 't' does
// not exist" or, for the HBase dialect, "ERROR: Unknown table t!".
std::string ErrorLine(const CommandOutcome& outcome);

}  // namespace lbt

#endif  // LBT_COMMANDS_CORE_COMMAND_TABLE_H_
