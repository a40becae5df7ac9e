#include "shell/completion.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "commands/core/command_table.h"
#include "commands/core/statement.h"
#include "commands/core/tokenizer.h"
#include "sql/functions/registry.h"

namespace lbt {

namespace {

std::vector<std::string> Tables(Session* session) {
  Result<std::vector<std::string>> tables = session->bigtable()->ListTables();
  return tables.ok() ? *tables : std::vector<std::string>{};
}

std::vector<std::string> Families(Session* session, const std::string& table) {
  Result<TableSpec> spec = session->bigtable()->GetTable(table);
  std::vector<std::string> out;
  if (spec.ok()) {
    for (const auto& [name, f] : spec->families) out.push_back(name);
  }
  return out;
}

// Files and folders whose path starts with `word`; folders end in '/' so
// that completion goes on inside them.
std::vector<std::string> Paths(const std::string& word) {
  namespace fs = std::filesystem;
  const size_t slash = word.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : word.substr(0, slash + 1);
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir.empty() ? "." : dir, ec)) {
    std::string path = dir + entry.path().filename().string();
    if (entry.is_directory(ec)) path += '/';
    out.push_back(std::move(path));
  }
  return out;
}

std::vector<std::string> CommandNames(bool with_hidden) {
  std::vector<std::string> pool;
  for (const CommandSpec& spec : AllCommands()) {
    if (!with_hidden && spec.summary.empty()) continue;
    if (std::find(pool.begin(), pool.end(), spec.name) == pool.end()) pool.emplace_back(spec.name);
  }
  return pool;
}

// What an argument of `kind` may be, for a command on `table`.
std::vector<std::string> ValuesOf(ArgKind kind, Session* session, const std::string& table, const std::string& word) {
  std::vector<std::string> pool;
  switch (kind) {
    case ArgKind::kTable: return Tables(session);
    case ArgKind::kFile: return Paths(word);
    case ArgKind::kFamily: return Families(session, table);
    case ArgKind::kCommand: return CommandNames(true);
    case ArgKind::kColumn:
      for (const std::string& f : Families(session, table)) pool.push_back(f + ":");
      return pool;
    case ArgKind::kText: break;
  }
  return pool;
}

// The positional argument at `position` (0: the first after the name), or
// nullptr past the last one.
const Arg* ArgAt(const CommandSpec& spec, size_t position) {
  for (const Arg& arg : spec.args) {
    if (position == 0 || (arg.arity != Arity::kOne && arg.arity != Arity::kOptional)) return &arg;
    --position;
  }
  return nullptr;
}

// Candidates for a cbt command's argument, from its spec: the values of
// the positional argument at this place, and once the required ones are
// given, its options (those lbt only refuses left out). After `key=`, the
// values of that option.
std::vector<std::string> CbtCandidates(Session* session, const CommandSpec& spec, const std::vector<std::string>& words,
                                       const std::string& word) {
  const std::string table = words.size() > 1 ? words[1] : "";
  if (size_t eq = word.find('='); eq != std::string::npos) {
    const Option* option = spec.FindOption(word.substr(0, eq));
    std::vector<std::string> pool;
    if (option == nullptr || option->use == OptionUse::kRefused) return pool;
    for (const std::string& value : ValuesOf(option->kind, session, table, word.substr(eq + 1))) {
      pool.push_back(word.substr(0, eq + 1) + value);
    }
    return pool;
  }
  const size_t position = words.size() - 1;
  const Arg* arg = ArgAt(spec, position);
  std::vector<std::string> pool;
  if (arg != nullptr) pool = ValuesOf(arg->kind, session, table, word);
  if (arg != nullptr && (arg->arity == Arity::kOne || arg->arity == Arity::kRepeated || arg->arity == Arity::kRest) &&
      position < static_cast<size_t>(spec.Count().min)) {
    return pool;  // a required argument: no options yet
  }
  for (const Option& option : spec.options) {
    if (option.use != OptionUse::kRefused) pool.push_back(std::string(option.key) + "=");
  }
  return pool;
}

// Candidates within an HBase statement: the quoted table first, then the
// keys of its hash of options.
std::vector<std::string> HBaseCandidates(Session* session, const CommandSpec& spec, const std::string& before,
                                         const std::string& word) {
  std::vector<std::string> pool;
  if (before.find(',') == std::string::npos && word.find('{') == std::string::npos) {
    for (const std::string& t : Tables(session)) pool.push_back("'" + t + "'");
    return pool;
  }
  const bool opens_hash = word.starts_with("{");
  const size_t open = before.rfind('{'), close = before.rfind('}');
  const bool in_hash = open != std::string::npos && (close == std::string::npos || close < open);
  if (!opens_hash && !in_hash) return pool;
  for (const Option& option : spec.options) {
    if (option.use != OptionUse::kRefused) pool.push_back((opens_hash ? "{" : "") + std::string(option.key) + " =>");
  }
  return pool;
}

// Candidates within a SQL query: table names after FROM or JOIN, else the
// functions a query can call, with their "(", in the case the word is
// typed in (`coun` gives `count(`).
std::vector<std::string> SqlCandidates(Session* session, const std::vector<std::string>& words,
                                       const std::string& word) {
  if (words.empty()) return {};
  std::string last = words.back();
  for (char& c : last) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (last == "FROM" || last == "JOIN") return Tables(session);
  if (word.empty()) return {};
  const bool lower =
      std::any_of(word.begin(), word.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); });
  std::vector<std::string> pool;
  for (std::string name : sql::FunctionRegistry::Builtins().Names()) {
    if (lower) {
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    pool.push_back(name + "(");
  }
  return pool;
}

}  // namespace

std::vector<std::string> CompletionCandidates(Session* session, const std::string& line, size_t word_start) {
  const std::string before = line.substr(0, word_start);
  const std::string word = line.substr(word_start);
  std::string name, args;
  std::vector<std::string> pool;
  const CommandSpec* hbase = nullptr;
  if (SplitHBaseCommand(before, &name, &args) && FindCommand(name) == nullptr) {
    hbase = FindCommand(name, Dialect::kHBase);
  }
  if (hbase != nullptr) {
    pool = HBaseCandidates(session, *hbase, args, word);
  } else {
    Result<std::vector<std::string>> previous = Tokenize(before);
    const std::vector<std::string> words = previous.ok() ? *previous : std::vector<std::string>{};
    std::string query;
    if (IsSqlStatement(before, &query)) {
      pool = SqlCandidates(session, words, word);
    } else if (words.empty()) {
      pool = CommandNames(false);
    } else if (const CommandSpec* spec =
                   FindCommand(words[0]) ? FindCommand(words[0]) : FindCommand(words[0], Dialect::kShell)) {
      pool = CbtCandidates(session, *spec, words, word);
    }
  }
  std::vector<std::string> matches;
  for (const std::string& candidate : pool) {
    if (candidate.starts_with(word)) matches.push_back(candidate);
  }
  return matches;
}

}  // namespace lbt
