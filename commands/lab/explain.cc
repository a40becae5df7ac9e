// `explain [analyze] <read command>`: how a read of either dialect runs.
//
// The command explained runs as usual against a Bigtable that records the
// reads it makes. Without `analyze` the recorder answers every read with
// no rows, so nothing is read and only the plan is shown; with `analyze`
// the reads run, their rows are counted and dropped, and the plan shows
// what they examined against what they returned.

#include <deque>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "api/forwarding_bigtable.h"
#include "api/forwarding_table.h"
#include "commands/core/command_table.h"
#include "commands/core/statement.h"
#include "commands/lab/lab_commands.h"
#include "commands/lab/lab_renderer.h"
#include "filter/row_filter.h"
#include "lab/key_shape.h"

namespace lbt {

namespace {

// A read the explained command made, and what it cost.
struct RecordedRead {
  std::string table;
  ReadRequest request;
  bool count = false;  // CountRows rather than ReadRows
  ReadStats stats;
  std::string placement;  // where a remote read's filter ran
};

class EmptyStream final : public RowStream {
 public:
  bool Next(Row*) override { return false; }
  Status status() const override { return Status::OK(); }
  ReadStats stats() const override { return {}; }
};

// Passes rows through and, at its end, leaves the read's stats in `read`.
class RecordingStream final : public RowStream {
 public:
  RecordingStream(std::unique_ptr<RowStream> inner, RecordedRead* read) : inner_(std::move(inner)), read_(read) {}
  ~RecordingStream() override {
    read_->stats = inner_->stats();
    read_->placement = inner_->FilterPlacement();
  }
  bool Next(Row* row) override { return inner_->Next(row); }
  Status status() const override { return inner_->status(); }
  ReadStats stats() const override { return inner_->stats(); }
  std::string FilterPlacement() const override { return inner_->FilterPlacement(); }

 private:
  std::unique_ptr<RowStream> inner_;
  RecordedRead* read_;
};

// One table's reads recorded into its recorder's list; writes refused.
class RecordingTable final : public WritesRefused<ForwardingTable> {
 public:
  RecordingTable(std::unique_ptr<Table> target, bool run, std::deque<RecordedRead>* reads)
      : WritesRefused<ForwardingTable>(std::move(target)), run_(run), reads_(reads) {}

  Result<std::unique_ptr<RowStream>> ReadRows(const ReadRequest& request) override {
    reads_->push_back(RecordedRead{Name(), request, false, {}, {}});
    if (!run_) return std::unique_ptr<RowStream>(std::make_unique<EmptyStream>());
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, target()->ReadRows(request));
    return std::unique_ptr<RowStream>(std::make_unique<RecordingStream>(std::move(stream), &reads_->back()));
  }

  // A count runs as a read of one stripped cell a row, so that it can be
  // measured like any other.
  Result<int64_t> CountRows(const RowRange& range) override {
    ReadRequest request;
    if (!range.IsAll()) request.rows.row_ranges = {range};
    request.filter = Filter::Chain({Filter::CellsPerRowLimit(1), Filter::StripValue()});
    reads_->push_back(RecordedRead{Name(), request, /*count=*/true, {}, {}});
    if (!run_) return 0;
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, target()->ReadRows(request));
    int64_t rows = 0;
    for (Row row; stream->Next(&row);) ++rows;
    LBT_RETURN_IF_ERROR(stream->status());
    reads_->back().stats = stream->stats();
    return rows;
  }

 private:
  Status RefuseWrite() const override { return Status::FailedPrecondition("explain runs reads only"); }
  std::string Name() const { return ref().is_materialized_view() ? ref().materialized_view : ref().table; }

  const bool run_;
  std::deque<RecordedRead>* const reads_;
};

// The Bigtable an explained command runs on: every table it opens records
// its reads.
class ReadRecorder final : public ForwardingBigtable {
 public:
  ReadRecorder(Bigtable* target, bool run) : ForwardingBigtable(target), run_(run) {}

  const std::deque<RecordedRead>& reads() const { return reads_; }

  Result<std::unique_ptr<Table>> OpenTable(const TableRef& ref) override {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, target()->OpenTable(ref));
    return std::unique_ptr<Table>(std::make_unique<RecordingTable>(std::move(table), run_, &reads_));
  }

 private:
  bool run_;
  std::deque<RecordedRead> reads_;  // a deque: RecordingStream keeps a pointer into it
};

