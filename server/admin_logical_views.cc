// InstanceAdminService's logical-view RPCs over the Bigtable interface's
// logical views (api/logical_view.h): Create, Get, List, Update and
// Delete. A view's query must prepare against the instance's tables, as
// production checks it; Create and Update return done operations with
// production's metadata.

#include <fmt/format.h>
#include <google/protobuf/util/time_util.h>

#include "api/instance_admin.h"
#include "api/logical_view.h"
#include "api/resource.h"
#include "proto/convert.h"
#include "server/fault_injection.h"
#include "server/handler.h"
#include "server/instance_admin_service.h"
#include "server/paging.h"
#include "sql/query.h"

namespace lbt::server {

namespace {

using google::protobuf::util::TimeUtil;

admin::LogicalView ToProto(const InstanceName& instance, const LogicalViewSpec& view) {
  admin::LogicalView out;
  out.set_name(instance.Child("logicalViews", view.id));
  out.set_query(view.query);
  out.set_etag(view.etag);
  out.set_deletion_protection(view.deletion_protection);
  return out;
}

// INVALID_ARGUMENT naming the field unless `query` prepares over `tables`
// and does not read view `view_id` itself.
Status CheckQuery(Bigtable* tables, std::string_view view_id, const std::string& query, std::string_view field) {
  if (query.empty()) return Status::InvalidArgument(fmt::format("{}: must not be empty", field));
  Status s = sql::CheckViewQuery(tables, view_id, query);
  if (s.ok()) return s;
  return Status::InvalidArgument(fmt::format("{}: {}", field, s.message()));
}

Result<LogicalViewUpdate> UpdateOf(const admin::UpdateLogicalViewRequest& request) {
  LogicalViewUpdate update;
  const auto& paths = request.update_mask().paths();
  if (paths.empty()) {
    // Only the fields set (a proto3 field is set when not its default):
    // an update without a mask never clears protection.
    update.query = !request.logical_view().query().empty();
    update.deletion_protection = request.logical_view().deletion_protection();
    return update;
  }
  for (const std::string& path : paths) {
    if (path == "*") {
      update.query = update.deletion_protection = true;
    } else if (path == "query") {
      update.query = true;
    } else if (path == "deletion_protection") {
      update.deletion_protection = true;
    } else {
      return Status::InvalidArgument(
          fmt::format("update_mask: '{}' cannot be updated; a logical view's query and deletion_protection can", path));
    }
  }
  return update;
}

}  // namespace

grpc::ServerUnaryReactor* InstanceAdminService::CreateLogicalView(grpc::CallbackServerContext* context,
                                                                  const admin::CreateLogicalViewRequest* request,
                                                                  longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    const auto start = TimeUtil::GetCurrentTime();
    LBT_ASSIGN_OR_RETURN(InstanceName instance, ParseInstanceName(request->parent(), "parent"));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(instance));
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, InstanceAdminOf(tables.get(), "logical views"));
    LBT_RETURN_IF_ERROR(ValidateLogicalViewId(request->logical_view_id(), "logical_view_id"));
    LBT_RETURN_IF_ERROR(
        CheckQuery(tables.get(), request->logical_view_id(), request->logical_view().query(), "logical_view.query"));
    LogicalViewSpec view;
    view.id = request->logical_view_id();
    view.query = request->logical_view().query();
    view.deletion_protection = request->logical_view().deletion_protection();
    LBT_ASSIGN_OR_RETURN(LogicalViewSpec made, admin->CreateLogicalView(instance, view));
    admin::CreateLogicalViewMetadata metadata;
    *metadata.mutable_original_request() = *request;
    *metadata.mutable_start_time() = start;
    *metadata.mutable_end_time() = TimeUtil::GetCurrentTime();
    const admin::LogicalView shown = ToProto(instance, made);
    *response = Done(shown.name(), metadata, shown);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::GetLogicalView(grpc::CallbackServerContext* context,
                                                               const admin::GetLogicalViewRequest* request,
                                                               admin::LogicalView* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(ChildName name, ParseChildName(request->name(), "logicalViews", "name"));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(name.instance));
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, InstanceAdminOf(tables.get(), "logical views"));
    LBT_ASSIGN_OR_RETURN(LogicalViewSpec view, admin->GetLogicalView(name.instance, name.id));
    *response = ToProto(name.instance, view);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::ListLogicalViews(grpc::CallbackServerContext* context,
                                                                 const admin::ListLogicalViewsRequest* request,
                                                                 admin::ListLogicalViewsResponse* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceName instance, ParseInstanceName(request->parent(), "parent"));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(instance));
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, InstanceAdminOf(tables.get(), "logical views"));
    LBT_ASSIGN_OR_RETURN(std::vector<LogicalViewSpec> views, admin->ListLogicalViews(instance));
    LBT_ASSIGN_OR_RETURN(std::string next,
                         PageById(views, request->page_size(), request->page_token(), [&](const LogicalViewSpec& v) {
                           *response->add_logical_views() = ToProto(instance, v);
                         }));
    response->set_next_page_token(next);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::UpdateLogicalView(grpc::CallbackServerContext* context,
                                                                  const admin::UpdateLogicalViewRequest* request,
                                                                  longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    const auto start = TimeUtil::GetCurrentTime();
    LBT_ASSIGN_OR_RETURN(ChildName name,
                         ParseChildName(request->logical_view().name(), "logicalViews", "logical_view.name"));
    LBT_ASSIGN_OR_RETURN(LogicalViewUpdate update, UpdateOf(*request));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(name.instance));
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, InstanceAdminOf(tables.get(), "logical views"));
    if (update.query) {
      LBT_RETURN_IF_ERROR(CheckQuery(tables.get(), name.id, request->logical_view().query(), "logical_view.query"));
    }
    LogicalViewSpec view;
    view.id = name.id;
    view.query = request->logical_view().query();
    view.etag = request->logical_view().etag();
    view.deletion_protection = request->logical_view().deletion_protection();
    LBT_ASSIGN_OR_RETURN(LogicalViewSpec updated, admin->UpdateLogicalView(name.instance, view, update));
    admin::UpdateLogicalViewMetadata metadata;
    *metadata.mutable_original_request() = *request;
    *metadata.mutable_start_time() = start;
    *metadata.mutable_end_time() = TimeUtil::GetCurrentTime();
    const admin::LogicalView shown = ToProto(name.instance, updated);
    *response = Done(shown.name(), metadata, shown);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* InstanceAdminService::DeleteLogicalView(grpc::CallbackServerContext* context,
                                                                  const admin::DeleteLogicalViewRequest* request,
                                                                  google::protobuf::Empty*) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(ChildName name, ParseChildName(request->name(), "logicalViews", "name"));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(name.instance));
    LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, InstanceAdminOf(tables.get(), "logical views"));
    return admin->DeleteLogicalView(name.instance, name.id, request->etag());
  });
}

}  // namespace lbt::server
