// LocalInstanceAdmin's materialized views: one catalog record each, under
// MaterializedViewKey (instance_records.h), holding the view as JSON, and
// two hidden tables: the view's rows (MaterializedViewTableName) and its
// maintainer's state (MaterializedViewStateName). What fills them is the
// maintainer's (views/materialized_view_maintainer.h); the engine keeps them
// and the source table's change stream that feeds them.
//
// WARNING: the record's key and fields and the hidden tables' names are
// part of the on-disk format.

#include <fmt/format.h>

#include <cctype>
#include <nlohmann/json.hpp>

#include "api/bigtable.h"
#include "api/materialized_view.h"
#include "local/instance_records.h"
#include "local/lazy_database.h"
#include "local/local_instance_admin.h"

namespace lbt {

namespace {

using nlohmann::json;

// A day: enough for a maintainer that was not running to catch up (a
// longer gap rebuilds the view from its source).
constexpr int64_t kViewChangeRetentionMicros = 24LL * 3600 * 1'000'000;

std::string EncodeView(const MaterializedViewSpec& view) {
  json doc = {{"id", view.id}, {"query", view.query}, {"source_table", view.source_table}, {"etag", view.etag}};
  if (view.deletion_protection) doc["deletion_protection"] = true;
  if (view.backfilled) doc["backfilled"] = true;
  return doc.dump(-1, ' ', false, json::error_handler_t::strict);
}

Status DecodeView(std::string_view key, std::string_view bytes, MaterializedViewSpec* view) {
  json j = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.value("id", json()).is_string() || !j.value("query", json()).is_string() ||
      !j.value("source_table", json()).is_string() || !j.value("etag", json()).is_string()) {
    return Status::Corruption(fmt::format("the catalog entry '{}' is malformed", key));
  }
  view->id = j["id"].get<std::string>();
  view->query = j["query"].get<std::string>();
  view->source_table = j["source_table"].get<std::string>();
  view->etag = j["etag"].get<std::string>();
  view->deletion_protection = j.value("deletion_protection", false);
  view->backfilled = j.value("backfilled", false);
  return Status::OK();
}

Status NoSuchView(const InstanceName& instance, std::string_view id) {
  return Status::NotFound(fmt::format("materialized view {}/materializedViews/{} does not exist", instance.Full(), id));
}

// The view's rows keep one cell per column at one timestamp: each write
// replaces the last, so no family needs a GC rule.
std::vector<FamilySpec> RowFamilies() { return {FamilySpec{.name = "default"}}; }
std::vector<FamilySpec> StateFamilies() {
  return {FamilySpec{.name = "c"}, FamilySpec{.name = "k"}, FamilySpec{.name = "m"}};
}

}  // namespace

Result<MaterializedViewSpec> LocalInstanceAdmin::CreateMaterializedView(const InstanceName& instance,
                                                                        const MaterializedViewSpec& view) {
  LBT_RETURN_IF_ERROR(ValidateMaterializedViewId(view.id, "materialized_view_id"));
  if (view.query.empty()) return Status::InvalidArgument("materialized_view.query: must not be empty");
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(true));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Bigtable> tables, OpenTables(instance));
  if (tables->GetTable(view.id).ok() || GetLogicalView(instance, view.id).ok()) {
    return Status::AlreadyExists(fmt::format(
        "materialized_view_id: instance {} has a table or logical view named '{}'; a query could not name the view",
        instance.Full(), view.id));
  }
  if (GetMaterializedView(instance, view.id).ok()) {
    return Status::AlreadyExists(fmt::format("Materialized View {} already exists.", view.id));
  }
  LBT_ASSIGN_OR_RETURN(TableSpec source, tables->GetTable(view.source_table));
  LBT_ASSIGN_OR_RETURN(std::vector<MaterializedViewSpec> views, ListMaterializedViews(instance));
  int reading = 0;
  for (const MaterializedViewSpec& v : views) reading += v.source_table == view.source_table;
  if (reading >= kMaxMaterializedViewsPerTable) {
    return Status::FailedPrecondition(fmt::format("table '{}' already has {} materialized views, the most one can have",
                                                  view.source_table, kMaxMaterializedViewsPerTable));
  }
  // The maintainer follows the source's changes.
  if (!source.change_stream) {
    LBT_RETURN_IF_ERROR(tables->SetChangeStream(view.source_table, ChangeStreamConfig{kViewChangeRetentionMicros, 0}));
  }
  const std::string rows = MaterializedViewTableName(instance, view.id);
  const std::string state = MaterializedViewStateName(instance, view.id);
  // Left over by a crash while the view was made or dropped: no view owns them.
  for (const std::string& hidden : {rows, state}) {
    if (db->GetTable(hidden).ok()) LBT_RETURN_IF_ERROR(db->DeleteTable(hidden));
  }
  LBT_RETURN_IF_ERROR(db->CreateTable(rows, RowFamilies()));
  LBT_RETURN_IF_ERROR(db->CreateTable(state, StateFamilies()));
  MaterializedViewSpec stored = view;
  stored.etag = "1";
  stored.backfilled = false;
  LBT_RETURN_IF_ERROR(
      db->ChangeRecord(MaterializedViewKey(instance, view.id), [&](std::optional<std::string>* record) -> Status {
        if (record->has_value())
          return Status::AlreadyExists(fmt::format("Materialized View {} already exists.", view.id));
        *record = EncodeView(stored);
        return Status::OK();
      }));
  return stored;
}