std::string Quoted(const std::string& bytes) { return "\"" + lab::PrintableKey(bytes) + "\""; }

std::string BoundText(const Bound& b, bool start) {
  if (b.kind == Bound::Kind::kUnbounded) return start ? "(start" : "end)";
  if (start) return (b.kind == Bound::Kind::kClosed ? "[" : "(") + Quoted(b.value);
  return Quoted(b.value) + (b.kind == Bound::Kind::kClosed ? "]" : ")");
}

bool IsPrefixRange(const RowRange& r) {
  return r.start.kind == Bound::Kind::kClosed && !r.start.value.empty() &&
         ((r.end.kind == Bound::Kind::kOpen && r.end.value == PrefixSuccessor(r.start.value)) ||
          (r.end.kind == Bound::Kind::kUnbounded && PrefixSuccessor(r.start.value).empty()));
}

// The key range a read of every row is narrowed to by its filter's row
// key tests (a regex's literal prefix, a comparison), as the local engine
// narrows it; nullopt when the filter may pass any row.
std::optional<RowRange> KeyRangeFromFilter(const ReadRequest& request) {
  if (!request.rows.IsAll() || !request.filter) return std::nullopt;
  Result<std::unique_ptr<RowFilter>> compiled = CompileFilter(*request.filter);
  if (!compiled.ok()) return std::nullopt;
  return (*compiled)->RowKeyHint();
}

// A hint's closed end at the prefix's successor reads as the prefix: no
// key equal to that successor can match a regex that starts with it.
bool IsPrefixHint(const RowRange& r) {
  return r.start.kind == Bound::Kind::kClosed && !r.start.value.empty() && r.end.kind == Bound::Kind::kClosed &&
         r.end.value == PrefixSuccessor(r.start.value);
}

void DescribeFilterRange(const RowRange& r, ReadPlan* plan) {
  if (IsPrefixRange(r) || IsPrefixHint(r)) {
    plan->access = "prefix scan";
    plan->ranges.push_back("prefix " + Quoted(r.start.value) + ", from the row key filter");
    return;
  }
  plan->access = "range scan";
  plan->ranges.push_back(BoundText(r.start, true) + ", " + BoundText(r.end, false) + ", from the row key filter");
}

// The access path and the ranges of a read, as the plan shows them. A
// local read of every row reads only the key range its filter allows.
void DescribeRows(const ReadRequest& request, bool local, ReadPlan* plan) {
  const RowSet& rows = request.rows;
  if (rows.IsAll()) {
    if (std::optional<RowRange> narrowed = local ? KeyRangeFromFilter(request) : std::nullopt) {
      DescribeFilterRange(*narrowed, plan);
      return;
    }
    plan->access = "full table scan";
    plan->ranges.push_back("every row");
    return;
  }
  for (const std::string& key : rows.row_keys) plan->ranges.push_back("row " + Quoted(key));
  for (const RowRange& r : rows.row_ranges) {
    plan->ranges.push_back(IsPrefixRange(r) ? "prefix " + Quoted(r.start.value)
                                            : BoundText(r.start, true) + ", " + BoundText(r.end, false));
  }
  if (rows.row_ranges.empty()) {
    plan->access = rows.row_keys.size() == 1 ? "point lookup" : fmt::format("{} point lookups", rows.row_keys.size());
  } else if (rows.row_keys.empty() && rows.row_ranges.size() == 1) {
    plan->access = IsPrefixRange(rows.row_ranges[0]) ? "prefix scan" : "range scan";
  } else {
    plan->access = "row set scan";
  }
}

