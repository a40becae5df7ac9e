#include "shell/options.h"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>
#include <map>

namespace lbt {

ParsedOptions ParseOptions(int argc, char** argv) {
  ParsedOptions parsed;
  ShellOptions& o = parsed.options;
  const char* env_db = std::getenv("LBT_DB");
  o.session.db_dir = env_db != nullptr && *env_db != '\0' ? env_db : "lbt-data";

  CLI::App app{
      "lbt: a local, persistent Bigtable that speaks cbt's and the HBase shell's languages.\n"
      "With a command, runs it and exits; with -c or -f, runs those; otherwise\n"
      "opens the shell (or reads commands from standard input when it is not a terminal).",
      "lbt"};
  app.prefix_command();
  app.footer(
      "Examples:\n"
      "  lbt                                    the shell on ./lbt-data\n"
      "  lbt --db mydb createtable t families=cf\n"
      "  lbt --db mydb read t prefix=user# count=10\n"
      "  lbt --db mydb -f schema.cbt            run a script\n"
      "  lbt --db mydb --format jsonl read t | jq .key\n"
      "  lbt --db mydb \"scan 't', {ROWPREFIXFILTER => 'user#'}\"\n"
      "  lbt --db mydb serve --port 8086        Bigtable's gRPC API for cbt and client libraries\n"
      "Inside the shell, 'help' lists the commands.");  // everything from the first command word on is the command's
  app.set_version_flag("--version", "lbt 0.1.0");
  app.option_defaults()->always_capture_default();

  app.add_option("--db", o.session.db_dir, "Database directory (default: $LBT_DB, else ./lbt-data)");
  std::map<std::string, OutputFormat> formats = {
      {"text", OutputFormat::kText}, {"json", OutputFormat::kJson}, {"jsonl", OutputFormat::kJsonl}};
  app.add_option("--format", o.session.format, "Output: text (cbt's), json or jsonl")
      ->transform(CLI::CheckedTransformer(formats, CLI::ignore_case).description("text|json|jsonl"))
      ->default_str("text");
  std::map<std::string, BytesMode> bytes = {{"text", BytesMode::kAuto}, {"base64", BytesMode::kBase64}};
  app.add_option("--bytes", o.session.bytes,
                 "JSON bytes fields: text (UTF-8 as strings, else *_b64) or base64 (always *_b64)")
      ->transform(CLI::CheckedTransformer(bytes, CLI::ignore_case).description("text|base64"))
      ->default_str("text");
  app.add_flag("--read-only", o.session.read_only, "Open the database read-only");
  std::map<std::string, bool> sync_modes = {{"full", true}, {"off", false}};
  app.add_option("--sync", o.session.sync,
                 "full: fsync every transaction (default); off: one fsync when done, faster for bulk "
                 "loads, and a crash may lose the latest writes (never the file's consistency)")
      ->transform(CLI::CheckedTransformer(sync_modes, CLI::ignore_case).description("full|off"))
      ->default_str("full");
  app.add_option("-c,--command", o.commands, "Run this command (repeatable; ';' separates several)");
  app.add_option("-f,--file", o.script, "Run the commands in this script file")->check(CLI::ExistingFile);
  app.add_flag("--keep-going", o.keep_going, "In scripts, run on after a failed command (exit 1 at the end)");
  app.add_flag("--echo", o.echo, "Print each command before its output");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    parsed.exit_now = true;
    parsed.exit_code = app.exit(e) == 0 ? 0 : 2;
    return parsed;
  }
  o.words = app.remaining();
  return parsed;
}

}  // namespace lbt
