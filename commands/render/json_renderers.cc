// --format json (one document a command) and --format jsonl (one object a
// line, rows streamed): every command looks alike whichever language ran it.

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "api/backup.h"
#include "api/logical_view.h"
#include "api/materialized_view.h"
#include "commands/cbt/gc_policy_text.h"
#include "commands/render/query_output.h"
#include "commands/render/renderers.h"
#include "commands/render/row_json.h"
#include "commands/render/text_format.h"
#include "util/bytes.h"

namespace lbt {

namespace {

using json = nlohmann::ordered_json;  // keys in the documented order

json StatsObject(const ReadSummary& s) {
  json stats{{"rows_seen", s.stats.rows_seen},
             {"rows_returned", s.stats.rows_returned},
             {"cells_seen", s.stats.cells_seen},
             {"cells_returned", s.stats.cells_returned},
             {"latency_ms", s.latency_ms}};
  if (!s.filter_placement.empty()) stats["filter_placement"] = s.filter_placement;
  if (s.stats.source == ReadStats::Source::kClient) stats["counted_by"] = "client";
  return stats;
}

json TableObject(const TableSpec& table) {
  json families = json::array();
  for (const auto& [name, f] : table.families) {
    json family = {{"name", name},
                   {"gc_policy", FormatGcPolicy(f.gc_rule)},
                   {"value_type", std::string(ValueTypeName(f.value_type))}};
    if (!f.type_name.empty()) {
      family["schema_bundle_id"] = f.schema_bundle_id;
      family["type_name"] = f.type_name;
    }
    families.push_back(std::move(family));
  }
  json out = {{"table", table.name}, {"families", families}, {"granularity", GranularityName(table.granularity)}};
  if (table.change_stream) out["change_stream_retention"] = FormatSpan(table.change_stream->retention_micros);
  if (table.row_key_schema) out["row_key_schema"] = DescribeRowKeySchema(*table.row_key_schema);
  if (table.tiered_storage) {
    out["infrequent_access_after"] = FormatSpan(table.tiered_storage->infrequent_access_older_than_micros);
  }
  return out;
}

json ClusterObject(const ClusterSpec& c) {
  json j = {{"cluster", c.id},
            {"location", c.location},
            {"serve_nodes", c.serve_nodes},
            {"storage_type", c.storage_type == StorageType::kHdd ? "HDD" : "SSD"}};
  if (c.autoscaling) {
    j["autoscaling"] = {{"min_nodes", c.autoscaling->min_nodes},
                        {"max_nodes", c.autoscaling->max_nodes},
                        {"cpu_target_percent", c.autoscaling->cpu_target_percent}};
  }
  return j;
}

json AppProfileObject(const AppProfileSpec& p) {
  json j = {{"app_profile", p.id}, {"description", p.description}, {"etag", p.etag}};
  if (p.routing == AppProfileSpec::Routing::kSingleCluster) {
    j["routing"] = {{"single_cluster", p.cluster_id}, {"allow_transactional_writes", p.allow_transactional_writes}};
  } else {
    j["routing"] = {{"multi_cluster", p.cluster_ids}, {"row_affinity", p.row_affinity}};
  }
  return j;
}

// Bytes as JSON text when they are UTF-8 (and the mode allows), else
// {"b64": "..."}.
json BytesJson(const std::string& bytes, BytesMode mode) {
  if (mode != BytesMode::kBase64 && IsValidUtf8(bytes)) return bytes;
  return json{{"b64", Base64Encode(bytes)}};
}

// A bytes field as the row object writes one: `name` holding the text
// when it is UTF-8 (and the mode allows), else `name`_b64.
void PutBytes(json* object, const std::string& name, const std::string& bytes, BytesMode mode) {
  if (mode != BytesMode::kBase64 && IsValidUtf8(bytes)) {
    (*object)[name] = bytes;
  } else {
    (*object)[name + "_b64"] = Base64Encode(bytes);
  }
}

json MutationObject(const Mutation& m, BytesMode mode) {
  json cell = {{"family", m.family}};
  PutBytes(&cell, "qualifier", m.qualifier, mode);
  switch (m.kind) {
    case Mutation::Kind::kSetCell:
      cell["timestamp"] = m.timestamp;
      PutBytes(&cell, "value", m.value, mode);
      return {{"set_cell", cell}};
    case Mutation::Kind::kAddToCell:
      cell["timestamp"] = m.timestamp;
      cell["input"] = m.int_value;
      return {{"add_to_cell", cell}};
    case Mutation::Kind::kDeleteFromColumn: {
      json d = cell;
      if (m.range.start_micros != 0) d["start_timestamp"] = m.range.start_micros;
      if (m.range.end_micros != 0) d["end_timestamp"] = m.range.end_micros;
      return {{"delete_from_column", d}};
    }
    case Mutation::Kind::kDeleteFromFamily: return {{"delete_from_family", {{"family", m.family}}}};
    case Mutation::Kind::kDeleteFromRow: return {{"delete_from_row", json::object()}};
  }
  return json::object();
}

// watch's change object: {"row_key", "commit_time", "commit_timestamp",
// "type", "mutations", "token"}.
json ChangeObject(const DataChange& change, const std::string& token, BytesMode mode) {
  json mutations = json::array();
  for (const Mutation& m : change.mutations) mutations.push_back(MutationObject(m, mode));
  json out = json::object();
  PutBytes(&out, "row_key", change.row_key, mode);
  out["commit_time"] = sql::FormatTimestampRfc3339(change.commit_micros);
  out["commit_timestamp"] = change.commit_micros;
  out["type"] = change.type == DataChange::Type::kGarbageCollection ? "garbage_collection" : "user";
  out["mutations"] = mutations;
  out["token"] = token;
  return out;
}

json BytesList(const std::vector<std::string>& list, BytesMode mode) {
  json out = json::array();
  for (const std::string& item : list) out.push_back(BytesJson(item, mode));
  return out;
}

json AuthorizedViewObject(std::string_view table, const AuthorizedViewSpec& v, BytesMode mode) {
  json families = json::object();
  for (const auto& [family, columns] : v.subset.family_subsets) {
    families[family] = {{"qualifiers", BytesList(columns.qualifiers, mode)},
                        {"qualifier_prefixes", BytesList(columns.qualifier_prefixes, mode)}};
  }
  return json{{"table", std::string(table)},
              {"authorized_view", v.id},
              {"deletion_protection", v.deletion_protection},
              {"etag", v.etag},
              {"row_prefixes", BytesList(v.subset.row_prefixes, mode)},
              {"family_subsets", families}};
}

json LogicalViewObject(const LogicalViewSpec& v) {
  return json{
      {"logical_view", v.id}, {"query", v.query}, {"deletion_protection", v.deletion_protection}, {"etag", v.etag}};
}

json MaterializedViewObject(const MaterializedViewSpec& v) {
  json j = {{"materialized_view", v.id}, {"query", v.query}};
  // A service does not say a view's table or state (lbt's own are known).
  if (!v.source_table.empty()) {
    j["source_table"] = v.source_table;
    j["state"] = v.backfilled ? "ready" : "building";
  }
  j["deletion_protection"] = v.deletion_protection;
  j["etag"] = v.etag;
  return j;
}

json BackupObject(const BackupSpec& b) {
  json j = {{"instance", b.instance.instance},
            {"cluster", b.cluster},
            {"backup", b.id},
            {"source_table", b.source_table},
            {"size_bytes", b.size_bytes},
            {"start_time_micros", b.start_time_micros},
            {"end_time_micros", b.end_time_micros},
            {"expire_time_micros", b.expire_time_micros}};
  if (!b.source_backup.empty()) j["source_backup"] = b.source_backup;
  return j;
}

json InstanceObject(const InstanceSpec& i) {
  json clusters = json::array();
  for (const ClusterSpec& c : i.clusters) clusters.push_back(ClusterObject(c));
  return json{{"project", i.name.project},
              {"instance", i.name.instance},
              {"display_name", i.display_name},
              {"type", i.type == InstanceType::kDevelopment ? "DEVELOPMENT" : "PRODUCTION"},
              {"labels", i.labels},
              {"edition", i.edition == InstanceEdition::kEnterprisePlus ? "ENTERPRISE_PLUS" : "ENTERPRISE"},
              {"clusters", clusters}};
}

std::string Dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

json QueryStatsObject(const sql::QueryStats& s) {
  return json{{"table", s.table},
              {"ranges_read", s.ranges},
              {"rows_examined", s.rows_examined},
              {"rows_returned", s.rows_returned}};
}

// What JSON and JSON lines print alike: one object per line for every
// result that is not rows.
class JsonRendererBase : public Renderer {
 public:
  JsonRendererBase(Output* out, BytesMode bytes) : out_(out), bytes_(bytes) {}

