// The interactive shell: line editing, persistent history and tab
// completion through libedit.

#ifndef LBT_SHELL_REPL_H_
#define LBT_SHELL_REPL_H_

#include "commands/core/output.h"
#include "commands/core/session.h"
#include "shell/script_runner.h"

namespace lbt {

// Reads and runs commands until Ctrl-D, `exit` or `quit`. Returns 0.
int RunRepl(Session* session, ScriptRunner* runner, Output* out, Output* err);

}  // namespace lbt

#endif  // LBT_SHELL_REPL_H_
