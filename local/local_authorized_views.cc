// LocalBigtable's authorized views: kept in their table's catalog entry
// (Database::ChangeTableResources), so that they go with the table when it
// is deleted and a reader sees a view change at once with the rest of the
// table's schema.

#include <fmt/format.h>

#include <algorithm>

#include "local/lazy_database.h"
#include "local/local_bigtable.h"
#include "storage/format/record_keys.h"

namespace lbt {

namespace {

std::vector<AuthorizedViewSpec>::iterator FindView(std::vector<AuthorizedViewSpec>* views, std::string_view id) {
  return std::find_if(views->begin(), views->end(), [&](const AuthorizedViewSpec& v) { return v.id == id; });
}

Status NoSuchView(std::string_view table, std::string_view id) {
  return Status::NotFound(fmt::format("authorized view '{}' of table '{}' does not exist", id, table));
}

}  // namespace

Result<AuthorizedViewSpec> LocalBigtable::CreateAuthorizedView(std::string_view table, const AuthorizedViewSpec& view) {
  LBT_RETURN_IF_ERROR(ValidateAuthorizedViewId(view.id, "authorized_view_id"));
  LBT_RETURN_IF_ERROR(ValidateSubsetView(view.subset, "authorized_view.subset_view"));
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  AuthorizedViewSpec stored = view;
  LBT_RETURN_IF_ERROR(db->ChangeTableResources(Qualified(table), [&](TableSpec* spec) -> Status {
    auto& views = spec->authorized_views;
    if (FindView(&views, view.id) != views.end()) {
      return Status::AlreadyExists(fmt::format("authorized view '{}' of table '{}' already exists", view.id, table));
    }
    stored.etag = std::to_string(++spec->view_etags_issued);
    views.insert(std::upper_bound(views.begin(), views.end(), stored,
                                  [](const AuthorizedViewSpec& a, const AuthorizedViewSpec& b) { return a.id < b.id; }),
                 stored);
    return Status::OK();
  }));
  return stored;
}

Result<AuthorizedViewSpec> LocalBigtable::GetAuthorizedView(std::string_view table, std::string_view view_id) {
  LBT_ASSIGN_OR_RETURN(std::vector<AuthorizedViewSpec> views, ListAuthorizedViews(table));
  auto it = FindView(&views, view_id);
  if (it == views.end()) return NoSuchView(table, view_id);
  return std::move(*it);
}

Result<std::vector<AuthorizedViewSpec>> LocalBigtable::ListAuthorizedViews(std::string_view table) {
  LBT_ASSIGN_OR_RETURN(TableSpec spec, GetTable(table));
  return std::move(spec.authorized_views);
}

Result<AuthorizedViewSpec> LocalBigtable::UpdateAuthorizedView(std::string_view table, const AuthorizedViewSpec& view,
                                                               const AuthorizedViewUpdate& update) {
  if (update.subset) LBT_RETURN_IF_ERROR(ValidateSubsetView(view.subset, "authorized_view.subset_view"));
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  AuthorizedViewSpec stored;
  LBT_RETURN_IF_ERROR(db->ChangeTableResources(Qualified(table), [&](TableSpec* spec) -> Status {
    auto it = FindView(&spec->authorized_views, view.id);
    if (it == spec->authorized_views.end()) return NoSuchView(table, view.id);
    if (!view.etag.empty() && view.etag != it->etag) return StaleViewEtag("authorized view", view.id);
    if (update.subset) it->subset = view.subset;
    if (update.deletion_protection) it->deletion_protection = view.deletion_protection;
    it->etag = std::to_string(++spec->view_etags_issued);
    stored = *it;
    return Status::OK();
  }));
  return stored;
}

Status LocalBigtable::DeleteAuthorizedView(std::string_view table, std::string_view view_id, std::string_view etag) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->ChangeTableResources(Qualified(table), [&](TableSpec* spec) -> Status {
    auto it = FindView(&spec->authorized_views, view_id);
    if (it == spec->authorized_views.end()) return NoSuchView(table, view_id);
    if (!etag.empty() && etag != it->etag) return StaleViewEtag("authorized view", view_id);
    if (it->deletion_protection) {
      return Status::FailedPrecondition(
          fmt::format("authorized view '{}' has deletion protection on; turn it off before deleting it", view_id));
    }
    spec->authorized_views.erase(it);
    return Status::OK();
  });
}

}  // namespace lbt
