// The lbt command line.

#ifndef LBT_SHELL_OPTIONS_H_
#define LBT_SHELL_OPTIONS_H_

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "api/instance.h"
#include "commands/core/session.h"
#include "remote/remote_options.h"

namespace lbt {

// The local database: --db, else $LBT_DB, else ./lbt-data.
struct LocalOptions {
  std::string db_dir = "lbt-data";
  bool read_only = false;
  // false: no fsync per transaction, one when a bulk command ends (see README).
  bool sync = true;
  // --gc=lazy: GC-eligible cells stay readable until a collection pass, as
  // in production; passes run every gc_interval_seconds (0: only `gc`).
  bool lazy_gc = false;
  double gc_interval_seconds = 60;
  // --db D -project P -instance I: the tables of instance P/I in D, as
  // lbt serve's clients naming it see them. Unset: the default instance.
  std::optional<InstanceName> instance;
};

// Adds --gc and --gc-interval, which set `local`'s lazy_gc and
// gc_interval_seconds; the global options and `lbt serve` share them.
struct GcFlags {
  CLI::Option* mode;
  CLI::Option* interval;
};
GcFlags AddGcFlags(CLI::App* app, LocalOptions* local);

// Lower-cases an option's value and checks it is one of `names`; a value
// that is not fails with one plain sentence. Add it as an option's last
// transform (CLI11 runs the transforms added last first).
CLI::Validator OneOf(std::vector<std::string> names);

// CLI11's failure message as one line: "error: ... (see lbt --help)".
std::string OneLineOptionError(const CLI::App* app, const CLI::Error& e);

struct ShellOptions {
  SessionOptions session;
  LocalOptions local;
  // Set when -project or -instance select a remote instance.
  std::optional<RemoteOptions> remote;
  std::vector<std::string> commands;  // -c, in order
  std::string script;                 // -f
  bool keep_going = false;
  bool echo = false;
  std::vector<std::string> words;  // a command given directly: lbt read t
};

struct ParsedOptions {
  ShellOptions options;
  bool exit_now = false;  // --help or --version was answered
  int exit_code = 0;
};

// Parses argv; prints help, version or the usage error itself.
ParsedOptions ParseOptions(int argc, char** argv);

}  // namespace lbt

#endif  // LBT_SHELL_OPTIONS_H_
