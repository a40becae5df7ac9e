// The rules of `advise` about families, rows, cells and tables, and the
// lessons behind every rule. The row-key rules are in key_rules.cc.

#include "lab/advise.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "lab/advise_internal.h"

namespace lbt::lab {

namespace internal {

namespace {

using json = nlohmann::ordered_json;

// The lessons, in our words, from Bigtable's schema-design guidance.
const std::map<std::string_view, std::string_view>& Lessons() {
  static const auto* lessons = new std::map<std::string_view, std::string_view>{
      {"key-starts-with-timestamp",
       "Bigtable keeps rows sorted by key and gives each node a contiguous range of keys. Keys that start with the "
       "time put every new write at the end of the key space, on one node, while the others wait."},
      {"key-sequential-id",
       "New ids sit next to each other, and new users or objects are the busiest: their traffic converges on the "
       "few nodes that hold the newest ids."},
      {"key-hashed",
       "A hash spreads writes but throws away the order Bigtable sorts by: related rows scatter, range and prefix "
       "reads stop making sense, and the Key Visualizer shows noise."},
      {"key-unpadded-number",
       "Bigtable compares keys byte by byte, so \"3\" sorts after \"20\" unless it is written \"03\"."},
      {"key-domain-not-reversed",
       "Written the usual way, a site's hosts scatter over the key space (maps.google.com far from mail.google.com); "
       "reversed, they share a prefix and read together."},
      {"key-pii",
       "Row keys and family names are service data as well as customer data: logs, metrics and tools show them, so "
       "personal data there can reach people who should never see it."},
      {"key-too-long",
       "Every cell carries its row key: long keys cost memory, disk and time on every request (the limit is 4 KB)."},
      {"key-raw-bytes",
       "Raw bytes in keys are hard to read in tools and in the Key Visualizer; readable keys are easier to reason "
       "about and to troubleshoot."},
      {"too-many-families",
       "Each family is stored and garbage-collected on its own; past about 100 families a table slows down."},
      {"mixed-retention-family",
       "Garbage-collection policies belong to families, not columns: columns that need different lifetimes in one "
       "family either keep too much or lose too much."},
      {"versions-as-time-series",
       "Versions are for corrections and short history. A time series kept as versions of one cell grows one row "
       "without bound and loads the tablet that holds it; a new row per reading costs no more and reads by time "
       "range."},
      {"row-unbounded-wide",
       "A row is read and written as a unit and must stay under 256 MB: columns added for every event make it grow "
       "until it is slow, then too large."},
      {"row-too-large", "Rows over about 100 MB slow reads down, and 256 MB is a hard limit."},
      {"cell-too-large", "Cells over about 10 MB hurt performance, and a value may not exceed 100 MB."},
      {"undeclared-key-fields",
       "A key of fields joined by a delimiter is a composite key: declared as a row-key schema, SQL reads each "
       "field as a column, and conditions on the leading fields read just their key range."},
      {"many-similar-tables",
       "Tables of one schema (one per customer, per month) multiply overhead and approach the limit of 1,000 tables "
       "an instance; one table with a key prefix per dataset scales and drops a dataset with one range delete."},
  };
  return *lessons;
}

void TooManyFamilies(const TableSample& sample, const AdviceLimits& limits, std::vector<Finding>* out) {
  const int64_t n = static_cast<int64_t>(sample.spec.families.size());
  if (n <= limits.families) return;
  Finding f =
      MakeFinding("too-many-families", "warning",
                  fmt::format("the table has {} column families (guidance: about {} at most)", n, limits.families));
  f.evidence = {{"families", n}, {"limit", limits.families}};
  f.fix = "group columns that are read together, and that share a retention need, into a few families";
  out->push_back(std::move(f));
}

struct ColumnUse {
  int64_t rows = 0;
  int64_t versions = 0;
  double MeanVersions() const { return rows == 0 ? 0 : static_cast<double>(versions) / rows; }
};

// Per family, per qualifier: how many sampled rows have the column and how
// many versions they keep.
std::map<std::string, std::map<std::string, ColumnUse>> ColumnUses(const TableSample& sample) {
  std::map<std::string, std::map<std::string, ColumnUse>> uses;
  for (const RowSample& row : sample.sample) {
    for (const ColumnSample& c : row.columns) {
      ColumnUse& use = uses[c.family][c.qualifier];
      ++use.rows;
      use.versions += c.versions;
    }
  }
  return uses;
}

// A family where some columns keep a history and others only ever one
// value: they need different policies.
void MixedRetention(const TableSample& sample, std::vector<Finding>* out) {
  for (const auto& [family, columns] : ColumnUses(sample)) {
    std::vector<std::string> history, single;
    json history_versions = json::object();
    for (const auto& [qualifier, use] : columns) {
      if (use.rows * 10 < static_cast<int64_t>(sample.sample.size())) continue;  // rare columns say little
      if (use.MeanVersions() >= 3) {
        history.push_back(qualifier);
        history_versions[qualifier] = std::round(use.MeanVersions() * 10) / 10;
      } else if (use.MeanVersions() <= 1.1) {
        single.push_back(qualifier);
      }
    }
    if (history.empty() || single.empty()) continue;
    Finding f =
        MakeFinding("mixed-retention-family", "info",
                    fmt::format("family {} mixes columns that keep many versions ({}) with columns that keep one "
                                "({})",
                                family, fmt::join(history, ", "), fmt::join(single, ", ")));
    f.evidence = {{"family", family}, {"mean_versions", history_versions}, {"single_version_columns", single}};
    f.fix = fmt::format(
        "move {} to a family of its own with the policy its history needs (e.g. createfamily {} "
        "{}_history:maxage=30d) and give {} maxversions=1",
        fmt::join(history, ", "), sample.spec.name, family, family);
    out->push_back(std::move(f));
  }
}

void VersionsAsTimeSeries(const TableSample& sample, const AdviceLimits& limits, std::vector<Finding>* out) {
  int64_t columns = 0, many = 0;
  const RowSample* worst_row = nullptr;
  const ColumnSample* worst = nullptr;
  for (const RowSample& row : sample.sample) {
    for (const ColumnSample& c : row.columns) {
      // An aggregate family's cells at distinct timestamps are time
      // buckets of one counter, the documented way to count by period.
      const FamilySpec* family = sample.spec.FindFamily(c.family);
      if (family != nullptr && IsAggregate(family->value_type)) continue;
      ++columns;
      if (c.versions < limits.many_versions || c.oldest == c.newest) continue;
      ++many;
      if (worst == nullptr || c.versions > worst->versions) worst = &c, worst_row = &row;
    }
  }
  if (worst == nullptr || (many * 10 < columns && worst->versions < 10 * limits.many_versions)) return;
  const std::string key = PrintableKey(worst_row->key);
  Finding f = MakeFinding("versions-as-time-series", "warning",
                          fmt::format("{} of the sampled columns keep {} or more versions, up to {} in {}:{} of \"{}\"",
                                      Percent(static_cast<double>(many) / columns), limits.many_versions,
                                      worst->versions, worst->family, PrintableKey(worst->qualifier), key));
  f.evidence = {{"columns_with_many_versions", many},
                {"sampled_columns", columns},
                {"max_versions", worst->versions},
                {"row", key},
                {"column", worst->family + ":" + PrintableKey(worst->qualifier)}};
  f.fix = fmt::format("write each reading as a new row with the time in the key: \"{}\" becomes \"{}#{}\"", key, key,
                      worst->newest / 1000);
  out->push_back(std::move(f));
}

void UnboundedWide(const TableSample& sample, const AdviceLimits& limits, std::vector<Finding>* out) {
  const RowSample* widest = nullptr;
  for (const RowSample& row : sample.sample) {
    if (widest == nullptr || row.column_count > widest->column_count) widest = &row;
  }
  if (widest == nullptr) return;
  // Columns named by time (one per event) keep growing well before the
  // hard threshold.
  size_t timed = 0;
  for (const ColumnSample& c : widest->columns)
    timed += ClassifySegment(c.qualifier) == SegmentKind::kTimestamp ? 1 : 0;
  const bool named_by_time = !widest->columns.empty() && timed * 10 >= widest->columns.size() * 8;
  if (widest->column_count < limits.wide_row_columns && !(named_by_time && widest->column_count >= 100)) return;
  const std::string key = PrintableKey(widest->key);
  Finding f = MakeFinding("row-unbounded-wide", "warning",
                          fmt::format("row \"{}\" has {} columns{}", key, widest->column_count,
                                      named_by_time ? ", named by time: one more for every event" : ""));
  std::vector<std::string> qualifiers;
  for (size_t i = 0; i < widest->columns.size() && i < 3; ++i)
    qualifiers.push_back(PrintableKey(widest->columns[i].qualifier));
  f.evidence = {{"row", key}, {"columns", widest->column_count}, {"qualifiers", qualifiers}};
  f.fix = fmt::format("bound each row: one row per period or per event, e.g. \"{}#<day>\" (tall and narrow)", key);
  out->push_back(std::move(f));
}

void TooLarge(const TableSample& sample, const AdviceLimits& limits, std::vector<Finding>* out) {
  if (!sample.largest_rows.empty() && sample.largest_rows.front().bytes > limits.row_bytes) {
    const LargeItem& row = sample.largest_rows.front();
    Finding f = MakeFinding("row-too-large", "warning",
                            fmt::format("row \"{}\" holds {} (guidance: under {})", PrintableKey(row.row_key),
                                        HumanBytes(row.bytes), HumanBytes(limits.row_bytes)));
    f.evidence = {{"row", PrintableKey(row.row_key)}, {"bytes", row.bytes}, {"limit", limits.row_bytes}};
    f.fix = fmt::format("split the row: \"{}#<part>\", with the data that is read together in one part",
                        PrintableKey(row.row_key));
    out->push_back(std::move(f));
  }
  if (!sample.largest_cells.empty() && sample.largest_cells.front().bytes > limits.cell_bytes) {
    const LargeItem& cell = sample.largest_cells.front();
    Finding f =
        MakeFinding("cell-too-large", "warning",
                    fmt::format("cell {} of row \"{}\" holds {} (guidance: under {})", PrintableKey(cell.column),
                                PrintableKey(cell.row_key), HumanBytes(cell.bytes), HumanBytes(limits.cell_bytes)));
    f.evidence = {{"row", PrintableKey(cell.row_key)},
                  {"column", PrintableKey(cell.column)},
                  {"bytes", cell.bytes},
                  {"limit", limits.cell_bytes}};
    f.fix =
        "keep large objects in object storage with their path in the cell, or split them into chunks of a few MB "
        "in columns of their own";
    out->push_back(std::move(f));
  }
}

// The name with each run of digits as '#': events_2019_01 -> events_#_#.
std::string NamePattern(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      if (out.empty() || out.back() != '#') out += '#';
    } else {
      out += c;
    }
  }
  return out;
}

std::set<std::string> FamilyNames(const TableSpec& spec) {
  std::set<std::string> names;
  for (const auto& [name, family] : spec.families) names.insert(name);
  return names;
}

void SimilarTables(const TableSample& sample, const std::vector<TableSpec>& tables, const AdviceLimits& limits,
                   std::vector<Finding>* out) {
  const std::string pattern = NamePattern(sample.spec.name);
  if (pattern == sample.spec.name) return;  // no varying part in the name
  std::vector<std::string> similar;
  for (const TableSpec& t : tables) {
    if (NamePattern(t.name) == pattern && FamilyNames(t) == FamilyNames(sample.spec)) similar.push_back(t.name);
  }
  if (static_cast<int64_t>(similar.size()) < limits.similar_tables) return;
  std::string base = pattern;
  base.erase(std::remove(base.begin(), base.end(), '#'), base.end());
  while (!base.empty() && (base.back() == '_' || base.back() == '-')) base.pop_back();
  const std::string varying = sample.spec.name.substr(sample.spec.name.find_first_of("0123456789"));
  Finding f = MakeFinding(
      "many-similar-tables", "warning",
      fmt::format("{} tables share this table's name pattern ({}) and column families", similar.size(), pattern));
  f.evidence = {
      {"pattern", pattern},
      {"tables", similar.size()},
      {"examples", std::vector<std::string>(similar.begin(), similar.begin() + std::min<size_t>(3, similar.size()))}};
  f.fix = fmt::format(
      "keep them in one table{} with the part of the name that varies as the key's first segment: "
      "\"{}#<row key>\"",
      base.empty() ? "" : " \"" + base + "\"", varying);
  out->push_back(std::move(f));
}

}  // namespace

