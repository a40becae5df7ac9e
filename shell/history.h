// The shell's history file, shared by every shell on the machine. Each
// statement is appended to the file as it runs (one O_APPEND write), so
// that two shells open at once both keep theirs; the whole file is never
// rewritten from one shell's memory. The file holds one statement a line,
// with '\' and newlines escaped as \\ and \n.

#ifndef LBT_SHELL_HISTORY_H_
#define LBT_SHELL_HISTORY_H_

#include <string>
#include <vector>

namespace lbt {

// The statements in the history file at `path`, oldest first; none if it
// cannot be read.
std::vector<std::string> ReadHistoryFile(const std::string& path);

// Appends `statement` to the history file at `path`. Returns false if it
// cannot be written (history is a convenience: the shell goes on).
bool AppendHistoryFile(const std::string& path, const std::string& statement);

// Rewrites the file, to a temporary file renamed over it, when it holds
// more than twice `keep` statements (keeping the newest `keep`) or is in
// the line editor's own format, which earlier versions wrote. A shell
// appending meanwhile loses at most the statement it raced with.
void TidyHistoryFile(const std::string& path, size_t keep);

}  // namespace lbt

#endif  // LBT_SHELL_HISTORY_H_
