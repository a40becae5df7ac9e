#include "commands/render/renderer.h"
#include "util/bytes.h"

#include <fmt/format.h>

#include <algorithm>

#include <array>
#include <charconv>
#include <cstring>
#include <nlohmann/json.hpp>

#include "commands/cbt/gc_policy_text.h"
#include "commands/hbase/schema.h"
#include "commands/render/query_output.h"
#include "commands/render/text_format.h"

namespace lbt {

namespace {

// A row's cells with families by name: cbt sorts them so on the client and
// the HBase shell prints them so, whatever order the service sent. Cells
// keep their order within a family. Returns `row.cells` itself when it is
// in that order already (one family, or families created by name).
const std::vector<Cell>& CellsByFamilyName(const Row& row, std::vector<Cell>* sorted) {
  const auto by_family = [](const Cell& a, const Cell& b) { return a.family < b.family; };
  if (std::is_sorted(row.cells.begin(), row.cells.end(), by_family)) return row.cells;
  *sorted = row.cells;
  std::stable_sort(sorted->begin(), sorted->end(), by_family);
  return *sorted;
}

using json = nlohmann::ordered_json;  // keys in the documented order

// Appends `s` as a JSON string, escaped as nlohmann::json escapes it (so
// every JSON document lbt prints looks alike). REQUIRES: valid UTF-8.
// Runs of bytes that need no escape are appended whole: a full scan
// writes millions of strings.
void AppendJsonString(std::string* out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t pending = 0;  // the first byte not appended yet
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(s.data() + pending, i - pending);
    pending = i + 1;
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        out->append("\\u00");
        out->push_back(kHex[c >> 4]);
        out->push_back(kHex[c & 0xf]);
    }
  }
  out->append(s.data() + pending, s.size() - pending);
  out->push_back('"');
}

// ---- the row object of --format json and jsonl ----
//
// A full scan writes millions of cells, so a row's JSON is written in one
// go: its exact size is worked out first (one pass over each string, which
// also tells whether it is ASCII), then every piece is copied in through a
// raw pointer, with no per-piece call or capacity check.

// The bytes each byte takes in a JSON string: 1, or its escape's length.
constexpr std::array<uint8_t, 256> kEscapedSize = [] {
  std::array<uint8_t, 256> size{};
  for (int c = 0; c < 256; ++c) size[c] = c < 0x20 ? 6 : 1;
  for (char c : {'\b', '\f', '\n', '\r', '\t', '"', '\\'}) size[static_cast<unsigned char>(c)] = 2;
  return size;
}();

// A string as JSON: its quoted, escaped size, and whether it is ASCII.
struct JsonText {
  explicit JsonText(std::string_view s) : text(s) {
    unsigned high = 0;
    for (char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      size += kEscapedSize[c];
      high |= c;
    }
    ascii = high < 0x80;
  }
  // Writes it into room for `size` bytes.
  char* Write(char* p) const {
    if (size != text.size() + 2) {  // something to escape: the slow way
      std::string escaped;
      AppendJsonString(&escaped, text);
      std::memcpy(p, escaped.data(), escaped.size());
      return p + escaped.size();
    }
    *p++ = '"';
    std::memcpy(p, text.data(), text.size());
    p += text.size();
    *p++ = '"';
    return p;
  }
  std::string_view text;
  size_t size = 2;
  bool ascii = true;
};