  void Tables(const std::vector<std::string>& names) override { Line(json{{"tables", names}}); }
  void TableInfo(const TableSpec& table) override { Line(TableObject(table)); }

  void Instances(const std::vector<InstanceSpec>& instances) override {
    json list = json::array();
    for (const InstanceSpec& i : instances) list.push_back(InstanceObject(i));
    Line(json{{"instances", list}});
  }
  void Clusters(const InstanceSpec& instance) override {
    json list = json::array();
    for (const ClusterSpec& c : instance.clusters) list.push_back(ClusterObject(c));
    Line(json{{"instance", instance.name.instance}, {"clusters", list}});
  }
  void AppProfile(const InstanceName& instance, const AppProfileSpec& profile, bool) override {
    json j = AppProfileObject(profile);
    j["instance"] = instance.instance;
    Line(j);
  }
  void Backups(const std::vector<BackupSpec>& backups) override {
    json list = json::array();
    for (const BackupSpec& b : backups) list.push_back(BackupObject(b));
    Line(json{{"backups", list}});
  }
  void Backup(const BackupSpec& backup) override { Line(BackupObject(backup)); }
  void FaultRules(const std::vector<FaultRuleState>& rules) override {
    json list = json::array();
    for (const FaultRuleState& rule : rules) {
      list.push_back(
          json{{"rule", json::parse(rule.rule_json, nullptr, /*allow_exceptions=*/false)}, {"fired", rule.fired}});
    }
    Line(json{{"fault_rules", list}});
  }
  void AuthorizedViews(std::string_view table, const std::vector<AuthorizedViewSpec>& views) override {
    json list = json::array();
    for (const AuthorizedViewSpec& v : views) list.push_back(AuthorizedViewObject(table, v, bytes_));
    Line(json{{"authorized_views", list}});
  }
  void AuthorizedView(std::string_view table, const AuthorizedViewSpec& view) override {
    Line(AuthorizedViewObject(table, view, bytes_));
  }
  void SchemaBundles(const std::vector<SchemaBundleSpec>& bundles) override {
    json list = json::array();
    for (const SchemaBundleSpec& b : bundles) list.push_back(json{{"id", b.id}, {"etag", b.etag}});
    Line(json{{"schema_bundles", list}});
  }
  void SchemaBundle(const SchemaBundleSpec& bundle, const std::vector<std::string>& types) override {
    Line(json{
        {"id", bundle.id}, {"etag", bundle.etag}, {"descriptor_bytes", bundle.descriptors.size()}, {"types", types}});
  }
  void LogicalViews(const std::vector<LogicalViewSpec>& views) override {
    json list = json::array();
    for (const LogicalViewSpec& v : views) list.push_back(LogicalViewObject(v));
    Line(json{{"logical_views", list}});
  }
  // One line a change, in either JSON form: a watch has no end to close a
  // document at.
  void Change(const DataChange& change, const std::string& token) override {
    Line(ChangeObject(change, token, bytes_));
  }
  void LogicalView(const LogicalViewSpec& view) override { Line(LogicalViewObject(view)); }
  void MaterializedViews(const std::vector<MaterializedViewSpec>& views) override {
    json list = json::array();
    for (const MaterializedViewSpec& v : views) list.push_back(MaterializedViewObject(v));
    Line(json{{"materialized_views", list}});
  }
  void MaterializedView(const MaterializedViewSpec& view) override { Line(MaterializedViewObject(view)); }
  void AppProfiles(const InstanceSpec& instance) override {
    json list = json::array();
    for (const AppProfileSpec& p : instance.app_profiles) list.push_back(AppProfileObject(p));
    Line(json{{"instance", instance.name.instance}, {"app_profiles", list}});
  }
  void Count(int64_t rows) override { Line(json{{"count", rows}}); }
  void Replicated(int64_t up_to_micros) override { Line(json{{"replicated_up_to", up_to_micros}}); }

