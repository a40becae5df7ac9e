#include "shell/script_runner.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "commands/command_table.h"
#include "commands/tokenizer.h"

namespace lbt {

int ScriptRunner::Run(std::istream* in, const std::string& name) {
  std::string pending;
  int start_line = 0, line_number = 0, worst = 0;
  std::string line;
  while (std::getline(*in, line)) {
    ++line_number;
    if (pending.empty()) start_line = line_number;
    pending += line;
    if (ContinuesOnNextLine(&pending)) continue;
    int code = RunText(pending, name, start_line);
    pending.clear();
    worst = std::max(worst, code);
    if (code != 0 && !options_.keep_going) return code;
  }
  if (!pending.empty()) {
    int code = RunText(pending, name, start_line);  // reports the unterminated quote
    worst = std::max(worst, code);
  }
  return worst;
}

int ScriptRunner::RunText(const std::string& text, const std::string& name, int line) {
  // A SELECT spans lines up to its ';' (see ContinuesOnNextLine): one statement.
  std::string query;
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (IsSqlStatement(text, &query) && text.compare(first, 3, "sql") != 0) return RunStatement(text, name, line);
  int worst = 0;
  for (const std::string& statement : SplitStatements(text)) {
    int code = RunStatement(statement, name, line);
    worst = std::max(worst, code);
    if (code != 0 && !options_.keep_going) return code;
  }
  return worst;
}

int ScriptRunner::RunStatement(const std::string& statement, const std::string& name, int line) {
  Result<std::vector<std::string>> words = Tokenize(statement);
  if (words.ok() && words->empty()) return 0;
  if (options_.echo) {
    size_t start = statement.find_first_not_of(" \t\n");
    out_->Write(fmt::format("> {}\n", statement.substr(start == std::string::npos ? 0 : start)));
  }
  if (words.ok() && (*words)[0] == "source") return Source(*words, name, line);
  CommandOutcome outcome = lbt::RunStatement(session_, out_, err_, statement);
  err_->Flush();
  if (!outcome.status.ok()) return Report(ErrorLine(outcome), name, line);
  return 0;
}

int ScriptRunner::Report(const std::string& error_line, const std::string& name, int line) {
  err_->Write(name.empty() ? error_line + "\n" : fmt::format("{}:{}: {}\n", name, line, error_line));
  err_->Flush();
  return 1;
}

namespace {

// A relative path in a script file names a file next to that script, so
// that scripts which source each other work from any directory; typed at
// the prompt, given with -c or read from standard input, it is relative to
// the current directory.
std::string SourcePath(const std::string& file, const std::string& from) {
  const std::filesystem::path path(file);
  if (path.is_absolute() || from.empty() || from.front() == '<') return file;
  return (std::filesystem::path(from).parent_path() / path).string();
}

}  // namespace

int ScriptRunner::Source(const std::vector<std::string>& words, const std::string& name, int line) {
  auto fail = [&](const std::string& message) {
    return Report("error: " + message, name, line);
  };
  if (words.size() != 2) return fail("source needs one file name; usage: source <file.cbt>");
  if (depth_ >= kMaxSourceDepth) {
    return fail(fmt::format("scripts are sourced more than {} levels deep", kMaxSourceDepth));
  }
  const std::string path = SourcePath(words[1], name);
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  ++depth_;
  int code = Run(&in, path);
  --depth_;
  return code;
}

}  // namespace lbt
