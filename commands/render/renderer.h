// Renderers turn command results into bytes: cbt's text, the HBase shell's
// text, one JSON document per command, or JSON lines streamed row by row.
// Handlers of both dialects call a Renderer and never format output
// themselves; in JSON every command looks alike whichever dialect ran it.
//
// The JSON row object:
//   {"key": <bytes>, "cells": [{"family": "...", "qualifier": <bytes>,
//    "timestamp": <micros>, "value": <bytes>, "labels": [...]}, ...]}
// A bytes field holds a string when its bytes are valid UTF-8, and is
// otherwise named with a "_b64" suffix and holds standard base64 (always,
// with BytesMode::kBase64). "labels" appears only on labelled cells.

#ifndef LBT_COMMANDS_RENDER_RENDERER_H_
#define LBT_COMMANDS_RENDER_RENDERER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/backup.h"
#include "api/cell.h"
#include "api/change_stream.h"
#include "api/instance.h"
#include "api/logical_view.h"
#include "api/materialized_view.h"
#include "api/row_set.h"
#include "api/schema.h"
#include "api/server_faults.h"
#include "commands/core/output.h"
#include "sql/query.h"

namespace lbt {

enum class OutputFormat { kText, kJson, kJsonl };
enum class BytesMode { kAuto, kBase64 };
// Whose text OutputFormat::kText means: cbt's, or the HBase shell's.
enum class TextStyle { kCbt, kHBase };

// How the HBase shell prints a column's values when COLUMNS names it
// 'f:q:toInt': Bytes.toInt and its kin over the value's big-endian bytes.
enum class ValueFormat { kBinary, kString, kInt, kLong, kShort };

// How a read's rows are shown. cbt prints rows; the HBase shell prints a
// get as its row's cells (COLUMN  CELL) and a scan as one line per cell
// (ROW  COLUMN+CELL). JSON shows rows whatever the layout.
enum class RowsLayout { kRows, kHBaseGet, kHBaseScan };

struct RowsView {
  // The table read, if known: JSON then also shows each cell of an
  // aggregate family as the integer it holds ("value_int").
  const TableSpec* table = nullptr;
  RowsLayout layout = RowsLayout::kRows;
  // HBase text: column formatters by (family, qualifier), and MAXLENGTH
  // (each cell's text cut to this many characters; -1: no limit).
  std::map<std::pair<std::string, std::string>, ValueFormat> formats;
  int64_t maxlength = -1;
};

// What a read reports with include-stats=full.
struct ReadSummary {
  ReadStats stats;
  int64_t latency_ms = 0;
  // Where a remote read's filter ran (see remote/filter_plan.h); "" for a
  // local read. Text shows it only when part ran on the client.
  std::string filter_placement;
};

// `help <command>`: one form of the command, in cbt's language or the
// HBase shell's (or the shell's own).
struct CommandHelp {
  std::string_view name;
  bool hbase = false;
  std::string_view summary;
  std::string usage;
  std::string_view details;
};

// `help`: the commands of each language with their summaries, sorted, and
// the shell's own commands' usage.
struct CommandIndex {
  std::vector<std::pair<std::string_view, std::string_view>> cbt, hbase;
  std::vector<std::string> shell;
};

class Renderer {
 public:
  virtual ~Renderer() = default;
  // The renderer of `format` (for text, of `style`); defined in
  // renderers.cc, beside the renderers it picks from.
  // `query_columns`: JSON lines name a query's columns first (see
  // SessionOptions::query_columns).
  static std::unique_ptr<Renderer> Create(OutputFormat format, BytesMode bytes, Output* out,
                                          TextStyle style = TextStyle::kCbt, bool query_columns = false);

  virtual void Tables(const std::vector<std::string>& names) = 0;
  virtual void TableInfo(const TableSpec& table) = 0;
  virtual void Count(int64_t rows) = 0;

