// Text: cbt's, as the real cbt prints it, and the HBase shell's
// non-terminal text.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "api/backup.h"
#include "api/logical_view.h"
#include "api/materialized_view.h"
#include "commands/cbt/gc_policy_text.h"
#include "commands/hbase/schema.h"
#include "commands/render/instance_text.h"
#include "commands/render/query_output.h"
#include "commands/render/renderers.h"
#include "commands/render/text_format.h"
#include "util/bytes.h"

namespace lbt {

namespace {

// A row's cells with families by name: cbt sorts them so on the client and
// the HBase shell prints them so, whatever order the service sent. Cells
// keep their order within a family. Returns `row.cells` itself when it is
// in that order already (one family, or families created by name).
const std::vector<Cell>& CellsByFamilyName(const Row& row, std::vector<Cell>* sorted) {
  const auto by_family = [](const Cell& a, const Cell& b) { return a.family < b.family; };
  if (std::is_sorted(row.cells.begin(), row.cells.end(), by_family)) return row.cells;
  *sorted = row.cells;
  std::stable_sort(sorted->begin(), sorted->end(), by_family);
  return *sorted;
}

std::string QueryStatsText(const sql::QueryStats& s) {
  return fmt::format("\ntable: {}\nranges read: {}\nrows examined: {}\nrows returned: {}\n", s.table, s.ranges,
                     s.rows_examined, s.rows_returned);
}

// What cbt's text and the HBase shell's text print alike: SQL results as
// an aligned table.
// A mutation of a change as watch prints it.
std::string MutationText(const Mutation& m) {
  switch (m.kind) {
    case Mutation::Kind::kSetCell:
      return fmt::format("set {}:{} = {} @{}", m.family, m.qualifier, GoQuote(m.value),
                         FormatCbtTimestamp(m.timestamp));
    case Mutation::Kind::kAddToCell:
      return fmt::format("add {}:{} += {} @{}", m.family, m.qualifier, m.int_value, FormatCbtTimestamp(m.timestamp));
    case Mutation::Kind::kDeleteFromColumn:
      if (m.range.start_micros == 0 && m.range.end_micros == 0)
        return fmt::format("delete {}:{}", m.family, m.qualifier);
      if (m.range.end_micros == 0) {
        return fmt::format("delete {}:{} from {}", m.family, m.qualifier, FormatCbtTimestamp(m.range.start_micros));
      }
      return fmt::format("delete {}:{} [{}, {})", m.family, m.qualifier, FormatCbtTimestamp(m.range.start_micros),
                         FormatCbtTimestamp(m.range.end_micros));
    case Mutation::Kind::kDeleteFromFamily: return fmt::format("delete {}", m.family);
    case Mutation::Kind::kDeleteFromRow: return "delete row";
  }
  return "";
}

class TextRendererBase : public Renderer {
 public:
  explicit TextRendererBase(Output* out) : out_(out), query_table_(out) {}

  // One line a change: its commit time, row and mutations.
  void Change(const DataChange& change, const std::string&) override {
    std::string line = FormatCbtTimestamp(change.commit_micros) + "  " + change.row_key + "  ";
    if (change.type == DataChange::Type::kGarbageCollection) line += "(garbage collection) ";
    for (size_t i = 0; i < change.mutations.size(); ++i) {
      line += (i == 0 ? "" : "; ") + MutationText(change.mutations[i]);
    }
    out_->Write(line + "\n");
  }

