// InstanceAdminService's materialized-view RPCs over the Bigtable
// interface's materialized views (api/materialized_view.h): Create, Get,
// List, Update and Delete. A view's query is checked against production's
// rules for one (sql::CheckMaterializedViewQuery); Create and Update
// return done operations with production's metadata, while the view's
// backfill goes on beside the server, as production's does.

#include <fmt/format.h>
#include <google/protobuf/util/time_util.h>

#include "api/instance_admin.h"
#include "api/materialized_view.h"
#include "api/resource.h"
#include "proto/convert.h"
#include "server/fault_injection.h"
#include "server/handler.h"
#include "server/instance_admin_service.h"
#include "server/paging.h"
#include "sql/materialized_view.h"

namespace lbt::server {

namespace {

using google::protobuf::util::TimeUtil;

admin::MaterializedView ToProto(const InstanceName& instance, const MaterializedViewSpec& view) {
  admin::MaterializedView out;
  out.set_name(instance.Child("materializedViews", view.id));
  out.set_query(view.query);
  out.set_etag(view.etag);
  out.set_deletion_protection(view.deletion_protection);
  return out;
}

Result<MaterializedViewUpdate> UpdateOf(const admin::UpdateMaterializedViewRequest& request) {
  MaterializedViewUpdate update;
  const auto& paths = request.update_mask().paths();
  if (paths.empty()) {
    update.deletion_protection = true;
    return update;
  }
  for (const std::string& path : paths) {
    if (path == "deletion_protection" || path == "*") {
      update.deletion_protection = true;
    } else if (path == "query" || path == "name") {
      return Status::InvalidArgument(fmt::format("Immutable fields '{}' cannot be updated.", path));
    } else {
      return Status::InvalidArgument(
          fmt::format("update_mask: '{}' cannot be updated; a materialized view's deletion_protection can", path));
    }
  }
  return update;
}

}  // namespace

grpc::ServerUnaryReactor* InstanceAdminService::CreateMaterializedView(
    grpc::CallbackServerContext* context, const admin::CreateMaterializedViewRequest* request,
    longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    const auto start = TimeUtil::GetCurrentTime();
    LBT_ASSIGN_OR_RETURN(InstanceName instance, ParseInstanceName(request->parent(), "parent"));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(instance));
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, InstanceAdminOf(tables.get(), "materialized views"));
    LBT_RETURN_IF_ERROR(ValidateMaterializedViewId(request->materialized_view_id(), "materialized_view_id"));
    MaterializedViewSpec view;
    view.id = request->materialized_view_id();
    view.query = request->materialized_view().query();
    view.deletion_protection = request->materialized_view().deletion_protection();
    if (view.query.empty()) return Status::InvalidArgument("materialized_view.query: must not be empty");
    Result<std::string> source = sql::CheckMaterializedViewQuery(tables.get(), view.query);
    if (!source.ok()) {
      if (!source.status().IsNotFound()) return Status::InvalidArgument(std::string(source.status().message()));
      return source.status();
    }
    view.source_table = *source;
    LBT_ASSIGN_OR_RETURN(MaterializedViewSpec made, admin->CreateMaterializedView(instance, view));
    admin::CreateMaterializedViewMetadata metadata;
    *metadata.mutable_original_request() = *request;
    *metadata.mutable_start_time() = start;
    *metadata.mutable_end_time() = TimeUtil::GetCurrentTime();
    const admin::MaterializedView shown = ToProto(instance, made);
    *response = Done(shown.name(), metadata, shown);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::GetMaterializedView(grpc::CallbackServerContext* context,
                                                                    const admin::GetMaterializedViewRequest* request,
                                                                    admin::MaterializedView* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(ChildName name, ParseChildName(request->name(), "materializedViews", "name"));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(name.instance));
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, InstanceAdminOf(tables.get(), "materialized views"));
    LBT_ASSIGN_OR_RETURN(MaterializedViewSpec view, admin->GetMaterializedView(name.instance, name.id));
    *response = ToProto(name.instance, view);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::ListMaterializedViews(
    grpc::CallbackServerContext* context, const admin::ListMaterializedViewsRequest* request,
    admin::ListMaterializedViewsResponse* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceName instance, ParseInstanceName(request->parent(), "parent"));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(instance));
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, InstanceAdminOf(tables.get(), "materialized views"));
    LBT_ASSIGN_OR_RETURN(std::vector<MaterializedViewSpec> views, admin->ListMaterializedViews(instance));
    LBT_ASSIGN_OR_RETURN(std::string next, PageById(views, request->page_size(), request->page_token(),
                                                    [&](const MaterializedViewSpec& v) {
                                                      *response->add_materialized_views() = ToProto(instance, v);
                                                    }));
    response->set_next_page_token(next);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::UpdateMaterializedView(
    grpc::CallbackServerContext* context, const admin::UpdateMaterializedViewRequest* request,
    longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    const auto start = TimeUtil::GetCurrentTime();
    LBT_ASSIGN_OR_RETURN(ChildName name, ParseChildName(request->materialized_view().name(), "materializedViews",
                                                        "materialized_view.name"));
    LBT_ASSIGN_OR_RETURN(MaterializedViewUpdate update, UpdateOf(*request));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(name.instance));
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, InstanceAdminOf(tables.get(), "materialized views"));
    MaterializedViewSpec view;
    view.id = name.id;
    view.etag = request->materialized_view().etag();
    view.deletion_protection = request->materialized_view().deletion_protection();
    LBT_ASSIGN_OR_RETURN(MaterializedViewSpec updated, admin->UpdateMaterializedView(name.instance, view, update));
    admin::UpdateMaterializedViewMetadata metadata;
    *metadata.mutable_original_request() = *request;
    *metadata.mutable_start_time() = start;
    *metadata.mutable_end_time() = TimeUtil::GetCurrentTime();
    const admin::MaterializedView shown = ToProto(name.instance, updated);
    *response = Done(shown.name(), metadata, shown);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::DeleteMaterializedView(
    grpc::CallbackServerContext* context, const admin::DeleteMaterializedViewRequest* request,
    google::protobuf::Empty*) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(ChildName name, ParseChildName(request->name(), "materializedViews", "name"));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(name.instance));
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, InstanceAdminOf(tables.get(), "materialized views"));
    return admin->DeleteMaterializedView(name.instance, name.id, request->etag());
  });
}

}  // namespace lbt::server
