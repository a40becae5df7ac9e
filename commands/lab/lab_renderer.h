// How the schema lab's reports look: a readable text report, one JSON
// document (--format json) or JSON lines (--format jsonl: one finding,
// window or plan step per line where a report is a list). The lab's
// handlers call a LabRenderer and never format themselves; the keyviz
// page written to a file is in keyviz_page.h.

#ifndef LBT_COMMANDS_LAB_LAB_RENDERER_H_
#define LBT_COMMANDS_LAB_LAB_RENDERER_H_

#include <memory>
#include <string>
#include <vector>

#include "commands/core/output.h"
#include "commands/render/renderer.h"
#include "lab/advise.h"
#include "lab/hotspots.h"
#include "lab/table_stats.h"

namespace lbt {

// What a report was computed from, for its first line.
struct SampleSummary {
  std::string table;
  bool whole_table = false;
  int64_t rows = 0;          // the table's rows (estimated unless whole_table)
  int64_t rows_sampled = 0;  // rows the report looked at
};

// `explain`: how a read runs, and with `analyze`, what it cost.
struct ReadPlan {
  std::string command;  // the command explained, as typed
  std::string table;
  std::string access;               // "point lookup", "row set", "prefix scan", "range scan", "full table scan"
  std::vector<std::string> ranges;  // the keys and ranges read, as text
  // Where each part of the filter runs: {"where", "filter"} pairs, e.g.
  // {"storage", "family_name_regex_filter(cf)"}.
  std::vector<std::pair<std::string, std::string>> filters;
  std::vector<std::string> notes;  // what to look out for
  bool analyzed = false;
  ReadStats stats;  // with analyze
};

class LabRenderer {
 public:
  virtual ~LabRenderer() = default;
  // `color`: the text heatmap may use terminal colours.
  static std::unique_ptr<LabRenderer> Create(OutputFormat format, Output* out, bool color);

  virtual void Advice(const SampleSummary& sample, const std::vector<lab::Finding>& findings) = 0;
  virtual void Stats(const lab::TableStats& stats) = 0;
  virtual void Hotspots(const SampleSummary& sample, const lab::HotspotReport& report) = 0;
  virtual void Heatmap(const SampleSummary& sample, const lab::WriteGrid& grid) = 0;
  // keyviz with a file: where the page went.
  virtual void PageWritten(const std::string& path, const lab::WriteGrid& grid) = 0;
  virtual void Plan(const ReadPlan& plan) = 0;
};

}  // namespace lbt

#endif  // LBT_COMMANDS_LAB_LAB_RENDERER_H_
