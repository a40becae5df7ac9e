// lbt: runs one command, a script, or the interactive shell.

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>

#include "commands/core/command_table.h"
#include "commands/core/output.h"
#include "commands/core/session.h"
#include "commands/core/statement.h"
#include "shell/local_services.h"
#include "shell/options.h"
#include "shell/repl.h"
#include "shell/script_runner.h"
#include "shell/serve_command.h"
#include "shell/studio_command.h"
#include "shell/target.h"

namespace {

// `lbt <words>`: one statement. A statement quoted whole (`lbt "read t
// prefix=x"`) is one line of text; separate words are taken as they are,
// so that an argument the shell kept together (`"cf:a=hello world"`) stays
// one. Other languages than cbt's need their quotes: their words are
// joined back together.
int RunWords(const lbt::ShellOptions& options, lbt::Session* session, lbt::ScriptRunner* runner, lbt::Output* out,
             lbt::Output* err) {
  std::string joined;
  for (const std::string& w : options.words) joined += (joined.empty() ? "" : " ") + w;
  lbt::Statement statement = lbt::ClassifyStatement(joined);
  if (statement.kind == lbt::StatementKind::kSource) return runner->RunText(joined, "", 0);
  if (statement.kind == lbt::StatementKind::kCbt && options.words.size() > 1) {
    statement.words = options.words;
    statement.error = lbt::Status::OK();
  }
  if (!statement.error.ok()) {
    err->Write("error: " + statement.error.message() + "\n");
    return 2;
  }
  lbt::CommandOutcome outcome = lbt::RunStatement(session, out, err, statement);
  if (!outcome.status.ok()) err->Write(lbt::ErrorLine(outcome) + "\n");
  return outcome.ExitCode();
}

// `lbt -c ... -f ...`: the commands in order, then the script; the worst
// exit code, or the first failure's without --keep-going.
int RunCommandsAndScript(const lbt::ShellOptions& options, lbt::ScriptRunner* runner) {
  int worst = 0;
  for (const std::string& command : options.commands) {
    int code = runner->RunText(command, "", 0);
    worst = std::max(worst, code);
    if (code != 0 && !options.keep_going) return code;
  }
  if (!options.script.empty()) {
    std::ifstream in(options.script, std::ios::binary);
    int code = runner->Run(&in, options.script);
    worst = std::max(worst, code);
  }
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  lbt::ParsedOptions parsed = lbt::ParseOptions(argc, argv);
  if (parsed.exit_now) return parsed.exit_code;
  const lbt::ShellOptions& options = parsed.options;
  if (!options.words.empty() && options.words[0] == "serve") return lbt::RunServe(argv, options);

  lbt::Output out(stdout);
  lbt::Output err(stderr);
  lbt::Result<lbt::Target> target = lbt::OpenTarget(argv, options);
  if (!target.ok()) {
    err.Write("error: " + target.status().message() + "\n");
    return 1;
  }
  const std::function<void()> follow_server = std::move(target->follow_server);
  lbt::Session session(options.session, std::move(target->bigtable));
  lbt::ScriptRunner runner(&session, &out, &err, {options.keep_going, options.echo});
  std::string last_view_error;
  auto report = [&err, &last_view_error](const lbt::Status& s) {
    if (s.ok() || s.message() == last_view_error) return;
    last_view_error = s.message();
    err.Write("note: " + s.message() + "\n");
  };
  const bool interactive =
      options.words.empty() && options.commands.empty() && options.script.empty() && isatty(STDIN_FILENO) == 1;
  // A local database's background work (automated backups, materialized
  // views), started once the session runs on the database itself: a
  // session through lbt serve goes on against the database once the server
  // stops, and then does as a local session does. The interactive shell
  // keeps views in the background, as production does; a command or script
  // brings them up to date before each statement, so that it reads what
  // the statements before it wrote. They run on the session's own
  // instance, which `useinstance` moves away from.
  lbt::Bigtable* const home = session.home_bigtable();
  std::unique_ptr<lbt::RunningLocalServices> background;
  auto start_background = [&] {
    if (background != nullptr || home->local() == nullptr) return;
    background = lbt::StartLocalServices(
        home, {.instance = options.local.instance.value_or(lbt::DefaultInstanceName()),
               .views_interval = interactive ? std::chrono::milliseconds(100) : std::chrono::milliseconds(0),
               // From the jobs' threads: straight to stderr (one stdio call is
               // atomic), not through `err`, which the shell's thread writes;
               // in the interactive shell, below the prompt.
               .report = [line = interactive ? "\n" : ""](const lbt::Status& s) {
                 std::fprintf(stderr, "%snote: %s\n", line, s.message().c_str());
               }});
  };
  session.set_before_statement([&] {
    if (follow_server) follow_server();
    start_background();
    if (!interactive && background != nullptr) report(background->views()->CatchUp());
  });

  if (!options.words.empty() && options.words[0].size() > 1 && options.words[0][0] == '-') {
    err.Write("error: unknown option '" + options.words[0] + "' (see lbt --help)\n");
    return 2;
  }
  if (!options.words.empty() && options.words[0] == "studio") return lbt::RunStudio(argv, options, &session);
  if (!options.words.empty()) return RunWords(options, &session, &runner, &out, &err);
  if (!options.commands.empty() || !options.script.empty()) return RunCommandsAndScript(options, &runner);
  if (interactive) {
    start_background();
    return lbt::RunRepl(&session, &runner, &out, &err);
  }
  return runner.Run(&std::cin, "<stdin>");
}