std::string_view FilterName(Filter::Kind kind) {
  using K = Filter::Kind;
  switch (kind) {
    case K::kPassAll: return "pass_all";
    case K::kBlockAll: return "block_all";
    case K::kSink: return "sink";
    case K::kChain: return "chain";
    case K::kInterleave: return "interleave";
    case K::kCondition: return "condition";
    case K::kRowKeyRegex: return "row_key_regex";
    case K::kRowSample: return "row_sample";
    case K::kFamilyNameRegex: return "family_name_regex";
    case K::kQualifierRegex: return "column_qualifier_regex";
    case K::kColumnRange: return "column_range";
    case K::kTimestampRange: return "timestamp_range";
    case K::kValueRegex: return "value_regex";
    case K::kValueRange: return "value_range";
    case K::kCellsPerRowOffset: return "cells_per_row_offset";
    case K::kCellsPerRowLimit: return "cells_per_row_limit";
    case K::kCellsPerColumnLimit: return "cells_per_column_limit";
    case K::kStripValue: return "strip_value";
    case K::kApplyLabel: return "apply_label";
    case K::kValueBitmask: return "value_bitmask";
    case K::kUnion: return "union";
    case K::kSkip: return "skip";
    case K::kWhile: return "while";
    case K::kCompare: return "compare";
    case K::kQualifierRange: return "qualifier_range";
    case K::kColumnValue: return "single_column_value";
    case K::kTimestamps: return "timestamps";
    case K::kPage: return "page";
    case K::kColumnCount: return "column_count";
    case K::kColumnPage: return "column_page";
    case K::kDependentColumn: return "dependent_column";
  }
  return "filter";
}

// A filter tree in one line: chain(family_name_regex("cf"), cells_per_column_limit(1)).
std::string DescribeFilter(const Filter& f) {
  std::vector<std::string> parts;
  for (const Filter& child : f.children) parts.push_back(DescribeFilter(child));
  if (f.true_filter) parts.push_back("true: " + DescribeFilter(*f.true_filter));
  if (f.false_filter) parts.push_back("false: " + DescribeFilter(*f.false_filter));
  if (parts.empty()) {
    if (!f.family.empty()) parts.push_back(Quoted(f.family));
    if (!f.pattern.empty()) parts.push_back(Quoted(f.pattern));
    if (!f.comparand.empty()) parts.push_back(Quoted(f.comparand));
    if (f.count != 0) parts.push_back(std::to_string(f.count));
  }
  return fmt::format("{}({})", FilterName(f.kind), fmt::join(parts, ", "));
}

// Whether the filter tree holds a filter of one of `kinds`.
bool HasFilter(const Filter& f, std::initializer_list<Filter::Kind> kinds) {
  for (Filter::Kind k : kinds) {
    if (f.kind == k) return true;
  }
  for (const Filter& child : f.children) {
    if (HasFilter(child, kinds)) return true;
  }
  return (f.true_filter && HasFilter(*f.true_filter, kinds)) || (f.false_filter && HasFilter(*f.false_filter, kinds));
}

void AddNotes(const RecordedRead& read, bool local, ReadPlan* plan) {
  const std::optional<Filter>& filter = read.request.filter;
  const bool narrowed = local && KeyRangeFromFilter(read.request).has_value();
  if (read.request.rows.IsAll() && filter && !narrowed) {
    // Analyzed, the numbers below say what the read cost. A remote
    // service may narrow a regex's literal prefix to a range on its own.
    if (!plan->analyzed && HasFilter(*filter, {Filter::Kind::kRowKeyRegex, Filter::Kind::kCompare})) {
      plan->notes.push_back(
          "a filter on the row key is tested on the rows read, and no key range limits them: "
          "the whole table may be read (explain analyze counts it). prefix= or start=/end= "
          "(ROWPREFIXFILTER, STARTROW/STOPROW) read only the rows in range");
    }
    if (!plan->analyzed &&
        HasFilter(*filter, {Filter::Kind::kValueRegex, Filter::Kind::kValueRange, Filter::Kind::kColumnValue})) {
      plan->notes.push_back("a value filter looks at every cell of every row: the whole table is read");
    }
  }
  if (plan->analyzed && plan->stats.rows_seen > 10 * std::max<int64_t>(1, plan->stats.rows_returned)) {
    plan->notes.push_back(fmt::format("{} rows examined for {} returned: a key range would read less",
                                      plan->stats.rows_seen, plan->stats.rows_returned));
  }
}

