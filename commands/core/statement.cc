#include "commands/core/statement.h"

#include <cctype>

#include "commands/core/tokenizer.h"
#include "commands/hbase/syntax.h"

namespace lbt {

bool FirstWordIs(std::string_view statement, std::string_view word, std::string* rest) {
  const size_t start = statement.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || statement.substr(start, word.size()) != word) return false;
  const size_t after = start + word.size();
  if (after < statement.size() && std::string_view(" \t\r\n").find(statement[after]) == std::string_view::npos) {
    return false;
  }
  const size_t next = statement.find_first_not_of(" \t\r\n", after);
  *rest = next == std::string_view::npos ? "" : std::string(statement.substr(next));
  return true;
}

bool IsSqlStatement(std::string_view statement, std::string* query) {
  size_t start = statement.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return false;
  std::string_view rest = statement.substr(start);
  size_t end = rest.find_first_of(" \t\r\n");
  std::string first(rest.substr(0, end));
  for (char& c : first) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  // A query in pipe syntax may start with FROM (`FROM t |> WHERE ...`).
  if (first == "SELECT" || first == "FROM") {
    *query = std::string(rest);
    return true;
  }
  if (first == "SQL" && rest.substr(0, 3) == "sql" && end != std::string_view::npos) {
    *query = std::string(rest.substr(end + 1));
    return true;
  }
  return false;
}

bool ContinuesOnNextLine(std::string* pending) {
  // A SELECT typed as such (not `sql ...`) runs once it ends with ';'.
  std::string query;
  const size_t start = pending->find_first_not_of(" \t\r\n");
  const size_t last = pending->find_last_not_of(" \t\r\n");
  if (IsSqlStatement(*pending, &query) && pending->compare(start, 3, "sql") != 0 && (*pending)[last] != ';' &&
      !IsIncomplete(*pending)) {
    pending->push_back('\n');
    return true;
  }
  if (IsIncomplete(*pending)) {
    pending->push_back('\n');
    return true;
  }
  std::string name, args;
  if (IsHBaseStatement(*pending) && SplitHBaseCommand(*pending, &name, &args) && HBaseArgsAreIncomplete(args)) {
    pending->push_back(' ');
    return true;
  }
  return false;
}

bool IsHBaseStatement(std::string_view statement) {
  std::string name, args;
  if (!SplitHBaseCommand(statement, &name, &args)) return false;
  if (FindCommand(name, Dialect::kHBase) == nullptr) return false;
  if (FindCommand(name) == nullptr) return true;
  // Both dialects have `count`. HBase's is `count 't'` or `count 't', {...}`:
  // a quoted table followed by a comma or nothing. `count "t" prefix=a` is cbt's.
  size_t first = args.find_first_not_of(" \t");
  if (first == std::string::npos || (args[first] != '\'' && args[first] != '"')) return false;
  const char quote = args[first];
  size_t i = first + 1;
  while (i < args.size() && args[i] != quote) i += args[i] == '\\' ? 2 : 1;
  if (i >= args.size()) return true;  // unterminated: let the HBase parser say so
  size_t next = args.find_first_not_of(" \t", i + 1);
  return next == std::string::npos || args[next] == ',' || args[next] == ';' || args[next] == '#';
}

