// The lbt command line.

#ifndef LBT_SHELL_OPTIONS_H_
#define LBT_SHELL_OPTIONS_H_

#include <string>
#include <vector>

#include "commands/session.h"

namespace lbt {

struct ShellOptions {
  SessionOptions session;
  std::vector<std::string> commands;  // -c, in order
  std::string script;                 // -f
  bool keep_going = false;
  bool echo = false;
  std::vector<std::string> words;     // a command given directly: lbt read t
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
