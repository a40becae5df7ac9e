#include "commands/io/bulk_io.h"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "commands/cbt/gc_policy_text.h"
#include "commands/core/interrupt.h"
#include "commands/core/progress.h"
#include "commands/io/batch_writer.h"
#include "commands/io/csv_import.h"
#include "commands/render/text_format.h"

namespace lbt {

namespace {

using nlohmann::json;

// Reads `name` or `name`_b64 from a row or cell object.
Result<std::string> BytesField(const json& object, const std::string& name, int64_t line, bool required) {
  auto text = object.find(name);
  if (text != object.end()) {
    if (!text->is_string()) return Status::InvalidArgument(fmt::format("line {}: \"{}\" must be a string", line, name));
    return text->get<std::string>();
  }
  auto b64 = object.find(name + "_b64");
  if (b64 != object.end()) {
    std::string bytes;
    if (!b64->is_string() || !Base64Decode(b64->get<std::string>(), &bytes)) {
      return Status::InvalidArgument(fmt::format("line {}: \"{}_b64\" is not valid base64", line, name));
    }
    return bytes;
  }
  if (!required) return std::string();
  return Status::InvalidArgument(fmt::format("line {}: missing \"{}\" (or \"{}_b64\")", line, name, name));
}

Result<RowMutation> ParseRow(const std::string& text, int64_t line) {
  json row = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (row.is_discarded() || !row.is_object()) {
    return Status::InvalidArgument(fmt::format("line {}: not a JSON row object", line));
  }
  RowMutation out;
  LBT_ASSIGN_OR_RETURN(out.row_key, BytesField(row, "key", line, true));
  auto cells = row.find("cells");
  if (cells == row.end() || !cells->is_array()) {
    return Status::InvalidArgument(fmt::format("line {}: missing the \"cells\" array", line));
  }
  for (const json& cell : *cells) {
    if (!cell.is_object() || !cell.contains("family") || !cell["family"].is_string()) {
      return Status::InvalidArgument(
          fmt::format("line {}: a cell needs \"family\", \"qualifier\" and \"value\" (and may have \"timestamp\", in "
                      "microseconds)",
                      line));
    }
    // Without a timestamp the cell is written at the current time, as a CSV cell is.
    int64_t timestamp = kServerTime;
    if (auto ts = cell.find("timestamp"); ts != cell.end()) {
      if (!ts->is_number_integer()) {
        return Status::InvalidArgument(fmt::format("line {}: \"timestamp\" must be an integer (microseconds)", line));
      }
      timestamp = ts->get<int64_t>();
    }
    LBT_ASSIGN_OR_RETURN(std::string qualifier, BytesField(cell, "qualifier", line, false));
    LBT_ASSIGN_OR_RETURN(std::string value, BytesField(cell, "value", line, false));
    out.mutations.push_back(
        Mutation::SetCell(cell["family"].get<std::string>(), std::move(qualifier), std::move(value), timestamp));
  }
  return out;
}

// RFC 4180 quoting, only where needed.
std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  return out + "\"";
}

}  // namespace

Result<int64_t> ImportJsonl(std::istream* in, const RowSink& sink, const BulkOptions& options) {
  int64_t rows = 0, line_number = options.first_line - 1;
  for (std::string line; std::getline(*in, line);) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Result<RowMutation> row = ParseRow(line, line_number);
    if (!row.ok() && rows > 0 && options.on_unreadable_line) {
      options.on_unreadable_line(row.status());
      continue;
    }
    LBT_RETURN_IF_ERROR(row.status());
    ++rows;
    LBT_RETURN_IF_ERROR(sink(std::move(row).value(), line_number));
  }
  return rows;
}