Finding MakeFinding(std::string_view rule, std::string severity, std::string message) {
  Finding f;
  f.rule = std::string(rule);
  f.severity = std::move(severity);
  f.message = std::move(message);
  auto it = Lessons().find(rule);
  if (it != Lessons().end()) f.why = std::string(it->second);
  return f;
}

std::string Percent(double share) { return fmt::format("{:.0f}%", share * 100); }

}  // namespace internal

const std::vector<AdviceRule>& AdviceRules() {
  static const auto* rules = [] {
    auto* list = new std::vector<AdviceRule>;
    for (const auto& [id, lesson] : internal::Lessons()) list->push_back({id, lesson});
    return list;
  }();
  return *rules;
}

std::vector<Finding> Advise(const TableSample& sample, const std::vector<TableSpec>& tables,
                            const AdviceLimits& limits) {
  std::vector<Finding> findings;
  internal::AdviseKeys(internal::KeyProfile(sample), limits, &findings);
  internal::TooManyFamilies(sample, limits, &findings);
  internal::MixedRetention(sample, &findings);
  internal::VersionsAsTimeSeries(sample, limits, &findings);
  internal::UnboundedWide(sample, limits, &findings);
  internal::TooLarge(sample, limits, &findings);
  internal::SimilarTables(sample, tables, limits, &findings);
  return findings;
}

}  // namespace lbt::lab
