#include "commands/command_table.h"

#include <fmt/format.h>

#include <algorithm>

namespace lbt {

Status CommandContext::Usage(const std::string& message) {
  usage_error = true;
  return Status::InvalidArgument(fmt::format("{}; usage: {}", message, spec->usage));
}

Result<Database*> CommandContext::DbFor(std::string_view table, bool write) {
  LBT_ASSIGN_OR_RETURN(Database * db, session->Db(write));
  if (db == nullptr) return Status::NotFound(fmt::format("table '{}' does not exist", table));
  return db;
}

const CommandSpec* FindCommand(std::string_view name) {
  for (const CommandSpec& spec : AllCommands()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
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
  if (spec == nullptr) {
    std::string suggestion = SuggestCommand(words[0]);
    std::string message = fmt::format("unknown command '{}'", words[0]);
    if (!suggestion.empty()) message += fmt::format("; did you mean '{}'?", suggestion);
    message += " (type 'help' for the list)";
    return {Status::InvalidArgument(message), true};
  }
  std::unique_ptr<Renderer> renderer =
      Renderer::Create(session->options().format, session->options().bytes, out);
  CommandContext ctx{session, renderer.get(), out, err, spec};
  std::vector<std::string> args(words.begin() + 1, words.end());
  Status status = spec->handler(ctx, args);
  out->Flush();
  return {status, ctx.usage_error};
}

}  // namespace lbt