  // cbt's text in either style: the HBase shell has no instance commands.
  void Instances(const std::vector<InstanceSpec>& instances) override { out_->Write(InstancesText(instances)); }
  void Clusters(const InstanceSpec& instance) override { out_->Write(ClustersText(instance)); }
  void AppProfile(const InstanceName& instance, const AppProfileSpec& profile, bool created) override {
    out_->Write(AppProfileText(instance, profile, created));
  }
  void AppProfiles(const InstanceSpec& instance) override { out_->Write(AppProfilesText(instance)); }
  void Backups(const std::vector<BackupSpec>& backups) override { out_->Write(BackupsText(backups)); }
  void Backup(const BackupSpec& backup) override { out_->Write(BackupText(backup)); }
  void AuthorizedViews(std::string_view, const std::vector<AuthorizedViewSpec>& views) override {
    for (const AuthorizedViewSpec& view : views) out_->Write(view.id + "\n");
  }
  void AuthorizedView(std::string_view table, const AuthorizedViewSpec& view) override {
    out_->Write(AuthorizedViewText(table, view));
  }
  void SchemaBundles(const std::vector<SchemaBundleSpec>& bundles) override {
    for (const SchemaBundleSpec& bundle : bundles) out_->Write(bundle.id + "\n");
  }
  void SchemaBundle(const SchemaBundleSpec& bundle, const std::vector<std::string>& types) override {
    std::string list;
    for (const std::string& t : types) list += "  " + t + "\n";
    out_->Write(fmt::format("Name: {}\nEtag: {}\nDescriptors: {} bytes\nTypes:\n{}", bundle.id, bundle.etag,
                            bundle.descriptors.size(), list));
  }
  void LogicalViews(const std::vector<LogicalViewSpec>& views) override {
    for (const LogicalViewSpec& view : views) out_->Write(view.id + "\n");
  }
  void LogicalView(const LogicalViewSpec& view) override {
    out_->Write(fmt::format("Name: {}\nQuery: {}\nDeletion Protection: {}\nEtag: {}\n", view.id, view.query,
                            view.deletion_protection ? "true" : "false", view.etag));
  }

  void MaterializedViews(const std::vector<MaterializedViewSpec>& views) override {
    for (const MaterializedViewSpec& view : views) out_->Write(view.id + "\n");
  }
  void MaterializedView(const MaterializedViewSpec& view) override {
    // A service does not say a view's table or state (lbt's own are known).
    const std::string kept = view.source_table.empty() ? std::string()
                                                       : fmt::format("Source Table: {}\nState: {}\n", view.source_table,
                                                                     view.backfilled ? "ready" : "building");
    out_->Write(fmt::format("Name: {}\nQuery: {}\n{}Deletion Protection: {}\nEtag: {}\n", view.id, view.query, kept,
                            view.deletion_protection ? "true" : "false", view.etag));
  }

  void BeginQuery(const std::vector<sql::ResultColumn>& columns) override { query_table_.Begin(columns); }
  void QueryRow(const sql::Values& row) override { query_table_.Add(row); }
  void EndQuery(const sql::QueryStats* stats) override {
    query_table_.Finish();
    if (stats != nullptr) out_->Write(QueryStatsText(*stats));
  }

  void Help(const std::vector<CommandHelp>& forms) override {
    std::string text;
    for (size_t i = 0; i < forms.size(); ++i) {
      if (i > 0 && forms[i].hbase && !forms[i - 1].hbase) text += "\nIn the HBase shell's form:\n\n";
      text += fmt::format("{}\n\n  {}\n", forms[i].summary, forms[i].usage);
      if (!forms[i].details.empty()) text += fmt::format("\n{}\n", forms[i].details);
    }
    out_->Write(text);
  }

  void HelpIndex(const CommandIndex& index) override {
    size_t width = 0;
    for (const auto* list : {&index.cbt, &index.hbase}) {
      for (const auto& [name, summary] : *list) width = std::max(width, name.size());
    }
    std::string text = "Commands in cbt's language (`help <command>` for details):\n\n";
    for (const auto& [name, summary] : index.cbt) text += fmt::format("  {:<{}}  {}\n", name, width, summary);
    text += "\nCommands in the HBase shell's language (arguments quoted: scan 't', {LIMIT => 5}):\n\n";
    for (const auto& [name, summary] : index.hbase) text += fmt::format("  {:<{}}  {}\n", name, width, summary);
    text += fmt::format("\nIn the shell and in scripts: {}.\n", fmt::join(index.shell, ", "));
    out_->Write(text);
  }