namespace {

// The statement without blanks around it or a closing ';'.
std::string_view Trimmed(std::string_view text) {
  const size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return {};
  const size_t end = text.find_last_not_of(" \t\r\n;");
  return end == std::string_view::npos || end < start ? std::string_view() : text.substr(start, end + 1 - start);
}

// createlogicalview, updatelogicalview and creatematerializedview keep
// their query as written, as
// SQL statements do (quotes and all): {command, view id, query}. A query
// quoted whole loses its quotes.
bool SplitSavedQuery(std::string_view text, std::vector<std::string>* words) {
  std::string rest;
  std::string command;
  if (FirstWordIs(text, "createlogicalview", &rest)) {
    command = "createlogicalview";
  } else if (FirstWordIs(text, "updatelogicalview", &rest)) {
    command = "updatelogicalview";
  } else if (FirstWordIs(text, "creatematerializedview", &rest)) {
    command = "creatematerializedview";
  } else {
    return false;
  }
  // The id, quoted or not: a quoted one ends at its closing quote.
  std::string id;
  size_t id_end = 0;
  if (!rest.empty() && (rest.front() == '"' || rest.front() == '\'')) {
    const size_t close = rest.find(rest.front(), 1);
    if (close == std::string::npos) return false;  // the tokenizer says it is unclosed
    id = rest.substr(1, close - 1);
    id_end = close + 1;
  } else {
    id_end = rest.find_first_of(" \t\r\n");
    if (id_end == std::string::npos) return false;  // the command says what is missing
    id = rest.substr(0, id_end);
  }
  const size_t query_start = rest.find_first_not_of(" \t\r\n", id_end);
  if (query_start == std::string::npos) return false;
  std::string query = rest.substr(query_start);
  if (query.size() >= 2 && (query.front() == '"' || query.front() == '\'') && query.back() == query.front()) {
    query = query.substr(1, query.size() - 2);
  }
  *words = {command, id, query};
  return true;
}

}  // namespace

Statement ClassifyStatement(std::string_view text) {
  Statement statement;
  statement.text = std::string(text);
  const std::string_view trimmed = Trimmed(text);
  if (trimmed.empty() || trimmed.front() == '#') return statement;
  if (trimmed == "exit" || trimmed == "quit") {
    statement.kind = StatementKind::kExit;
    return statement;
  }
  std::string rest;
  if (IsHBaseStatement(text)) {
    statement.kind = StatementKind::kHBase;
  } else if (IsSqlStatement(text, &statement.query)) {
    statement.kind = StatementKind::kSql;
  } else if (FirstWordIs(text, "explain", &rest)) {
    statement.kind = StatementKind::kExplain;
    statement.query = std::move(rest);
  } else if (SplitSavedQuery(trimmed, &statement.words)) {
    statement.kind = StatementKind::kCbt;
  } else {
    Result<std::vector<std::string>> words = Tokenize(text);
    statement.kind =
        words.ok() && !words->empty() && (*words)[0] == "source" ? StatementKind::kSource : StatementKind::kCbt;
    if (words.ok()) {
      statement.words = std::move(words).value();
    } else {
      statement.error = words.status();
    }
    if (statement.kind == StatementKind::kCbt && statement.error.ok() && statement.words.empty()) {
      statement.kind = StatementKind::kEmpty;
    }
  }
  return statement;
}

CommandOutcome RunStatement(Session* session, Output* out, Output* err, const Statement& statement) {
  if (statement.kind != StatementKind::kEmpty) session->BeforeStatement();
  switch (statement.kind) {
    case StatementKind::kEmpty: return {};
    case StatementKind::kHBase: return RunHBaseCommand(session, out, err, statement.text);
    // SQL keeps its quotes: the query goes to `sql` as written. So does the
    // statement `explain` shows, which may be in either language.
    case StatementKind::kSql: return RunCommand(session, out, err, {"sql", statement.query});
    case StatementKind::kExplain:
      return RunCommand(session, out, err,
                        statement.query.empty() ? std::vector<std::string>{"explain"}
                                                : std::vector<std::string>{"explain", statement.query});
    // exit and source belong to the shell: the command table refuses them
    // with a line that says so.
    case StatementKind::kExit: return RunCommand(session, out, err, {std::string(Trimmed(statement.text))});
    case StatementKind::kCbt:
    case StatementKind::kSource:
      if (!statement.error.ok()) return {statement.error, false};
      return RunCommand(session, out, err, statement.words);
  }
  return {};
}

CommandOutcome RunStatement(Session* session, Output* out, Output* err, std::string_view text) {
  return RunStatement(session, out, err, ClassifyStatement(text));
}

}  // namespace lbt
