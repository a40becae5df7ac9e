#include "shell/completion.h"

#include "commands/command_table.h"
#include "commands/hbase_commands.h"
#include "commands/tokenizer.h"

namespace lbt {

namespace {

bool StartsWith(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

std::vector<std::string> Tables(Session* session) {
  Result<Database*> db = session->Db(false);
  if (!db.ok() || *db == nullptr) return {};
  Result<std::vector<std::string>> tables = (*db)->ListTables();
  return tables.ok() ? *tables : std::vector<std::string>{};
}

std::vector<std::string> Families(Session* session, const std::string& table) {
  Result<Database*> db = session->Db(false);
  if (!db.ok() || *db == nullptr) return {};
  Result<TableSpec> spec = (*db)->DescribeTable(table);
  std::vector<std::string> out;
  if (spec.ok()) {
    for (const auto& [name, f] : spec->families) out.push_back(name + ":");
  }
  return out;
}

}  // namespace

std::vector<std::string> CompletionCandidates(Session* session, const std::string& line, size_t word_start) {
  std::string before = line.substr(0, word_start);
  std::string word = line.substr(word_start);
  Result<std::vector<std::string>> previous = Tokenize(before);
  std::vector<std::string> words = previous.ok() ? *previous : std::vector<std::string>{};

  std::vector<std::string> pool;
  if (words.empty()) {
    for (const CommandSpec& spec : AllCommands()) {
      if (!spec.summary.empty()) pool.emplace_back(spec.name);
    }
    for (const HBaseCommandSpec& spec : HBaseCommands()) {
      if (FindCommand(spec.name) == nullptr) pool.emplace_back(spec.name);
    }
    pool.insert(pool.end(), {"source", "exit", "quit"});
  } else if (words.size() == 1) {
    if (words[0] == "help") {
      for (const CommandSpec& spec : AllCommands()) pool.emplace_back(spec.name);
      for (const HBaseCommandSpec& spec : HBaseCommands()) {
        if (FindCommand(spec.name) == nullptr) pool.emplace_back(spec.name);
      }
    } else if (words[0] != "source") {
      pool = Tables(session);
    }
  } else if (const CommandSpec* spec = FindCommand(words[0])) {
    size_t eq = word.find('=');
    if (eq != std::string::npos) {
      // A value: columns= takes families.
      std::string key = word.substr(0, eq);
      if (key == "columns") {
        for (const std::string& f : Families(session, words[1])) pool.push_back(key + "=" + f);
      }
    } else {
      for (std::string_view option : spec->options) pool.push_back(std::string(option) + "=");
      for (const std::string& f : Families(session, words[1])) pool.push_back(f);
    }
  }
  std::vector<std::string> matches;
  for (const std::string& candidate : pool) {
    if (StartsWith(candidate, word)) matches.push_back(candidate);
  }
  return matches;
}

}  // namespace lbt