  void Statement(std::string_view statement) override { out_->Write(fmt::format("{}\n", statement)); }

  void Version(std::string_view version) override { out_->Write(fmt::format("lbt {}\n", version)); }

  void GarbageCollected(std::string_view table, int64_t deleted, int64_t examined) override {
    out_->Write(fmt::format("collected {} of {} cells in {}\n", deleted, examined, table));
  }

  void FaultRules(const std::vector<FaultRuleState>& rules) override {
    if (rules.empty()) out_->Write("no fault rules in force\n");
    for (size_t i = 0; i < rules.size(); ++i) {
      out_->Write(fmt::format("rule {} (fired {}): {}\n", i + 1, rules[i].fired, rules[i].rule_json));
    }
  }
  void Compacted(std::string_view dir, uint64_t bytes_before, uint64_t bytes_after) override {
    out_->Write(fmt::format("compacted {}: {} -> {}\n", dir, HumanBytes(bytes_before), HumanBytes(bytes_after)));
  }

 protected:
  Output* out_;

 private:
  QueryTable query_table_;
};

class TextRenderer : public TextRendererBase {
 public:
  using TextRendererBase::TextRendererBase;

  void Tables(const std::vector<std::string>& names) override {
    for (const std::string& n : names) {
      out_->Write(n);
      out_->Write("\n");
    }
  }

  void TableInfo(const TableSpec& table) override {
    TabWriter tw(0, 8, 5);  // the installed cbt's tabwriter settings
    tw.AddLine("Family Name\tGC Policy\tValue Type");
    tw.AddLine("-----------\t---------\t----------");
    for (const auto& [name, f] : table.families) {
      tw.AddLine(name + "\t" + FormatGcPolicy(f.gc_rule) + "\t" + FormatValueType(f));
    }
    out_->Write(tw.Render());
    // cbt's own lines stay as they are for the MILLIS tables it knows.
    if (table.granularity != TimestampGranularity::kMillis) {
      out_->Write(fmt::format("\nTimestamp granularity: {}\n", GranularityName(table.granularity)));
    }
    if (table.row_key_schema) {
      out_->Write(fmt::format("\nRow key: {}\n", DescribeRowKeySchema(*table.row_key_schema)));
    }
    if (table.tiered_storage) {
      out_->Write(fmt::format("\nTiered storage: cells older than {} in the infrequent access tier\n",
                              FormatSpan(table.tiered_storage->infrequent_access_older_than_micros)));
    }
    if (table.change_stream) {
      out_->Write(fmt::format("\nChange stream: on, keeping {}\n", FormatSpan(table.change_stream->retention_micros)));
    }
  }

  void Count(int64_t rows) override { out_->Write(fmt::format("{}\n", rows)); }

  void WaitingForReplication(int64_t up_to_micros) override {
    // cbt names the second, without the fraction FormatCbtTimestamp adds.
    std::string time = FormatCbtTimestamp(up_to_micros);
    out_->Write(fmt::format("Waiting for all writes up to {} to be replicated.\n", time.substr(0, time.find('.'))));
  }

  void BeginRows(const RowsView&) override {}

  void Row(const lbt::Row& row) override {
    std::string text(40, '-');
    text += '\n';
    text += row.key;
    text += '\n';
    std::vector<Cell> sorted;
    for (const Cell& c : CellsByFamilyName(row, &sorted)) {
      text += "  ";
      text += PadRight(c.family + ":" + c.qualifier, 40);
      text += " @ ";
      text += FormatCbtTimestamp(c.timestamp);
      text += "\n    ";
      text += GoQuote(c.value);
      text += '\n';
      if (!c.labels.empty()) {
        text += "    labels: ";
        for (size_t i = 0; i < c.labels.size(); ++i) text += (i ? "," : "") + c.labels[i];
        text += '\n';
      }
    }
    text += '\n';
    out_->Write(text);
  }

