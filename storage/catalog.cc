#include "storage/catalog.h"

#include <fmt/format.h>

#include <charconv>

#include <nlohmann/json.hpp>

#include "util/bytes.h"

namespace lbt {

namespace {

// Parses a counter stored as decimal text; false if it is not one.
bool ParseCounter(std::string_view text, uint64_t* out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

Status BadCounter(std::string_view key) {
  return Status::Corruption(fmt::format("the database's '{}' counter is malformed", key));
}

using nlohmann::json;

json GcRuleToJson(const GcRule& rule) {
  switch (rule.kind) {
    case GcRule::Kind::kNever: return json{{"never", true}};
    case GcRule::Kind::kMaxVersions: return json{{"max_versions", rule.max_versions}};
    case GcRule::Kind::kMaxAge: return json{{"max_age_micros", rule.max_age_micros}};
    case GcRule::Kind::kIntersection:
    case GcRule::Kind::kUnion: {
      json list = json::array();
      for (const GcRule& r : rule.rules) list.push_back(GcRuleToJson(r));
      return json{{rule.kind == GcRule::Kind::kUnion ? "union" : "intersection", list}};
    }
  }
  return json{{"never", true}};
}

bool GcRuleFromJson(const json& j, GcRule* out) {
  if (!j.is_object() || j.size() != 1) return false;
  if (j.contains("never")) {
    *out = GcRule::Never();
  } else if (j.contains("max_versions") && j["max_versions"].is_number_integer()) {
    *out = GcRule::MaxVersions(j["max_versions"].get<int64_t>());
  } else if (j.contains("max_age_micros") && j["max_age_micros"].is_number_integer()) {
    *out = GcRule::MaxAge(j["max_age_micros"].get<int64_t>());
  } else if ((j.contains("union") || j.contains("intersection")) && j.begin()->is_array()) {
    std::vector<GcRule> rules;
    for (const json& sub : *j.begin()) {
      GcRule r;
      if (!GcRuleFromJson(sub, &r)) return false;
      rules.push_back(std::move(r));
    }
    *out = j.contains("union") ? GcRule::Union(std::move(rules)) : GcRule::Intersection(std::move(rules));
  } else {
    return false;
  }
  return true;
}

// Row prefixes and qualifiers are bytes, and JSON text must be UTF-8: they
// are stored as hex.
std::string Hex(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) out += fmt::format("{:02x}", c);
  return out;
}

bool FromHex(const json& j, std::string* out) {
  if (!j.is_string() || j.get_ref<const std::string&>().size() % 2 != 0) return false;
  const std::string& hex = j.get_ref<const std::string&>();
  out->clear();
  for (size_t i = 0; i < hex.size(); i += 2) {
    unsigned value = 0;
    auto [end, ec] = std::from_chars(hex.data() + i, hex.data() + i + 2, value, 16);
    if (ec != std::errc() || end != hex.data() + i + 2) return false;
    out->push_back(static_cast<char>(value));
  }
  return true;
}

json HexList(const std::vector<std::string>& list) {
  json out = json::array();
  for (const std::string& s : list) out.push_back(Hex(s));
  return out;
}

bool FromHexList(const json& j, std::vector<std::string>* out) {
  if (!j.is_array()) return false;
  out->clear();
  for (const json& item : j) {
    if (!FromHex(item, &out->emplace_back())) return false;
  }
  return true;
}

// WARNING: the view fields below are part of the on-disk format.
json ViewToJson(const AuthorizedViewSpec& view) {
  json families = json::object();
  for (const auto& [family, subset] : view.subset.family_subsets) {
    families[family] = {{"qualifiers", HexList(subset.qualifiers)},
                        {"qualifier_prefixes", HexList(subset.qualifier_prefixes)}};
  }
  json doc = {{"id", view.id},
              {"row_prefixes", HexList(view.subset.row_prefixes)},
              {"family_subsets", families},
              {"etag", view.etag}};
  if (view.deletion_protection) doc["deletion_protection"] = true;
  return doc;
}

// WARNING: the bundle fields are part of the on-disk format: the
// descriptors as base64.
json BundleToJson(const SchemaBundleSpec& bundle) {
  return {{"id", bundle.id}, {"descriptors", Base64Encode(bundle.descriptors)}, {"etag", bundle.etag}};
}

bool BundleFromJson(const json& j, SchemaBundleSpec* bundle) {
  if (!j.is_object() || !j.value("id", json()).is_string() || !j.value("etag", json()).is_string() ||
      !j.value("descriptors", json()).is_string()) {
    return false;
  }
  bundle->id = j["id"].get<std::string>();
  bundle->etag = j["etag"].get<std::string>();
  return Base64Decode(j["descriptors"].get<std::string>(), &bundle->descriptors);
}

bool ViewFromJson(const json& j, AuthorizedViewSpec* view) {
  if (!j.is_object() || !j.value("id", json()).is_string() || !j.value("etag", json()).is_string() ||
      !j.value("family_subsets", json()).is_object() ||
      !FromHexList(j.value("row_prefixes", json()), &view->subset.row_prefixes)) {
    return false;
  }
  view->id = j["id"].get<std::string>();
  view->etag = j["etag"].get<std::string>();
  view->deletion_protection = j.value("deletion_protection", false);
  for (const auto& [family, columns] : j["family_subsets"].items()) {
    FamilySubset& subset = view->subset.family_subsets[family];
    if (!columns.is_object() || !FromHexList(columns.value("qualifiers", json()), &subset.qualifiers) ||
        !FromHexList(columns.value("qualifier_prefixes", json()), &subset.qualifier_prefixes)) {
      return false;
    }
  }
  return true;
}

}  // namespace

namespace {

json RowKeySchemaToJson(const RowKeySchema& schema) {
  json fields = json::array();
  for (const RowKeyField& f : schema.fields) {
    fields.push_back(json{{"name", f.name},
                          {"type", std::string(RowKeyTypeName(f.type))},
                          {"int_encoding", std::string(IntEncodingName(f.int_encoding))}});
  }
  return json{{"fields", fields},
              {"encoding", std::string(RowKeyEncodingName(schema.encoding))},
              {"delimiter", Base64Encode(schema.delimiter)}};
}

bool RowKeySchemaFromJson(const json& j, RowKeySchema* schema) {
  if (!j.is_object() || !j.value("fields", json()).is_array() || !j.value("encoding", json()).is_string() ||
      !j.value("delimiter", json()).is_string() ||
      !ParseRowKeyEncoding(j["encoding"].get<std::string>(), &schema->encoding) ||
      !Base64Decode(j["delimiter"].get<std::string>(), &schema->delimiter)) {
    return false;
  }
  for (const json& f : j["fields"]) {
    RowKeyField& field = schema->fields.emplace_back();
    if (!f.is_object() || !f.value("name", json()).is_string() || !f.value("type", json()).is_string() ||
        !f.value("int_encoding", json()).is_string() || !ParseRowKeyType(f["type"].get<std::string>(), &field.type) ||
        !ParseIntEncoding(f["int_encoding"].get<std::string>(), &field.int_encoding)) {
      return false;
    }
    field.name = f["name"].get<std::string>();
  }
  return true;
}

}  // namespace

std::string EncodeTableSpec(const TableSpec& spec) {
  json families = json::array();
  for (const auto& [name, f] : spec.families) {
    json family = {{"name", name},
                   {"id", f.id},
                   {"gc_rule", GcRuleToJson(f.gc_rule)},
                   {"value_type", std::string(ValueTypeName(f.value_type))}};
    if (!f.schema_bundle_id.empty()) family["schema_bundle_id"] = f.schema_bundle_id;
    if (!f.type_name.empty()) family["type_name"] = f.type_name;
    families.push_back(std::move(family));
  }
  json doc = {{"id", spec.id}, {"next_family_id", spec.next_family_id}, {"families", families}};
  if (!spec.enabled) doc["enabled"] = false;
  if (spec.deletion_protection) doc["deletion_protection"] = true;
  if (spec.deleted_micros) doc["deleted_micros"] = *spec.deleted_micros;
  // Absent means milliseconds, as every table before MICROS was.
  if (spec.granularity != TimestampGranularity::kMillis) {
    doc["granularity"] = std::string(GranularityName(spec.granularity));
  }
  if (spec.restored_from) {
    doc["restored_from"] = {{"backup", spec.restored_from->backup},
                            {"source_table", spec.restored_from->source_table},
                            {"start_time_micros", spec.restored_from->start_time_micros},
                            {"end_time_micros", spec.restored_from->end_time_micros}};
  }
  if (!spec.authorized_views.empty()) {
    json views = json::array();
    for (const AuthorizedViewSpec& view : spec.authorized_views) views.push_back(ViewToJson(view));
    doc["authorized_views"] = views;
  }
  if (!spec.schema_bundles.empty()) {
    json bundles = json::array();
    for (const SchemaBundleSpec& bundle : spec.schema_bundles) bundles.push_back(BundleToJson(bundle));
    doc["schema_bundles"] = bundles;
  }
  if (spec.view_etags_issued != 0) doc["view_etags_issued"] = spec.view_etags_issued;
  if (spec.automated_backup_policy) {
    doc["automated_backup"] = {{"retention_micros", spec.automated_backup_policy->retention_micros},
                               {"frequency_micros", spec.automated_backup_policy->frequency_micros}};
  }
  if (spec.row_key_schema) doc["row_key_schema"] = RowKeySchemaToJson(*spec.row_key_schema);
  if (spec.tiered_storage) {
    doc["tiered_storage"] = {
        {"infrequent_access_older_than_micros", spec.tiered_storage->infrequent_access_older_than_micros}};
  }
  if (spec.change_stream) {
    doc["change_stream"] = {{"retention_micros", spec.change_stream->retention_micros},
                            {"enabled_micros", spec.change_stream->enabled_micros}};
  }
  return doc.dump();
}

namespace {

// The policies a table may have (restore info, automated backups, change
// stream), from its entry `j`; false if one is malformed.
bool PoliciesFromJson(const json& j, TableSpec* spec) {
  spec->restored_from.reset();
  if (j.contains("restored_from")) {
    const json& r = j["restored_from"];
    if (!r.is_object() || !r.value("backup", json()).is_string() || !r.value("source_table", json()).is_string() ||
        !r.value("start_time_micros", json()).is_number_integer() ||
        !r.value("end_time_micros", json()).is_number_integer()) {
      return false;
    }
    spec->restored_from = RestoreInfo{r["backup"].get<std::string>(), r["source_table"].get<std::string>(),
                                      r["start_time_micros"].get<int64_t>(), r["end_time_micros"].get<int64_t>()};
  }
  spec->automated_backup_policy.reset();
  if (j.contains("automated_backup")) {
    const json& a = j["automated_backup"];
    if (!a.is_object() || !a.value("retention_micros", json()).is_number_integer() ||
        !a.value("frequency_micros", json()).is_number_integer()) {
      return false;
    }
    spec->automated_backup_policy =
        AutomatedBackupPolicy{a["retention_micros"].get<int64_t>(), a["frequency_micros"].get<int64_t>()};
  }
  spec->row_key_schema.reset();
  if (j.contains("row_key_schema") && !RowKeySchemaFromJson(j["row_key_schema"], &spec->row_key_schema.emplace())) {
    return false;
  }
  spec->tiered_storage.reset();
  if (j.contains("tiered_storage")) {
    const json& t = j["tiered_storage"];
    if (!t.is_object() || !t.value("infrequent_access_older_than_micros", json()).is_number_integer()) return false;
    spec->tiered_storage = TieredStorage{t["infrequent_access_older_than_micros"].get<int64_t>()};
  }
  spec->change_stream.reset();
  if (j.contains("change_stream")) {
    const json& c = j["change_stream"];
    if (!c.is_object() || !c.value("retention_micros", json()).is_number_integer() ||
        !c.value("enabled_micros", json()).is_number_integer()) {
      return false;
    }
    spec->change_stream = ChangeStreamConfig{c["retention_micros"].get<int64_t>(), c["enabled_micros"].get<int64_t>()};
  }
  return true;
}

// The table's families and next family id, from its entry `j`; false if
// malformed.
bool FamiliesFromJson(const json& j, TableSpec* spec) {
  spec->families.clear();
  for (const json& f : j["families"]) {
    FamilySpec fs;
    if (!f.is_object() || !f.contains("name") || !f["name"].is_string() || !f.contains("gc_rule") ||
        !GcRuleFromJson(f["gc_rule"], &fs.gc_rule)) {
      return false;
    }
    fs.name = f["name"].get<std::string>();
    auto type = ParseValueType(f.value("value_type", std::string("bytes")));
    if (!type.ok()) return false;
    fs.value_type = *type;
    if (!f.value("schema_bundle_id", json("")).is_string() || !f.value("type_name", json("")).is_string()) return false;
    fs.schema_bundle_id = f.value("schema_bundle_id", std::string());
    fs.type_name = f.value("type_name", std::string());
    if (f.contains("id")) {
      if (!f["id"].is_number_unsigned() || f["id"].get<uint64_t>() == 0 || f["id"].get<uint64_t>() > UINT32_MAX) {
        return false;
      }
      fs.id = f["id"].get<FamilyId>();
    }
    spec->families.emplace(fs.name, std::move(fs));
  }
  // Format 1 kept no family ids: its families get them in name order.
  FamilyId next = 1;
  for (const auto& [family_name, f] : spec->families) next = std::max(next, f.id + 1);
  for (auto& [family_name, f] : spec->families) {
    if (f.id == 0) f.id = next++;
  }
  const json stored_next = j.value("next_family_id", json(next));
  if (!stored_next.is_number_unsigned() || stored_next.get<uint64_t>() < next ||
      stored_next.get<uint64_t>() > UINT32_MAX) {
    return false;
  }
  spec->next_family_id = stored_next.get<FamilyId>();
  return true;
}

}  // namespace

Status DecodeTableSpec(std::string_view name, std::string_view bytes, TableSpec* spec) {
  json j = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  auto corrupt = [&] { return Status::Corruption(fmt::format("the catalog entry of table '{}' is malformed", name)); };
  if (!j.is_object() || !j.contains("id") || !j["id"].is_number_unsigned() || !j.contains("families") ||
      !j["families"].is_array()) {
    return corrupt();
  }
  spec->name = std::string(name);
  spec->id = j["id"].get<TableId>();
  spec->enabled = j.value("enabled", true);
  spec->deletion_protection = j.value("deletion_protection", false);
  spec->authorized_views.clear();
  if (j.contains("authorized_views")) {
    if (!j["authorized_views"].is_array()) return corrupt();
    for (const json& v : j["authorized_views"]) {
      if (!ViewFromJson(v, &spec->authorized_views.emplace_back())) return corrupt();
    }
  }
  spec->schema_bundles.clear();
  if (j.contains("schema_bundles")) {
    if (!j["schema_bundles"].is_array()) return corrupt();
    for (const json& b : j["schema_bundles"]) {
      if (!BundleFromJson(b, &spec->schema_bundles.emplace_back())) return corrupt();
    }
  }
  const json etags = j.value("view_etags_issued", json(0));
  if (!etags.is_number_integer()) return corrupt();
  spec->view_etags_issued = etags.get<int64_t>();
  spec->deleted_micros.reset();
  if (j.contains("deleted_micros")) {
    if (!j["deleted_micros"].is_number_integer()) return corrupt();
    spec->deleted_micros = j["deleted_micros"].get<int64_t>();
  }
  const json granularity = j.value("granularity", json("millis"));
  if (!granularity.is_string()) return corrupt();
  Result<TimestampGranularity> parsed = ParseGranularity(granularity.get<std::string>());
  if (!parsed.ok()) return corrupt();
  spec->granularity = *parsed;
  if (!PoliciesFromJson(j, spec) || !FamiliesFromJson(j, spec)) return corrupt();
  return Status::OK();
}

namespace {

std::string TableKey(std::string_view name) { return std::string(kTableKeyPrefix) + std::string(name); }

}  // namespace

Status Catalog::Refresh(Txn* txn) {
  // A read snapshot already checked cannot have changed since.
  if (loaded_ && !txn->is_write() && txn->id() == checked_snapshot_) return Status::OK();
  std::string_view version;
  LBT_ASSIGN_OR_RETURN(bool found, txn->Get(meta_, kMetaCatalogVersion, &version));
  if (!found) version = "0";
  if (loaded_ && version == loaded_version_) {
    if (!txn->is_write()) checked_snapshot_ = txn->id();
    return Status::OK();
  }

  std::map<std::string, std::shared_ptr<const TableSpec>, std::less<>> tables;
  {
    LBT_ASSIGN_OR_RETURN(auto cursor, Cursor::Open(txn, catalog_));
    LBT_ASSIGN_OR_RETURN(bool more, cursor->Seek(kTableKeyPrefix));
    while (more && cursor->key().substr(0, kTableKeyPrefix.size()) == kTableKeyPrefix) {
      std::string_view name = cursor->key().substr(kTableKeyPrefix.size());
      TableSpec spec;
      LBT_RETURN_IF_ERROR(DecodeTableSpec(name, cursor->value(), &spec));
      std::string key = spec.name;
      tables.emplace(std::move(key), std::make_shared<const TableSpec>(std::move(spec)));
      LBT_ASSIGN_OR_RETURN(more, cursor->Next());
    }
  }
  tables_ = std::move(tables);
  loaded_version_ = std::string(version);
  loaded_ = true;
  checked_snapshot_ = txn->is_write() ? 0 : txn->id();
  return Status::OK();
}

const TableSpec* Catalog::Find(std::string_view name) const {
  auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : it->second.get();
}

std::shared_ptr<const TableSpec> Catalog::Share(std::string_view name) const {
  auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : it->second;
}

Result<const TableSpec*> Catalog::Require(std::string_view name) const {
  const TableSpec* spec = Find(name);
  if (spec == nullptr) return Status::NotFound(fmt::format("table '{}' does not exist", TableIdOf(name)));
  return spec;
}

std::vector<std::string> Catalog::TableNames() const {
  std::vector<std::string> names;
  for (const auto& [name, spec] : tables_) names.push_back(name);
  return names;
}

Status Catalog::BumpVersion(Txn* txn) {
  std::string_view version;
  LBT_ASSIGN_OR_RETURN(bool found, txn->Get(meta_, kMetaCatalogVersion, &version));
  uint64_t v = 0;
  if (found && !ParseCounter(version, &v)) return BadCounter(kMetaCatalogVersion);
  LBT_RETURN_IF_ERROR(txn->Put(meta_, kMetaCatalogVersion, std::to_string(v + 1)));
  // The cache reloads at the next Refresh, so an aborted change never leaks.
  loaded_ = false;
  checked_snapshot_ = 0;
  return Status::OK();
}

Status Catalog::Store(Txn* txn, const TableSpec& spec) {
  LBT_RETURN_IF_ERROR(txn->Put(catalog_, TableKey(spec.name), EncodeTableSpec(spec)));
  return BumpVersion(txn);
}

Status Catalog::Remove(Txn* txn, std::string_view name) {
  LBT_RETURN_IF_ERROR(txn->Del(catalog_, TableKey(name)).status());
  return BumpVersion(txn);
}

Result<TableId> Catalog::AllocateTableId(Txn* txn) {
  std::string_view next;
  LBT_ASSIGN_OR_RETURN(bool found, txn->Get(meta_, kMetaNextTableId, &next));
  uint64_t id = 1;
  if (found && !ParseCounter(next, &id)) return BadCounter(kMetaNextTableId);
  if (id > UINT32_MAX) return Status::ResourceExhausted("no table ids are left in this database");
  LBT_RETURN_IF_ERROR(txn->Put(meta_, kMetaNextTableId, std::to_string(id + 1)));
  return static_cast<TableId>(id);
}

Result<std::vector<std::pair<std::string, std::string>>> Catalog::Records(Txn* txn, std::string_view prefix) const {
  std::vector<std::pair<std::string, std::string>> records;
  LBT_ASSIGN_OR_RETURN(auto cursor, Cursor::Open(txn, catalog_));
  LBT_ASSIGN_OR_RETURN(bool more, cursor->Seek(prefix));
  while (more && cursor->key().substr(0, prefix.size()) == prefix) {
    records.emplace_back(std::string(cursor->key()), std::string(cursor->value()));
    LBT_ASSIGN_OR_RETURN(more, cursor->Next());
  }
  return records;
}

Result<std::optional<std::string>> Catalog::Record(Txn* txn, std::string_view key) const {
  std::string_view value;
  LBT_ASSIGN_OR_RETURN(bool found, txn->Get(catalog_, key, &value));
  if (!found) return std::optional<std::string>();
  return std::optional<std::string>(std::string(value));
}

Status Catalog::PutRecord(Txn* txn, std::string_view key, std::string_view value) {
  return txn->Put(catalog_, key, value);
}

Status Catalog::DeleteRecord(Txn* txn, std::string_view key) { return txn->Del(catalog_, key).status(); }

}  // namespace lbt