Result<int64_t> ExportRows(Bigtable* bigtable, const std::string& table, const ReadRequest& read, ExportFormat format,
                           BytesMode bytes, Output* out, const std::function<Status(int64_t rows)>& on_row) {
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> data, bigtable->OpenTable(TableRef::Table(table)));
  int64_t rows = 0;
  if (format == ExportFormat::kJsonl) {
    LBT_ASSIGN_OR_RETURN(TableSpec spec, bigtable->GetTable(table));
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> reader, data->ReadRows(read));
    for (Row row; reader->Next(&row);) {
      out->Write(RowToJson(row, bytes, &spec));
      out->Write("\n");
      LBT_RETURN_IF_ERROR(on_row(++rows));
    }
    LBT_RETURN_IF_ERROR(reader->status());
    return rows;
  }
  // CSV needs its columns up front: a first pass collects them (bounded by
  // the number of distinct columns, not of rows).
  std::map<std::string, std::set<std::string>> columns;
  {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> reader, data->ReadRows(read));
    for (Row row; reader->Next(&row);) {
      for (const Cell& c : row.cells) columns[c.family].insert(c.qualifier);
    }
    LBT_RETURN_IF_ERROR(reader->status());
  }
  std::string family_row, qualifier_row;
  std::map<std::pair<std::string, std::string>, size_t> position;
  for (const auto& [family, qualifiers] : columns) {
    bool first = true;
    for (const std::string& q : qualifiers) {
      family_row += "," + (first ? CsvField(family) : std::string());
      qualifier_row += "," + CsvField(q);
      position[{family, q}] = position.size();
      first = false;
    }
  }
  out->Write(family_row + "\n" + qualifier_row + "\n");
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> reader, data->ReadRows(read));
  std::vector<std::string> fields(position.size());
  for (Row row; reader->Next(&row);) {
    std::fill(fields.begin(), fields.end(), std::string());
    for (const Cell& c : row.cells) {
      std::string& field = fields[position[{c.family, c.qualifier}]];
      if (field.empty()) field = c.value + "@" + std::to_string(c.timestamp);  // the newest version
    }
    std::string line = CsvField(row.key);
    for (const std::string& f : fields) line += "," + CsvField(f);
    out->Write(line + "\n");
    LBT_RETURN_IF_ERROR(on_row(++rows));
  }
  LBT_RETURN_IF_ERROR(reader->status());
  return rows;
}

// ---- import ----

namespace {

// Skips white space at the start of `in`, counting its newlines; returns
// whether what follows looks like JSON lines. It reads nothing else, so
// standard input is sniffed as a file is.
bool StartsLikeJsonl(std::istream* in, int64_t* newlines) {
  while (true) {
    const int c = in->peek();
    if (c == std::char_traits<char>::eof() || !std::isspace(c)) return c == '{';
    if (c == '\n') ++*newlines;
    in->get();
  }
}

// Counts, per family, the imported cells its GC policy collects as they
// arrive (a backfill older than maxage): said once at the end, since no
// read will ever show them.
class ExpiredCells {
 public:
  ExpiredCells(Bigtable* bigtable, const std::string& table) : now_(bigtable->NowMicros()) {
    Result<TableSpec> spec = bigtable->GetTable(table);
    if (spec.ok()) spec_ = std::move(spec).value();
  }
  void Count(const RowMutation& row) {
    for (const Mutation& m : row.mutations) {
      const FamilySpec* family = spec_.FindFamily(m.family);
      if (family == nullptr || m.timestamp == kServerTime || !family->gc_rule.Collects(0, m.timestamp, now_)) continue;
      ++counts_[m.family];
    }
  }
  void Report(Output* err, const LocalMaintenance* local_db) const {
    const bool local = local_db != nullptr;
    for (const auto& [name, n] : counts_) {
      const std::string policy = FormatGcPolicy(spec_.FindFamily(name)->gc_rule);
      const std::string cells = fmt::format("{} cell{} of family '{}'", n, n == 1 ? "" : "s", name);
      if (local && local_db->lazy_gc()) {
        err->Write(
            fmt::format("note: {} {} already past its GC policy ({}); {} read until a collection pass removes {}\n",
                        cells, n == 1 ? "is" : "are", policy, n == 1 ? "it is" : "they are", n == 1 ? "it" : "them"));
        continue;
      }
      err->Write(local ? fmt::format("note: {} {} dropped: {} already past its GC policy ({})\n", cells,
                                     n == 1 ? "was" : "were", n == 1 ? "it is" : "they are", policy)
                       : fmt::format("note: {} {} already past its GC policy ({}); {} not be read\n", cells,
                                     n == 1 ? "is" : "are", policy, n == 1 ? "it will" : "they will"));
    }
  }

