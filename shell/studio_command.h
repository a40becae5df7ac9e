// `lbt studio`: a web app on 127.0.0.1 over the session's database or
// instance (studio/). Two implementations, chosen when linking:
// lbt-grpc's (studio_command.cc) serves it; lbt's (grpc_exec.cc) runs
// lbt-grpc with the same arguments, as the web server's libraries would
// slow every local command's start.

#ifndef LBT_SHELL_STUDIO_COMMAND_H_
#define LBT_SHELL_STUDIO_COMMAND_H_

#include "commands/core/session.h"
#include "shell/options.h"

namespace lbt {

// `argv` is the process's own, `options` what ParseOptions made of it (its
// command words start with "studio"), `session` what the studio runs
// statements on. Serves until SIGINT or SIGTERM; returns the process's
// exit status: 0 after a clean stop, 1 when the studio cannot start, 2
// for a usage error.
int RunStudio(char** argv, const ShellOptions& options, Session* session);

}  // namespace lbt

#endif  // LBT_SHELL_STUDIO_COMMAND_H_
