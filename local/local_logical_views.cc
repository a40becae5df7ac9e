// LocalInstanceAdmin's logical views: one catalog record each, under
// LogicalViewKey (instance_records.h), holding the view as JSON.
//
// WARNING: the record's key and fields are part of the on-disk format.

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "api/bigtable.h"
#include "api/logical_view.h"
#include "local/instance_records.h"
#include "local/lazy_database.h"
#include "local/local_instance_admin.h"

namespace lbt {

namespace {

using nlohmann::json;

std::string EncodeView(const LogicalViewSpec& view) {
  json doc = {{"id", view.id}, {"query", view.query}, {"etag", view.etag}};
  if (view.deletion_protection) doc["deletion_protection"] = true;
  return doc.dump(-1, ' ', false, json::error_handler_t::strict);
}

Status DecodeView(std::string_view key, std::string_view bytes, LogicalViewSpec* view) {
  json j = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.value("id", json()).is_string() || !j.value("query", json()).is_string() ||
      !j.value("etag", json()).is_string()) {
    return Status::Corruption(fmt::format("the catalog entry '{}' is malformed", key));
  }
  view->id = j["id"].get<std::string>();
  view->query = j["query"].get<std::string>();
  view->etag = j["etag"].get<std::string>();
  view->deletion_protection = j.value("deletion_protection", false);
  return Status::OK();
}

Status NoSuchView(const InstanceName& instance, std::string_view id) {
  return Status::NotFound(fmt::format("logical view {}/logicalViews/{} does not exist", instance.Full(), id));
}

}  // namespace

Result<LogicalViewSpec> LocalInstanceAdmin::CreateLogicalView(const InstanceName& instance,
                                                              const LogicalViewSpec& view) {
  LBT_RETURN_IF_ERROR(ValidateLogicalViewId(view.id, "logical_view_id"));
  if (view.query.empty()) return Status::InvalidArgument("logical_view.query: must not be empty");
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(true));
  // A query names a view as it names a table: one name, one of them.
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Bigtable> tables, OpenTables(instance));
  if (tables->GetTable(view.id).ok() || GetMaterializedView(instance, view.id).ok()) {
    return Status::AlreadyExists(
        fmt::format("logical_view_id: instance {} has a table or materialized view named '{}'; a query could not "
                    "name the view",
                    instance.Full(), view.id));
  }
  LogicalViewSpec stored = view;
  stored.etag = "1";
  LBT_RETURN_IF_ERROR(
      db->ChangeRecord(LogicalViewKey(instance, view.id), [&](std::optional<std::string>* record) -> Status {
        if (record->has_value()) {
          return Status::AlreadyExists(
              fmt::format("logical view {}/logicalViews/{} already exists", instance.Full(), view.id));
        }
        *record = EncodeView(stored);
        return Status::OK();
      }));
  return stored;
}

Result<LogicalViewSpec> LocalInstanceAdmin::GetLogicalView(const InstanceName& instance, std::string_view view_id) {
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(false));
  if (db == nullptr) return NoSuchView(instance, view_id);
  const std::string key = LogicalViewKey(instance, view_id);
  LBT_ASSIGN_OR_RETURN(std::optional<std::string> record, db->ReadRecord(key));
  if (!record.has_value()) return NoSuchView(instance, view_id);
  LogicalViewSpec view;
  LBT_RETURN_IF_ERROR(DecodeView(key, *record, &view));
  return view;
}

Result<std::vector<LogicalViewSpec>> LocalInstanceAdmin::ListLogicalViews(const InstanceName& instance) {
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(false));
  std::vector<LogicalViewSpec> views;
  if (db == nullptr) return views;
  LBT_ASSIGN_OR_RETURN(auto records, db->ReadRecords(LogicalViewKey(instance, "")));
  for (const auto& [key, bytes] : records) {
    LBT_RETURN_IF_ERROR(DecodeView(key, bytes, &views.emplace_back()));
  }
  return views;
}

Result<LogicalViewSpec> LocalInstanceAdmin::UpdateLogicalView(const InstanceName& instance, const LogicalViewSpec& view,
                                                              const LogicalViewUpdate& update) {
  if (update.query && view.query.empty()) return Status::InvalidArgument("logical_view.query: must not be empty");
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(true));
  LogicalViewSpec stored;
  const std::string key = LogicalViewKey(instance, view.id);
  LBT_RETURN_IF_ERROR(db->ChangeRecord(key, [&](std::optional<std::string>* record) -> Status {
    if (!record->has_value()) return NoSuchView(instance, view.id);
    LBT_RETURN_IF_ERROR(DecodeView(key, **record, &stored));
    if (!view.etag.empty() && view.etag != stored.etag) return StaleViewEtag("logical view", view.id);
    if (update.query) stored.query = view.query;
    if (update.deletion_protection) stored.deletion_protection = view.deletion_protection;
    stored.etag = NextViewEtag(stored.etag);
    *record = EncodeView(stored);
    return Status::OK();
  }));
  return stored;
}

Status LocalInstanceAdmin::DeleteLogicalView(const InstanceName& instance, std::string_view view_id,
                                             std::string_view etag) {
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(true));
  const std::string key = LogicalViewKey(instance, view_id);
  return db->ChangeRecord(key, [&](std::optional<std::string>* record) -> Status {
    if (!record->has_value()) return NoSuchView(instance, view_id);
    LogicalViewSpec current;
    LBT_RETURN_IF_ERROR(DecodeView(key, **record, &current));
    if (!etag.empty() && etag != current.etag) return StaleViewEtag("logical view", view_id);
    if (current.deletion_protection) {
      return Status::FailedPrecondition(
          fmt::format("logical view '{}' has deletion protection on; turn it off before deleting it", view_id));
    }
    record->reset();
    return Status::OK();
  });
}

}  // namespace lbt
