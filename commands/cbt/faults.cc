// lbt's `faults` command: the fault rules of the lbt serve a session
// reaches (api/server_faults.h), listed with how often each fired, added
// to and cleared while the server runs.

#include <fmt/format.h>

#include "api/server_faults.h"
#include "commands/command_sets.h"

namespace lbt {

namespace {

// The words after `add`, as one rule text: a rule quoted whole is one
// word; one typed in several words (its quotes still its own) is joined.
std::string RuleText(const std::vector<std::string>& args) {
  std::string text;
  for (size_t i = 1; i < args.size(); ++i) text += (i > 1 ? " " : "") + args[i];
  return text;
}

Status Faults(CommandContext& ctx, const std::vector<std::string>& args) {
  ServerFaults* faults = ctx.bigtable()->server_faults();
  if (faults == nullptr && ctx.bigtable()->local() != nullptr) {
    return Status::FailedPrecondition(
        fmt::format("faults are lbt serve's: no server holds {} (start lbt serve on it, or connect to one)",
                    ctx.bigtable()->Describe()));
  }
  if (faults == nullptr) return Status::Unavailable(fmt::format("faults: cannot reach {}", ctx.bigtable()->Describe()));
  const std::string action = args.empty() ? "" : args[0];
  if (action.empty()) {
    LBT_ASSIGN_OR_RETURN(std::vector<FaultRuleState> rules, faults->List());
    ctx.renderer->FaultRules(rules);
    return Status::OK();
  }
  if (action == "add") {
    if (args.size() < 2)
      return ctx.Usage(
          "faults add needs a rule, e.g. faults add '{\"rpc\": \"MutateRows\", \"code\": \"UNAVAILABLE\"}'");
    LBT_ASSIGN_OR_RETURN(std::vector<FaultRuleState> rules, faults->Add(RuleText(args)));
    ctx.renderer->FaultRules(rules);
    return Status::OK();
  }
  if (action == "clear") {
    if (args.size() > 1) return ctx.Usage("faults clear takes nothing after it");
    LBT_RETURN_IF_ERROR(faults->Clear());
    ctx.renderer->FaultRules({});
    return Status::OK();
  }
  return ctx.Usage(
      fmt::format("faults: '{}' is not an action: add <rule> or clear, or nothing to list the rules", action));
}

}  // namespace

std::vector<CommandSpec> FaultCommands() {
  return {
      {.name = "faults",
       .summary = "List, add or clear the fault rules of lbt serve (lbt)",
       .args = {{.text = "add <rule> | clear", .noun = "an action", .arity = Arity::kOptionalRest}},
       .details = "  Rules make lbt serve fail or delay calls, so that a test can try its client's\n"
                  "  retries (see lbt serve --faults). With no action, lists the rules in force and\n"
                  "  how often each fired; add puts a rule (a JSON object, or an array of them) in\n"
                  "  force after the others; clear removes them all. A --faults file that changes\n"
                  "  afterwards replaces them. The session must reach the server: a database lbt\n"
                  "  serve holds, or BIGTABLE_EMULATOR_HOST set to the server.\n\n"
                  "  Examples:\n"
                  "    faults add '{\"rpc\": \"MutateRows\", \"code\": \"UNAVAILABLE\", \"times\": 2}'\n"
                  "    faults add '{\"rpc\": \"ReadRows\", \"after_rows\": 1000, \"code\": \"UNAVAILABLE\"}'\n"
                  "    faults\n"
                  "    faults clear",
       .cbt = Faults},
  };
}

}  // namespace lbt