Result<MaterializedViewSpec> LocalInstanceAdmin::GetMaterializedView(const InstanceName& instance,
                                                                     std::string_view view_id) {
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(false));
  if (db == nullptr) return NoSuchView(instance, view_id);
  const std::string key = MaterializedViewKey(instance, view_id);
  LBT_ASSIGN_OR_RETURN(std::optional<std::string> record, db->ReadRecord(key));
  if (!record.has_value()) return NoSuchView(instance, view_id);
  MaterializedViewSpec view;
  LBT_RETURN_IF_ERROR(DecodeView(key, *record, &view));
  return view;
}

Result<std::vector<MaterializedViewSpec>> LocalInstanceAdmin::ListMaterializedViews(const InstanceName& instance) {
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(false));
  std::vector<MaterializedViewSpec> views;
  if (db == nullptr) return views;
  LBT_ASSIGN_OR_RETURN(auto records, db->ReadRecords(MaterializedViewKey(instance, "")));
  for (const auto& [key, bytes] : records) {
    LBT_RETURN_IF_ERROR(DecodeView(key, bytes, &views.emplace_back()));
  }
  return views;
}

Result<MaterializedViewSpec> LocalInstanceAdmin::UpdateMaterializedView(const InstanceName& instance,
                                                                        const MaterializedViewSpec& view,
                                                                        const MaterializedViewUpdate& update) {
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(true));
  MaterializedViewSpec stored;
  const std::string key = MaterializedViewKey(instance, view.id);
  LBT_RETURN_IF_ERROR(db->ChangeRecord(key, [&](std::optional<std::string>* record) -> Status {
    if (!record->has_value()) return NoSuchView(instance, view.id);
    LBT_RETURN_IF_ERROR(DecodeView(key, **record, &stored));
    if (!view.etag.empty() && view.etag != stored.etag) return StaleViewEtag("materialized view", view.id);
    if (update.deletion_protection) stored.deletion_protection = view.deletion_protection;
    stored.etag = NextViewEtag(stored.etag);
    *record = EncodeView(stored);
    return Status::OK();
  }));
  return stored;
}

Status LocalInstanceAdmin::DeleteMaterializedView(const InstanceName& instance, std::string_view view_id,
                                                  std::string_view etag) {
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(true));
  const std::string key = MaterializedViewKey(instance, view_id);
  LBT_RETURN_IF_ERROR(db->ChangeRecord(key, [&](std::optional<std::string>* record) -> Status {
    if (!record->has_value()) return NoSuchView(instance, view_id);
    MaterializedViewSpec current;
    LBT_RETURN_IF_ERROR(DecodeView(key, **record, &current));
    if (!etag.empty() && etag != current.etag) return StaleViewEtag("materialized view", view_id);
    if (current.deletion_protection) {
      return Status::FailedPrecondition(
          fmt::format("Materialized View {}/materializedViews/{} has deletion protection "
                      "enabled.",
                      instance.Full(), view_id));
    }
    record->reset();
    return Status::OK();
  }));
  // The record is gone first: a crash now leaves hidden tables that the
  // next view of this id replaces.
  for (const std::string& hidden :
       {MaterializedViewTableName(instance, view_id), MaterializedViewStateName(instance, view_id)}) {
    if (db->GetTable(hidden).ok()) LBT_RETURN_IF_ERROR(db->DeleteTable(hidden));
  }
  return Status::OK();
}

Status LocalInstanceAdmin::SetMaterializedViewBackfilled(const InstanceName& instance, std::string_view view_id) {
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(true));
  const std::string key = MaterializedViewKey(instance, view_id);
  return db->ChangeRecord(key, [&](std::optional<std::string>* record) -> Status {
    if (!record->has_value()) return NoSuchView(instance, view_id);
    MaterializedViewSpec stored;
    LBT_RETURN_IF_ERROR(DecodeView(key, **record, &stored));
    if (stored.backfilled) return Status::OK();
    stored.backfilled = true;
    *record = EncodeView(stored);
    return Status::OK();
  });
}

}  // namespace lbt
