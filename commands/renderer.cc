#include "commands/renderer.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "commands/gc_policy_text.h"
#include "commands/text_format.h"

namespace lbt {

namespace {

using json = nlohmann::ordered_json;  // keys in the documented order

// Appends `s` as a JSON string, escaped as nlohmann::json escapes it (so
// every JSON document lbt prints looks alike). REQUIRES: valid UTF-8.
void AppendJsonString(std::string* out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (c < 0x20) {
          out->append("\\u00");
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 0xf]);
        } else {
          out->push_back(ch);
        }
    }
  }
  out->push_back('"');
}

// Appends ,"name":"..." or ,"name_b64":"..." (without the leading comma
// when `first`).
void AppendBytesField(std::string* out, const char* name, const std::string& bytes, BytesMode mode, bool first) {
  if (!first) out->push_back(',');
  out->push_back('"');
  out->append(name);
  if (mode == BytesMode::kAuto && IsValidUtf8(bytes)) {
    out->append("\":");
    AppendJsonString(out, bytes);
  } else {
    out->append("_b64\":\"");
    out->append(Base64Encode(bytes));
    out->push_back('"');
  }
}

// Appends ,"value_int":N for a cell of an aggregate family, whose value is
// an 8-byte big-endian integer that base64 would hide.
void AppendAggregateValue(std::string* out, const Cell& c, const TableSpec* table) {
  if (table == nullptr) return;
  const FamilySpec* family = table->FindFamily(c.family);
  int64_t n = 0;
  if (family == nullptr || !IsAggregate(family->value_type) || !DecodeInt64(c.value, &n)) return;
  out->append(",\"value_int\":");
  out->append(std::to_string(n));
}

// The row object, written directly: reads stream millions of cells, and
// building a JSON DOM per row would cost several times the read itself.
void AppendRowJson(std::string* out, const Row& row, BytesMode mode, const TableSpec* table) {
  out->push_back('{');
  AppendBytesField(out, "key", row.key, mode, /*first=*/true);
  out->append(",\"cells\":[");
  for (size_t i = 0; i < row.cells.size(); ++i) {
    const Cell& c = row.cells[i];
    if (i > 0) out->push_back(',');
    out->append("{\"family\":");
    AppendJsonString(out, c.family);
    AppendBytesField(out, "qualifier", c.qualifier, mode, false);
    out->append(",\"timestamp\":");
    out->append(std::to_string(c.timestamp));
    AppendBytesField(out, "value", c.value, mode, false);
    AppendAggregateValue(out, c, table);
    if (!c.labels.empty()) {
      out->append(",\"labels\":[");
      for (size_t l = 0; l < c.labels.size(); ++l) {
        if (l > 0) out->push_back(',');
        AppendJsonString(out, c.labels[l]);
      }
      out->push_back(']');
    }
    out->push_back('}');
  }
  out->append("]}");
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

class TextRenderer : public Renderer {
 public:
  explicit TextRenderer(Output* out) : out_(out) {}

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

  void BeginRows(const TableSpec*) override {}

  void Row(const lbt::Row& row) override {
    std::string text(40, '-');
    text += '\n';
    text += row.key;
    text += '\n';
    for (const Cell& c : row.cells) {
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
    if (s->filter_placement.find("client") != std::string::npos) out_->Write("filter_placement: " + s->filter_placement + "\n\n");
  }

 private:
  Output* out_;
};

class JsonRenderer : public Renderer {
 public:
  JsonRenderer(Output* out, BytesMode bytes) : out_(out), bytes_(bytes) {}

  void Tables(const std::vector<std::string>& names) override { Line(json{{"tables", names}}); }
  void TableInfo(const TableSpec& table) override { Line(TableObject(table)); }
  void Count(int64_t rows) override { Line(json{{"count", rows}}); }

  // Rows stream inside one document: {"rows":[...]} is written piece by piece.
  void BeginRows(const TableSpec* table) override {
    out_->Write("{\"rows\":[");
    first_ = true;
    table_ = table;
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
  void Line(const json& j) { out_->Write(Dump(j) + "\n"); }
  Output* out_;
  BytesMode bytes_;
  bool first_ = true;
  const TableSpec* table_ = nullptr;  // of the read under way
  std::string buffer_;
};

class JsonlRenderer : public Renderer {
 public:
  JsonlRenderer(Output* out, BytesMode bytes) : out_(out), bytes_(bytes) {}

  void Tables(const std::vector<std::string>& names) override { Line(json{{"tables", names}}); }
  void TableInfo(const TableSpec& table) override { Line(TableObject(table)); }
  void Count(int64_t rows) override { Line(json{{"count", rows}}); }
  void BeginRows(const TableSpec* table) override { table_ = table; }
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

 private:
  void Line(const json& j) { out_->Write(Dump(j) + "\n"); }
  Output* out_;
  BytesMode bytes_;
  const TableSpec* table_ = nullptr;  // of the read under way
  std::string buffer_;
};

}  // namespace

std::string RowToJson(const Row& row, BytesMode bytes, const TableSpec* table) {
  std::string out;
  AppendRowJson(&out, row, bytes, table);
  return out;
}

std::unique_ptr<Renderer> Renderer::Create(OutputFormat format, BytesMode bytes, Output* out) {
  switch (format) {
    case OutputFormat::kJson: return std::make_unique<JsonRenderer>(out, bytes);
    case OutputFormat::kJsonl: return std::make_unique<JsonlRenderer>(out, bytes);
    case OutputFormat::kText: break;
  }
  return std::make_unique<TextRenderer>(out);
}

}  // namespace lbt