 private:
  TableSpec spec_;
  int64_t now_;
  std::map<std::string, int64_t> counts_;
};

// Where an import's rows go.
class ImportTarget {
 public:
  virtual ~ImportTarget() = default;
  // Takes one row read from the input. A row refused alone is reported,
  // and false returned; an error ends the import.
  virtual Result<bool> Add(const RowMutation& row, int64_t line) = 0;
  // Counts a line of the input that held no row among the failed rows.
  virtual void AddUnreadable(const Status& why) = 0;
  // Writes what is left; an Aborted when some rows failed.
  virtual Status Finish() = 0;
  virtual int64_t rows_written() const = 0;
  // What stays written when the import stops early.
  virtual std::string Kept() const = 0;
};

bool IsRowError(const Status& s) { return s.IsInvalidArgument() || s.IsNotFound() || s.IsOutOfRange(); }

// A local database: a bulk load, which sorts the rows and writes them in
// key order once the input is read.
class LocalTarget final : public ImportTarget {
 public:
  LocalTarget(std::unique_ptr<BulkLoad> load, std::string table, Output* err)
      : load_(std::move(load)), table_(std::move(table)), err_(err), failures_(err) {}

  Result<bool> Add(const RowMutation& row, int64_t line) override {
    Status s = load_->Add(row);
    if (s.ok()) return true;
    if (!IsRowError(s)) return s;
    failures_.Add(line, row.row_key, s);
    return false;
  }
  void AddUnreadable(const Status& why) override { failures_.AddUnreadable(why); }
  Status Finish() override {
    writing_ = true;
    Progress progress(err_, "writing " + table_);
    LBT_RETURN_IF_ERROR(load_->Finish(
        [&](const BulkLoadStats& stats) {
          progress.Update(stats.rows_committed + stats.rows_failed);
          return InterruptRequested() ? Status::Cancelled("interrupted") : Status::OK();
        },
        [&](std::string_view key, const Status& why) { failures_.Add(0, key, why); }));
    progress.Clear();
    return failures_.Outcome(rows_written());
  }
  int64_t rows_written() const override { return load_->stats().rows_committed; }
  std::string Kept() const override {
    if (!writing_ || rows_written() == 0) return "no rows were written";
    return fmt::format("the first {} of {} rows in row key order were written and are kept", rows_written(),
                       load_->stats().rows_added);
  }

 private:
  std::unique_ptr<BulkLoad> load_;
  std::string table_;
  Output* err_;
  RowFailures failures_;
  bool writing_ = false;
};

// A remote Bigtable: batches of rows sent as they are read, several in
// flight.
class RemoteTarget final : public ImportTarget {
 public:
  RemoteTarget(std::unique_ptr<Table> table, const ImportRequest& request, Output* err)
      : writer_(std::move(table), static_cast<int>(std::min<int64_t>(request.workers.value_or(4), 64)), err),
        batch_size_(request.batch_size.value_or(1000)) {}

  // Rows fail later, at the service; they are reported then.
  Result<bool> Add(const RowMutation& row, int64_t line) override {
    batch_.push_back(row);
    lines_.push_back(line);
    if (static_cast<int64_t>(batch_.size()) >= batch_size_) LBT_RETURN_IF_ERROR(Send());
    return true;
  }
  void AddUnreadable(const Status& why) override { writer_.AddUnreadable(why); }
  Status Finish() override {
    LBT_RETURN_IF_ERROR(Send());
    return writer_.Finish();
  }
  int64_t rows_written() const override { return writer_.rows_written(); }
  std::string Kept() const override {
    return fmt::format("{} row{} of earlier batches {} written", rows_written(), rows_written() == 1 ? "" : "s",
                       rows_written() == 1 ? "was" : "were");
  }

