#include "shell/repl.h"

#include <editline/readline.h>
#include <signal.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>

#include "api/version.h"
#include "commands/core/command_table.h"
#include "commands/core/interrupt.h"
#include "commands/core/statement.h"
#include "commands/core/tokenizer.h"
#include "shell/completion.h"
#include "shell/history.h"
#include "util/background_thread.h"

namespace lbt {

namespace {

// While a command runs against a remote Bigtable, Ctrl-C also ends the call
// it is waiting on: the SIGINT handler can only raise a flag, so a thread
// watches the flag and cancels the calls in flight.
class CancelOnInterrupt {
 public:
  explicit CancelOnInterrupt(Bigtable* bigtable) {
    if (bigtable->local() != nullptr) return;  // local reads check the flag between rows
    thread_ = StartBackgroundThread([this, bigtable] {
      std::unique_lock<std::mutex> lock(mu_);
      while (!done_) {
        cv_.wait_for(lock, std::chrono::milliseconds(50));
        if (InterruptRequested()) bigtable->CancelCalls();
      }
    });
  }
  ~CancelOnInterrupt() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

Session* g_session = nullptr;
std::vector<std::string> g_matches;

char* NextMatch(const char*, int state) {
  if (state < 0 || static_cast<size_t>(state) >= g_matches.size()) return nullptr;
  return strdup(g_matches[state].c_str());
}

char** Complete(const char*, int start, int) {
  rl_attempted_completion_over = 1;  // never fall back to file names
  // Candidates come from the database: from the database itself once the
  // lbt serve a session began on has stopped, not from retries against it.
  const bool was_local = g_session->bigtable()->local() != nullptr;
  g_session->BeforeStatement();
  if (!was_local && g_session->bigtable()->local() != nullptr) rl_forced_update_display();  // below its note
  // Words run between blanks; the line editor starts its word after a
  // quote or an '=' too. Candidates are whole words, so the part of the
  // word before the editor's start is dropped from each.
  const std::string line(rl_line_buffer, rl_point);
  const size_t blank = line.find_last_of(" \t");
  const size_t word_start = blank == std::string::npos ? 0 : blank + 1;
  g_matches = CompletionCandidates(g_session, line, word_start);
  const size_t typed = static_cast<size_t>(start) > word_start ? static_cast<size_t>(start) - word_start : 0;
  for (std::string& match : g_matches) match.erase(0, std::min(typed, match.size()));
  std::erase(g_matches, std::string());
  if (g_matches.empty()) return nullptr;
  // Keys, families and folders expect more text; only whole words get a
  // space. A quoted HBase table is followed by a comma or nothing.
  const char last = g_matches.size() == 1 ? g_matches[0].back() : '\0';
  bool open_ended = last == '=' || last == ':' || last == '/' || last == '\'';
  rl_completion_append_character = open_ended ? '\0' : ' ';
  // readline asks with increasing state until nullptr; feed it the list.
  char** list = static_cast<char**>(calloc(g_matches.size() + 2, sizeof(char*)));
  if (g_matches.size() == 1) {
    list[0] = strdup(g_matches[0].c_str());
    return list;
  }
  // With several matches, the first entry is their common prefix.
  std::string common = g_matches[0];
  for (const std::string& m : g_matches) {
    size_t n = 0;
    while (n < common.size() && n < m.size() && common[n] == m[n]) ++n;
    common.resize(n);
  }
  list[0] = strdup(common.c_str());
  for (size_t i = 0; i < g_matches.size(); ++i) list[i + 1] = strdup(g_matches[i].c_str());
  return list;
}

void OnInterrupt(int) { RequestInterrupt(); }

// Statements the shell recalls; the file keeps up to twice as many.
constexpr size_t kHistoryStatements = 2000;

std::string HistoryPath() {
  if (const char* path = std::getenv("LBT_HISTFILE"); path != nullptr && *path != '\0') return path;
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::string(home) + "/.lbt_history";
  }
  return "";
}

// Sets up the line editor: completion, the history file's statements, and
// Ctrl-C, which cancels the line being typed or the command running, not
// lbt. Returns the history file's path ("" for none).
std::string SetUpLineEditor(Session* session) {
  g_session = session;
  rl_attempted_completion_function = Complete;
  rl_completer_word_break_characters = const_cast<char*>(" \t");
  using_history();
  stifle_history(kHistoryStatements);
  const std::string history = HistoryPath();
  if (!history.empty()) {
    TidyHistoryFile(history, kHistoryStatements);
    for (const std::string& statement : ReadHistoryFile(history)) add_history(statement.c_str());
  }
  struct sigaction action = {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  return history;
}

}  // namespace

int RunRepl(Session* session, ScriptRunner* runner, Output* out, Output* err) {
  const std::string history = SetUpLineEditor(session);

  Bigtable* bigtable = session->bigtable();
  const LocalMaintenance* local = bigtable->local();
  const std::string name =
      local != nullptr ? std::filesystem::path(local->dir()).filename().string() : bigtable->PromptName();
  const std::string prompt = "lbt:" + name + "> ";
  const std::string more = std::string(prompt.size() - 4, ' ') + "..> ";
  out->Write("lbt " + std::string(kVersion) + " on " + (local != nullptr ? local->dir() : bigtable->Describe()) +
             ". Type 'help' for commands, Ctrl-D to leave.\n");
  out->Flush();

  std::string pending;
  bool told_query_end = false;
  while (true) {
    ClearInterrupt();
    char* raw = readline(pending.empty() ? prompt.c_str() : more.c_str());
    if (raw == nullptr) {
      if (InterruptRequested()) {  // Ctrl-C: drop the line, keep going
        pending.clear();
        out->Write("\n");
        out->Flush();
        continue;
      }
      out->Write("\n");
      break;
    }
    std::string line(raw);
    free(raw);
    if (InterruptRequested()) {
      pending.clear();
      continue;
    }
    const bool first_line = pending.empty();
    pending += line;
    if (ContinuesOnNextLine(&pending)) {
      // A query waits for a line ending in ';': the first time, say so.
      if (std::string query; first_line && !told_query_end && IsSqlStatement(pending, &query)) {
        err->Write("(a query runs once a line ends with ';'; Ctrl-C drops it)\n");
        err->Flush();
        told_query_end = true;
      }
      continue;
    }
    std::string statement = std::move(pending);
    pending.clear();
    if (statement.find_first_not_of(" \t") == std::string::npos) continue;
    add_history(statement.c_str());
    if (!history.empty()) AppendHistoryFile(history, statement);
    if (ClassifyStatement(statement).kind == StatementKind::kExit) break;
    {
      CancelOnInterrupt cancel(session->bigtable());
      runner->RunText(statement, "", 0);
    }
    out->Flush();
    err->Flush();
  }
  out->Flush();
  return 0;
}

}  // namespace lbt
