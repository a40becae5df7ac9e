// JSON functions over JSON text in STRING values, as GoogleSQL for
// Bigtable's JSON functions page gives them: JSON_QUERY and JSON_EXTRACT
// (the JSON text at a path), JSON_VALUE and JSON_EXTRACT_SCALAR (a scalar's
// text), JSON_QUERY_ARRAY (an array's elements' texts) and TO_JSON_STRING
// (any value as JSON). Bigtable has no JSON type: inputs and results are
// STRINGs. A path is JSONPath's `$` followed by `.name`, `."name"`,
// `['name']` or `[index]`; a path that reaches nothing, or text that is not
// JSON, gives NULL. nlohmann-json parses and writes the JSON.

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "sql/functions/function_util.h"
#include "sql/functions/registry.h"
#include "util/bytes.h"

namespace lbt::sql {

namespace {

using Json = nlohmann::ordered_json;  // members keep their order

// One step of a path: a member name or an array index.
struct PathStep {
  std::string name;
  int64_t index = -1;  // >= 0 for `[n]`
};

Status BadPath(std::string_view path, std::string_view why) {
  return Status::OutOfRange(fmt::format("Invalid JSONPath '{}': {}", path, why));
}

Result<std::vector<PathStep>> ParsePath(std::string_view path) {
  if (path.empty() || path[0] != '$') return BadPath(path, "it must start with $");
  std::vector<PathStep> steps;
  size_t i = 1;
  auto quoted = [&](char quote) -> Result<std::string> {
    const size_t end = path.find(quote, i + 1);
    if (end == std::string_view::npos) return BadPath(path, "an unclosed quote");
    std::string name(path.substr(i + 1, end - i - 1));
    i = end + 1;
    return name;
  };
  while (i < path.size()) {
    PathStep step;
    if (path[i] == '.') {
      ++i;
      if (i < path.size() && path[i] == '"') {
        LBT_ASSIGN_OR_RETURN(step.name, quoted('"'));
      } else {
        const size_t end = path.find_first_of(".[", i);
        step.name = std::string(path.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i));
        if (step.name.empty()) return BadPath(path, "an empty member name");
        i = end == std::string_view::npos ? path.size() : end;
      }
    } else if (path[i] == '[') {
      ++i;
      if (i < path.size() && (path[i] == '\'' || path[i] == '"')) {
        LBT_ASSIGN_OR_RETURN(step.name, quoted(path[i]));
      } else {
        const size_t end = path.find(']', i);
        if (end == std::string_view::npos) return BadPath(path, "an unclosed [");
        const std::string digits(path.substr(i, end - i));
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 15) {
          return BadPath(path, "an index must be a non-negative integer");
        }
        step.index = std::stoll(digits);
        i = end;
      }
      if (i >= path.size() || path[i] != ']') return BadPath(path, "an unclosed [");
      ++i;
    } else {
      return BadPath(path, fmt::format("unexpected '{}'", path[i]));
    }
    steps.push_back(std::move(step));
  }
  return steps;
}

// The JSON value at `path` in `text`, or null when the text is not JSON or
// the path reaches nothing.
Result<const Json*> Find(const Json& root, const std::vector<PathStep>& steps) {
  const Json* at = &root;
  for (const PathStep& step : steps) {
    if (step.index >= 0) {
      if (!at->is_array() || static_cast<size_t>(step.index) >= at->size()) return nullptr;
      at = &(*at)[static_cast<size_t>(step.index)];
    } else {
      if (!at->is_object()) return nullptr;
      auto it = at->find(step.name);
      if (it == at->end()) return nullptr;
      at = &*it;
    }
  }
  return at;
}

struct Parsed {
  Json root;
  bool ok = false;
};

Parsed ParseJson(const std::string& text) {
  Parsed p;
  p.root = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  p.ok = !p.root.is_discarded();
  return p;
}

Result<TypePtr> QueryCheck(const Types& a) {
  if (a.empty() || a.size() > 2 || !Is(a[0], TypeKind::kString) || (a.size() == 2 && !Is(a[1], TypeKind::kString))) {
    return ArgError("JSON_QUERY", a);
  }
  return Type::String();
}
Result<TypePtr> QueryArrayCheck(const Types& a) {
  LBT_RETURN_IF_ERROR(QueryCheck(a).status());
  return Type::Array(Type::String());
}

// The JSON at the path (`$` when the call gives none), or nullptr.
Result<std::optional<Json>> At(const Values& a) {
  LBT_ASSIGN_OR_RETURN(std::vector<PathStep> steps, ParsePath(a.size() > 1 ? a[1].str() : "$"));
  Parsed parsed = ParseJson(a[0].str());
  if (!parsed.ok) return std::optional<Json>();
  LBT_ASSIGN_OR_RETURN(const Json* found, Find(parsed.root, steps));
  if (found == nullptr) return std::optional<Json>();
  return std::optional<Json>(*found);
}

