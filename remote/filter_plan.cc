#include "remote/filter_plan.h"

#include <fmt/format.h>

#include <cctype>
#include <utility>
#include <vector>

namespace lbt {

namespace {

using Kind = Filter::Kind;

// A regex that matches exactly `text` (RE2 takes any punctuation escaped).
std::string Literal(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

Filter ColumnsFilter(const std::vector<ColumnSelector>& columns) {
  std::vector<Filter> any;
  for (const ColumnSelector& c : columns) {
    if (c.qualifier) {
      any.push_back(Filter::ColumnRange(c.family, Bound::Closed(*c.qualifier), Bound::Closed(*c.qualifier)));
    } else {
      any.push_back(Filter::FamilyNameRegex(Literal(c.family)));
    }
  }
  if (any.size() == 1) return std::move(any[0]);
  return Filter::Interleave(std::move(any));
}

const char* ClientKindName(Kind kind) {
  switch (kind) {
    case Kind::kUnion: return "OR";
    case Kind::kSkip: return "SKIP";
    case Kind::kWhile: return "WHILE";
    case Kind::kCompare: return "a compare filter";
    case Kind::kQualifierRange: return "ColumnRangeFilter";
    case Kind::kColumnValue: return "SingleColumnValueFilter";
    case Kind::kTimestamps: return "TimestampsFilter";
    case Kind::kPage: return "PageFilter";
    case Kind::kColumnCount: return "ColumnCountGetFilter";
    case Kind::kColumnPage: return "ColumnPaginationFilter";
    case Kind::kDependentColumn: return "DependentColumnFilter";
    default: return nullptr;
  }
}

// The HBase-only parts of `filter`, named for the placement note.
void CollectClientKinds(const Filter& filter, std::vector<std::string>* names) {
  if (const char* name = ClientKindName(filter.kind)) {
    std::string n = name;
    for (const std::string& seen : *names) {
      if (seen == n) return;
    }
    names->push_back(std::move(n));
    return;
  }
  for (const Filter& child : filter.children) CollectClientKinds(child, names);
  if (filter.true_filter) CollectClientKinds(*filter.true_filter, names);
  if (filter.false_filter) CollectClientKinds(*filter.false_filter, names);
}

Filter ChainOf(std::vector<Filter> filters) {
  if (filters.size() == 1) return std::move(filters[0]);
  return Filter::Chain(std::move(filters));
}

}  // namespace

bool ServiceCanRun(const Filter& filter) {
  if (ClientKindName(filter.kind) != nullptr) return false;
  for (const Filter& child : filter.children) {
    if (!ServiceCanRun(child)) return false;
  }
  if (filter.true_filter && !ServiceCanRun(*filter.true_filter)) return false;
  if (filter.false_filter && !ServiceCanRun(*filter.false_filter)) return false;
  return true;
}

FilterPlan PlanFilter(const ReadRequest& request) {
  std::vector<Filter> service;
  if (!request.columns.empty()) service.push_back(ColumnsFilter(request.columns));
  if (request.cells_per_column_limit > 0)
    service.push_back(Filter::CellsPerColumnLimit(request.cells_per_column_limit));
  std::vector<Filter> client;
  if (request.filter) {
    const Filter& f = *request.filter;
    if (ServiceCanRun(f)) {
      service.push_back(f);
    } else if (f.kind == Kind::kChain) {
      size_t i = 0;
      for (; i < f.children.size() && ServiceCanRun(f.children[i]); ++i) service.push_back(f.children[i]);
      client.assign(f.children.begin() + static_cast<std::ptrdiff_t>(i), f.children.end());
    } else {
      client.push_back(f);
    }
  }
  FilterPlan plan;
  if (!service.empty()) {
    plan.service = ChainOf(std::move(service));
    plan.placement = "service";
  }
  if (!client.empty()) {
    std::vector<std::string> names;
    for (const Filter& f : client) CollectClientKinds(f, &names);
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    plan.placement = fmt::format("{}client (from {} on)", plan.service ? "service, then " : "", list);
    plan.client = ChainOf(std::move(client));
  }
  return plan;
}

}  // namespace lbt
