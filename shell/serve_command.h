// `lbt serve`. Two implementations, chosen when linking: lbt-grpc's
// (serve_command.cc) parses the options, opens the database and runs the
// server; lbt's (serve_exec.cc) runs lbt-grpc with the same arguments, so
// that local commands never load gRPC.

#ifndef LBT_SHELL_SERVE_COMMAND_H_
#define LBT_SHELL_SERVE_COMMAND_H_

#include "shell/options.h"

namespace lbt {

// `argv` is the process's own and `options` what ParseOptions made of it;
// its command words start with "serve". Returns the process's exit status:
// 0 after a clean stop on SIGINT or SIGTERM, 1 when the server cannot
// start, 2 for a usage error.
int RunServe(char** argv, const ShellOptions& options);

}  // namespace lbt

#endif  // LBT_SHELL_SERVE_COMMAND_H_