  // ---- instances, clusters and app profiles ----
  virtual void Instances(const std::vector<InstanceSpec>& instances) = 0;
  // listclusters: the clusters of `instance`.
  virtual void Clusters(const InstanceSpec& instance) = 0;
  // getappprofile; with `created`, createappprofile's shorter report.
  virtual void AppProfile(const InstanceName& instance, const AppProfileSpec& profile, bool created) = 0;
  // listappprofile: the app profiles of `instance`.
  virtual void AppProfiles(const InstanceSpec& instance) = 0;
  // listbackups; createbackup, getbackup and the other backup commands.
  virtual void Backups(const std::vector<BackupSpec>& backups) = 0;
  virtual void Backup(const BackupSpec& backup) = 0;
  // listauthorizedviews; getauthorizedview and the commands that change one.
  virtual void AuthorizedViews(std::string_view table, const std::vector<AuthorizedViewSpec>& views) = 0;
  virtual void AuthorizedView(std::string_view table, const AuthorizedViewSpec& view) = 0;
  // A table's schema bundles, by id; one bundle with the message and enum
  // types it defines.
  virtual void SchemaBundles(const std::vector<SchemaBundleSpec>& bundles) = 0;
  virtual void SchemaBundle(const SchemaBundleSpec& bundle, const std::vector<std::string>& types) = 0;
  // listlogicalviews; getlogicalview and the commands that change one.
  virtual void LogicalViews(const std::vector<LogicalViewSpec>& views) = 0;
  virtual void LogicalView(const LogicalViewSpec& view) = 0;
  virtual void MaterializedViews(const std::vector<MaterializedViewSpec>& views) = 0;
  virtual void MaterializedView(const MaterializedViewSpec& view) = 0;
  // watch: one committed change, and the token that resumes after it.
  virtual void Change(const DataChange& change, const std::string& token) = 0;

  // A read: BeginRows, Row for each row, EndRows (summary may be null).
  virtual void BeginRows(const RowsView& view) = 0;
  void BeginRows(const TableSpec* table) {
    RowsView view;
    view.table = table;
    BeginRows(view);
  }
  virtual void Row(const Row& row) = 0;
  // A lookup of a row that does not exist (cbt prints an empty row).
  virtual void AbsentRow() = 0;
  virtual void EndRows(const ReadSummary* summary) = 0;

  // A SQL query's result: BeginQuery with its columns, QueryRow for each
  // row, EndQuery (stats only when asked for, else null).
  virtual void BeginQuery(const std::vector<sql::ResultColumn>& columns) = 0;
  virtual void QueryRow(const sql::Values& row) = 0;
  virtual void EndQuery(const sql::QueryStats* stats) = 0;

  // waitforreplication: before waiting, with the time the wait covers
  // writes up to (cbt prints it), and once the writes have replicated.
  virtual void WaitingForReplication(int64_t /*up_to_micros*/) {}
  virtual void Replicated(int64_t /*up_to_micros*/) {}

  // A command of lbt's own language, as `schema` prints it.
  virtual void Statement(std::string_view statement) = 0;

  // ---- help, version and local maintenance ----
  virtual void Help(const std::vector<CommandHelp>& forms) = 0;
  virtual void HelpIndex(const CommandIndex& index) = 0;
  virtual void Version(std::string_view version) = 0;
  // gc: the cells removed from `table` of those examined.
  virtual void GarbageCollected(std::string_view table, int64_t deleted, int64_t examined) = 0;
  // compact: the database file's size before and after.
  virtual void Compacted(std::string_view dir, uint64_t bytes_before, uint64_t bytes_after) = 0;
  // faults: the fault rules of the lbt serve the session reaches, in order.
  virtual void FaultRules(const std::vector<FaultRuleState>& rules) = 0;

  // ---- outcomes of the HBase dialect's commands ----
  // Each prints the HBase shell's text in TextStyle::kHBase and one JSON
  // object in JSON; cbt's text has no form for them (no cbt command calls them).
  virtual void TableCreated(std::string_view /*table*/) {}
  virtual void SchemaAltered() {}
  virtual void Truncating(std::string_view /*table*/) {}
  virtual void TableExists(std::string_view /*table*/, bool /*exists*/) {}
  // is_enabled / is_disabled: `state` is "enabled" or "disabled".
  virtual void TableState(std::string_view /*state*/, bool /*answer*/) {}
  // An 8-byte counter's value, or none at those coordinates.
  virtual void Counter(std::optional<int64_t> /*value*/) {}
  // append's result: the row with the appended cell.
  virtual void AppendedRow(const lbt::Row& /*row*/) {}
  // A list of names: `kind` is "filters" (show_filters) or "namespaces".
  virtual void Names(std::string_view /*kind*/, const std::vector<std::string>& /*names*/) {}
  virtual void User(std::string_view /*user*/) {}
  virtual void ServerStatus(int64_t /*regions*/) {}
  virtual void Splits(const std::vector<std::string>& /*keys*/) {}
  // count's progress every INTERVAL rows.
  virtual void CountProgress(int64_t /*rows*/, std::string_view /*row_key*/) {}
  // After a command succeeds: the HBase shell's "Took 0.0123 seconds".
  virtual void Elapsed(double /*seconds*/) {}
};

// The JSON row object as one line of text, without a newline; with
// `table`, cells of its aggregate families carry "value_int" too.
std::string RowToJson(const Row& row, BytesMode bytes, const TableSpec* table = nullptr);

}  // namespace lbt

#endif  // LBT_COMMANDS_RENDER_RENDERER_H_
