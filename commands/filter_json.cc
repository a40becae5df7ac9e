#include "commands/filter_json.h"

#include <fmt/format.h>

#include <cctype>
#include <nlohmann/json.hpp>

#include "commands/text_format.h"

namespace lbt {

namespace {

using nlohmann::json;

// "start_qualifier_closed" -> "startQualifierClosed"
std::string CamelCase(std::string_view snake) {
  std::string out;
  bool upper = false;
  for (char c : snake) {
    if (c == '_') {
      upper = true;
    } else {
      out.push_back(upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
      upper = false;
    }
  }
  return out;
}

class Parser {
 public:
  Result<Filter> ParseFilter(const json& j, const std::string& path);

 private:
  static constexpr int kMaxDepth = 64;
  int depth_ = 0;

  Status Error(const std::string& path, const std::string& what) {
    return Status::InvalidArgument(fmt::format("{}: {}", path, what));
  }

  // The object's fields under their camelCase names.
  Result<json> Normalize(const json& j, const std::string& path) {
    if (!j.is_object()) return Error(path, "expected a JSON object");
    json out = json::object();
    for (auto it = j.begin(); it != j.end(); ++it) {
      std::string name = CamelCase(it.key());
      if (out.contains(name)) return Error(path, fmt::format("'{}' is given twice", name));
      out[name] = it.value();
    }
    return out;
  }

  Result<std::string> Bytes(const json& v, const std::string& path) {
    if (!v.is_string()) return Error(path, "expected base64 bytes in a JSON string");
    std::string out;
    if (!Base64Decode(v.get<std::string>(), &out)) return Error(path, "not valid base64");
    return out;
  }

  Result<std::string> String(const json& v, const std::string& path) {
    if (!v.is_string()) return Error(path, "expected a JSON string");
    return v.get<std::string>();
  }

  Result<int64_t> Int64(const json& v, const std::string& path) {
    if (v.is_number_integer()) return v.get<int64_t>();
    if (v.is_string()) {
      const std::string s = v.get<std::string>();
      size_t used = 0;
      try {
        int64_t n = std::stoll(s, &used);
        if (used == s.size()) return n;
      } catch (const std::exception&) {
      }
    }
    return Error(path, "expected an integer (a JSON number or string)");
  }

  Status True(const json& v, const std::string& path) {
    if (!v.is_boolean() || !v.get<bool>()) return Error(path, "expected true");
    return Status::OK();
  }

  Result<std::vector<Filter>> List(const json& holder, const std::string& path) {
    LBT_ASSIGN_OR_RETURN(json fields, Normalize(holder, path));
    if (!fields.contains("filters") || fields.size() != 1) return Error(path, "expected {\"filters\": [...]}");
    const json& list = fields["filters"];
    if (!list.is_array()) return Error(path + ".filters", "expected a JSON array");
    std::vector<Filter> filters;
    for (size_t i = 0; i < list.size(); ++i) {
      LBT_ASSIGN_OR_RETURN(Filter f, ParseFilter(list[i], fmt::format("{}.filters[{}]", path, i)));
      filters.push_back(std::move(f));
    }
    return filters;
  }

  // Reads the bounds of a range; `prefix` is "Qualifier" or "Value".
  Status Bounds(const json& fields, const std::string& path, const std::string& what, ByteBound* low,
                ByteBound* high) {
    for (auto [side, bound] : {std::pair{"start", low}, std::pair{"end", high}}) {
      std::string closed = std::string(side) + what + "Closed", open = std::string(side) + what + "Open";
      if (fields.contains(closed) && fields.contains(open)) {
        return Error(path, fmt::format("give {} or {}, not both", closed, open));
      }
      if (fields.contains(closed)) {
        LBT_ASSIGN_OR_RETURN(std::string b, Bytes(fields[closed], path + "." + closed));
        *bound = ByteBound::Closed(std::move(b));
      } else if (fields.contains(open)) {
        LBT_ASSIGN_OR_RETURN(std::string b, Bytes(fields[open], path + "." + open));
        *bound = ByteBound::Open(std::move(b));
      }
    }
    return Status::OK();
  }

  Status OnlyFields(const json& fields, const std::string& path, std::initializer_list<const char*> allowed) {
    for (auto it = fields.begin(); it != fields.end(); ++it) {
      bool known = false;
      for (const char* a : allowed) known |= it.key() == a;
      if (!known) return Error(path, fmt::format("unknown field '{}'", it.key()));
    }
    return Status::OK();
  }
};

Result<Filter> Parser::ParseFilter(const json& j, const std::string& path) {
  // Bigtable allows 20 levels; stop well before the stack could suffer.
  if (++depth_ > kMaxDepth) return Error(path, fmt::format("filters nest more than {} deep", kMaxDepth));
  struct Leave {
    int* depth;
    ~Leave() { --*depth; }
  } leave{&depth_};
  LBT_ASSIGN_OR_RETURN(json fields, Normalize(j, path));
  if (fields.size() != 1) {
    return Error(path, fmt::format("a RowFilter holds exactly one filter, got {} fields", fields.size()));
  }
  const std::string kind = fields.begin().key();
  const json& v = fields.begin().value();
  const std::string at = path + "." + kind;
  if (kind == "chain") {
    LBT_ASSIGN_OR_RETURN(std::vector<Filter> list, List(v, at));
    return Filter::Chain(std::move(list));
  }
  if (kind == "interleave") {
    LBT_ASSIGN_OR_RETURN(std::vector<Filter> list, List(v, at));
    return Filter::Interleave(std::move(list));
  }
  if (kind == "condition") {
    LBT_ASSIGN_OR_RETURN(json c, Normalize(v, at));
    LBT_RETURN_IF_ERROR(OnlyFields(c, at, {"predicateFilter", "trueFilter", "falseFilter"}));
    if (!c.contains("predicateFilter")) return Error(at, "a condition needs a predicateFilter");
    LBT_ASSIGN_OR_RETURN(Filter predicate, ParseFilter(c["predicateFilter"], at + ".predicateFilter"));
    std::optional<Filter> on_true, on_false;
    if (c.contains("trueFilter")) {
      LBT_ASSIGN_OR_RETURN(on_true, ParseFilter(c["trueFilter"], at + ".trueFilter"));
    }
    if (c.contains("falseFilter")) {
      LBT_ASSIGN_OR_RETURN(on_false, ParseFilter(c["falseFilter"], at + ".falseFilter"));
    }
    return Filter::Condition(std::move(predicate), std::move(on_true), std::move(on_false));
  }
  if (kind == "sink" || kind == "passAllFilter" || kind == "blockAllFilter" || kind == "stripValueTransformer") {
    LBT_RETURN_IF_ERROR(True(v, at));
    if (kind == "sink") return Filter::Sink();
    if (kind == "passAllFilter") return Filter::PassAll();
    if (kind == "blockAllFilter") return Filter::BlockAll();
    return Filter::StripValue();
  }
  if (kind == "rowKeyRegexFilter" || kind == "columnQualifierRegexFilter" || kind == "valueRegexFilter") {
    LBT_ASSIGN_OR_RETURN(std::string regex, Bytes(v, at));
    if (kind == "rowKeyRegexFilter") return Filter::RowKeyRegex(std::move(regex));
    if (kind == "columnQualifierRegexFilter") return Filter::QualifierRegex(std::move(regex));
    return Filter::ValueRegex(std::move(regex));
  }
  if (kind == "familyNameRegexFilter") {
    LBT_ASSIGN_OR_RETURN(std::string regex, String(v, at));
    return Filter::FamilyNameRegex(std::move(regex));
  }
  if (kind == "applyLabelTransformer") {
    LBT_ASSIGN_OR_RETURN(std::string label, String(v, at));
    return Filter::ApplyLabel(std::move(label));
  }
  if (kind == "rowSampleFilter") {
    if (!v.is_number()) return Error(at, "expected a number");
    return Filter::RowSample(v.get<double>());
  }
  if (kind == "cellsPerRowOffsetFilter" || kind == "cellsPerRowLimitFilter" || kind == "cellsPerColumnLimitFilter") {
    LBT_ASSIGN_OR_RETURN(int64_t n, Int64(v, at));
    if (kind == "cellsPerRowOffsetFilter") return Filter::CellsPerRowOffset(n);
    if (kind == "cellsPerRowLimitFilter") return Filter::CellsPerRowLimit(n);
    return Filter::CellsPerColumnLimit(n);
  }
  if (kind == "timestampRangeFilter") {
    LBT_ASSIGN_OR_RETURN(json r, Normalize(v, at));
    LBT_RETURN_IF_ERROR(OnlyFields(r, at, {"startTimestampMicros", "endTimestampMicros"}));
    int64_t start = 0, end = 0;
    if (r.contains("startTimestampMicros")) {
      LBT_ASSIGN_OR_RETURN(start, Int64(r["startTimestampMicros"], at + ".startTimestampMicros"));
    }
    if (r.contains("endTimestampMicros")) {
      LBT_ASSIGN_OR_RETURN(end, Int64(r["endTimestampMicros"], at + ".endTimestampMicros"));
    }
    return Filter::TimestampRange(start, end);
  }
  if (kind == "columnRangeFilter") {
    LBT_ASSIGN_OR_RETURN(json r, Normalize(v, at));
    LBT_RETURN_IF_ERROR(OnlyFields(r, at, {"familyName", "startQualifierClosed", "startQualifierOpen",
                                           "endQualifierClosed", "endQualifierOpen"}));
    std::string family;
    if (r.contains("familyName")) {
      LBT_ASSIGN_OR_RETURN(family, String(r["familyName"], at + ".familyName"));
    }
    ByteBound low, high;
    LBT_RETURN_IF_ERROR(Bounds(r, at, "Qualifier", &low, &high));
    return Filter::ColumnRange(std::move(family), std::move(low), std::move(high));
  }
  if (kind == "valueRangeFilter") {
    LBT_ASSIGN_OR_RETURN(json r, Normalize(v, at));
    LBT_RETURN_IF_ERROR(OnlyFields(r, at, {"startValueClosed", "startValueOpen", "endValueClosed", "endValueOpen"}));
    ByteBound low, high;
    LBT_RETURN_IF_ERROR(Bounds(r, at, "Value", &low, &high));
    return Filter::ValueRange(std::move(low), std::move(high));
  }
  return Error(path, fmt::format("unknown filter '{}'", kind));
}

}  // namespace

Result<Filter> ParseFilterJson(std::string_view text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    return Status::InvalidArgument("filter: not valid JSON; expected a RowFilter such as "
                                   "{\"familyNameRegexFilter\": \"cf\"}");
  }
  return Parser().ParseFilter(j, "filter");
}

}  // namespace lbt
