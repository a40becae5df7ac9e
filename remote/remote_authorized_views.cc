#include "remote/remote_authorized_views.h"

#include <fmt/format.h>

#include "api/forwarding_bigtable.h"
#include "api/resource.h"
#include "proto/authorized_view_convert.h"

namespace lbt::remote {

namespace {

namespace admin = ::google::bigtable::admin::v2;
using AdminStub = RemoteCalls::AdminStub;

// `table` of the instance `calls` reach.
TableRef TableOf(RemoteCalls* calls, std::string_view table) {
  TableRef ref = TableRef::Table(std::string(table));
  ref.instance = calls->instance();
  return ref;
}

std::string ViewName(RemoteCalls* calls, std::string_view table, std::string_view view_id) {
  TableRef view = TableOf(calls, table);
  view.authorized_view = std::string(view_id);
  return view.FullName();
}

Result<AuthorizedViewSpec> SpecOf(const admin::AuthorizedView& view) {
  LBT_ASSIGN_OR_RETURN(AuthorizedViewSpec spec, proto::FromProto(view, "authorized_view"));
  spec.id = std::string(ResourceId(view.name()));
  return spec;
}

}  // namespace

Result<AuthorizedViewSpec> CreateAuthorizedView(RemoteCalls* calls, std::string_view table,
                                                const AuthorizedViewSpec& view) {
  admin::CreateAuthorizedViewRequest request;
  request.set_parent(calls->TableName(table));
  request.set_authorized_view_id(view.id);
  *request.mutable_authorized_view() = proto::ToProto(view, TableOf(calls, table), admin::AuthorizedView::FULL);
  request.mutable_authorized_view()->clear_name();
  request.mutable_authorized_view()->clear_etag();
  google::longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(
      calls->Unary(calls->admin(), &AdminStub::CreateAuthorizedView, "parent", request.parent(), request, &operation));
  admin::AuthorizedView made;
  LBT_RETURN_IF_ERROR(AwaitOperation(calls, std::move(operation), &made));
  return SpecOf(made);
}

Result<AuthorizedViewSpec> GetAuthorizedView(RemoteCalls* calls, std::string_view table, std::string_view view_id) {
  admin::GetAuthorizedViewRequest request;
  request.set_name(ViewName(calls, table, view_id));
  request.set_view(admin::AuthorizedView::FULL);
  admin::AuthorizedView view;
  LBT_RETURN_IF_ERROR(
      calls->Unary(calls->admin(), &AdminStub::GetAuthorizedView, "name", request.name(), request, &view));
  return SpecOf(view);
}

Result<std::vector<AuthorizedViewSpec>> ListAuthorizedViews(RemoteCalls* calls, std::string_view table) {
  std::vector<AuthorizedViewSpec> views;
  admin::ListAuthorizedViewsRequest request;
  request.set_parent(calls->TableName(table));
  request.set_view(admin::AuthorizedView::FULL);
  do {
    admin::ListAuthorizedViewsResponse response;
    LBT_RETURN_IF_ERROR(
        calls->Unary(calls->admin(), &AdminStub::ListAuthorizedViews, "parent", request.parent(), request, &response));
    for (const admin::AuthorizedView& view : response.authorized_views()) {
      LBT_ASSIGN_OR_RETURN(AuthorizedViewSpec spec, SpecOf(view));
      views.push_back(std::move(spec));
    }
    request.set_page_token(response.next_page_token());
  } while (!request.page_token().empty());
  return views;
}

Result<AuthorizedViewSpec> UpdateAuthorizedView(RemoteCalls* calls, std::string_view table,
                                                const AuthorizedViewSpec& view, const AuthorizedViewUpdate& update) {
  admin::UpdateAuthorizedViewRequest request;
  *request.mutable_authorized_view() = proto::ToProto(view, TableOf(calls, table), admin::AuthorizedView::FULL);
  if (update.subset) request.mutable_update_mask()->add_paths("subset_view");
  if (update.deletion_protection) request.mutable_update_mask()->add_paths("deletion_protection");
  google::longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(calls->Unary(calls->admin(), &AdminStub::UpdateAuthorizedView, "authorized_view.name",
                                   request.authorized_view().name(), request, &operation));
  admin::AuthorizedView updated;
  LBT_RETURN_IF_ERROR(AwaitOperation(calls, std::move(operation), &updated));
  return SpecOf(updated);
}

Status DeleteAuthorizedView(RemoteCalls* calls, std::string_view table, std::string_view view_id,
                            std::string_view etag) {
  admin::DeleteAuthorizedViewRequest request;
  request.set_name(ViewName(calls, table, view_id));
  request.set_etag(std::string(etag));
  google::protobuf::Empty response;
  return calls->Unary(calls->admin(), &AdminStub::DeleteAuthorizedView, "name", request.name(), request, &response);
}

}  // namespace lbt::remote
