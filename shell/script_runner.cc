#include "shell/script_runner.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "commands/cbt/lookups.h"
#include "commands/core/command_table.h"
#include "commands/core/statement.h"
#include "commands/core/tokenizer.h"

namespace lbt {

namespace {
// Lookups read in one batch at most.
constexpr size_t kMaxQueuedLookups = 1000;
}  // namespace

int ScriptRunner::Run(std::istream* in, const std::string& name) {
  std::string pending;
  int start_line = 0, line_number = 0, worst = 0;
  std::string line;
  while (std::getline(*in, line)) {
    ++line_number;
    if (pending.empty()) start_line = line_number;
    pending += line;
    if (ContinuesOnNextLine(&pending)) continue;
    int code = RunTextQueued(pending, name, start_line);
    pending.clear();
    // Queued lookups wait for more only while more input is at hand: a
    // writer on the other end of a pipe may be waiting for their answers.
    if (code == 0 && (lookups_.size() >= kMaxQueuedLookups || in->rdbuf()->in_avail() <= 0)) code = FlushLookups();
    worst = std::max(worst, code);
    if (code != 0 && !options_.keep_going) return code;
  }
  if (!pending.empty()) {
    int code = RunTextQueued(pending, name, start_line);  // reports the unterminated quote
    worst = std::max(worst, code);
  }
  return std::max(worst, FlushLookups());
}

int ScriptRunner::RunText(const std::string& text, const std::string& name, int line) {
  int code = RunTextQueued(text, name, line);
  return std::max(code, FlushLookups());
}

int ScriptRunner::FlushLookups() {
  if (lookups_.empty()) return 0;
  std::vector<QueuedLookup> queued;
  queued.swap(lookups_);
  std::vector<std::vector<std::string>> words;
  for (QueuedLookup& q : queued) words.push_back(std::move(q.words));
  std::vector<CommandOutcome> outcomes = RunLookups(session_, out_, err_, words, options_.keep_going, [&](size_t i) {
    if (options_.echo) out_->Write(fmt::format("> {}\n", queued[i].statement));
  });
  err_->Flush();
  int worst = 0;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    if (outcomes[i].status.ok()) continue;
    out_->Flush();
    worst = std::max(worst, Report(ErrorLine(outcomes[i]), queued[i].name, queued[i].line));
  }
  return worst;
}

int ScriptRunner::RunTextQueued(const std::string& text, const std::string& name, int line) {
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

int ScriptRunner::RunStatement(const std::string& text, const std::string& name, int line) {
  Statement statement = ClassifyStatement(text);
  if (statement.kind == StatementKind::kEmpty) return 0;
  size_t start = text.find_first_not_of(" \t\n");
  const std::string trimmed = text.substr(start == std::string::npos ? 0 : start);
  if (statement.kind == StatementKind::kCbt && IsBatchableLookup(statement.words)) {
    lookups_.push_back({std::move(statement.words), trimmed, name, line});
    return 0;
  }
  // Whatever else comes, the lookups before it print first.
  if (int code = FlushLookups(); code != 0 && !options_.keep_going) return code;
  if (options_.echo) {
    // Out before the command's notes on stderr, when both go to one place.
    out_->Write(fmt::format("> {}\n", trimmed));
    out_->Flush();
  }
  if (statement.kind == StatementKind::kSource) return Source(statement.words, name, line);
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
  auto fail = [&](const std::string& message) { return Report("error: " + message, name, line); };
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
