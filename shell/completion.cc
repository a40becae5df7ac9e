#include "shell/completion.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "commands/command_table.h"
#include "commands/tokenizer.h"

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

// What a positional argument of a cbt command names, read from the usage
// line the command table holds: "set <table> <row> <family>:<column>=...".
enum class ArgKind { kTable, kFamily, kFamilyColumn, kFile, kOther };

struct Positionals {
  std::vector<ArgKind> kinds;
  bool last_repeats = false;  // "..." after the last one
};

Positionals PositionalsOf(std::string_view usage) {
  Positionals out;
  Result<std::vector<std::string>> words = Tokenize(usage);
  if (!words.ok()) return out;
  for (size_t i = 1; i < words->size(); ++i) {
    std::string w = (*words)[i];
    if (w == "...") {
      out.last_repeats = true;
      break;
    }
    if (w.front() == '[') w = w.substr(1, w.find(']') - 1);
    if (w.empty() || w.front() != '<') break;  // options (key=...) follow the positionals
    if (w == "<table>" || w == "table") {
      out.kinds.push_back(ArgKind::kTable);
    } else if (w.starts_with("<family>:<column>")) {
      out.kinds.push_back(ArgKind::kFamilyColumn);
    } else if (w == "<family>") {  // not createfamily's "<family>[:<gcpolicy>...]": a new name
      out.kinds.push_back(ArgKind::kFamily);
    } else if (w == "<file>") {
      out.kinds.push_back(ArgKind::kFile);
    } else {
      out.kinds.push_back(ArgKind::kOther);
    }
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

// Candidates for a cbt command's argument: the positional the usage line
// names at this place, then its options (cbt's ones lbt only refuses left out).
std::vector<std::string> CbtCandidates(Session* session, const CommandSpec& spec,
                                       const std::vector<std::string>& words, const std::string& word) {
  const std::string table = words.size() > 1 ? words[1] : "";
  if (size_t eq = word.find('='); eq != std::string::npos) {
    std::vector<std::string> pool;
    const std::string key = word.substr(0, eq);
    if (key == "columns") {
      for (const std::string& f : Families(session, table)) pool.push_back(key + "=" + f + ":");
    }
    return pool;
  }
  const Positionals positionals = PositionalsOf(spec.usage);
  const size_t position = words.size() - 1;
  ArgKind kind = ArgKind::kOther;
  if (position < positionals.kinds.size()) {
    kind = positionals.kinds[position];
  } else if (positionals.last_repeats && !positionals.kinds.empty()) {
    kind = positionals.kinds.back();
  }
  std::vector<std::string> pool;
  switch (kind) {
    case ArgKind::kTable: return Tables(session);
    case ArgKind::kFile: return Paths(word);
    case ArgKind::kFamily: return Families(session, table);
    case ArgKind::kFamilyColumn:
      for (const std::string& f : Families(session, table)) pool.push_back(f + ":");
      return pool;
    case ArgKind::kOther: break;
  }
  if (position < positionals.kinds.size()) return pool;  // a required argument: no options yet
  for (std::string_view option : spec.options) {
    if (std::find(std::begin(kRefusedOptions), std::end(kRefusedOptions), option) != std::end(kRefusedOptions)) {
      continue;
    }
    pool.push_back(std::string(option) + "=");
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
  for (std::string_view key : spec.options) pool.push_back((opens_hash ? "{" : "") + std::string(key) + " =>");
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
    if (words.empty()) {
      pool = CommandNames(false);
    } else if (words[0] == "help" && words.size() == 1) {
      pool = CommandNames(true);
    } else if (words[0] == "source" && words.size() == 1) {
      pool = Paths(word);
    } else if (const CommandSpec* spec = FindCommand(words[0])) {
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
