#include "commands/cbt/filter_json.h"

#include <fmt/format.h>
#include <google/protobuf/util/json_util.h>

#include <cctype>

#include "proto/convert.h"

namespace lbt {

namespace {

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

// What protobuf's JSON parser says after the field path, in the words the
// rest of lbt uses. `field` is the offending field's own name, if known.
std::string Reason(std::string_view detail, std::string_view field, bool top_level) {
  auto has = [&](std::string_view s) { return detail.find(s) != std::string_view::npos; };
  if (has("Cannot find field")) {
    return fmt::format("unknown {} '{}'", top_level ? "filter" : "field", field);
  }
  if (has("oneof field '")) {
    const size_t start = detail.find("oneof field '") + 13;
    const std::string oneof(detail.substr(start, detail.find('\'', start) - start));
    if (oneof == "filter") return "a RowFilter holds exactly one filter";
    const std::string camel = CamelCase(oneof);
    return fmt::format("give {0}Closed or {0}Open, not both", camel);
  }
  if (has("TYPE_BYTES")) return "not valid base64";
  if (has("TYPE_INT32") || has("TYPE_INT64")) return "expected an integer (a JSON number or string) within range";
  if (has("TYPE_DOUBLE") || has("TYPE_FLOAT")) return "expected a number";
  if (has("TYPE_BOOL")) return "expected true";
  if (has("TYPE_STRING")) return "expected a JSON string";
  if (has("must be a message") || has("TYPE_MESSAGE")) return "expected a JSON object";
  return std::string(detail);
}

// Turns protobuf's "(chain.filters[1].value_regex_filter): invalid value ..."
// into "filter.chain.filters[1].valueRegexFilter: not valid base64".
Status DescribeJsonError(std::string_view message) {
  std::string path;
  std::string_view rest = message;
  if (!rest.empty() && rest.front() == '(') {
    const size_t close = rest.find(')');
    path = std::string(rest.substr(1, close - 1));
    rest.remove_prefix(close + 1);
  }
  while (!rest.empty() && (rest.front() == ':' || rest.front() == ' ')) rest.remove_prefix(1);
  // An unknown field is named before the colon: "bogus: Cannot find field."
  std::string field;
  if (rest.find("Cannot find field") != std::string_view::npos) field = std::string(rest.substr(0, rest.find(':')));
  const bool json_syntax = rest.find("Unexpected") != std::string_view::npos ||
                           rest.find("Expected") != std::string_view::npos ||
                           rest.find("Invalid") != std::string_view::npos;
  if (json_syntax && path.empty()) {
    return Status::InvalidArgument(
        "filter: not valid JSON; expected a RowFilter such as {\"familyNameRegexFilter\": \"cf\"}");
  }
  std::string where = "filter";
  size_t start = 0;
  while (start < path.size()) {
    size_t dot = path.find('.', start);
    if (dot == std::string::npos) dot = path.size();
    where.push_back('.');
    where.append(CamelCase(std::string_view(path).substr(start, dot - start)));
    start = dot + 1;
  }
  return Status::InvalidArgument(fmt::format("{}: {}", where, Reason(rest, field, path.empty())));
}

}  // namespace

Result<Filter> ParseFilterJson(std::string_view text) {
  google::bigtable::v2::RowFilter filter;
  auto status = google::protobuf::util::JsonStringToMessage(std::string(text), &filter);
  if (!status.ok()) return DescribeJsonError(std::string(status.message()));
  return proto::FromProto(filter, "filter");
}

}  // namespace lbt