std::string Dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

Result<Value> QueryEval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(std::optional<Json> found, At(a));
  if (!found) return Value::Null(Type::String());
  return Value::String(Dump(*found));
}

// A scalar's text: a string unquoted, a number or boolean as written; NULL
// for null, objects and arrays.
std::optional<std::string> ScalarText(const Json& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_number() || j.is_boolean()) return Dump(j);
  return std::nullopt;
}

Result<Value> ValueEval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(std::optional<Json> found, At(a));
  if (!found) return Value::Null(Type::String());
  std::optional<std::string> text = ScalarText(*found);
  return text ? Value::String(std::move(*text)) : Value::Null(Type::String());
}

Result<Value> QueryArrayEval(const Values& a, const EvalContext&) {
  LBT_ASSIGN_OR_RETURN(std::optional<Json> found, At(a));
  if (!found || !found->is_array()) return Value::Null(Type::Array(Type::String()));
  Values out;
  for (const Json& element : *found) out.push_back(Value::String(Dump(element)));
  return Value::Array(Type::Array(Type::String()), std::move(out));
}

// ---- TO_JSON_STRING(value [, pretty_print]) ----

Json ToJson(const Value& v, const TypePtr& type);

Json ToJsonScalar(const Value& v) {
  switch (v.kind()) {
    case TypeKind::kString: return v.str();
    case TypeKind::kBytes: return Base64Encode(v.str());
    case TypeKind::kBool: return v.boolean();
    case TypeKind::kInt64: {
      // Beyond 2^53 a JSON number loses digits: such integers are strings.
      const int64_t n = v.int64();
      if (n > (int64_t{1} << 53) || n < -(int64_t{1} << 53)) return std::to_string(n);
      return n;
    }
    case TypeKind::kFloat32:
    case TypeKind::kFloat64: {
      const double d = v.float64();
      if (std::isnan(d)) return "NaN";
      if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
      return d;
    }
    case TypeKind::kTimestamp: return FormatTimestampRfc3339(v.int64());
    case TypeKind::kDate: return FormatDate(v.int64());
    default: return nullptr;
  }
}

Json ToJson(const Value& v, const TypePtr& type) {
  if (v.is_null()) return nullptr;
  switch (v.kind()) {
    case TypeKind::kArray: {
      Json out = Json::array();
      for (const Value& e : v.elements()) out.push_back(ToJson(e, type->element));
      return out;
    }
    case TypeKind::kStruct: {
      Json out = Json::object();
      for (size_t i = 0; i < v.elements().size() && i < type->fields.size(); ++i) {
        // An unnamed field keeps its place as _field_<n>, as GoogleSQL names one.
        const std::string& name = type->fields[i].first;
        out[name.empty() ? fmt::format("_field_{}", i + 1) : name] = ToJson(v.elements()[i], type->fields[i].second);
      }
      return out;
    }
    case TypeKind::kMap: {
      // Keys as JSON member names: BYTES keys (qualifiers) in base64, as
      // BYTES values are.
      Json out = Json::object();
      for (const auto& [key, value] : v.entries()) {
        out[key.kind() == TypeKind::kBytes ? Base64Encode(key.str()) : key.ToText()] = ToJson(value, type->value);
      }
      return out;
    }
    default: return ToJsonScalar(v);
  }
}

Result<TypePtr> ToJsonStringCheck(const Types& a) {
  if (a.empty() || a.size() > 2 || (a.size() == 2 && !Is(a[1], TypeKind::kBool))) return ArgError("TO_JSON_STRING", a);
  return Type::String();
}
Result<Value> ToJsonStringEval(const Values& a, const EvalContext&) {
  const bool pretty = a.size() == 2 && !a[1].is_null() && a[1].boolean();
  const Json j = ToJson(a[0], a[0].type());
  std::string text = j.dump(pretty ? 2 : -1, ' ', false, Json::error_handler_t::replace);
  LBT_RETURN_IF_ERROR(CheckComputedBytes(static_cast<double>(text.size()), "TO_JSON_STRING's result"));
  return Value::String(std::move(text));
}

}  // namespace

void RegisterJsonFunctions(FunctionRegistry* registry) {
  registry->Add("JSON_QUERY", QueryCheck, QueryEval);
  registry->Add("JSON_EXTRACT", QueryCheck, QueryEval);
  registry->Add("JSON_VALUE", QueryCheck, ValueEval);
  registry->Add("JSON_EXTRACT_SCALAR", QueryCheck, ValueEval);
  registry->Add("JSON_QUERY_ARRAY", QueryArrayCheck, QueryArrayEval);
  registry->Add("TO_JSON_STRING", ToJsonStringCheck, ToJsonStringEval, FunctionRegistry::Nulls::kWithNulls);
}

}  // namespace lbt::sql
