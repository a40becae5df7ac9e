// help and version: what the command table says of itself, rendered.

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>

#include "api/version.h"
#include "commands/command_sets.h"

namespace lbt {

namespace {

CommandHelp HelpOf(const CommandSpec& spec) {
  return CommandHelp{spec.name, spec.dialect == Dialect::kHBase, spec.summary, spec.Usage(), spec.details};
}

// Words that start or shape a SQL query, which has no command of its own.
bool IsSqlKeyword(std::string_view word) {
  static constexpr std::string_view kKeywords[] = {"SELECT", "FROM", "WHERE", "GROUP", "ORDER",
                                                   "LIMIT",  "WITH", "JOIN",  "CAST",  "UNNEST"};
  std::string upper(word);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return std::find(std::begin(kKeywords), std::end(kKeywords), upper) != std::end(kKeywords);
}

// `help <command>`: each form of the command (cbt's first, then the HBase
// shell's, then the shell's own).
Status HelpForCommand(CommandContext& ctx, const std::string& name) {
  std::vector<CommandHelp> forms;
  for (Dialect dialect : {Dialect::kCbt, Dialect::kHBase, Dialect::kShell}) {
    if (const CommandSpec* spec = FindCommand(name, dialect)) forms.push_back(HelpOf(*spec));
  }
  if (forms.empty()) {
    if (IsSqlKeyword(name)) {
      return Status::NotFound(fmt::format("no command '{}': it is SQL, which `help sql` explains", name));
    }
    std::string hint = SuggestCommand(name);
    return Status::NotFound(
        fmt::format("no command '{}'{}", name, hint.empty() ? "" : fmt::format("; did you mean '{}'?", hint)));
  }
  ctx.renderer->Help(forms);
  return Status::OK();
}

Status Help(CommandContext& ctx, const std::vector<std::string>& args) {
  if (args.size() == 1) return HelpForCommand(ctx, args[0]);
  CommandIndex index;
  for (const CommandSpec& spec : AllCommands()) {
    if (spec.summary.empty()) continue;
    if (spec.dialect == Dialect::kShell) {
      index.shell.push_back(spec.Usage());
    } else {
      (spec.dialect == Dialect::kCbt ? index.cbt : index.hbase).emplace_back(spec.name, spec.summary);
    }
  }
  std::sort(index.cbt.begin(), index.cbt.end());
  std::sort(index.hbase.begin(), index.hbase.end());
  ctx.renderer->HelpIndex(index);
  return Status::OK();
}

Status Version(CommandContext& ctx, const std::vector<std::string>&) {
  ctx.renderer->Version(kVersion);
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> HelpCommands() {
  return {
      {.name = "help",
       .summary = "Print help text",
       .args = {{.text = "command", .noun = "a command", .kind = ArgKind::kCommand, .arity = Arity::kOptional}},
       .details = "  Example: help read",
       .cbt = Help},
      {.name = "version", .summary = "Print the lbt version", .cbt = Version},
  };
}

}  // namespace lbt
