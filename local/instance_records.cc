#include "local/instance_records.h"

#include <charconv>

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/backup.h"
#include "storage/catalog.h"
#include "storage/database.h"

namespace lbt {

namespace {

using nlohmann::json;

const char* StorageName(StorageType type) {
  switch (type) {
    case StorageType::kSsd: return "ssd";
    case StorageType::kHdd: return "hdd";
    case StorageType::kUnspecified: break;
  }
  return "unspecified";
}

StorageType StorageFromName(const std::string& name) {
  if (name == "ssd") return StorageType::kSsd;
  if (name == "hdd") return StorageType::kHdd;
  return StorageType::kUnspecified;
}

json ClusterToJson(const ClusterSpec& c) {
  json j = {{"id", c.id},
            {"location", c.location},
            {"serve_nodes", c.serve_nodes},
            {"storage_type", StorageName(c.storage_type)},
            {"node_scaling_factor", c.node_scaling_factor}};
  if (!c.kms_key_name.empty()) j["kms_key_name"] = c.kms_key_name;
  if (c.autoscaling) {
    j["autoscaling"] = {{"min_nodes", c.autoscaling->min_nodes},
                        {"max_nodes", c.autoscaling->max_nodes},
                        {"cpu_target_percent", c.autoscaling->cpu_target_percent},
                        {"storage_gib_per_node", c.autoscaling->storage_gib_per_node}};
  }
  return j;
}

ClusterSpec ClusterFromJson(const json& j) {
  ClusterSpec c;
  c.id = j.at("id").get<std::string>();
  c.location = j.at("location").get<std::string>();
  c.serve_nodes = j.at("serve_nodes").get<int32_t>();
  c.storage_type = StorageFromName(j.value("storage_type", std::string("ssd")));
  c.node_scaling_factor = j.value("node_scaling_factor", 1);
  c.kms_key_name = j.value("kms_key_name", std::string());
  if (j.contains("autoscaling")) {
    const json& a = j["autoscaling"];
    c.autoscaling =
        ClusterAutoscaling{a.at("min_nodes").get<int32_t>(), a.at("max_nodes").get<int32_t>(),
                           a.at("cpu_target_percent").get<int32_t>(), a.at("storage_gib_per_node").get<int32_t>()};
  }
  return c;
}

json ProfileToJson(const AppProfileSpec& p) {
  json j = {{"id", p.id},
            {"description", p.description},
            {"etag", p.etag},
            {"routing", p.routing == AppProfileSpec::Routing::kSingleCluster ? "single" : "multi"},
            {"isolation", static_cast<int>(p.isolation)},
            {"priority", static_cast<int>(p.priority)}};
  if (p.routing == AppProfileSpec::Routing::kSingleCluster) {
    j["cluster_id"] = p.cluster_id;
    j["allow_transactional_writes"] = p.allow_transactional_writes;
  } else {
    j["cluster_ids"] = p.cluster_ids;
    j["row_affinity"] = p.row_affinity;
  }
  if (p.data_boost_host_pays) j["data_boost_host_pays"] = true;
  return j;
}

AppProfileSpec ProfileFromJson(const json& j) {
  AppProfileSpec p;
  p.id = j.at("id").get<std::string>();
  p.description = j.value("description", std::string());
  p.etag = j.value("etag", std::string());
  p.routing = j.at("routing").get<std::string>() == "single" ? AppProfileSpec::Routing::kSingleCluster
                                                             : AppProfileSpec::Routing::kMultiCluster;
  p.cluster_id = j.value("cluster_id", std::string());
  p.allow_transactional_writes = j.value("allow_transactional_writes", false);
  p.cluster_ids = j.value("cluster_ids", std::vector<std::string>());
  p.row_affinity = j.value("row_affinity", false);
  p.isolation = static_cast<AppProfileSpec::Isolation>(j.value("isolation", 0));
  p.priority = static_cast<AppProfileSpec::Priority>(j.value("priority", 0));
  p.data_boost_host_pays = j.value("data_boost_host_pays", false);
  return p;
}

}  // namespace

std::vector<std::string> SplitOnSlash(std::string_view name) {
  std::vector<std::string> out;
  for (size_t slash; (slash = name.find('/')) != std::string_view::npos; name.remove_prefix(slash + 1)) {
    out.emplace_back(name.substr(0, slash));
  }
  out.emplace_back(name);
  return out;
}

std::string TablePrefixOf(const InstanceName& name) {
  if (name == DefaultInstanceName()) return {};
  return name.project + "/" + name.instance + "/";
}

std::string InstanceKey(const InstanceName& name) {
  return fmt::format("{}{}/{}", kInstanceKeyPrefix, name.project, name.instance);
}

InstanceBelongings BelongingsOf(const InstanceName& name) {
  const std::string path = name.project + "/" + name.instance + "/";
  InstanceBelongings b;
  b.record_prefixes = {BackupKeyPrefix(name, ""), LogicalViewKey(name, ""), MaterializedViewKey(name, ""),
                       IamKey(name.Full() + "/")};
  b.record_keys = {IamKey(name.Full())};
  for (const char* kind : {"backup/", "restore/", "mview/", "mview-state/"}) {
    b.table_prefixes.push_back(std::string(1, kHiddenTableMark) + kind + path);
  }
  return b;
}

std::string EncodeInstanceSpec(const InstanceSpec& spec) {
  json clusters = json::array();
  for (const ClusterSpec& c : spec.clusters) clusters.push_back(ClusterToJson(c));
  json profiles = json::array();
  for (const AppProfileSpec& p : spec.app_profiles) profiles.push_back(ProfileToJson(p));
  json doc = {{"display_name", spec.display_name},
              {"type", spec.type == InstanceType::kDevelopment ? "development" : "production"},
              {"labels", spec.labels},
              {"edition", spec.edition == InstanceEdition::kEnterprisePlus ? "enterprise_plus" : "enterprise"},
              {"tags", spec.tags},
              {"create_time_micros", spec.create_time_micros},
              {"clusters", clusters},
              {"app_profiles", profiles},
              {"etags_issued", spec.etags_issued}};
  return doc.dump();
}

Status DecodeInstanceSpec(std::string_view key_name, std::string_view bytes, InstanceSpec* spec) {
  const size_t slash = key_name.find('/');
  json j = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (slash == std::string_view::npos || !j.is_object()) {
    return Status::Corruption(fmt::format("the catalog entry of instance '{}' is malformed", key_name));
  }
  try {
    spec->name = {std::string(key_name.substr(0, slash)), std::string(key_name.substr(slash + 1))};
    spec->display_name = j.at("display_name").get<std::string>();
    spec->type =
        j.value("type", std::string()) == "development" ? InstanceType::kDevelopment : InstanceType::kProduction;
    spec->labels = j.value("labels", std::map<std::string, std::string>());
    spec->edition = j.value("edition", std::string()) == "enterprise_plus" ? InstanceEdition::kEnterprisePlus
                                                                           : InstanceEdition::kEnterprise;
    spec->tags = j.value("tags", std::map<std::string, std::string>());
    spec->create_time_micros = j.value("create_time_micros", int64_t{0});
    spec->etags_issued = j.value("etags_issued", int64_t{0});
    spec->clusters.clear();
    for (const json& c : j.at("clusters")) spec->clusters.push_back(ClusterFromJson(c));
    spec->app_profiles.clear();
    for (const json& p : j.at("app_profiles")) spec->app_profiles.push_back(ProfileFromJson(p));
  } catch (const json::exception&) {
    return Status::Corruption(fmt::format("the catalog entry of instance '{}' is malformed", key_name));
  }
  return Status::OK();
}

std::string BackupKeyPrefix(const InstanceName& instance, std::string_view cluster) {
  if (cluster.empty()) return fmt::format("{}{}/{}/", kBackupKeyPrefix, instance.project, instance.instance);
  return fmt::format("{}{}/{}/{}/", kBackupKeyPrefix, instance.project, instance.instance, cluster);
}

std::string BackupKey(const InstanceName& instance, std::string_view cluster, std::string_view id) {
  return BackupKeyPrefix(instance, cluster) + std::string(id);
}

std::string BackupTableName(const InstanceName& instance, std::string_view cluster, std::string_view id) {
  return fmt::format("{}backup/{}/{}/{}/{}", kHiddenTableMark, instance.project, instance.instance, cluster, id);
}

std::string DeletedTableName(const InstanceName& instance, std::string_view table) {
  return fmt::format("{}{}/{}/{}", kDeletedTablePrefix, instance.project, instance.instance, table);
}

std::string RestoreTableName(const InstanceName& instance, std::string_view table) {
  return fmt::format("{}restore/{}/{}/{}", kHiddenTableMark, instance.project, instance.instance, table);
}

std::string EncodeBackupSpec(const BackupSpec& spec) {
  TableSpec schema;
  schema.name = spec.source_table;
  schema.granularity = spec.granularity;
  for (const FamilySpec& f : spec.families) {
    schema.families.emplace(f.name, f);
    schema.next_family_id = std::max(schema.next_family_id, f.id + 1);
  }
  json doc = {{"source_table", spec.source_table},
              {"source_instance", spec.SourceInstance().project + "/" + spec.SourceInstance().instance},
              {"source_backup", spec.source_backup},
              {"start_time_micros", spec.start_time_micros},
              {"end_time_micros", spec.end_time_micros},
              {"expire_time_micros", spec.expire_time_micros},
              {"size_bytes", spec.size_bytes},
              {"hot", spec.hot},
              {"hot_to_standard_time_micros", spec.hot_to_standard_time_micros},
              {"schema", json::parse(EncodeTableSpec(schema))}};
  return doc.dump();
}

Status DecodeBackupSpec(std::string_view key, std::string_view bytes, BackupSpec* spec) {
  auto corrupt = [&] { return Status::Corruption(fmt::format("the catalog entry '{}' is malformed", key)); };
  // backup:P/I/C/B
  const std::vector<std::string> parts = SplitOnSlash(key.substr(kBackupKeyPrefix.size()));
  json j = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (parts.size() != 4 || !j.is_object() || !j.contains("schema")) return corrupt();
  try {
    spec->instance = {parts[0], parts[1]};
    spec->cluster = parts[2];
    spec->id = parts[3];
    spec->source_table = j.at("source_table").get<std::string>();
    const std::string source_instance = j.value("source_instance", std::string());
    if (const size_t slash = source_instance.find('/'); slash != std::string::npos) {
      spec->source_instance = {source_instance.substr(0, slash), source_instance.substr(slash + 1)};
    }
    spec->source_backup = j.value("source_backup", std::string());
    spec->start_time_micros = j.at("start_time_micros").get<int64_t>();
    spec->end_time_micros = j.at("end_time_micros").get<int64_t>();
    spec->expire_time_micros = j.at("expire_time_micros").get<int64_t>();
    spec->size_bytes = j.value("size_bytes", int64_t{0});
    spec->hot = j.value("hot", false);
    spec->hot_to_standard_time_micros = j.value("hot_to_standard_time_micros", int64_t{0});
  } catch (const json::exception&) {
    return corrupt();
  }
  TableSpec schema;
  LBT_RETURN_IF_ERROR(DecodeTableSpec(spec->source_table, j["schema"].dump(), &schema));
  spec->families.clear();
  for (const FamilySpec* f : schema.FamiliesInCreationOrder()) spec->families.push_back(*f);
  spec->granularity = schema.granularity;
  return Status::OK();
}

std::string LogicalViewKey(const InstanceName& instance, std::string_view view_id) {
  return fmt::format("logical_view:{}/{}/{}", instance.project, instance.instance, view_id);
}

std::string MaterializedViewKey(const InstanceName& instance, std::string_view view_id) {
  return fmt::format("materialized_view:{}/{}/{}", instance.project, instance.instance, view_id);
}

std::string MaterializedViewTableName(const InstanceName& instance, std::string_view view_id) {
  return fmt::format("{}mview/{}/{}/{}", kHiddenTableMark, instance.project, instance.instance, view_id);
}

std::string MaterializedViewStateName(const InstanceName& instance, std::string_view view_id) {
  return fmt::format("{}mview-state/{}/{}/{}", kHiddenTableMark, instance.project, instance.instance, view_id);
}

// ---- instance records in a database ----

namespace {

Result<std::optional<InstanceSpec>> DecodeInstanceRecord(const InstanceName& name,
                                                         const std::optional<std::string>& bytes) {
  if (!bytes.has_value()) return std::optional<InstanceSpec>();
  InstanceSpec spec;
  LBT_RETURN_IF_ERROR(DecodeInstanceSpec(name.project + "/" + name.instance, *bytes, &spec));
  return std::optional<InstanceSpec>(std::move(spec));
}

// The instance's deletion within `catalog`: its tables (refused if one is
// protected), the hidden tables and the records `deleted` names.
Status DeleteBelongings(CatalogTxn& catalog, std::vector<std::string> tables, const InstanceBelongings& deleted) {
  // Protection forbids deleting "the instance containing the table"
  // (admin/v2/table.proto): nothing is deleted.
  for (const std::string& table : tables) {
    const TableSpec& spec = *catalog.FindTable(table);
    LBT_RETURN_IF_ERROR(RequireUnprotected(spec, "its instance"));
    LBT_RETURN_IF_ERROR(RequireNoProtectedViews(spec));
  }
  for (const std::string& table : catalog.TableNames()) {
    for (const std::string& prefix : deleted.table_prefixes) {
      if (table.starts_with(prefix)) tables.push_back(table);
    }
  }
  for (const std::string& table : tables) LBT_RETURN_IF_ERROR(catalog.DropTable(table));
  std::vector<std::string> keys = deleted.record_keys;
  for (const std::string& prefix : deleted.record_prefixes) {
    LBT_ASSIGN_OR_RETURN(auto records, catalog.Records(prefix));
    for (auto& record : records) keys.push_back(std::move(record.first));
  }
  for (const std::string& key : keys) LBT_RETURN_IF_ERROR(catalog.DeleteRecord(key));
  return Status::OK();
}

}  // namespace

bool HasTablesOf(const std::vector<std::string>& table_names, const InstanceName& instance) {
  const std::string prefix = TablePrefixOf(instance);
  if (prefix.empty()) {  // the default instance's names have no '/'
    return std::any_of(table_names.begin(), table_names.end(),
                       [](const std::string& name) { return name.find('/') == std::string::npos; });
  }
  auto it = std::lower_bound(table_names.begin(), table_names.end(), prefix);
  return it != table_names.end() && it->compare(0, prefix.size(), prefix) == 0;
}

Result<std::vector<InstanceSpec>> ReadInstances(Database* db) {
  LBT_ASSIGN_OR_RETURN(auto records, db->ReadRecords(kInstanceKeyPrefix));
  std::vector<InstanceSpec> instances;
  for (const auto& [key, bytes] : records) {
    InstanceSpec spec;
    LBT_RETURN_IF_ERROR(DecodeInstanceSpec(std::string_view(key).substr(kInstanceKeyPrefix.size()), bytes, &spec));
    instances.push_back(std::move(spec));
  }
  return instances;
}

Result<std::optional<InstanceSpec>> ReadInstance(Database* db, const InstanceName& name, bool* has_tables) {
  std::optional<std::string> bytes;
  LBT_RETURN_IF_ERROR(db->ReadCatalog([&](const CatalogTxn& catalog) -> Status {
    *has_tables = HasTablesOf(catalog.TableNames(), name);
    LBT_ASSIGN_OR_RETURN(bytes, catalog.Record(InstanceKey(name)));
    return Status::OK();
  }));
  return DecodeInstanceRecord(name, bytes);
}

Status ChangeInstance(Database* db, const InstanceName& name,
                      const std::function<Status(std::optional<InstanceSpec>* record, bool has_tables)>& change,
                      const InstanceBelongings* deleted) {
  const std::string key = InstanceKey(name);
  return db->EditCatalog([&](CatalogTxn& catalog) -> Status {
    std::vector<std::string> tables;  // the instance's own
    for (const std::string& table : catalog.TableNames()) {
      if (InstanceOfTable(table) == name) tables.push_back(table);
    }
    LBT_ASSIGN_OR_RETURN(std::optional<std::string> bytes, catalog.Record(key));
    LBT_ASSIGN_OR_RETURN(std::optional<InstanceSpec> record, DecodeInstanceRecord(name, bytes));
    LBT_RETURN_IF_ERROR(change(&record, !tables.empty()));
    if (record.has_value()) {
      LBT_RETURN_IF_ERROR(catalog.PutRecord(key, EncodeInstanceSpec(*record)));
    } else if (bytes.has_value()) {
      LBT_RETURN_IF_ERROR(catalog.DeleteRecord(key));
    }
    if (deleted == nullptr) return Status::OK();
    return DeleteBelongings(catalog, std::move(tables), *deleted);
  });
}

}  // namespace lbt
