// AdminService's authorized-view RPCs over the Bigtable interface's views
// (api/authorized_view.h): Create, Get, List, Update and Delete. Create and
// Update return operations that come back done, with production's
// metadata.

#include <fmt/format.h>
#include <google/protobuf/util/time_util.h>

#include <algorithm>

#include "proto/authorized_view_convert.h"
#include "server/admin_service.h"
#include "server/fault_injection.h"
#include "server/handler.h"
#include "server/paging.h"
#include "server/request_target.h"

namespace lbt::server {

namespace {

namespace longrunning = ::google::longrunning;
using google::protobuf::util::TimeUtil;

// What an update replaces: the fields its mask names; with no mask, those
// the request sets; "*", all of them.
Result<AuthorizedViewUpdate> UpdateOf(const admin::UpdateAuthorizedViewRequest& request) {
  AuthorizedViewUpdate update;
  const auto& paths = request.update_mask().paths();
  if (paths.empty()) {
    // Only the fields set: a proto3 bool is "set" when true, so an update
    // without a mask never clears protection (it would, read as given).
    update.subset = request.authorized_view().has_subset_view();
    update.deletion_protection = request.authorized_view().deletion_protection();
    return update;
  }
  for (const std::string& path : paths) {
    if (path == "*") {
      update.subset = update.deletion_protection = true;
    } else if (path == "subset_view") {
      update.subset = true;
    } else if (path == "deletion_protection") {
      update.deletion_protection = true;
    } else {
      return Status::InvalidArgument(fmt::format(
          "update_mask: '{}' cannot be updated; an authorized view's subset_view and deletion_protection can", path));
    }
  }
  return update;
}

}  // namespace

grpc::ServerUnaryReactor* AdminService::CreateAuthorizedView(grpc::CallbackServerContext* context,
                                                             const admin::CreateAuthorizedViewRequest* request,
                                                             longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    const auto request_time = TimeUtil::GetCurrentTime();
    LBT_ASSIGN_OR_RETURN(AdminTarget table, ResolveAdminTable(*router_, request->parent(), "parent"));
    LBT_ASSIGN_OR_RETURN(AuthorizedViewSpec view, proto::FromProto(request->authorized_view(), "authorized_view"));
    view.id = request->authorized_view_id();
    view.etag.clear();
    LBT_ASSIGN_OR_RETURN(AuthorizedViewSpec made, table.tables->CreateAuthorizedView(table.ref.table, view));
    admin::CreateAuthorizedViewMetadata metadata;
    *metadata.mutable_original_request() = *request;
    *metadata.mutable_request_time() = request_time;
    *metadata.mutable_finish_time() = TimeUtil::GetCurrentTime();
    const admin::AuthorizedView shown = proto::ToProto(made, table.ref, admin::AuthorizedView::FULL);
    *response = Done(shown.name(), metadata, shown);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* AdminService::GetAuthorizedView(grpc::CallbackServerContext* context,
                                                          const admin::GetAuthorizedViewRequest* request,
                                                          admin::AuthorizedView* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(AdminTarget target, ResolveAdminAuthorizedView(*router_, request->name(), "name"));
    const TableRef& name = target.ref;
    LBT_ASSIGN_OR_RETURN(AuthorizedViewSpec view, target.tables->GetAuthorizedView(name.table, name.authorized_view));
    const auto shown = request->view() == admin::AuthorizedView::RESPONSE_VIEW_UNSPECIFIED
                           ? admin::AuthorizedView::BASIC
                           : request->view();
    *response = proto::ToProto(view, name, shown);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* AdminService::ListAuthorizedViews(grpc::CallbackServerContext* context,
                                                            const admin::ListAuthorizedViewsRequest* request,
                                                            admin::ListAuthorizedViewsResponse* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(AdminTarget table, ResolveAdminTable(*router_, request->parent(), "parent"));
    LBT_ASSIGN_OR_RETURN(std::vector<AuthorizedViewSpec> views, table.tables->ListAuthorizedViews(table.ref.table));
    const auto shown = request->view() == admin::AuthorizedView::RESPONSE_VIEW_UNSPECIFIED
                           ? admin::AuthorizedView::NAME_ONLY
                           : request->view();
    LBT_ASSIGN_OR_RETURN(std::string next,
                         PageById(views, request->page_size(), request->page_token(), [&](const AuthorizedViewSpec& v) {
                           *response->add_authorized_views() = proto::ToProto(v, table.ref, shown);
                         }));
    response->set_next_page_token(next);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* AdminService::UpdateAuthorizedView(grpc::CallbackServerContext* context,
                                                             const admin::UpdateAuthorizedViewRequest* request,
                                                             longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    const auto request_time = TimeUtil::GetCurrentTime();
    // The name is checked first and the tables opened last, so that a bad
    // update mask is reported before an instance that does not exist.
    LBT_ASSIGN_OR_RETURN(TableRef name,
                         ParseAuthorizedViewName(request->authorized_view().name(), "authorized_view.name"));
    LBT_ASSIGN_OR_RETURN(AuthorizedViewUpdate update, UpdateOf(*request));
    AuthorizedViewSpec view;
    if (update.subset) {
      LBT_ASSIGN_OR_RETURN(view, proto::FromProto(request->authorized_view(), "authorized_view"));
    }
    view.id = name.authorized_view;
    view.etag = request->authorized_view().etag();
    view.deletion_protection = request->authorized_view().deletion_protection();
    LBT_ASSIGN_OR_RETURN(AdminTarget target, OpenAdminTarget(*router_, name));
    LBT_ASSIGN_OR_RETURN(AuthorizedViewSpec updated, target.tables->UpdateAuthorizedView(name.table, view, update));
    admin::UpdateAuthorizedViewMetadata metadata;
    *metadata.mutable_original_request() = *request;
    *metadata.mutable_request_time() = request_time;
    *metadata.mutable_finish_time() = TimeUtil::GetCurrentTime();
    const admin::AuthorizedView shown = proto::ToProto(updated, name, admin::AuthorizedView::FULL);
    *response = Done(shown.name(), metadata, shown);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* AdminService::DeleteAuthorizedView(grpc::CallbackServerContext* context,
                                                             const admin::DeleteAuthorizedViewRequest* request,
                                                             google::protobuf::Empty*) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(AdminTarget target, ResolveAdminAuthorizedView(*router_, request->name(), "name"));
    return target.tables->DeleteAuthorizedView(target.ref.table, target.ref.authorized_view, request->etag());
  });
}

}  // namespace lbt::server
