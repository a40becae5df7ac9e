#include "remote/remote_logical_views.h"

#include "api/logical_view.h"
#include "api/resource.h"

namespace lbt::remote {

namespace {

namespace admin = ::google::bigtable::admin::v2;
using InstanceStub = RemoteCalls::InstanceAdminStub;

std::string ViewName(const InstanceName& instance, std::string_view view_id) {
  return instance.Child("logicalViews", view_id);
}

LogicalViewSpec SpecOf(const admin::LogicalView& view) {
  LogicalViewSpec spec;
  spec.id = std::string(ResourceId(view.name()));
  spec.query = view.query();
  spec.etag = view.etag();
  spec.deletion_protection = view.deletion_protection();
  return spec;
}

}  // namespace

Result<LogicalViewSpec> CreateLogicalView(RemoteCalls* calls, const InstanceName& instance,
                                          const LogicalViewSpec& view) {
  admin::CreateLogicalViewRequest request;
  request.set_parent(instance.Full());
  request.set_logical_view_id(view.id);
  request.mutable_logical_view()->set_query(view.query);
  request.mutable_logical_view()->set_deletion_protection(view.deletion_protection);
  google::longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(calls->Unary(calls->instance_admin(), &InstanceStub::CreateLogicalView, "parent",
                                   request.parent(), request, &operation));
  admin::LogicalView made;
  LBT_RETURN_IF_ERROR(AwaitOperation(calls, std::move(operation), &made));
  return SpecOf(made);
}

Result<LogicalViewSpec> GetLogicalView(RemoteCalls* calls, const InstanceName& instance, std::string_view view_id) {
  admin::GetLogicalViewRequest request;
  request.set_name(ViewName(instance, view_id));
  admin::LogicalView view;
  LBT_RETURN_IF_ERROR(
      calls->Unary(calls->instance_admin(), &InstanceStub::GetLogicalView, "name", request.name(), request, &view));
  return SpecOf(view);
}

Result<std::vector<LogicalViewSpec>> ListLogicalViews(RemoteCalls* calls, const InstanceName& instance) {
  std::vector<LogicalViewSpec> views;
  admin::ListLogicalViewsRequest request;
  request.set_parent(instance.Full());
  do {
    admin::ListLogicalViewsResponse response;
    LBT_RETURN_IF_ERROR(calls->Unary(calls->instance_admin(), &InstanceStub::ListLogicalViews, "parent",
                                     request.parent(), request, &response));
    for (const admin::LogicalView& view : response.logical_views()) views.push_back(SpecOf(view));
    request.set_page_token(response.next_page_token());
  } while (!request.page_token().empty());
  return views;
}

Result<LogicalViewSpec> UpdateLogicalView(RemoteCalls* calls, const InstanceName& instance, const LogicalViewSpec& view,
                                          const LogicalViewUpdate& update) {
  admin::UpdateLogicalViewRequest request;
  auto* shown = request.mutable_logical_view();
  shown->set_name(ViewName(instance, view.id));
  shown->set_query(view.query);
  shown->set_etag(view.etag);
  shown->set_deletion_protection(view.deletion_protection);
  if (update.query) request.mutable_update_mask()->add_paths("query");
  if (update.deletion_protection) request.mutable_update_mask()->add_paths("deletion_protection");
  google::longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(calls->Unary(calls->instance_admin(), &InstanceStub::UpdateLogicalView, "logical_view.name",
                                   shown->name(), request, &operation));
  admin::LogicalView updated;
  LBT_RETURN_IF_ERROR(AwaitOperation(calls, std::move(operation), &updated));
  return SpecOf(updated);
}

Status DeleteLogicalView(RemoteCalls* calls, const InstanceName& instance, std::string_view view_id,
                         std::string_view etag) {
  admin::DeleteLogicalViewRequest request;
  request.set_name(ViewName(instance, view_id));
  request.set_etag(std::string(etag));
  google::protobuf::Empty response;
  return calls->Unary(calls->instance_admin(), &InstanceStub::DeleteLogicalView, "name", request.name(), request,
                      &response);
}

}  // namespace lbt::remote
