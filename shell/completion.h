// Tab completion for the shell: command names, option keys, table names
// and family names, computed from the command table and the database.

#ifndef LBT_SHELL_COMPLETION_H_
#define LBT_SHELL_COMPLETION_H_

#include <string>
#include <vector>

#include "commands/core/session.h"

namespace lbt {

// The candidates for the word that starts at `word_start` in `line`.
// Candidates that end in '=' or ':' expect more text after them.
std::vector<std::string> CompletionCandidates(Session* session, const std::string& line, size_t word_start);

}  // namespace lbt

#endif  // LBT_SHELL_COMPLETION_H_
