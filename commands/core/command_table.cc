#include "commands/core/command_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "api/bigtable.h"
#include "api/instance_admin.h"
#include "commands/hbase/syntax.h"

namespace lbt {

Status CommandContext::Usage(const std::string& message) {
  usage_error = true;
  return Status::InvalidArgument(fmt::format("{}; usage: {}", message, spec->Usage()));
}

Result<std::unique_ptr<Table>> CommandContext::OpenTable(std::string_view table) const {
  const bool named = table_ref.has_value() &&
                     (table_ref->is_materialized_view() ? table_ref->materialized_view : table_ref->table) == table;
  return bigtable()->OpenTable(named ? *table_ref : TableRef::Table(std::string(table)));
}

Result<LocalMaintenance*> CommandContext::LocalOnly() const {
  if (LocalMaintenance* local = bigtable()->local()) return local;
  return Status::FailedPrecondition(fmt::format("{} works on a local database only; {} runs its own maintenance",
                                                spec->name, bigtable()->Describe()));
}

Result<InstanceAdmin*> CommandContext::Instances() const {
  if (InstanceAdmin* admin = bigtable()->instance_admin()) return admin;
  return Status::FailedPrecondition(
      fmt::format("{} is not available here: {} manages no instances", spec->name, bigtable()->Describe()));
}

namespace {

// One positional argument as usage shows it, after what comes before it:
// cbt's words ("<x>", "[<x>]") follow a space; the HBase shell's arguments
// follow a comma, except the first (`scan 't'`, `list ['regex']`).
std::string ArgUsage(const Arg& arg, bool hbase, bool first) {
  const std::string text(arg.text);
  const std::string lead = hbase && !first ? ", " : " ";
  const std::string more = hbase ? ", ..." : " ...";
  switch (arg.arity) {
    case Arity::kOne:
    case Arity::kRest: return lead + text;
    case Arity::kOptional:
    case Arity::kOptionalRest: return hbase && !first ? " [, " + text + "]" : " [" + text + "]";
    case Arity::kRepeated: return lead + text + more;
    case Arity::kOptionalRepeated: return hbase && !first ? " [, " + text + more + "]" : " [" + text + more + "]";
  }
  return lead + text;
}

}  // namespace

std::string CommandSpec::Usage() const {
  const bool hbase = dialect == Dialect::kHBase;
  std::string usage(name);
  for (size_t i = 0; i < args.size(); ++i) usage += ArgUsage(args[i], hbase, i == 0);
  std::string hash;
  for (const Option& option : options) {
    if (option.use != OptionUse::kShown) continue;
    if (hbase) {
      hash += fmt::format("{}{} =>", hash.empty() ? "" : ", ", option.key);
    } else {
      usage += fmt::format(" [{}={}]", option.key, option.value);
    }
  }
  if (!hash.empty()) usage += fmt::format(" [, {{{}}}]", hash);
  return usage;
}

ArgCount CommandSpec::Count() const {
  ArgCount count{0, 0};
  for (const Arg& arg : args) {
    const bool required = arg.arity == Arity::kOne || arg.arity == Arity::kRest || arg.arity == Arity::kRepeated;
    const bool bounded = arg.arity == Arity::kOne || arg.arity == Arity::kOptional;
    if (required) ++count.min;
    count.max = bounded && count.max != ArgCount::kMany ? count.max + 1 : ArgCount::kMany;
  }
  if (count.max == ArgCount::kMany) return count;
  // cbt's options are a word each; an HBase command's hash is one argument.
  if (dialect == Dialect::kHBase) {
    const bool hash =
        std::any_of(options.begin(), options.end(), [](const Option& o) { return o.use == OptionUse::kShown; });
    count.max += hash ? 1 : 0;
  } else {
    count.max += static_cast<int>(options.size());
  }
  return count;
}

std::string CommandSpec::Needs() const {
  std::vector<std::string_view> nouns;
  for (const Arg& arg : args) {
    if (arg.arity == Arity::kOne || arg.arity == Arity::kRest || arg.arity == Arity::kRepeated) {
      nouns.push_back(arg.noun);
    }
  }
  if (nouns.empty()) return "no arguments";
  std::string text(nouns[0]);
  for (size_t i = 1; i < nouns.size(); ++i)
    text += fmt::format("{}{}", i + 1 == nouns.size() ? " and " : ", ", nouns[i]);
  return text;
}

const Option* CommandSpec::FindOption(std::string_view key) const {
  for (const Option& option : options) {
    if (option.key == key) return &option;
  }
  return nullptr;
}

std::vector<std::string_view> CommandSpec::OptionKeys() const {
  std::vector<std::string_view> keys;
  for (const Option& option : options) keys.push_back(option.key);
  return keys;
}

const CommandSpec* FindCommand(std::string_view name, Dialect dialect) {
  for (const CommandSpec& spec : AllCommands()) {
    if (spec.name == name && spec.dialect == dialect) return &spec;
  }
  return nullptr;
}

const CommandSpec* FindAnyCommand(std::string_view name) {
  for (Dialect d : {Dialect::kCbt, Dialect::kHBase, Dialect::kShell}) {
    if (const CommandSpec* spec = FindCommand(name, d)) return spec;
  }
  return nullptr;
}

Status CheckArgCount(const CommandSpec& spec, size_t args) {
  const ArgCount count = spec.Count();
  if (args < static_cast<size_t>(count.min)) {
    return Status::InvalidArgument(fmt::format("{} needs {}", spec.name, spec.Needs()));
  }
  if (args <= static_cast<size_t>(count.max)) return Status::OK();
  if (count.min == count.max) return Status::InvalidArgument(fmt::format("{} takes {}", spec.name, spec.Needs()));
  return Status::InvalidArgument(
      fmt::format("{} takes at most {} argument{}", spec.name, count.max, count.max == 1 ? "" : "s"));
}

namespace {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string SuggestWord(std::string_view word, const std::vector<std::string_view>& candidates) {
  std::string best;
  size_t best_distance = std::max<size_t>(2, word.size() / 3) + 1;
  for (std::string_view c : candidates) {
    size_t d = EditDistance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = std::string(c);
    }
  }
  return best;
}

std::string SuggestCommand(std::string_view name) {
  std::vector<std::string_view> names;
  for (const CommandSpec& spec : AllCommands()) names.push_back(spec.name);
  return SuggestWord(name, names);
}

CommandOutcome RunCommand(Session* session, Output* out, Output* err, const std::vector<std::string>& words) {
  if (words.empty()) return {};
  const CommandSpec* spec = FindCommand(words[0]);
  if (spec == nullptr && FindCommand(words[0], Dialect::kShell) != nullptr) {
    return {Status::InvalidArgument(fmt::format("{} works in the shell and in scripts", words[0])), true};
  }
  if (spec == nullptr) {
    std::string suggestion = SuggestCommand(words[0]);
    std::string message = fmt::format("unknown command '{}'", words[0]);
    if (!suggestion.empty()) message += fmt::format("; did you mean '{}'?", suggestion);
    message += " (type 'help' for the list)";
    return {Status::InvalidArgument(message), true};
  }
  const SessionOptions& options = session->options();
  std::unique_ptr<Renderer> renderer =
      Renderer::Create(options.format, options.bytes, out, TextStyle::kCbt, options.query_columns);
  CommandContext ctx{session, renderer.get(), out, err, spec};
  std::vector<std::string> args(words.begin() + 1, words.end());
  Status status = CheckArgCount(*spec, args.size());
  if (!status.ok()) {
    status = ctx.Usage(status.message());
  } else {
    status = spec->cbt(ctx, args);
  }
  out->Flush();
  return {status, ctx.usage_error};
}

CommandOutcome RunHBaseCommand(Session* session, Output* out, Output* err, std::string_view statement) {
  auto start = std::chrono::steady_clock::now();
  std::string name, text;
  SplitHBaseCommand(statement, &name, &text);
  const CommandSpec* spec = FindCommand(name, Dialect::kHBase);
  CommandOutcome outcome;
  outcome.hbase = true;
  std::unique_ptr<Renderer> renderer =
      Renderer::Create(session->options().format, session->options().bytes, out, TextStyle::kHBase);
  CommandContext ctx{session, renderer.get(), out, err, spec};
  Result<std::vector<HValue>> args = ParseHBaseArgs(text);
  if (!args.ok()) {
    outcome.status = ctx.Usage(args.status().message());
  } else if (Status count = CheckArgCount(*spec, args->size()); !count.ok()) {
    outcome.status = ctx.Usage(count.message());
  } else {
    outcome.status = spec->hbase(ctx, *args);
  }
  outcome.usage_error = ctx.usage_error;
  if (outcome.status.ok()) {
    renderer->Elapsed(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  out->Flush();
  return outcome;
}

std::string ErrorLine(const CommandOutcome& outcome) {
  return (outcome.hbase ? "ERROR: " : "error: ") + outcome.status.message();
}

}  // namespace lbt