ReadPlan PlanOf(const RecordedRead& read, const std::string& command, bool analyzed, bool local) {
  ReadPlan plan;
  plan.command = command;
  plan.table = read.table;
  DescribeRows(read.request, local, &plan);
  const std::string where = local                     ? "the engine, as rows are read"
                            : !read.placement.empty() ? read.placement
                                                      : "service (what RowFilter cannot express: this client)";
  for (const ColumnSelector& c : read.request.columns) {
    plan.filters.emplace_back(where, "column " + c.family + (c.qualifier ? ":" + lab::PrintableKey(*c.qualifier) : ""));
  }
  if (read.request.cells_per_column_limit > 0) {
    plan.filters.emplace_back(where, fmt::format("cells_per_column_limit({})", read.request.cells_per_column_limit));
  }
  if (read.request.filter) plan.filters.emplace_back(where, DescribeFilter(*read.request.filter));
  if (read.request.rows_limit > 0)
    plan.filters.emplace_back(where, fmt::format("rows_limit({})", read.request.rows_limit));
  plan.analyzed = analyzed;
  plan.stats = read.stats;
  AddNotes(read, local, &plan);
  if (analyzed && !local) {
    plan.notes.push_back("a remote service does not say how many rows it examined: the counts are what reached lbt");
  }
  return plan;
}

// `command` without a leading `analyze`; true if it had one.
bool TakeAnalyze(std::string* command) {
  const size_t start = command->find_first_not_of(" \t");
  if (start == std::string::npos || command->compare(start, 7, "analyze") != 0) return false;
  if (command->size() > start + 7 && (*command)[start + 7] != ' ' && (*command)[start + 7] != '\t') return false;
  command->erase(0, start + 7);
  return true;
}

constexpr std::string_view kExplainable[] = {"read", "lookup", "count", "scan", "get"};

Status CheckExplainable(CommandContext& ctx, const std::string& command) {
  const size_t start = command.find_first_not_of(" \t");
  if (start == std::string::npos) {
    return ctx.Usage("explain needs a read command: read, lookup, count, scan, get or a SQL query");
  }
  const std::string word = command.substr(start, command.find_first_of(" \t", start) - start);
  for (std::string_view ok : kExplainable) {
    if (word == ok) return Status::OK();
  }
  return ctx.Usage(fmt::format("explain shows reads: read, lookup, count, scan, get or a SQL query, not '{}'", word));
}

// The explained command as one statement. From the shell it comes whole,
// as typed; from lbt's command line it comes as words, which are quoted
// back as the tokenizer reads them.
std::string StatementOf(const std::vector<std::string>& args) {
  if (args.size() == 1) return args[0];
  std::string out;
  for (const std::string& word : args) {
    if (!out.empty()) out += ' ';
    if (!word.empty() && word.find_first_of(" \t\n'\"\\$`#") == std::string::npos) {
      out += word;
      continue;
    }
    out += '"';
    for (char c : word) {
      if (c == '"' || c == '\\' || c == '$' || c == '`') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out;
}

}  // namespace

Status Explain(CommandContext& ctx, const std::vector<std::string>& args) {
  std::string command = StatementOf(args);
  const bool analyze = TakeAnalyze(&command);
  // A query's plan is SQL's own EXPLAIN, which runs the query to count
  // what it examined: with or without analyze, the same answer.
  if (std::string query; IsSqlStatement(command, &query)) {
    CommandOutcome outcome = RunCommand(ctx.session, ctx.out, ctx.err, {"sql", "EXPLAIN " + query});
    ctx.usage_error = outcome.usage_error;
    return outcome.status;
  }
  LBT_RETURN_IF_ERROR(CheckExplainable(ctx, command));
  auto recorder = std::make_unique<ReadRecorder>(ctx.bigtable(), analyze);
  ReadRecorder* reads = recorder.get();
  Session inner(ctx.session->options(), std::move(recorder));
  std::string discarded;
  Output sink(&discarded);
  CommandOutcome outcome = RunStatement(&inner, &sink, ctx.err, command);
  if (!outcome.status.ok()) {
    if (outcome.usage_error) ctx.usage_error = true;
    return outcome.status;
  }
  const size_t begin = command.find_first_not_of(" \t");
  auto lab = LabRenderer::Create(ctx.session->options().format, ctx.out, false);
  for (const RecordedRead& read : reads->reads()) {
    lab->Plan(PlanOf(read, command.substr(begin), analyze, ctx.bigtable()->local() != nullptr));
  }
  return Status::OK();
}

}  // namespace lbt
