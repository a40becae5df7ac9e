// The schema lab's commands: each samples the table once (lab/sample.h),
// computes its report in lab/, and hands it to a LabRenderer.

#include "commands/lab/lab_commands.h"
#include "api/instance_admin.h"
#include "commands/command_sets.h"

#include <cstdlib>
#include <fstream>
#include <optional>

#include <fmt/format.h>

#include "commands/cbt/args.h"
#include "commands/core/interrupt.h"
#include "commands/lab/keyviz_page.h"
#include "commands/lab/lab_renderer.h"
#include "lab/advise.h"
#include "lab/hotspots.h"
#include "lab/sample.h"
#include "lab/table_stats.h"

namespace lbt {

namespace {

constexpr int kTerminalRanges = 32;
constexpr int kTerminalWindows = 64;
constexpr int kPageRanges = 64;
constexpr int kPageWindows = 96;

// keyviz's grid wants many sampled writes per cell (lab::KeyvizGrid): it
// keeps more rows than the other commands, whose totals need fewer.
constexpr int64_t kKeyvizSampleRows = 100000;

Result<lab::TableSample> Sample(CommandContext& ctx, const CbtArgs& args, int64_t default_rows = 0) {
  lab::SampleOptions options;
  if (default_rows > 0) options.max_rows = default_rows;
  LBT_ASSIGN_OR_RETURN(std::optional<int64_t> rows, PositiveOption(ctx, args, "sample"));
  if (rows) options.max_rows = *rows;
  options.cancelled = [] { return InterruptRequested(); };
  return lab::SampleTable(ctx.bigtable(), args.positional[0], options);
}

SampleSummary Summary(const lab::TableSample& sample) {
  return {sample.spec.name, sample.whole_table, sample.rows, static_cast<int64_t>(sample.sample.size())};
}

std::unique_ptr<LabRenderer> LabOutput(CommandContext& ctx) {
  const bool color = ctx.out->IsTerminal() && std::getenv("NO_COLOR") == nullptr;
  return LabRenderer::Create(ctx.session->options().format, ctx.out, color);
}

// Every table of the instance with its schema, for many-similar-tables;
// only asked when the table's name has a part that varies (digits).
Result<std::vector<TableSpec>> SiblingTables(Bigtable* bigtable, const std::string& table) {
  std::vector<TableSpec> specs;
  if (table.find_first_of("0123456789") == std::string::npos) return specs;
  LBT_ASSIGN_OR_RETURN(std::vector<std::string> names, bigtable->ListTables());
  for (const std::string& name : names) {
    Result<TableSpec> spec = bigtable->GetTable(name);
    if (spec.ok()) specs.push_back(std::move(*spec));
  }
  return specs;
}

Status Advise(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 1));
  LBT_ASSIGN_OR_RETURN(lab::TableSample sample, Sample(ctx, parsed));
  LBT_ASSIGN_OR_RETURN(std::vector<TableSpec> tables, SiblingTables(ctx.bigtable(), parsed.positional[0]));
  LabOutput(ctx)->Advice(Summary(sample), lab::Advise(sample, tables));
  return Status::OK();
}

Status Stats(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 1));
  LBT_ASSIGN_OR_RETURN(lab::TableSample sample, Sample(ctx, parsed));
  LabOutput(ctx)->Stats(lab::ComputeStats(sample));
  return Status::OK();
}

// The nodes of the instance's first cluster, which serves the table, when
// the instance is known and its cluster has nodes within hotspots' range.
std::optional<int> ClusterNodes(CommandContext& ctx) {
  InstanceAdmin* admin = ctx.bigtable()->instance_admin();
  if (admin == nullptr) return std::nullopt;
  Result<InstanceSpec> instance = admin->GetInstance(ctx.session->options().instance);
  if (!instance.ok() || instance->clusters.empty()) return std::nullopt;
  const int32_t nodes = instance->clusters.front().serve_nodes;
  if (nodes < 1 || nodes > 1000) return std::nullopt;
  return nodes;
}

Status Hotspots(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 1));
  lab::HotspotOptions options;
  LBT_ASSIGN_OR_RETURN(std::optional<int64_t> nodes, PositiveOption(ctx, parsed, "nodes"));
  if (nodes) {
    if (*nodes > 1000) return ctx.Usage("nodes= takes at most 1000");
    options.nodes = static_cast<int>(*nodes);
  } else if (std::optional<int> cluster_nodes = ClusterNodes(ctx)) {
    options.nodes = *cluster_nodes;
  }
  LBT_ASSIGN_OR_RETURN(lab::TableSample sample, Sample(ctx, parsed));
  LabOutput(ctx)->Hotspots(Summary(sample), lab::SimulateHotspots(sample, options));
  return Status::OK();
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

