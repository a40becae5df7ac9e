#include "commands/renderer.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "commands/gc_policy_text.h"
#include "commands/text_format.h"

namespace lbt {

namespace {

using json = nlohmann::ordered_json;  // keys in the documented order

// Sets `name` (or `name`_b64) on `object` to the bytes.
void PutBytes(json* object, const char* name, const std::string& bytes, BytesMode mode) {
  if (mode == BytesMode::kAuto && IsValidUtf8(bytes)) {
    (*object)[name] = bytes;
  } else {
    (*object)[std::string(name) + "_b64"] = Base64Encode(bytes);
  }
}

json RowObject(const Row& row, BytesMode mode) {
  json object = json::object();
  PutBytes(&object, "key", row.key, mode);
  json cells = json::array();
  for (const Cell& c : row.cells) {
    json cell = json::object();
    cell["family"] = c.family;
    PutBytes(&cell, "qualifier", c.qualifier, mode);
    cell["timestamp"] = c.timestamp;
    PutBytes(&cell, "value", c.value, mode);
    if (!c.labels.empty()) cell["labels"] = c.labels;
    cells.push_back(std::move(cell));
  }
  object["cells"] = std::move(cells);
  return object;
}

json StatsObject(const ReadSummary& s) {
  return json{{"rows_seen", s.stats.rows_seen},
              {"rows_returned", s.stats.rows_returned},
              {"cells_seen", s.stats.cells_seen},
              {"cells_returned", s.stats.cells_returned},
              {"latency_ms", s.latency_ms}};
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

  void BeginRows() override {}

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
  void BeginRows() override {
    out_->Write("{\"rows\":[");
    first_ = true;
  }
  void Row(const lbt::Row& row) override {
    if (!first_) out_->Write(",");
    first_ = false;
    out_->Write(Dump(RowObject(row, bytes_)));
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
};

class JsonlRenderer : public Renderer {
 public:
  JsonlRenderer(Output* out, BytesMode bytes) : out_(out), bytes_(bytes) {}

  void Tables(const std::vector<std::string>& names) override { Line(json{{"tables", names}}); }
  void TableInfo(const TableSpec& table) override { Line(TableObject(table)); }
  void Count(int64_t rows) override { Line(json{{"count", rows}}); }
  void BeginRows() override {}
  void Row(const lbt::Row& row) override { Line(RowObject(row, bytes_)); }
  void AbsentRow() override {}
  void EndRows(const ReadSummary* s) override {
    if (s != nullptr) Line(json{{"stats", StatsObject(*s)}});
  }

 private:
  void Line(const json& j) { out_->Write(Dump(j) + "\n"); }
  Output* out_;
  BytesMode bytes_;
};

}  // namespace

std::string RowToJson(const Row& row, BytesMode bytes) { return Dump(RowObject(row, bytes)); }

std::unique_ptr<Renderer> Renderer::Create(OutputFormat format, BytesMode bytes, Output* out) {
  switch (format) {
    case OutputFormat::kJson: return std::make_unique<JsonRenderer>(out, bytes);
    case OutputFormat::kJsonl: return std::make_unique<JsonlRenderer>(out, bytes);
    case OutputFormat::kText: break;
  }
  return std::make_unique<TextRenderer>(out);
}

}  // namespace lbt
