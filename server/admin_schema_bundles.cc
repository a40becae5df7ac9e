// AdminService's schema-bundle RPCs over the Bigtable interface's bundles
// (api/schema_bundle.h): Create, Get, List, Update and Delete. Create and
// Update return operations that come back done, with production's
// metadata (the bundle's name and the operation's start and end).

#include <fmt/format.h>
#include <google/protobuf/util/time_util.h>

#include "server/admin_service.h"
#include "server/fault_injection.h"
#include "server/handler.h"
#include "server/paging.h"
#include "server/request_target.h"

namespace lbt::server {

namespace {

namespace longrunning = ::google::longrunning;
using google::protobuf::util::TimeUtil;

admin::SchemaBundle ToProto(const SchemaBundleSpec& bundle, const TableRef& table) {
  admin::SchemaBundle out;
  out.set_name(SchemaBundleName{table, bundle.id}.Full());
  out.mutable_proto_schema()->set_proto_descriptors(bundle.descriptors);
  out.set_etag(bundle.etag);
  return out;
}

Result<std::string> DescriptorsOf(const admin::SchemaBundle& bundle, std::string_view field) {
  if (!bundle.has_proto_schema()) {
    return Status::InvalidArgument(fmt::format("{}.proto_schema: a schema bundle needs its proto schema", field));
  }
  return bundle.proto_schema().proto_descriptors();
}

}  // namespace

grpc::ServerUnaryReactor* AdminService::CreateSchemaBundle(grpc::CallbackServerContext* context,
                                                           const admin::CreateSchemaBundleRequest* request,
                                                           longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    const auto start = TimeUtil::GetCurrentTime();
    LBT_ASSIGN_OR_RETURN(AdminTarget table, ResolveAdminTable(*router_, request->parent(), "parent"));
    SchemaBundleSpec bundle;
    bundle.id = request->schema_bundle_id();
    LBT_ASSIGN_OR_RETURN(bundle.descriptors, DescriptorsOf(request->schema_bundle(), "schema_bundle"));
    LBT_ASSIGN_OR_RETURN(SchemaBundleSpec made, table.tables->CreateSchemaBundle(table.ref.table, bundle));
    const admin::SchemaBundle shown = ToProto(made, table.ref);
    admin::CreateSchemaBundleMetadata metadata;
    metadata.set_name(shown.name());
    *metadata.mutable_start_time() = start;
    *metadata.mutable_end_time() = TimeUtil::GetCurrentTime();
    *response = Done(shown.name(), metadata, shown);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* AdminService::GetSchemaBundle(grpc::CallbackServerContext* context,
                                                        const admin::GetSchemaBundleRequest* request,
                                                        admin::SchemaBundle* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(SchemaBundleName name, ParseSchemaBundleName(request->name(), "name"));
    LBT_ASSIGN_OR_RETURN(AdminTarget target, OpenAdminTarget(*router_, name.table));
    LBT_ASSIGN_OR_RETURN(SchemaBundleSpec bundle, target.tables->GetSchemaBundle(name.table.table, name.id));
    *response = ToProto(bundle, name.table);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* AdminService::ListSchemaBundles(grpc::CallbackServerContext* context,
                                                          const admin::ListSchemaBundlesRequest* request,
                                                          admin::ListSchemaBundlesResponse* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(AdminTarget table, ResolveAdminTable(*router_, request->parent(), "parent"));
    LBT_ASSIGN_OR_RETURN(std::vector<SchemaBundleSpec> bundles, table.tables->ListSchemaBundles(table.ref.table));
    LBT_ASSIGN_OR_RETURN(std::string next,
                         PageById(bundles, request->page_size(), request->page_token(), [&](const SchemaBundleSpec& b) {
                           *response->add_schema_bundles() = ToProto(b, table.ref);
                         }));
    response->set_next_page_token(next);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* AdminService::UpdateSchemaBundle(grpc::CallbackServerContext* context,
                                                           const admin::UpdateSchemaBundleRequest* request,
                                                           longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    const auto start = TimeUtil::GetCurrentTime();
    LBT_ASSIGN_OR_RETURN(SchemaBundleName name,
                         ParseSchemaBundleName(request->schema_bundle().name(), "schema_bundle.name"));
    for (const std::string& path : request->update_mask().paths()) {
      if (path != "proto_schema" && path != "*") {
        return Status::InvalidArgument(
            fmt::format("update_mask: '{}' cannot be updated; a schema bundle's proto_schema can", path));
      }
    }
    SchemaBundleSpec bundle;
    bundle.id = name.id;
    bundle.etag = request->schema_bundle().etag();
    LBT_ASSIGN_OR_RETURN(bundle.descriptors, DescriptorsOf(request->schema_bundle(), "schema_bundle"));
    LBT_ASSIGN_OR_RETURN(AdminTarget target, OpenAdminTarget(*router_, name.table));
    LBT_ASSIGN_OR_RETURN(SchemaBundleSpec updated,
                         target.tables->UpdateSchemaBundle(name.table.table, bundle, request->ignore_warnings()));
    const admin::SchemaBundle shown = ToProto(updated, name.table);
    admin::UpdateSchemaBundleMetadata metadata;
    metadata.set_name(shown.name());
    *metadata.mutable_start_time() = start;
    *metadata.mutable_end_time() = TimeUtil::GetCurrentTime();
    *response = Done(shown.name(), metadata, shown);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* AdminService::DeleteSchemaBundle(grpc::CallbackServerContext* context,
                                                           const admin::DeleteSchemaBundleRequest* request,
                                                           google::protobuf::Empty*) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(SchemaBundleName name, ParseSchemaBundleName(request->name(), "name"));
    LBT_ASSIGN_OR_RETURN(AdminTarget target, OpenAdminTarget(*router_, name.table));
    return target.tables->DeleteSchemaBundle(name.table.table, name.id, request->etag());
  });
}

}  // namespace lbt::server