Status WritePage(CommandContext& ctx, const std::string& path, const lab::TableSample& sample) {
  const bool html = EndsWith(path, ".html") || EndsWith(path, ".htm");
  if (!html && !EndsWith(path, ".svg"))
    return ctx.Usage(fmt::format("keyviz writes .html or .svg files, not '{}'", path));
  const lab::WriteGrid grid = lab::KeyvizGrid(sample, kPageRanges, kPageWindows);
  const std::string page = html ? KeyvizHtml(sample.spec.name, grid) : KeyvizSvg(sample.spec.name, grid);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << page;
  file.close();
  if (!file) return Status::InvalidArgument(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  LabOutput(ctx)->PageWritten(path, grid);
  return Status::OK();
}

Status Keyviz(CommandContext& ctx, const std::vector<std::string>& args) {
  const bool with_file = args.size() > 1 && args[1].find('=') == std::string::npos;
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, with_file ? 2 : 1));
  LBT_ASSIGN_OR_RETURN(lab::TableSample sample, Sample(ctx, parsed, kKeyvizSampleRows));
  if (with_file) return WritePage(ctx, parsed.positional[1], sample);
  LabOutput(ctx)->Heatmap(Summary(sample), lab::KeyvizGrid(sample, kTerminalRanges, kTerminalWindows));
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> LabCommands() {
  const Option sample{.key = "sample", .value = "<rows>"};
  return {
      {.name = "advise",
       .summary = "Check a table against Bigtable's schema guidance (lbt)",
       .args = {kTableArg},
       .options = {sample},
       .details = "  Reads a bounded sample of the table (every row of a table up to 256 MiB,\n"
                  "  else runs of rows across its key space; sample= sets how many rows are\n"
                  "  kept, 10000 by default) and reports each finding with its rule, the\n"
                  "  evidence from your keys, the reason and a fix. --format jsonl prints one\n"
                  "  finding per line.\n\n"
                  "  Rules: key-starts-with-timestamp, key-sequential-id, key-hashed,\n"
                  "  key-unpadded-number, key-domain-not-reversed, key-pii, key-too-long,\n"
                  "  key-raw-bytes, too-many-families, mixed-retention-family,\n"
                  "  versions-as-time-series, row-unbounded-wide, row-too-large,\n"
                  "  cell-too-large, many-similar-tables.\n\n"
                  "  Example: advise mobile_time_series",
       .cbt = Advise},
      {.name = "stats",
       .summary = "Rows, cells and bytes of a table, and their spread (lbt)",
       .args = {kTableArg},
       .options = {sample},
       .details = "  Totals per table and per family (exact when every row is read), the spread\n"
                  "  of row sizes, cells and columns per row, versions per column, key and\n"
                  "  qualifier lengths, the largest rows and cells, and the key prefixes\n"
                  "  holding the most data. Same sample as advise.\n\n"
                  "  Example: stats page_views",
       .cbt = Stats},
      {.name = "hotspots",
       .summary = "Simulate how a table's writes spread over Bigtable's nodes (lbt)",
       .args = {kTableArg},
       .options = {{.key = "nodes", .value = "<n>"}, sample},
       .details = "  Splits the key space into tablets by data size, gives them to n nodes\n"
                  "  (by default the nodes of the instance's first cluster, else 3), replays\n"
                  "  the sampled cells in timestamp order and reports each node's share of\n"
                  "  the writes in each time window, the hottest key range and\n"
                  "  peak_node_share: 1/n is an even spread, 1 means one node takes every\n"
                  "  write.\n\n"
                  "  Example: hotspots mobile_time_series nodes=3",
       .cbt = Hotspots},
      {.name = "keyviz",
       .summary = "A Key Visualizer heatmap of a table's writes (lbt)",
       .args =
           {kTableArg,
            {.text = "<file.html>|<file.svg>", .noun = "a file", .kind = ArgKind::kFile, .arity = Arity::kOptional}},
       .options = {sample},
       .details = "  Key ranges down, time across (from cell timestamps), brighter for more\n"
                  "  cells written. Without a file, a heatmap in the terminal; with one, a\n"
                  "  self-contained HTML page or SVG image whose cells show their key range,\n"
                  "  time and count when pointed at. It keeps 100000 sampled rows by default\n"
                  "  (sample= sets it), and draws fewer, larger cells when the sample is too\n"
                  "  small to fill each with enough writes for an even load to look even.\n\n"
                  "  Example: keyviz mobile_time_series keyviz.html",
       .cbt = Keyviz},
      {.name = "explain",
       .summary = "Show how a read runs (lbt)",
       .args = {{.text = "analyze", .noun = "analyze", .arity = Arity::kOptional},
                {.text = "<read|lookup|count|scan|get|sql ...>",
                 .noun = "a read command",
                 .kind = ArgKind::kCommand,
                 .arity = Arity::kRest}},
       .details = "  Prints the plan of a read command of either dialect: a point lookup, a\n"
                  "  prefix or range scan with its ranges, or a full table scan, and which\n"
                  "  filters run where. With analyze the read runs (its rows are not shown)\n"
                  "  and the plan adds the rows and cells examined against those returned.\n"
                  "  A SQL query (explain SELECT ... or explain sql ...) shows SQL's EXPLAIN:\n"
                  "  its operators with the rows each handed on; it always runs the query.\n\n"
                  "  Examples:\n"
                  "    explain read mobile_time_series prefix=phone#4c410523\n"
                  "    explain analyze read mobile_time_series regex=.*#20190501\n"
                  "    explain scan 'mobile_time_series', {ROWPREFIXFILTER => 'tablet'}",
       .cbt = Explain},
  };
}

}  // namespace lbt
