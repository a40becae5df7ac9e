// Runs commands from text: scripts (-f, `source`, standard input) and -c.
//
// One command per line (or separated by ';'); blank lines and # comments
// are skipped; an unclosed quote or a trailing backslash continues on the
// next line. The first failing command stops the run with
// "NAME:LINE: error: ..." unless keep_going is set. Each command commits
// on its own, so the commands before a failure stay applied.
//
// Consecutive `lookup` lines are read together (commands/lookups.h): they
// wait in a queue until another command, the end of the input, or input
// that is not at hand yet (a pipe whose writer waits for the answers), and
// print exactly what they print one by one.

#ifndef LBT_SHELL_SCRIPT_RUNNER_H_
#define LBT_SHELL_SCRIPT_RUNNER_H_

#include <istream>
#include <string>
#include <vector>

#include "commands/core/command_table.h"
#include "commands/core/output.h"
#include "commands/core/session.h"

namespace lbt {

struct ScriptOptions {
  bool keep_going = false;
  bool echo = false;
};

class ScriptRunner {
 public:
  ScriptRunner(Session* session, Output* out, Output* err, ScriptOptions options)
      : session_(session), out_(out), err_(err), options_(options) {}

  // Runs every statement read from `in`; `name` labels error messages.
  // Returns the exit status: 0, or 1 if a command failed.
  int Run(std::istream* in, const std::string& name);
  // Runs one statement (possibly several separated by ';').
  int RunText(const std::string& text, const std::string& name, int line);

 private:
  struct QueuedLookup {
    std::vector<std::string> words;
    std::string statement;  // for --echo
    std::string name;
    int line;
  };
  // RunText, leaving lookups queued.
  int RunTextQueued(const std::string& text, const std::string& name, int line);
  // Runs the queued lookups; returns the worst exit status.
  int FlushLookups();
  // Runs one complete statement; returns its exit code.
  int RunStatement(const std::string& statement, const std::string& name, int line);
  int Source(const std::vector<std::string>& words, const std::string& name, int line);
  // Writes `error_line` to err, prefixed with NAME:LINE when reading a file;
  // returns 1, the exit status of a failed command.
  int Report(const std::string& error_line, const std::string& name, int line);

  Session* session_;
  Output* out_;
  Output* err_;
  ScriptOptions options_;
  int depth_ = 0;
  std::vector<QueuedLookup> lookups_;
};

inline constexpr int kMaxSourceDepth = 16;

}  // namespace lbt

#endif  // LBT_SHELL_SCRIPT_RUNNER_H_