  void TableExists(std::string_view, bool exists) override { Line(json{{"exists", exists}}); }
  void TableState(std::string_view state, bool answer) override { Line(json{{std::string(state), answer}}); }
  void Counter(std::optional<int64_t> value) override {
    Line(value ? json{{"counter", *value}} : json{{"counter", nullptr}});
  }
  void AppendedRow(const lbt::Row& row) override {
    BeginRows(nullptr);
    Row(row);
    EndRows(nullptr);
  }
  void Names(std::string_view kind, const std::vector<std::string>& names) override {
    Line(json{{std::string(kind), names}});
  }
  void User(std::string_view user) override { Line(json{{"user", std::string(user)}}); }
  void ServerStatus(int64_t regions) override { Line(json{{"servers", 1}, {"dead", 0}, {"regions", regions}}); }
  void Splits(const std::vector<std::string>& keys) override { Line(json{{"splits", keys}}); }

  void Help(const std::vector<CommandHelp>& forms) override {
    for (const CommandHelp& form : forms) {
      Line(json{{"command", std::string(form.name)},
                {"language", form.hbase ? "hbase" : "cbt"},
                {"summary", std::string(form.summary)},
                {"usage", form.usage},
                {"details", std::string(form.details)}});
    }
  }
  void HelpIndex(const CommandIndex& index) override {
    for (const auto& [language, list] : {std::pair{"cbt", &index.cbt}, std::pair{"hbase", &index.hbase}}) {
      for (const auto& [name, summary] : *list) {
        Line(json{{"command", std::string(name)}, {"language", language}, {"summary", std::string(summary)}});
      }
    }
  }
  void Statement(std::string_view statement) override { Line(json{{"statement", std::string(statement)}}); }
  void Version(std::string_view version) override { Line(json{{"version", std::string(version)}}); }
  void GarbageCollected(std::string_view table, int64_t deleted, int64_t examined) override {
    Line(json{{"table", std::string(table)}, {"cells_collected", deleted}, {"cells_examined", examined}});
  }
  void Compacted(std::string_view dir, uint64_t bytes_before, uint64_t bytes_after) override {
    Line(json{{"database", std::string(dir)}, {"bytes_before", bytes_before}, {"bytes_after", bytes_after}});
  }

