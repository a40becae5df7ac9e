#include "commands/bulk_io.h"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "commands/text_format.h"

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
    if (!cell.is_object() || !cell.contains("family") || !cell["family"].is_string() ||
        !cell.contains("timestamp") || !cell["timestamp"].is_number_integer()) {
      return Status::InvalidArgument(fmt::format(
          "line {}: a cell needs \"family\", \"qualifier\", \"timestamp\" (microseconds) and \"value\"", line));
    }
    LBT_ASSIGN_OR_RETURN(std::string qualifier, BytesField(cell, "qualifier", line, false));
    LBT_ASSIGN_OR_RETURN(std::string value, BytesField(cell, "value", line, false));
    out.mutations.push_back(Mutation::SetCell(cell["family"].get<std::string>(), std::move(qualifier),
                                              std::move(value), cell["timestamp"].get<int64_t>()));
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

Result<int64_t> ImportJsonl(std::istream* in, const RowBatchSink& sink, const BulkOptions& options) {
  std::vector<RowMutation> batch;
  int64_t rows = 0, line_number = 0;
  auto flush = [&]() -> Status {
    if (batch.empty()) return Status::OK();
    rows += static_cast<int64_t>(batch.size());
    LBT_RETURN_IF_ERROR(sink(std::move(batch)));
    batch.clear();
    return options.on_batch ? options.on_batch(rows, in->tellg()) : Status::OK();
  };
  for (std::string line; std::getline(*in, line);) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    LBT_ASSIGN_OR_RETURN(RowMutation row, ParseRow(line, line_number));
    batch.push_back(std::move(row));
    if (static_cast<int64_t>(batch.size()) >= options.batch_size) LBT_RETURN_IF_ERROR(flush());
  }
  LBT_RETURN_IF_ERROR(flush());
  return rows;
}

Result<int64_t> ExportRows(Bigtable* bigtable, const std::string& table, const ReadRequest& read, ExportFormat format,
                           BytesMode bytes, Output* out, const std::function<Status(int64_t rows)>& on_row) {
  int64_t rows = 0;
  if (format == ExportFormat::kJsonl) {
    LBT_ASSIGN_OR_RETURN(TableSpec spec, bigtable->GetTable(table));
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> reader, bigtable->ReadRows(table, read));
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
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> reader, bigtable->ReadRows(table, read));
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
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> reader, bigtable->ReadRows(table, read));
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

}  // namespace lbt
