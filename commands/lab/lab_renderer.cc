#include "commands/lab/lab_renderer.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "lab/key_shape.h"
#include "sql/value.h"

namespace lbt {

namespace {

using json = nlohmann::ordered_json;

std::string Time(int64_t micros) { return sql::FormatTimestampRfc3339(micros); }

std::string Size(int64_t bytes) { return HumanBytes(bytes); }

// "1 row", "2 rows": a count and its noun, in the number it takes.
std::string Count(int64_t n, std::string_view noun) { return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s"); }

double Round(double v, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(v * scale) / scale;
}

std::string KeyText(const std::string& key, std::string_view empty) {
  return key.empty() ? std::string(empty) : lab::PrintableKey(key);
}

// ---------------------------------------------------------------- JSON

json SampleObject(const SampleSummary& s) {
  return {{"table", s.table}, {"whole_table", s.whole_table}, {"rows", s.rows}, {"rows_sampled", s.rows_sampled}};
}

json FindingObject(const lab::Finding& f) {
  return {{"rule", f.rule},         {"severity", f.severity}, {"message", f.message},
          {"evidence", f.evidence}, {"why", f.why},           {"fix", f.fix}};
}

json LargeObjects(const std::vector<lab::LargeItem>& items) {
  json out = json::array();
  for (const lab::LargeItem& item : items) {
    json j = {{"row", lab::PrintableKey(item.row_key)}};
    if (!item.column.empty()) j["column"] = lab::PrintableKey(item.column);
    j["bytes"] = item.bytes;
    out.push_back(std::move(j));
  }
  return out;
}

json StatsObject(const lab::TableStats& s) {
  json families = json::array();
  for (const auto& f : s.families)
    families.push_back({{"family", f.name}, {"rows", f.rows}, {"cells", f.cells}, {"bytes", f.bytes}});
  json distributions = json::object();
  for (const lab::Distribution& d : s.distributions) {
    json bins = json::array();
    for (const lab::Bin& b : d.histogram) bins.push_back({{"low", b.low}, {"high", b.high}, {"count", b.count}});
    distributions[d.name] = {
        {"count", d.count}, {"mean", Round(d.mean, 2)}, {"p50", d.p50}, {"p90", d.p90}, {"p99", d.p99},
        {"max", d.max},     {"histogram", bins}};
  }
  json prefixes = json::array();
  for (const lab::PrefixShare& p : s.top_prefixes) {
    prefixes.push_back({{"prefix", p.prefix}, {"rows", p.rows}, {"bytes", p.bytes}, {"share", Round(p.share, 4)}});
  }
  return {{"table", s.table},
          {"exact", s.exact},
          {"rows", s.rows},
          {"cells", s.cells},
          {"bytes", s.bytes},
          {"rows_sampled", s.rows_sampled},
          {"families", families},
          {"distributions", distributions},
          {"largest_rows", LargeObjects(s.largest_rows)},
          {"largest_cells", LargeObjects(s.largest_cells)},
          {"top_prefixes", prefixes},
          {"top_prefixes_exact", s.prefixes_exact}};
}

json HotspotsObject(const SampleSummary& sample, const lab::HotspotReport& r) {
  json windows = json::array();
  for (const lab::WindowLoad& w : r.windows) {
    json shares = json::array();
    for (double s : w.node_shares) shares.push_back(Round(s, 4));
    windows.push_back({{"start", Time(w.start_micros)},
                       {"end", Time(w.end_micros)},
                       {"writes", std::llround(w.writes)},
                       {"node_shares", shares}});
  }
  json tablets = json::array();
  for (const lab::TabletLoad& t : r.tablets) {
    tablets.push_back({{"start_key", lab::PrintableKey(t.start_key)},
                       {"end_key", lab::PrintableKey(t.end_key)},
                       {"node", t.node},
                       {"bytes", std::llround(t.bytes)},
                       {"writes", std::llround(t.writes)}});
  }
  json hottest = nullptr;
  if (r.hottest_tablet >= 0) {
    hottest = {{"tablet", r.hottest_tablet},
               {"window_start", Time(r.hottest_window_start)},
               {"share_of_window", Round(r.hottest_share, 4)}};
  }
  return {{"table", sample.table},
          {"nodes", r.nodes},
          {"peak_node_share", Round(r.peak_node_share, 4)},
          {"writes", std::llround(r.writes)},
          {"rows_sampled", sample.rows_sampled},
          {"hottest", hottest},
          {"windows", windows},
          {"tablets", tablets},
          {"single_timestamp", r.single_timestamp}};
}

json HeatmapObject(const SampleSummary& sample, const lab::WriteGrid& grid) {
  json ranges = json::array();
  for (const lab::KeyRange& r : grid.ranges) {
    ranges.push_back({{"start_key", lab::PrintableKey(r.start_key)}, {"end_key", lab::PrintableKey(r.end_key)}});
  }
  json windows = json::array();
  for (int w = 0; w < grid.windows.count; ++w) windows.push_back(Time(grid.windows.Start(w)));
  json values = json::array();
  for (const auto& row : grid.writes) {
    json line = json::array();
    for (double v : row) line.push_back(std::llround(v));
    values.push_back(std::move(line));
  }
  return {{"table", sample.table}, {"measure", "cells written"}, {"ranges", ranges},
          {"windows", windows},    {"values", values},           {"single_timestamp", grid.windows.single_timestamp}};
}

json PlanObject(const ReadPlan& p) {
  json filters = json::array();
  for (const auto& [where, filter] : p.filters) filters.push_back({{"runs", where}, {"filter", filter}});
  json j = {{"command", p.command}, {"table", p.table},   {"access", p.access},
            {"ranges", p.ranges},   {"filters", filters}, {"notes", p.notes}};
  if (p.analyzed) {
    j["rows_examined"] = p.stats.rows_seen;
    j["cells_examined"] = p.stats.cells_seen;
    j["rows_returned"] = p.stats.rows_returned;
    j["cells_returned"] = p.stats.cells_returned;
  }
  return j;
}

class LabJsonRenderer final : public LabRenderer {
 public:
  LabJsonRenderer(Output* out, bool lines) : out_(out), lines_(lines) {}

  void Advice(const SampleSummary& sample, const std::vector<lab::Finding>& findings) override {
    if (lines_) {
      for (const lab::Finding& f : findings) Line(FindingObject(f));
      return;
    }
    json list = json::array();
    for (const lab::Finding& f : findings) list.push_back(FindingObject(f));
    json j = SampleObject(sample);
    j["findings"] = std::move(list);
    Line(j);
  }
  void Stats(const lab::TableStats& stats) override { Line(StatsObject(stats)); }
  void Hotspots(const SampleSummary& sample, const lab::HotspotReport& report) override {
    Line(HotspotsObject(sample, report));
  }
  void Heatmap(const SampleSummary& sample, const lab::WriteGrid& grid) override { Line(HeatmapObject(sample, grid)); }
  void PageWritten(const std::string& path, const lab::WriteGrid& grid) override {
    Line({{"written", path}, {"ranges", grid.ranges.size()}, {"windows", grid.windows.count}});
  }
  void Plan(const ReadPlan& plan) override { Line(PlanObject(plan)); }

 private:
  void Line(const json& j) { out_->Write(j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n"); }
  Output* out_;
  bool lines_;
};

// ---------------------------------------------------------------- text

// The shades of the text heatmap: without colour, characters of rising
// density; with colour, the 256-colour palette from black through red to
// yellow and white.
constexpr std::string_view kShades = " .:-=+*#%@";
constexpr int kPalette[] = {16, 17, 18, 54, 90, 126, 162, 198, 203, 209, 215, 221, 227, 229, 231};

class LabTextRenderer final : public LabRenderer {
 public:
  LabTextRenderer(Output* out, bool color) : out_(out), color_(color) {}

  void Advice(const SampleSummary& sample, const std::vector<lab::Finding>& findings) override {
    Header("advise", sample);
    for (const lab::Finding& f : findings) {
      Write("\n[{}] {}\n  {}\n", f.severity, f.rule, f.message);
      Write("  why: {}\n  fix: {}\n", f.why, f.fix);
    }
    if (findings.empty()) {
      Write("\nNo findings: the sampled keys, families and rows follow Bigtable's schema guidance.\n");
    } else {
      Write("\n{} finding{}.\n", findings.size(), findings.size() == 1 ? "" : "s");
    }
  }

  void Stats(const lab::TableStats& s) override {
    Write("table {}: {}{}, {}, {} ({})\n", s.table, s.exact ? "" : "~", Count(s.rows, "row"), Count(s.cells, "cell"),
          Size(s.bytes),
          s.exact ? "exact: every row read" : fmt::format("estimated from {} sampled", Count(s.rows_sampled, "row")));
    Write("\n{:<24} {:>12} {:>12} {:>12}\n", "family", "rows", "cells", "bytes");
    for (const auto& f : s.families) Write("{:<24} {:>12} {:>12} {:>12}\n", f.name, f.rows, f.cells, Size(f.bytes));
    Write("\n{:<20} {:>10} {:>10} {:>10} {:>10} {:>10}\n", "per sampled row", "mean", "p50", "p90", "p99", "max");
    for (const lab::Distribution& d : s.distributions) {
      Write("{:<20} {:>10.1f} {:>10} {:>10} {:>10} {:>10}\n", d.name, d.mean, d.p50, d.p90, d.p99, d.max);
    }
    for (const lab::Distribution& d : s.distributions) {
      if (d.name == "row_bytes" || d.name == "cells_per_row") Histogram(d);
    }
    Largest("largest rows", s.largest_rows);
    Largest("largest cells", s.largest_cells);
    if (!s.top_prefixes.empty()) {
      Write("\nkey prefixes with the most data{}:\n", s.prefixes_exact ? "" : " (estimated from the sampled rows)");
    }
    for (const lab::PrefixShare& p : s.top_prefixes) {
      Write("  {:<32} {:>6.1f}%  {:>10}  {}\n", p.prefix, p.share * 100, Size(p.bytes), Count(p.rows, "row"));
    }
  }

  // Said once the sample's cells all share one timestamp, as data loaded
  // with a fixed timestamp has.
  void SingleTimestampNote(int64_t timestamp) {
    Write(
        "note: every sampled cell has the timestamp {}: the order of the writes cannot be replayed,\n"
        "      so this shows where the data lies, not how writes arrived over time. Write cells with\n"
        "      their real times (or let the server set them) to see writes spread over time.\n",
        Time(timestamp));
  }

  void Hotspots(const SampleSummary& sample, const lab::HotspotReport& r) override {
    Header("hotspots", sample);
    if (r.single_timestamp && !r.windows.empty()) SingleTimestampNote(r.windows.front().start_micros);
    Write("{}, {} split by size; {} replayed in timestamp order over {}\n", Count(r.nodes, "node"),
          Count(static_cast<int64_t>(r.tablets.size()), "tablet"), Count(std::llround(r.writes), "write"),
          Count(static_cast<int64_t>(r.windows.size()), "window"));
    Write("peak node share: {:.2f} (an even spread is {:.2f}; 1 means one node takes every write)\n", r.peak_node_share,
          1.0 / r.nodes);
    if (r.hottest_tablet >= 0) {
      const lab::TabletLoad& t = r.tablets[r.hottest_tablet];
      Write("hottest key range: [{}, {}) on node {}: {:.0f}% of the writes of the window from {}\n",
            KeyText(t.start_key, "(start)"), KeyText(t.end_key, "(end)"), t.node, r.hottest_share * 100,
            Time(r.hottest_window_start));
    }
    Write("\n{:<28}", "window start");
    for (int n = 0; n < r.nodes; ++n) Write(" {:>7}", fmt::format("node {}", n));
    Write("\n");
    for (const lab::WindowLoad& w : r.windows) {
      Write("{:<28}", Time(w.start_micros));
      for (double s : w.node_shares) Write(" {:>6.0f}%", s * 100);
      Write("\n");
    }
    Write("\n{:<7} {:<5} {:<32} {:>12} {:>12}\n", "tablet", "node", "start key", "writes", "bytes");
    for (size_t i = 0; i < r.tablets.size(); ++i) {
      const lab::TabletLoad& t = r.tablets[i];
      Write("{:<7} {:<5} {:<32} {:>12} {:>12}\n", i, t.node, KeyText(t.start_key, "(start)"), std::llround(t.writes),
            Size(std::llround(t.bytes)));
    }
  }

  void Heatmap(const SampleSummary& sample, const lab::WriteGrid& grid) override {
    Header("keyviz", sample);
    if (grid.windows.single_timestamp) SingleTimestampNote(grid.windows.start);
    double most = 0;
    for (const auto& row : grid.writes) {
      for (double v : row) most = std::max(most, v);
    }
    constexpr size_t kLabel = 24;
    for (size_t r = 0; r < grid.ranges.size(); ++r) {
      std::string label = KeyText(grid.ranges[r].start_key, "(start)");
      if (label.size() > kLabel) label = label.substr(0, kLabel - 1) + "~";
      Write("{:<{}} ", label, kLabel);
      for (double v : grid.writes[r]) Shade(most == 0 ? 0 : v / most);
      Write("{}\n", color_ ? "\x1b[0m" : "");
    }
    if (grid.writes.empty()) {
      Write("(no cells)\n");
      return;
    }
    Write("{:<{}} {} .. {}\n", "", kLabel, Time(grid.windows.start), Time(grid.windows.Start(grid.windows.count)));
    Write("{:<{}} key space top to bottom, time left to right; brighter is more cells written (most: {})\n", "", kLabel,
          std::llround(most));
  }

  void PageWritten(const std::string& path, const lab::WriteGrid& grid) override {
    Write("Wrote {} ({} x {}).\n", path, Count(static_cast<int64_t>(grid.ranges.size()), "key range"),
          Count(grid.windows.count, "time window"));
  }

  void Plan(const ReadPlan& p) override {
    Write("{}\n  table:  {}\n  access: {}\n", p.command, p.table, p.access);
    for (const std::string& r : p.ranges) Write("  reads:  {}\n", r);
    for (const auto& [where, filter] : p.filters) Write("  filter: {} (runs on: {})\n", filter, where);
    if (p.analyzed) {
      Write("  examined: {}, {}\n  returned: {}, {}\n", Count(p.stats.rows_seen, "row"),
            Count(p.stats.cells_seen, "cell"), Count(p.stats.rows_returned, "row"),
            Count(p.stats.cells_returned, "cell"));
    }
    for (const std::string& n : p.notes) Write("  note:   {}\n", n);
  }

 private:
  template <typename... Args>
  void Write(fmt::format_string<Args...> format, Args&&... args) {
    out_->Write(fmt::format(format, std::forward<Args>(args)...));
  }

  void Header(std::string_view command, const SampleSummary& s) {
    if (s.whole_table) {
      Write("{} {}: every row read ({}); the report uses {} of them\n", command, s.table, Count(s.rows, "row"),
            s.rows_sampled);
    } else {
      Write("{} {}: {} sampled across the key space, of about {}\n", command, s.table, Count(s.rows_sampled, "row"),
            s.rows);
    }
  }

  void Histogram(const lab::Distribution& d) {
    Write("\n{} (sampled rows per bin):\n", d.name);
    int64_t most = 0;
    for (const lab::Bin& b : d.histogram) most = std::max(most, b.count);
    for (const lab::Bin& b : d.histogram) {
      const int width = most == 0 ? 0 : static_cast<int>(std::lround(40.0 * b.count / most));
      Write("  {:>21} {} {}\n", fmt::format("[{}, {}]", b.low, b.high), std::string(std::max(width, 1), '#'), b.count);
    }
  }

  void Largest(std::string_view title, const std::vector<lab::LargeItem>& items) {
    if (items.empty()) return;
    Write("\n{}:\n", title);
    for (const lab::LargeItem& item : items) {
      Write("  {:>10}  {}{}\n", Size(item.bytes), lab::PrintableKey(item.row_key),
            item.column.empty() ? "" : "  " + lab::PrintableKey(item.column));
    }
  }

  void Shade(double level) {
    if (!color_) {
      out_->Write(
          std::string(1, kShades[std::min<size_t>(kShades.size() - 1, std::lround(level * (kShades.size() - 1)))]));
      return;
    }
    constexpr size_t kColors = sizeof(kPalette) / sizeof(kPalette[0]);
    const int color = kPalette[std::min<size_t>(kColors - 1, std::lround(level * (kColors - 1)))];
    Write("\x1b[48;5;{}m ", color);
  }

  Output* out_;
  bool color_;
};

}  // namespace

std::unique_ptr<LabRenderer> LabRenderer::Create(OutputFormat format, Output* out, bool color) {
  if (format == OutputFormat::kText) return std::make_unique<LabTextRenderer>(out, color);
  return std::make_unique<LabJsonRenderer>(out, format == OutputFormat::kJsonl);
}

}  // namespace lbt
