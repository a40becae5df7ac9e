// `lbt serve`: parses its options, opens the database and runs the server.

#ifndef LBT_SHELL_SERVE_COMMAND_H_
#define LBT_SHELL_SERVE_COMMAND_H_

#include <string>
#include <vector>

#include "commands/session.h"

namespace lbt {

// `words` starts with "serve"; `defaults` carries the global --db and
// --sync. Returns the process's exit status: 0 after a clean stop on
// SIGINT or SIGTERM, 1 when the server cannot start, 2 for a usage error.
int RunServe(const std::vector<std::string>& words, const SessionOptions& defaults);

}  // namespace lbt

#endif  // LBT_SHELL_SERVE_COMMAND_H_
