// lbt: runs one command, a script, or the interactive shell.

#include <unistd.h>

#include <fstream>
#include <iostream>

#include "commands/core/command_table.h"
#include "commands/core/output.h"
#include "commands/core/session.h"
#include "commands/core/tokenizer.h"
#include "shell/options.h"
#include "shell/repl.h"
#include "shell/script_runner.h"
#include "shell/serve_command.h"
#include "shell/target.h"

namespace {

// A command quoted whole (`lbt "read t prefix=x"`) is split as the shell
// splits a line; separate words are taken as they are, so that an argument
// the shell kept together (`"cf:a=hello world"`) stays one.
lbt::Result<std::vector<std::string>> CommandWords(const std::vector<std::string>& words) {
  if (words.size() != 1 || words[0].find_first_of(" \t") == std::string::npos) return words;
  return lbt::Tokenize(words[0]);
}

}  // namespace

int main(int argc, char** argv) {
  lbt::ParsedOptions parsed = lbt::ParseOptions(argc, argv);
  if (parsed.exit_now) return parsed.exit_code;
  const lbt::ShellOptions& options = parsed.options;
  if (!options.words.empty() && options.words[0] == "serve") return lbt::RunServe(argv, options);

  lbt::Output out(stdout);
  lbt::Output err(stderr);
  lbt::Result<std::unique_ptr<lbt::Bigtable>> target = lbt::OpenTarget(argv, options);
  if (!target.ok()) {
    err.Write("error: " + target.status().message() + "\n");
    return 1;
  }
  lbt::Session session(options.session, std::move(target).value());
  lbt::ScriptRunner runner(&session, &out, &err, {options.keep_going, options.echo});

  if (!options.words.empty() && options.words[0].size() > 1 && options.words[0][0] == '-') {
    err.Write("error: unknown option '" + options.words[0] + "' (see lbt --help)\n");
    return 2;
  }
  if (!options.words.empty()) {
    // An HBase statement arrives split by the shell: join it back together.
    std::string joined;
    for (const std::string& w : options.words) joined += (joined.empty() ? "" : " ") + w;
    lbt::Result<std::vector<std::string>> words = CommandWords(options.words);
    if (!words.ok()) {
      err.Write("error: " + words.status().message() + "\n");
      return 2;
    }
    std::string query;
    const bool whole = lbt::IsHBaseStatement(joined) || lbt::IsSqlStatement(joined, &query);
    lbt::CommandOutcome outcome = whole ? lbt::RunStatement(&session, &out, &err, joined)
                                        : lbt::RunCommand(&session, &out, &err, *words);
    if (!outcome.status.ok()) err.Write(lbt::ErrorLine(outcome) + "\n");
    return outcome.ExitCode();
  }
  if (!options.commands.empty() || !options.script.empty()) {
    int worst = 0;
    for (const std::string& command : options.commands) {
      int code = runner.RunText(command, "", 0);
      worst = std::max(worst, code);
      if (code != 0 && !options.keep_going) return code;
    }
    if (!options.script.empty()) {
      std::ifstream in(options.script, std::ios::binary);
      int code = runner.Run(&in, options.script);
      worst = std::max(worst, code);
    }
    return worst;
  }
  if (isatty(STDIN_FILENO) == 1) return lbt::RunRepl(&session, &runner, &out, &err);
  return runner.Run(&std::cin, "<stdin>");
}