char* Put(char* p, std::string_view s) {
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

// One bytes field (key, qualifier, value): "name":"text" when it is UTF-8
// (and the mode allows), else "name_b64":"base64".
struct BytesField {
  BytesField(std::string_view name, const std::string& bytes, BytesMode mode) : name(name), json(bytes) {
    text = mode == BytesMode::kAuto && (json.ascii || IsValidUtf8(bytes));
    if (!text) b64 = Base64Encode(bytes);
  }
  size_t Size() const { return name.size() + (text ? 3 + json.size : 9 + b64.size()); }
  char* Write(char* p) const {
    *p++ = '"';
    p = Put(p, name);
    if (text) return json.Write(Put(p, "\":"));
    p = Put(Put(p, "_b64\":\""), b64);
    *p++ = '"';
    return p;
  }
  std::string_view name;
  JsonText json;
  bool text;
  std::string b64;
};

// The ,"value_int":N of a cell of an aggregate family, whose value is an
// 8-byte big-endian integer that base64 would hide; "" for other cells.
std::string AggregateValue(const Cell& c, const TableSpec* table) {
  const FamilySpec* family = table == nullptr ? nullptr : table->FindFamily(c.family);
  int64_t n = 0;
  if (family == nullptr || !IsAggregate(family->value_type) || !DecodeInt64(c.value, &n)) return "";
  return ",\"value_int\":" + std::to_string(n);
}

bool HasAggregates(const TableSpec* table) {
  if (table == nullptr) return false;
  for (const auto& [name, family] : table->families) {
    if (IsAggregate(family.value_type)) return true;
  }
  return false;
}

// One cell's object, sized before it is written.
struct CellJson {
  CellJson(const Cell& c, BytesMode mode)
      : cell(&c), family(c.family), qualifier("qualifier", c.qualifier, mode), value("value", c.value, mode) {
    // Cells of a row, and rows of a load, mostly share their timestamps:
    // the digits of the last one are kept.
    thread_local int64_t last = -1;
    thread_local char digits[24];
    thread_local size_t digits_size = 0;
    if (c.timestamp != last) {
      digits_size = static_cast<size_t>(std::to_chars(digits, digits + sizeof digits, c.timestamp).ptr - digits);
      last = c.timestamp;
    }
    std::memcpy(timestamp_digits, digits, digits_size);
    timestamp_size = digits_size;
  }
  std::string_view timestamp() const { return std::string_view(timestamp_digits, timestamp_size); }
  size_t Size() const {
    size_t n = 26 + family.size + qualifier.Size() + timestamp_size + value.Size() + extra.size();
    if (!cell->labels.empty()) n += 12 + cell->labels.size();
    for (const std::string& l : cell->labels) n += JsonText(l).size;
    return n;
  }
  char* Write(char* p) const {
    p = family.Write(Put(p, "{\"family\":"));
    p = qualifier.Write(Put(p, ","));
    p = Put(Put(p, ",\"timestamp\":"), timestamp());
    p = Put(value.Write(Put(p, ",")), extra);
    if (!cell->labels.empty()) {
      p = Put(p, ",\"labels\":[");
      for (size_t l = 0; l < cell->labels.size(); ++l) p = JsonText(cell->labels[l]).Write(l > 0 ? Put(p, ",") : p);
      p = Put(p, "]");
    }
    return Put(p, "}");
  }
  const Cell* cell;
  JsonText family;
  BytesField qualifier, value;
  std::string extra;
  char timestamp_digits[24];
  size_t timestamp_size;
};

// The row object, written directly: building a JSON DOM per row would
// cost several times the read itself.
void AppendRowJson(std::string* out, const Row& row, BytesMode mode, const TableSpec* table) {
  const bool aggregates = HasAggregates(table);
  const BytesField key("key", row.key, mode);
  thread_local std::vector<CellJson> cells;  // kept: no allocation per row
  cells.clear();
  size_t size = 13 + key.Size();
  for (const Cell& c : row.cells) {
    cells.emplace_back(c, mode);
    if (aggregates) cells.back().extra = AggregateValue(c, table);
    size += 1 + cells.back().Size();
  }
  const size_t start = out->size();
  out->resize(start + size);
  char* p = key.Write(Put(out->data() + start, "{"));
  p = Put(p, ",\"cells\":[");
  for (size_t i = 0; i < cells.size(); ++i) p = cells[i].Write(i > 0 ? Put(p, ",") : p);
  p = Put(p, "]}");
  out->resize(static_cast<size_t>(p - out->data()));
}

json StatsObject(const ReadSummary& s) {
  json stats{{"rows_seen", s.stats.rows_seen},
             {"rows_returned", s.stats.rows_returned},
             {"cells_seen", s.stats.cells_seen},
             {"cells_returned", s.stats.cells_returned},
             {"latency_ms", s.latency_ms}};
  if (!s.filter_placement.empty()) stats["filter_placement"] = s.filter_placement;
  return stats;
}

json TableObject(const TableSpec& table) {
  json families = json::array();
  for (const auto& [name, f] : table.families) {
    families.push_back(json{{"name", name},
                            {"gc_policy", FormatGcPolicy(f.gc_rule)},
                            {"value_type", std::string(ValueTypeName(f.value_type))}});
  }
  return json{{"table", table.name}, {"families", families}};
}

std::string Dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string QueryStatsText(const sql::QueryStats& s) {
  return fmt::format("\ntable: {}\nranges read: {}\nrows examined: {}\nrows returned: {}\n", s.table, s.ranges,
                     s.rows_examined, s.rows_returned);
}

json QueryStatsObject(const sql::QueryStats& s) {
  return json{{"table", s.table}, {"ranges_read", s.ranges}, {"rows_examined", s.rows_examined},
              {"rows_returned", s.rows_returned}};
}

// What cbt's text and the HBase shell's text print alike: SQL results as
// an aligned table.
class TextRendererBase : public Renderer {
 public:
  explicit TextRendererBase(Output* out) : out_(out), query_table_(out) {}

  void BeginQuery(const std::vector<sql::ResultColumn>& columns) override { query_table_.Begin(columns); }
  void QueryRow(const sql::Values& row) override { query_table_.Add(row); }
  void EndQuery(const sql::QueryStats* stats) override {
    query_table_.Finish();
    if (stats != nullptr) out_->Write(QueryStatsText(*stats));
  }

  void Help(const std::vector<CommandHelp>& forms) override {
    std::string text;
    for (size_t i = 0; i < forms.size(); ++i) {
      if (i > 0 && forms[i].hbase && !forms[i - 1].hbase) text += "\nIn the HBase shell's form:\n\n";
      text += fmt::format("{}\n\n  {}\n", forms[i].summary, forms[i].usage);
      if (!forms[i].details.empty()) text += fmt::format("\n{}\n", forms[i].details);
    }
    out_->Write(text);
  }

  void HelpIndex(const CommandIndex& index) override {
    size_t width = 0;
    for (const auto* list : {&index.cbt, &index.hbase}) {
      for (const auto& [name, summary] : *list) width = std::max(width, name.size());
    }
    std::string text = "Commands in cbt's language (`help <command>` for details):\n\n";
    for (const auto& [name, summary] : index.cbt) text += fmt::format("  {:<{}}  {}\n", name, width, summary);
    text += "\nCommands in the HBase shell's language (arguments quoted: scan 't', {LIMIT => 5}):\n\n";
    for (const auto& [name, summary] : index.hbase) text += fmt::format("  {:<{}}  {}\n", name, width, summary);
    text += fmt::format("\nIn the shell and in scripts: {}.\n", fmt::join(index.shell, ", "));
    out_->Write(text);
  }

  void Version(std::string_view version) override { out_->Write(fmt::format("lbt {}\n", version)); }

  void GarbageCollected(std::string_view table, int64_t deleted, int64_t examined) override {
    out_->Write(fmt::format("collected {} of {} cells in {}\n", deleted, examined, table));
  }

  void Compacted(std::string_view dir, uint64_t bytes_before, uint64_t bytes_after) override {
    out_->Write(fmt::format("compacted {}: {} -> {}\n", dir, HumanBytes(bytes_before), HumanBytes(bytes_after)));
  }

 protected:
  Output* out_;

 private:
  QueryTable query_table_;
};

class TextRenderer : public TextRendererBase {
 public:
  using TextRendererBase::TextRendererBase;

  void Tables(const std::vector<std::string>& names) override {
    for (const std::string& n : names) {
      out_->Write(n);
      out_->Write("\n");
    }
  }

  void TableInfo(const TableSpec& table) override {
    TabWriter tw(0, 8, 5);  // the installed cbt's tabwriter settings
    tw.AddLine("Family Name\tGC Policy\tValue Type");
    tw.AddLine("-----------\t---------\t----------");
    for (const auto& [name, f] : table.families) {
      tw.AddLine(name + "\t" + FormatGcPolicy(f.gc_rule) + "\t" + FormatValueType(f.value_type));
    }
    out_->Write(tw.Render());
  }

  void Count(int64_t rows) override { out_->Write(fmt::format("{}\n", rows)); }

  void WaitingForReplication(int64_t up_to_micros) override {
    // cbt names the second, without the fraction FormatCbtTimestamp adds.
    std::string time = FormatCbtTimestamp(up_to_micros);
    out_->Write(fmt::format("Waiting for all writes up to {} to be replicated.\n", time.substr(0, time.find('.'))));
  }

  void BeginRows(const RowsView&) override {}

  void Row(const lbt::Row& row) override {
    std::string text(40, '-');
    text += '\n';
    text += row.key;
    text += '\n';
    std::vector<Cell> sorted;
    for (const Cell& c : CellsByFamilyName(row, &sorted)) {
      text += "  ";
      text += PadRight(c.family + ":" + c.qualifier, 40);
      text += " @ ";
      text += FormatCbtTimestamp(c.timestamp);
      text += "\n    ";
      text += GoQuote(c.value);
      text += '\n';
      if (!c.labels.empty()) {
        text += "    labels: ";
        for (size_t i = 0; i < c.labels.size(); ++i) text += (i ? "," : "") + c.labels[i];
        text += '\n';
      }
    }
    text += '\n';
    out_->Write(text);
  }

  void AbsentRow() override { Row(lbt::Row{}); }

  void EndRows(const ReadSummary* s) override {
    if (s == nullptr) return;
    out_->Write(fmt::format(
        "Summary Stats\n====================\nrows_seen_count: {}\nrows_returned_count: {}\n"
        "cells_seen_count: {}\ncells_returned_count: {}\nfrontend_server_latency: {}ms\n\n",
        s->stats.rows_seen, s->stats.rows_returned, s->stats.cells_seen, s->stats.cells_returned,
        s->latency_ms));
    // Only when part of the filter ran on the client (remote mode), so that
    // the rest matches cbt line for line.
    if (s->filter_placement.find("client") != std::string::npos) {
      out_->Write("filter_placement: " + s->filter_placement + "\n\n");
    }
  }

 private:
};

// What JSON and JSON lines print alike: one object per line for every
// result that is not rows.
class JsonRendererBase : public Renderer {
 public:
  JsonRendererBase(Output* out, BytesMode bytes) : out_(out), bytes_(bytes) {}

  void Tables(const std::vector<std::string>& names) override { Line(json{{"tables", names}}); }
  void TableInfo(const TableSpec& table) override { Line(TableObject(table)); }
  void Count(int64_t rows) override { Line(json{{"count", rows}}); }
  void Replicated(int64_t up_to_micros) override { Line(json{{"replicated_up_to", up_to_micros}}); }

  void TableExists(std::string_view, bool exists) override { Line(json{{"exists", exists}}); }
  void TableState(std::string_view state, bool answer) override { Line(json{{std::string(state), answer}}); }
  void Counter(std::optional<int64_t> value) override {
    Line(value ? json{{"counter", *value}} : json{{"counter", nullptr}});
  }
  void AppendedRow(const lbt::Row& row) override {
    BeginRows(nullptr);
    Row(row);
    EndRows(nullptr);
  }
  void Names(std::string_view kind, const std::vector<std::string>& names) override {
    Line(json{{std::string(kind), names}});
  }
  void User(std::string_view user) override { Line(json{{"user", std::string(user)}}); }
  void ServerStatus(int64_t regions) override { Line(json{{"servers", 1}, {"dead", 0}, {"regions", regions}}); }
  void Splits(const std::vector<std::string>& keys) override { Line(json{{"splits", keys}}); }

  void Help(const std::vector<CommandHelp>& forms) override {
    for (const CommandHelp& form : forms) {
      Line(json{{"command", std::string(form.name)},
                {"language", form.hbase ? "hbase" : "cbt"},
                {"summary", std::string(form.summary)},
                {"usage", form.usage},
                {"details", std::string(form.details)}});
    }
  }
  void HelpIndex(const CommandIndex& index) override {
    for (const auto& [language, list] : {std::pair{"cbt", &index.cbt}, std::pair{"hbase", &index.hbase}}) {
      for (const auto& [name, summary] : *list) {
        Line(json{{"command", std::string(name)}, {"language", language}, {"summary", std::string(summary)}});
      }
    }
  }
  void Version(std::string_view version) override { Line(json{{"version", std::string(version)}}); }
  void GarbageCollected(std::string_view table, int64_t deleted, int64_t examined) override {
    Line(json{{"table", std::string(table)}, {"cells_collected", deleted}, {"cells_examined", examined}});
  }
  void Compacted(std::string_view dir, uint64_t bytes_before, uint64_t bytes_after) override {
    Line(json{{"database", std::string(dir)}, {"bytes_before", bytes_before}, {"bytes_after", bytes_after}});
  }

 protected:
  void Line(const json& j) { out_->Write(Dump(j) + "\n"); }
  Output* out_;
  BytesMode bytes_;
  const TableSpec* table_ = nullptr;  // of the read under way
  std::string buffer_;
  std::vector<sql::ResultColumn> columns_;  // of the query under way
};

class JsonRenderer : public JsonRendererBase {
 public:
  using JsonRendererBase::JsonRendererBase;

  void BeginQuery(const std::vector<sql::ResultColumn>& columns) override {
    columns_ = columns;
    first_ = true;
    out_->Write("{\"rows\":[");
  }
  void QueryRow(const sql::Values& row) override {
    out_->Write((first_ ? "" : ",") + QueryRowJson(columns_, row, bytes_));
    first_ = false;
  }
  void EndQuery(const sql::QueryStats* stats) override {
    out_->Write("]");
    if (stats != nullptr) out_->Write(",\"stats\":" + Dump(QueryStatsObject(*stats)));
    out_->Write("}\n");
  }

  // Rows stream inside one document: {"rows":[...]} is written piece by piece.
  void BeginRows(const RowsView& view) override {
    out_->Write("{\"rows\":[");
    first_ = true;
    table_ = view.table;
  }
  void Row(const lbt::Row& row) override {
    buffer_.clear();
    if (!first_) buffer_.push_back(',');
    first_ = false;
    AppendRowJson(&buffer_, row, bytes_, table_);
    out_->Write(buffer_);
  }
  void AbsentRow() override {}
  void EndRows(const ReadSummary* s) override {
    out_->Write("]");
    if (s != nullptr) out_->Write(",\"stats\":" + Dump(StatsObject(*s)));
    out_->Write("}\n");
  }

 private:
  bool first_ = true;
};

class JsonlRenderer : public JsonRendererBase {
 public:
  using JsonRendererBase::JsonRendererBase;

  void BeginQuery(const std::vector<sql::ResultColumn>& columns) override { columns_ = columns; }
  void QueryRow(const sql::Values& row) override { out_->Write(QueryRowJson(columns_, row, bytes_) + "\n"); }
  void EndQuery(const sql::QueryStats* stats) override {
    if (stats != nullptr) Line(json{{"stats", QueryStatsObject(*stats)}});
  }

  void BeginRows(const RowsView& view) override { table_ = view.table; }
  void Row(const lbt::Row& row) override {
    buffer_.clear();
    AppendRowJson(&buffer_, row, bytes_, table_);
    buffer_.push_back('\n');
    out_->Write(buffer_);
  }
  void AbsentRow() override {}
  void EndRows(const ReadSummary* s) override {
    if (s != nullptr) Line(json{{"stats", StatsObject(*s)}});
  }
};

// The HBase shell's non-terminal text.
class HBaseTextRenderer : public TextRendererBase {
 public:
  using TextRendererBase::TextRendererBase;

  void Tables(const std::vector<std::string>& names) override {
    Line("TABLE");
    for (const std::string& t : names) Line(t);
    Line(fmt::format("{} row(s)", names.size()));
  }
  void TableInfo(const TableSpec& table) override {
    Line(fmt::format("Table {} is {}", table.name, table.enabled ? "ENABLED" : "DISABLED"));
    Line(table.name);
    Line("COLUMN FAMILIES DESCRIPTION");
    for (const auto& [name, family] : table.families) Line(DescribeFamily(family));
    Line(fmt::format("{} row(s)", table.families.size()));
  }
  void Count(int64_t rows) override { Line(fmt::format("{} row(s)", rows)); }

  void BeginRows(const RowsView& view) override {
    view_ = view;
    shown_ = 0;
    if (view_.layout == RowsLayout::kHBaseGet) Line("COLUMN  CELL");
    if (view_.layout == RowsLayout::kHBaseScan) Line("ROW  COLUMN+CELL");
  }
  void Row(const lbt::Row& row) override {
    std::vector<Cell> sorted;
    const std::vector<Cell>& cells = CellsByFamilyName(row, &sorted);
    if (view_.layout == RowsLayout::kHBaseGet) {
      for (const Cell& c : cells) Line(" " + ColumnText(c) + " " + CellText(c));
      shown_ += static_cast<int64_t>(row.cells.size());  // a get counts cells
      return;
    }
    const std::string key = ToStringBinary(row.key);
    for (const Cell& c : cells) Line(fmt::format(" {} column={}, {}", key, ColumnText(c), CellText(c)));
    ++shown_;
  }
  void AbsentRow() override {}
  void EndRows(const ReadSummary*) override { Line(fmt::format("{} row(s)", shown_)); }

  void TableCreated(std::string_view table) override { Line(fmt::format("Created table {}", table)); }
  void SchemaAltered() override {
    Line("Updating all regions with the new schema...");
    Line("Done.");
  }
  void Truncating(std::string_view table) override {
    Line(fmt::format("Truncating '{}' table (it may take a while):", table));
  }
  void TableExists(std::string_view table, bool exists) override {
    Line(fmt::format("Table {} {} exist", table, exists ? "does" : "does not"));
  }
  void TableState(std::string_view, bool answer) override { Line(answer ? "true" : "false"); }
  void Counter(std::optional<int64_t> value) override {
    Line(value ? fmt::format("COUNTER VALUE = {}", *value) : "No counter found at specified coordinates");
  }
  void AppendedRow(const lbt::Row& row) override {
    Line("CURRENT VALUE = " + (row.cells.empty() ? std::string() : ToStringBinary(row.cells[0].value)));
  }
  void Names(std::string_view kind, const std::vector<std::string>& names) override {
    // show_filters lists bare names; list_namespace prints a table.
    const bool table = kind == "namespaces";
    if (table) Line("NAMESPACE");
    for (const std::string& n : names) Line(n);
    if (table) Line(fmt::format("{} row(s)", names.size()));
  }
  void User(std::string_view user) override { Line(fmt::format("{} (auth:SIMPLE)", user)); }
  void ServerStatus(int64_t regions) override {
    Line(fmt::format("1 active master, 0 backup masters, 1 servers, 0 dead, {}.0000 average load", regions));
  }
  void Splits(const std::vector<std::string>& keys) override {
    for (const std::string& key : keys) Line(ToStringBinary(key));
    Line(fmt::format("Total number of splits = {}", keys.size() + 1));
  }
  void CountProgress(int64_t rows, std::string_view row_key) override {
    Line(fmt::format("Current count: {}, row: {}", rows, ToStringBinary(row_key)));
  }
  void Elapsed(double seconds) override { Line(fmt::format("Took {:.4f} seconds", seconds)); }

 private:
  void Line(const std::string& text) { out_->Write(text + "\n"); }

  static std::string ColumnText(const Cell& c) { return c.family + ":" + ToStringBinary(c.qualifier); }

  // A value as its column's formatter prints it; a value the formatter
  // cannot read (the wrong length) is shown as raw bytes.
  std::string ValueText(const Cell& c) const {
    auto it = view_.formats.find({c.family, c.qualifier});
    std::optional<int64_t> n;
    if (it != view_.formats.end()) {
      switch (it->second) {
        case ValueFormat::kString: return c.value;
        case ValueFormat::kInt: n = BigEndian(c.value, 4); break;
        case ValueFormat::kLong: n = BigEndian(c.value, 8); break;
        case ValueFormat::kShort: n = BigEndian(c.value, 2); break;
        case ValueFormat::kBinary: break;
      }
    }
    return n ? std::to_string(*n) : ToStringBinary(c.value);
  }

  std::string CellText(const Cell& c) const {
    std::string text = fmt::format("timestamp={}, value={}", c.timestamp / kMicrosPerMs, ValueText(c));
    if (view_.maxlength >= 0 && static_cast<int64_t>(text.size()) > view_.maxlength) text.resize(view_.maxlength);
    return text;
  }

  // A big-endian signed integer of exactly `width` bytes, as Bytes.toInt
  // and its kin read it; nullopt for a value of another length.
  static std::optional<int64_t> BigEndian(const std::string& value, size_t width) {
    if (value.size() != width) return std::nullopt;
    const uint64_t n = DecodeBigEndian(value);
    const int shift = 64 - static_cast<int>(width) * 8;
    return static_cast<int64_t>(n << shift) >> shift;  // sign-extend
  }

  RowsView view_;
  int64_t shown_ = 0;
};

}  // namespace

std::string RowToJson(const Row& row, BytesMode bytes, const TableSpec* table) {
  std::string out;
  AppendRowJson(&out, row, bytes, table);
  return out;
}

std::unique_ptr<Renderer> Renderer::Create(OutputFormat format, BytesMode bytes, Output* out, TextStyle style) {
  switch (format) {
    case OutputFormat::kJson: return std::make_unique<JsonRenderer>(out, bytes);
    case OutputFormat::kJsonl: return std::make_unique<JsonlRenderer>(out, bytes);
    case OutputFormat::kText: break;
  }
  if (style == TextStyle::kHBase) return std::make_unique<HBaseTextRenderer>(out);
  return std::make_unique<TextRenderer>(out);
}

}  // namespace lbt
