#include "remote/remote_schema_bundles.h"

#include "api/resource.h"

namespace lbt::remote {

namespace {

namespace admin = ::google::bigtable::admin::v2;
using AdminStub = RemoteCalls::AdminStub;

std::string BundleName(RemoteCalls* calls, std::string_view table, std::string_view bundle_id) {
  TableRef ref = TableRef::Table(std::string(table));
  ref.instance = calls->instance();
  return SchemaBundleName{std::move(ref), std::string(bundle_id)}.Full();
}

SchemaBundleSpec SpecOf(const admin::SchemaBundle& bundle) {
  return SchemaBundleSpec{std::string(ResourceId(bundle.name())), bundle.proto_schema().proto_descriptors(),
                          bundle.etag()};
}

}  // namespace

Result<SchemaBundleSpec> CreateSchemaBundle(RemoteCalls* calls, std::string_view table,
                                            const SchemaBundleSpec& bundle) {
  admin::CreateSchemaBundleRequest request;
  request.set_parent(calls->TableName(table));
  request.set_schema_bundle_id(bundle.id);
  request.mutable_schema_bundle()->mutable_proto_schema()->set_proto_descriptors(bundle.descriptors);
  google::longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(
      calls->Unary(calls->admin(), &AdminStub::CreateSchemaBundle, "parent", request.parent(), request, &operation));
  admin::SchemaBundle made;
  LBT_RETURN_IF_ERROR(AwaitOperation(calls, std::move(operation), &made));
  return SpecOf(made);
}

Result<SchemaBundleSpec> GetSchemaBundle(RemoteCalls* calls, std::string_view table, std::string_view bundle_id) {
  admin::GetSchemaBundleRequest request;
  request.set_name(BundleName(calls, table, bundle_id));
  admin::SchemaBundle bundle;
  LBT_RETURN_IF_ERROR(
      calls->Unary(calls->admin(), &AdminStub::GetSchemaBundle, "name", request.name(), request, &bundle));
  return SpecOf(bundle);
}

Result<std::vector<SchemaBundleSpec>> ListSchemaBundles(RemoteCalls* calls, std::string_view table) {
  std::vector<SchemaBundleSpec> bundles;
  admin::ListSchemaBundlesRequest request;
  request.set_parent(calls->TableName(table));
  do {
    admin::ListSchemaBundlesResponse response;
    LBT_RETURN_IF_ERROR(
        calls->Unary(calls->admin(), &AdminStub::ListSchemaBundles, "parent", request.parent(), request, &response));
    for (const admin::SchemaBundle& bundle : response.schema_bundles()) bundles.push_back(SpecOf(bundle));
    request.set_page_token(response.next_page_token());
  } while (!request.page_token().empty());
  return bundles;
}

Result<SchemaBundleSpec> UpdateSchemaBundle(RemoteCalls* calls, std::string_view table, const SchemaBundleSpec& bundle,
                                            bool ignore_warnings) {
  admin::UpdateSchemaBundleRequest request;
  request.mutable_schema_bundle()->set_name(BundleName(calls, table, bundle.id));
  request.mutable_schema_bundle()->mutable_proto_schema()->set_proto_descriptors(bundle.descriptors);
  request.mutable_schema_bundle()->set_etag(bundle.etag);
  request.mutable_update_mask()->add_paths("proto_schema");
  request.set_ignore_warnings(ignore_warnings);
  google::longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(calls->Unary(calls->admin(), &AdminStub::UpdateSchemaBundle, "schema_bundle.name",
                                   request.schema_bundle().name(), request, &operation));
  admin::SchemaBundle updated;
  LBT_RETURN_IF_ERROR(AwaitOperation(calls, std::move(operation), &updated));
  return SpecOf(updated);
}

Status DeleteSchemaBundle(RemoteCalls* calls, std::string_view table, std::string_view bundle_id,
                          std::string_view etag) {
  admin::DeleteSchemaBundleRequest request;
  request.set_name(BundleName(calls, table, bundle_id));
  request.set_etag(std::string(etag));
  google::protobuf::Empty response;
  return calls->Unary(calls->admin(), &AdminStub::DeleteSchemaBundle, "name", request.name(), request, &response);
}

}  // namespace lbt::remote