 private:
  Status Send() {
    if (batch_.empty()) return Status::OK();
    Status s = writer_.Write(std::move(batch_), std::move(lines_));
    batch_.clear();
    lines_.clear();
    return s;
  }
  BatchWriter writer_;
  int64_t batch_size_;
  std::vector<RowMutation> batch_;
  std::vector<int64_t> lines_;
};

Result<std::unique_ptr<ImportTarget>> OpenTarget(Bigtable* bigtable, const ImportRequest& request, Output* err) {
  LocalMaintenance* local = bigtable->local();
  if (local == nullptr) {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, bigtable->OpenTable(TableRef::Table(request.table)));
    return std::unique_ptr<ImportTarget>(new RemoteTarget(std::move(table), request, err));
  }
  BulkLoadOptions options;
  if (request.batch_size) options.rows_per_commit = *request.batch_size;
  if (request.sort_memory_mib) options.sort_memory_bytes = static_cast<size_t>(*request.sort_memory_mib) << 20;
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<BulkLoad> load, local->NewBulkLoad(request.table, options));
  return std::unique_ptr<ImportTarget>(new LocalTarget(std::move(load), request.table, err));
}

// Runs the parser the format calls for. An error of the parser's own gets
// the other format's hint when the input looked like the other format.
Status Parse(std::istream* in, const ImportRequest& request, bool jsonl, bool looks_jsonl, int64_t first_line,
             const RowSink& sink, ImportTarget* target) {
  Status sink_error;
  RowSink watched = [&](RowMutation row, int64_t line) {
    sink_error = sink(std::move(row), line);
    return sink_error;
  };
  Status s;
  if (jsonl) {
    BulkOptions options;
    options.first_line = first_line;
    options.on_unreadable_line = [target](const Status& why) { target->AddUnreadable(why); };
    s = ImportJsonl(in, watched, options).status();
  } else {
    CsvImportOptions options;
    options.column_family = request.column_family;
    options.value_encoded_timestamps = request.value_encoded_timestamps;
    options.timestamps_chosen = request.timestamps_chosen;
    options.first_line = first_line;
    s = ImportCsv(in, watched, options).status();
  }
  if (s.ok() || !sink_error.ok() || !s.IsInvalidArgument() || jsonl == looks_jsonl) return s;
  return Status::InvalidArgument(s.message() + (jsonl ? " (read as JSON lines; for CSV add format=csv)"
                                                      : " (read as CSV; for JSON lines add format=jsonl)"));
}

}  // namespace

Status ImportRows(Bigtable* bigtable, const ImportRequest& request, std::istream* in, Output* err) {
  int64_t blank_lines = 0;
  const bool looks_jsonl = StartsLikeJsonl(in, &blank_lines);
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<ImportTarget> target, OpenTarget(bigtable, request, err));
  ExpiredCells expired(bigtable, request.table);
  Progress progress(err, "importing " + request.name);
  int64_t rows = 0;
  auto sink = [&](RowMutation row, int64_t line) -> Status {
    LBT_ASSIGN_OR_RETURN(bool accepted, target->Add(row, line));
    if (accepted) expired.Count(row);
    if (++rows % 1024 != 0) return Status::OK();
    progress.Update(rows, in->tellg(), request.input_bytes);
    return InterruptRequested() ? Status::Cancelled("interrupted") : Status::OK();
  };
  // An empty table exports as no lines (JSON lines) or as two empty header
  // rows (CSV), which StartsLikeJsonl skipped: either imports as no rows.
  const bool empty = in->peek() == std::char_traits<char>::eof();
  Status s =
      empty ? Status::OK()
            : Parse(in, request, request.jsonl.value_or(looks_jsonl), looks_jsonl, blank_lines + 1, sink, target.get());
  progress.Clear();
  if (s.ok()) s = target->Finish();
  // Aborted: some rows failed, and it says how many were written.
  if (!s.ok() && s.code() != Status::Code::kAborted) {
    return Status::FromCode(s.code(), fmt::format("{}; {}", s.message(), target->Kept()));
  }
  expired.Report(err, bigtable->local());
  LBT_RETURN_IF_ERROR(bigtable->Flush());
  LBT_RETURN_IF_ERROR(s);
  const int64_t written = target->rows_written();
  err->Write(fmt::format("Done importing {} row{}.\n", written, written == 1 ? "" : "s"));
  return Status::OK();
}

}  // namespace lbt