 protected:
  void Line(const json& j) { out_->Write(Dump(j) + "\n"); }
  Output* out_;
  BytesMode bytes_;
  const TableSpec* table_ = nullptr;  // of the read under way
  std::string buffer_;
  std::vector<sql::ResultColumn> columns_;  // of the query under way
};

class JsonRenderer : public JsonRendererBase {
 public:
  using JsonRendererBase::JsonRendererBase;

  void BeginQuery(const std::vector<sql::ResultColumn>& columns) override {
    columns_ = columns;
    first_ = true;
    out_->Write("{\"rows\":[");
  }
  void QueryRow(const sql::Values& row) override {
    out_->Write((first_ ? "" : ",") + QueryRowJson(columns_, row, bytes_));
    first_ = false;
  }
  void EndQuery(const sql::QueryStats* stats) override {
    out_->Write("]");
    if (stats != nullptr) out_->Write(",\"stats\":" + Dump(QueryStatsObject(*stats)));
    out_->Write("}\n");
  }

  // Rows stream inside one document: {"rows":[...]} is written piece by piece.
  void BeginRows(const RowsView& view) override {
    out_->Write("{\"rows\":[");
    first_ = true;
    table_ = view.table;
  }
  void Row(const lbt::Row& row) override {
    buffer_.clear();
    if (!first_) buffer_.push_back(',');
    first_ = false;
    AppendRowJson(&buffer_, row, bytes_, table_);
    out_->Write(buffer_);
  }
  void AbsentRow() override {}
  void EndRows(const ReadSummary* s) override {
    out_->Write("]");
    if (s != nullptr) out_->Write(",\"stats\":" + Dump(StatsObject(*s)));
    out_->Write("}\n");
  }

 private:
  bool first_ = true;
};

class JsonlRenderer : public JsonRendererBase {
 public:
  JsonlRenderer(Output* out, BytesMode bytes, bool query_columns)
      : JsonRendererBase(out, bytes), query_columns_(query_columns) {}

  void BeginQuery(const std::vector<sql::ResultColumn>& columns) override {
    columns_ = columns;
    if (!query_columns_) return;
    json list = json::array();
    for (const sql::ResultColumn& c : columns) list.push_back({{"name", c.name}, {"type", c.type->ToString()}});
    Line(json{{"columns", std::move(list)}});
  }
  void QueryRow(const sql::Values& row) override { out_->Write(QueryRowJson(columns_, row, bytes_) + "\n"); }
  void EndQuery(const sql::QueryStats* stats) override {
    if (stats != nullptr) Line(json{{"stats", QueryStatsObject(*stats)}});
  }

  void BeginRows(const RowsView& view) override { table_ = view.table; }
  void Row(const lbt::Row& row) override {
    buffer_.clear();
    AppendRowJson(&buffer_, row, bytes_, table_);
    buffer_.push_back('\n');
    out_->Write(buffer_);
  }
  void AbsentRow() override {}
  void EndRows(const ReadSummary* s) override {
    if (s != nullptr) Line(json{{"stats", StatsObject(*s)}});
  }

 private:
  const bool query_columns_;
};

}  // namespace

std::unique_ptr<Renderer> NewJsonRenderer(Output* out, BytesMode bytes) {
  return std::make_unique<JsonRenderer>(out, bytes);
}

std::unique_ptr<Renderer> NewJsonlRenderer(Output* out, BytesMode bytes, bool query_columns) {
  return std::make_unique<JsonlRenderer>(out, bytes, query_columns);
}

}  // namespace lbt
