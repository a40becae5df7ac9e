#include "commands/render/query_output.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "commands/render/renderer.h"
#include "commands/render/text_format.h"

namespace lbt {

using sql::TypeKind;
using sql::Value;

namespace {

using json = nlohmann::ordered_json;

std::string Escaped(const std::string& s) {
  const bool utf8 = IsValidUtf8(s);
  std::string out;
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f || (!utf8 && c >= 0x80)) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

json Nested(const Value& v) {
  if (v.is_null()) return nullptr;
  switch (v.kind()) {
    case TypeKind::kInt64: return v.int64();
    case TypeKind::kFloat32:
    case TypeKind::kFloat64:
      if (!std::isfinite(v.float64())) return v.ToText();
      return v.float64();
    case TypeKind::kBool: return v.boolean();
    case TypeKind::kString: return v.str();
    case TypeKind::kBytes:
      if (IsValidUtf8(v.str())) return v.str();
      return json{{"b64", Base64Encode(v.str())}};
    case TypeKind::kTimestamp: return sql::FormatTimestampRfc3339(v.int64());
    case TypeKind::kDate: return sql::FormatDate(v.int64());
    case TypeKind::kGeography: return v.ToText();
    case TypeKind::kArray: {
      json out = json::array();
      for (const Value& e : v.elements()) out.push_back(Nested(e));
      return out;
    }
    case TypeKind::kStruct: {
      json out = json::object();
      for (size_t i = 0; i < v.elements().size(); ++i) {
        const std::string& name = v.type()->fields[i].first;
        out[name.empty() ? fmt::format("_{}", i) : name] = Nested(v.elements()[i]);
      }
      return out;
    }
    case TypeKind::kMap: {
      json out = json::object();
      for (const auto& [k, x] : v.entries()) {
        std::string key = k.kind() == TypeKind::kInt64 ? std::to_string(k.int64()) : k.ToText();
        if (!IsValidUtf8(key)) key = "b64:" + Base64Encode(key);
        out[key] = Nested(x);
      }
      return out;
    }
  }
  return nullptr;
}

}  // namespace

std::string QueryCellText(const Value& v) {
  if (!v.is_null() && (v.kind() == TypeKind::kBytes || v.kind() == TypeKind::kString)) return Escaped(v.str());
  return Escaped(v.ToText());
}

void QueryTable::Begin(const std::vector<sql::ResultColumn>& columns) {
  names_.clear();
  for (const auto& c : columns) names_.push_back(c.name);
  widths_.assign(names_.size(), 0);
  pending_.clear();
  aligned_ = false;
  rows_ = 0;
}

void QueryTable::Add(const sql::Values& row) {
  std::vector<std::string> cells;
  for (const Value& v : row) cells.push_back(QueryCellText(v));
  ++rows_;
  if (aligned_) {
    Print(cells);
    return;
  }
  pending_.push_back(std::move(cells));
  if (pending_.size() >= kAlignRows) Flush();
}

void QueryTable::Flush() {
  if (aligned_) return;
  for (size_t i = 0; i < names_.size(); ++i) {
    widths_[i] = RuneCount(names_[i]);
    for (const auto& cells : pending_) widths_[i] = std::max(widths_[i], RuneCount(cells[i]));
  }
  Print(names_);
  std::string rule;
  for (size_t i = 0; i < widths_.size(); ++i) rule += (i ? "-+-" : "") + std::string(widths_[i], '-');
  out_->Write(rule + "\n");
  aligned_ = true;
  for (const auto& cells : pending_) Print(cells);
  pending_.clear();
}

void QueryTable::Print(const std::vector<std::string>& cells) {
  std::string line;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) line += " | ";
    line += i + 1 < cells.size() ? PadRight(cells[i], widths_[i]) : cells[i];
  }
  out_->Write(line + "\n");
}

void QueryTable::Finish() {
  Flush();
  out_->Write(fmt::format("({} row{})\n", rows_, rows_ == 1 ? "" : "s"));
}

std::string QueryRowJson(const std::vector<sql::ResultColumn>& columns, const sql::Values& row, BytesMode bytes) {
  json out = json::object();
  for (size_t i = 0; i < columns.size() && i < row.size(); ++i) {
    const Value& v = row[i];
    const bool b64 =
        !v.is_null() && v.kind() == TypeKind::kBytes && (bytes == BytesMode::kBase64 || !IsValidUtf8(v.str()));
    std::string key = columns[i].name + (b64 ? "_b64" : "");
    // A query may name two columns alike (SELECT 1 AS a, 2 AS a); a JSON
    // object cannot, so a later one is keyed by its position too: "a_2".
    if (out.contains(key)) key = fmt::format("{}_{}{}", columns[i].name, i + 1, b64 ? "_b64" : "");
    if (b64) {
      out[key] = Base64Encode(v.str());
    } else {
      out[key] = Nested(v);
    }
  }
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace lbt
