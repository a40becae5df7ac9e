#include "studio/studio_api.h"

#include <fmt/format.h>

#include <array>
#include <nlohmann/json.hpp>
#include <utility>

#include "api/forwarding_bigtable.h"
#include "commands/core/interrupt.h"
#include "commands/core/output.h"
#include "commands/core/statement.h"
#include "sql/functions/registry.h"

namespace lbt::studio {

namespace {

using Json = nlohmann::ordered_json;

// What a page may run: the commands that only read, and under them those
// that change data or schema. Nothing that reads or writes a file of this
// machine (import, export, dump, keyviz, source), nothing that runs on
// (watch, but for what has committed: end=now): a page sees the database,
// not the computer it is on. useinstance moves the studio's own sessions
// to another instance of the same database or project.
constexpr std::array<std::string_view, 27> kReadCommands = {"ls",
                                                            "read",
                                                            "lookup",
                                                            "count",
                                                            "sql",
                                                            "explain",
                                                            "advise",
                                                            "stats",
                                                            "hotspots",
                                                            "schema",
                                                            "help",
                                                            "version",
                                                            "listinstances",
                                                            "listclusters",
                                                            "listappprofile",
                                                            "getappprofile",
                                                            "listauthorizedviews",
                                                            "getauthorizedview",
                                                            "listlogicalviews",
                                                            "getlogicalview",
                                                            "listmaterializedviews",
                                                            "getmaterializedview",
                                                            "listbackups",
                                                            "getbackup",
                                                            "listschemabundles",
                                                            "getschemabundle",
                                                            "faults"};
constexpr std::array<std::string_view, 10> kWriteCommands = {
    "set",          "deleterow",   "deletecolumn",      "addtocell",         "createtable",
    "createfamily", "setgcpolicy", "createlogicalview", "updatelogicalview", "setchangestream"};

template <size_t N>
bool Contains(const std::array<std::string_view, N>& names, std::string_view name) {
  for (std::string_view n : names) {
    if (n == name) return true;
  }
  return false;
}

std::string ErrorAnswer(std::string_view message) { return Json{{"ok", false}, {"error", message}}.dump(); }

// The command a statement runs, as the command table names it; empty for
// the HBase shell's language, which the page does not speak.
std::string CommandOf(const Statement& statement) {
  switch (statement.kind) {
    case StatementKind::kSql: return "sql";
    case StatementKind::kExplain: return "explain";
    case StatementKind::kCbt:
    case StatementKind::kSource: return statement.words.empty() ? "" : statement.words[0];
    case StatementKind::kExit: return "exit";
    default: return "";
  }
}

// The commands that stream rows, answered one JSON line a row.
bool StreamsRows(std::string_view command) {
  return command == "read" || command == "lookup" || command == "sql" || command == "watch";
}

// watch runs until Ctrl-C, unless it ends now: then it answers the changes
// committed since its start or token, which a page asks for again and again.
bool WatchEndsNow(const Statement& statement) {
  int ends = 0;
  bool now = false;
  for (size_t i = 2; i < statement.words.size(); ++i) {
    if (!statement.words[i].starts_with("end=")) continue;
    ++ends;
    now = statement.words[i] == "end=now";
  }
  return ends == 1 && now;  // a second end= would be the one that counts
}

// faults lists and changes a server's rules: only its listing reads.
// keyviz reads, and may run when it prints its heatmap (JSON) rather than
// write a file: every word after the table is an option (key=value).
bool OnlyReadsCommand(const Statement& statement, const std::string& command) {
  if (command == "faults") return statement.words.size() == 1;
  if (command == "watch") return WatchEndsNow(statement);
  if (command == "keyviz") {
    for (size_t i = 2; i < statement.words.size(); ++i) {
      if (statement.words[i].find('=') == std::string::npos) return false;
    }
    return true;
  }
  return Contains(kReadCommands, command);
}

// The JSON documents the statement printed, one a line, as the text of a
// JSON array: each line as printed (checked, not parsed into a tree: an
// answer of many rows costs its text alone), a line that is not JSON as a
// string. With `columns` set, a first line naming a query's columns goes
// there instead.
std::string ResultsOf(const std::string& printed, Json* columns) {
  std::string results = "[";
  size_t start = 0;
  while (start < printed.size()) {
    size_t end = printed.find('\n', start);
    if (end == std::string::npos) end = printed.size();
    const std::string_view line(printed.data() + start, end - start);
    const bool first = start == 0;
    start = end + 1;
    if (line.empty()) continue;
    if (first && columns != nullptr) {
      Json header = Json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (header.is_object() && header.contains("columns")) {
        *columns = std::move(header["columns"]);
        continue;
      }
    }
    if (results.size() > 1) results += ',';
    if (Json::accept(line)) {
      results += line;
    } else {
      results += Json(line).dump();
    }
  }
  return results + "]";
}

// The lines a command wrote to its error output, "note: " dropped.
Json NotesOf(const std::string& text) {
  Json lines = Json::array();
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    if (line.starts_with("note: ")) line.remove_prefix(6);
    if (!line.empty()) lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

}  // namespace

StudioApi::StudioApi(Bigtable* bigtable, InstanceName instance, bool read_only, std::function<void()> before_statement)
    : bigtable_(bigtable), read_only_(read_only) {
  SessionOptions options;
  options.instance = std::move(instance);
  options.format = OutputFormat::kJson;
  documents_ = std::make_unique<Session>(options, std::make_unique<ForwardingBigtable>(bigtable));
  options.format = OutputFormat::kJsonl;
  options.query_columns = true;
  rows_ = std::make_unique<Session>(options, std::make_unique<ForwardingBigtable>(bigtable));
  if (before_statement) {
    documents_->set_before_statement(before_statement);
    rows_->set_before_statement(std::move(before_statement));
  }
}

std::string StudioApi::Words() {
  Json functions = Json::array();
  for (const std::string& name : sql::FunctionRegistry::Builtins().Names()) {
    if (!name.starts_with('$')) functions.push_back(name);  // not operators
  }
  return Json{{"ok", true}, {"functions", std::move(functions)}}.dump();
}

// Both sessions move, or neither: the rows session follows the documents
// session, and goes back with it if it cannot.
std::string StudioApi::UseInstance(const Statement& statement) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string printed, notes;
  Output out(&printed), err(&notes);
  const InstanceName before = documents_->options().instance;
  CommandOutcome outcome = RunStatement(documents_.get(), &out, &err, statement);
  if (!outcome.status.ok()) return ErrorAnswer(outcome.status.message());
  outcome = RunStatement(rows_.get(), &out, &err, statement);
  if (!outcome.status.ok()) {
    (void)documents_->UseInstance(before);
    return ErrorAnswer(outcome.status.message());
  }
  return WhereLocked();
}

std::string StudioApi::Where() {
  std::lock_guard<std::mutex> lock(mu_);
  return WhereLocked();
}

std::string StudioApi::WhereLocked() {
  const InstanceName& instance = documents_->options().instance;
  return Json{{"ok", true},
              {"project", instance.project},
              {"instance", instance.instance},
              {"on", documents_->bigtable()->Describe()},
              {"read_only", read_only_}}
      .dump();
}

void StudioApi::Close() {
  closed_ = true;
  Cancel();
}

void StudioApi::Cancel() {
  if (!running_) return;
  cancelled_ = true;
  RequestInterrupt();
  bigtable_->CancelCalls();
}

StudioApi::~StudioApi() = default;

std::string StudioApi::Run(std::string_view text) {
  const Statement statement = ClassifyStatement(text);
  if (!statement.error.ok()) return ErrorAnswer(statement.error.message());
  if (statement.kind == StatementKind::kEmpty) return ErrorAnswer("nothing to run");
  const std::string command = CommandOf(statement);
  if (command.empty()) return ErrorAnswer("the studio runs cbt's language and SQL");
  const bool reads = OnlyReadsCommand(statement, command);
  if (command == "useinstance") return UseInstance(statement);
  if (!reads && !Contains(kWriteCommands, command) && command != "faults") {
    if (command == "keyviz") return ErrorAnswer("keyviz in the studio draws its heatmap: give it no file");
    if (command == "watch") return ErrorAnswer("watch in the studio reads what has committed: give it end=now");
    return ErrorAnswer(fmt::format("{} cannot run in the studio; run it in the shell", command));
  }
  if (!reads && read_only_) return ErrorAnswer(fmt::format("{} changes data: the studio is read-only", command));
  // Statements wait their turn, a few at most: each waits on a thread of
  // the server, which Stop and the page's other requests need too.
  if (waiting_.fetch_add(1) >= kMaxWaiting) {
    waiting_.fetch_sub(1);
    return ErrorAnswer("busy: other statements are waiting (Stop ends the one running)");
  }
  std::unique_lock<std::mutex> lock(mu_);
  waiting_.fetch_sub(1);
  if (closed_) return ErrorAnswer("the studio is stopping");
  Session* session = StreamsRows(command) ? rows_.get() : documents_.get();
  std::string printed;
  std::string notes;
  CommandOutcome outcome;
  bool truncated = false;
  ClearInterrupt();
  cancelled_ = false;
  running_ = true;
  {
    Output out(&printed, max_answer_bytes_, [] { RequestInterrupt(); });
    Output err(&notes);
    outcome = RunStatement(session, &out, &err, statement);
    truncated = out.full();
  }
  running_ = false;
  ClearInterrupt();
  // Stopped only if it did stop: a statement done before Stop came is done.
  if (!outcome.status.ok() && !truncated) {
    return ErrorAnswer(cancelled_ && outcome.status.code() == Status::Code::kCancelled ? "stopped"
                                                                                       : outcome.status.message());
  }
  // A query's first line names its columns and their types.
  Json columns;
  std::string answer = R"({"ok":true,"results":)" + ResultsOf(printed, command == "sql" ? &columns : nullptr);
  if (!columns.is_null()) answer += R"(,"columns":)" + columns.dump();
  if (truncated) answer += R"(,"truncated":true)";
  // What the command said beside its answer ("no database at ..."): one
  // line each.
  if (Json lines = NotesOf(notes); !lines.empty()) answer += R"(,"notes":)" + lines.dump();
  return answer + "}";
}

}  // namespace lbt::studio