  void AbsentRow() override { Row(lbt::Row{}); }

  void EndRows(const ReadSummary* s) override {
    if (s == nullptr) return;
    out_->Write(fmt::format(
        "Summary Stats\n====================\nrows_seen_count: {}\nrows_returned_count: {}\n"
        "cells_seen_count: {}\ncells_returned_count: {}\nfrontend_server_latency: {}ms\n\n",
        s->stats.rows_seen, s->stats.rows_returned, s->stats.cells_seen, s->stats.cells_returned, s->latency_ms));
    // Only when part of the filter ran on the client (remote mode), so that
    // the rest matches cbt line for line.
    if (s->filter_placement.find("client") != std::string::npos) {
      out_->Write("filter_placement: " + s->filter_placement + "\n\n");
    }
    // Only when the service sent no request stats, so that otherwise the
    // lines match cbt's.
    if (s->stats.source == ReadStats::Source::kClient) {
      out_->Write("counted_by: client (the service sent no request stats)\n\n");
    }
  }

 private:
};

// The HBase shell's non-terminal text.
class HBaseTextRenderer : public TextRendererBase {
 public:
  using TextRendererBase::TextRendererBase;

  void Tables(const std::vector<std::string>& names) override {
    Line("TABLE");
    for (const std::string& t : names) Line(t);
    Line(fmt::format("{} row(s)", names.size()));
  }
  void TableInfo(const TableSpec& table) override {
    Line(fmt::format("Table {} is {}", table.name, table.enabled ? "ENABLED" : "DISABLED"));
    Line(table.name);
    Line("COLUMN FAMILIES DESCRIPTION");
    for (const auto& [name, family] : table.families) Line(DescribeFamily(family));
    Line(fmt::format("{} row(s)", table.families.size()));
  }
  void Count(int64_t rows) override { Line(fmt::format("{} row(s)", rows)); }

  void BeginRows(const RowsView& view) override {
    view_ = view;
    shown_ = 0;
    if (view_.layout == RowsLayout::kHBaseGet) Line("COLUMN  CELL");
    if (view_.layout == RowsLayout::kHBaseScan) Line("ROW  COLUMN+CELL");
  }
  void Row(const lbt::Row& row) override {
    std::vector<Cell> sorted;
    const std::vector<Cell>& cells = CellsByFamilyName(row, &sorted);
    if (view_.layout == RowsLayout::kHBaseGet) {
      for (const Cell& c : cells) Line(" " + ColumnText(c) + " " + CellText(c));
      shown_ += static_cast<int64_t>(row.cells.size());  // a get counts cells
      return;
    }
    const std::string key = ToStringBinary(row.key);
    for (const Cell& c : cells) Line(fmt::format(" {} column={}, {}", key, ColumnText(c), CellText(c)));
    ++shown_;
  }
  void AbsentRow() override {}
  void EndRows(const ReadSummary*) override { Line(fmt::format("{} row(s)", shown_)); }

