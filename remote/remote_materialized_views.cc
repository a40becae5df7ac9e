#include "remote/remote_materialized_views.h"

#include "api/materialized_view.h"
#include "api/resource.h"

namespace lbt::remote {

namespace {

namespace admin = ::google::bigtable::admin::v2;
using InstanceStub = RemoteCalls::InstanceAdminStub;

MaterializedViewSpec SpecOf(const admin::MaterializedView& view) {
  MaterializedViewSpec spec;
  spec.id = std::string(ResourceId(view.name()));
  spec.query = view.query();
  spec.etag = view.etag();
  spec.deletion_protection = view.deletion_protection();
  // The service answers reads of it once it can: its state is its own.
  spec.backfilled = true;
  return spec;
}

}  // namespace

Result<MaterializedViewSpec> CreateMaterializedView(RemoteCalls* calls, const InstanceName& instance,
                                                    const MaterializedViewSpec& view) {
  admin::CreateMaterializedViewRequest request;
  request.set_parent(instance.Full());
  request.set_materialized_view_id(view.id);
  request.mutable_materialized_view()->set_query(view.query);
  request.mutable_materialized_view()->set_deletion_protection(view.deletion_protection);
  google::longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(calls->Unary(calls->instance_admin(), &InstanceStub::CreateMaterializedView, "parent",
                                   request.parent(), request, &operation));
  admin::MaterializedView made;
  LBT_RETURN_IF_ERROR(AwaitOperation(calls, std::move(operation), &made));
  return SpecOf(made);
}

Result<MaterializedViewSpec> GetMaterializedView(RemoteCalls* calls, const InstanceName& instance,
                                                 std::string_view view_id) {
  admin::GetMaterializedViewRequest request;
  request.set_name(instance.Child("materializedViews", view_id));
  admin::MaterializedView view;
  LBT_RETURN_IF_ERROR(calls->Unary(calls->instance_admin(), &InstanceStub::GetMaterializedView, "name", request.name(),
                                   request, &view));
  return SpecOf(view);
}

Result<std::vector<MaterializedViewSpec>> ListMaterializedViews(RemoteCalls* calls, const InstanceName& instance) {
  std::vector<MaterializedViewSpec> views;
  admin::ListMaterializedViewsRequest request;
  request.set_parent(instance.Full());
  for (bool more = true; more; more = !request.page_token().empty()) {
    admin::ListMaterializedViewsResponse response;
    LBT_RETURN_IF_ERROR(calls->Unary(calls->instance_admin(), &InstanceStub::ListMaterializedViews, "parent",
                                     request.parent(), request, &response));
    for (const admin::MaterializedView& view : response.materialized_views()) views.push_back(SpecOf(view));
    request.set_page_token(response.next_page_token());
  }
  return views;
}

// Only deletion protection changes: a view's query is immutable.
Result<MaterializedViewSpec> UpdateMaterializedView(RemoteCalls* calls, const InstanceName& instance,
                                                    const MaterializedViewSpec& view,
                                                    const MaterializedViewUpdate& update) {
  admin::UpdateMaterializedViewRequest request;
  admin::MaterializedView* changed = request.mutable_materialized_view();
  changed->set_name(instance.Child("materializedViews", view.id));
  changed->set_etag(view.etag);
  changed->set_deletion_protection(view.deletion_protection);
  if (update.deletion_protection) request.mutable_update_mask()->add_paths("deletion_protection");
  google::longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(calls->Unary(calls->instance_admin(), &InstanceStub::UpdateMaterializedView,
                                   "materialized_view.name", changed->name(), request, &operation));
  admin::MaterializedView updated;
  LBT_RETURN_IF_ERROR(AwaitOperation(calls, std::move(operation), &updated));
  return SpecOf(updated);
}

Status DeleteMaterializedView(RemoteCalls* calls, const InstanceName& instance, std::string_view view_id,
                              std::string_view etag) {
  admin::DeleteMaterializedViewRequest request;
  request.set_name(instance.Child("materializedViews", view_id));
  request.set_etag(std::string(etag));
  google::protobuf::Empty response;
  return calls->Unary(calls->instance_admin(), &InstanceStub::DeleteMaterializedView, "name", request.name(), request,
                      &response);
}

}  // namespace lbt::remote