  void TableCreated(std::string_view table) override { Line(fmt::format("Created table {}", table)); }
  void SchemaAltered() override {
    Line("Updating all regions with the new schema...");
    Line("Done.");
  }
  void Truncating(std::string_view table) override {
    Line(fmt::format("Truncating '{}' table (it may take a while):", table));
  }
  void TableExists(std::string_view table, bool exists) override {
    Line(fmt::format("Table {} {} exist", table, exists ? "does" : "does not"));
  }
  void TableState(std::string_view, bool answer) override { Line(answer ? "true" : "false"); }
  void Counter(std::optional<int64_t> value) override {
    Line(value ? fmt::format("COUNTER VALUE = {}", *value) : "No counter found at specified coordinates");
  }
  void AppendedRow(const lbt::Row& row) override {
    Line("CURRENT VALUE = " + (row.cells.empty() ? std::string() : ToStringBinary(row.cells[0].value)));
  }
  // list_snapshots, as the HBase shell prints it.
  void Backups(const std::vector<BackupSpec>& backups) override {
    Line(fmt::format("{:<40} {}", "SNAPSHOT", "TABLE + CREATION TIME"));
    for (const BackupSpec& b : backups) {
      Line(fmt::format(" {:<39} {} ({})", b.id, b.source_table, Rfc3339(b.start_time_micros)));
    }
    Line(fmt::format("{} row(s)", backups.size()));
  }
  void Names(std::string_view kind, const std::vector<std::string>& names) override {
    // show_filters lists bare names; list_namespace prints a table.
    const bool table = kind == "namespaces";
    if (table) Line("NAMESPACE");
    for (const std::string& n : names) Line(n);
    if (table) Line(fmt::format("{} row(s)", names.size()));
  }
  void User(std::string_view user) override { Line(fmt::format("{} (auth:SIMPLE)", user)); }
  void ServerStatus(int64_t regions) override {
    Line(fmt::format("1 active master, 0 backup masters, 1 servers, 0 dead, {}.0000 average load", regions));
  }
  void Splits(const std::vector<std::string>& keys) override {
    for (const std::string& key : keys) Line(ToStringBinary(key));
    Line(fmt::format("Total number of splits = {}", keys.size() + 1));
  }
  void CountProgress(int64_t rows, std::string_view row_key) override {
    Line(fmt::format("Current count: {}, row: {}", rows, ToStringBinary(row_key)));
  }
  void Elapsed(double seconds) override { Line(fmt::format("Took {:.4f} seconds", seconds)); }

 private:
  void Line(const std::string& text) { out_->Write(text + "\n"); }

  static std::string ColumnText(const Cell& c) { return c.family + ":" + ToStringBinary(c.qualifier); }

  // A value as its column's formatter prints it; a value the formatter
  // cannot read (the wrong length) is shown as raw bytes.
  std::string ValueText(const Cell& c) const {
    auto it = view_.formats.find({c.family, c.qualifier});
    std::optional<int64_t> n;
    if (it != view_.formats.end()) {
      switch (it->second) {
        case ValueFormat::kString: return c.value;
        case ValueFormat::kInt: n = BigEndian(c.value, 4); break;
        case ValueFormat::kLong: n = BigEndian(c.value, 8); break;
        case ValueFormat::kShort: n = BigEndian(c.value, 2); break;
        case ValueFormat::kBinary: break;
      }
    }
    return n ? std::to_string(*n) : ToStringBinary(c.value);
  }

  std::string CellText(const Cell& c) const {
    std::string text = fmt::format("timestamp={}, value={}", c.timestamp / kMicrosPerMs, ValueText(c));
    if (view_.maxlength >= 0 && static_cast<int64_t>(text.size()) > view_.maxlength) text.resize(view_.maxlength);
    return text;
  }

  // A big-endian signed integer of exactly `width` bytes, as Bytes.toInt
  // and its kin read it; nullopt for a value of another length.
  static std::optional<int64_t> BigEndian(const std::string& value, size_t width) {
    if (value.size() != width) return std::nullopt;
    const uint64_t n = DecodeBigEndian(value);
    const int shift = 64 - static_cast<int>(width) * 8;
    return static_cast<int64_t>(n << shift) >> shift;  // sign-extend
  }

  RowsView view_;
  int64_t shown_ = 0;
};

}  // namespace

std::unique_ptr<Renderer> NewCbtTextRenderer(Output* out) { return std::make_unique<TextRenderer>(out); }

std::unique_ptr<Renderer> NewHBaseTextRenderer(Output* out) { return std::make_unique<HBaseTextRenderer>(out); }

}  // namespace lbt
