#include "server/admin_service.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>

#include "proto/convert.h"
#include "proto/grpc_status.h"
#include "server/rpc_gate.h"

namespace lbt::server {

namespace {

using proto::ToGrpcStatus;

// The table a request names, and the instance it was named under.
Result<proto::TableName> TableOf(const std::string& name) { return proto::ParseTableName(name, "name"); }

// The table as a response shows it; an unset view is SCHEMA_VIEW.
grpc::Status Describe(Bigtable* bigtable, const proto::TableName& name, admin::Table::View view,
                      admin::Table* out) {
  Result<TableSpec> spec = bigtable->GetTable(name.table);
  if (!spec.ok()) return ToGrpcStatus(spec.status());
  if (view == admin::Table::VIEW_UNSPECIFIED) view = admin::Table::SCHEMA_VIEW;
  *out = proto::ToProto(*spec, name.instance, view);
  return grpc::Status::OK;
}

Result<std::vector<FamilySpec>> FamiliesOf(const admin::Table& table) {
  std::vector<FamilySpec> families;
  for (const auto& [name, family] : table.column_families()) {
    LBT_ASSIGN_OR_RETURN(FamilySpec spec,
                         proto::FromProto(name, family, fmt::format("table.column_families[{}]", name)));
    families.push_back(std::move(spec));
  }
  // A proto map carries no order: the families are created in name order.
  std::sort(families.begin(), families.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return families;
}

}  // namespace

grpc::Status AdminService::CreateTable(grpc::ServerContext*, const admin::CreateTableRequest* request,
                                       admin::Table* response) {
  LBT_ADMIT(gate_);
  if (Status s = proto::ValidateInstanceName(request->parent(), "parent"); !s.ok()) return ToGrpcStatus(s);
  if (request->table_id().empty()) return ToGrpcStatus(Status::InvalidArgument("table_id: must not be empty"));
  Result<std::vector<FamilySpec>> families = FamiliesOf(request->table());
  if (!families.ok()) return ToGrpcStatus(families.status());
  // initial_splits shape tablets; a local database has none to shape.
  // The table and its protection commit together.
  Status created =
      bigtable_->CreateTable(request->table_id(), *families, /*splits=*/{}, request->table().deletion_protection());
  if (!created.ok()) return ToGrpcStatus(created);
  return Describe(bigtable_, {request->parent(), request->table_id()}, admin::Table::SCHEMA_VIEW, response);
}

grpc::Status AdminService::ListTables(grpc::ServerContext*, const admin::ListTablesRequest* request,
                                      admin::ListTablesResponse* response) {
  LBT_ADMIT(gate_);
  if (Status s = proto::ValidateInstanceName(request->parent(), "parent"); !s.ok()) return ToGrpcStatus(s);
  if (request->page_size() < 0) {
    return ToGrpcStatus(Status::InvalidArgument("page_size: must not be negative"));
  }
  Result<std::vector<std::string>> names = bigtable_->ListTables();
  if (!names.ok()) return ToGrpcStatus(names.status());
  // A page token is the last name of the page before: names are sorted.
  auto it = std::upper_bound(names->begin(), names->end(), request->page_token());
  if (request->page_token().empty()) it = names->begin();
  const admin::Table::View view =
      request->view() == admin::Table::VIEW_UNSPECIFIED ? admin::Table::NAME_ONLY : request->view();
  std::string last_listed;
  for (; it != names->end(); ++it) {
    if (request->page_size() > 0 && response->tables_size() == request->page_size()) {
      response->set_next_page_token(last_listed);
      break;
    }
    admin::Table table;
    grpc::Status s = Describe(bigtable_, {request->parent(), *it}, view, &table);
    if (s.error_code() == grpc::StatusCode::NOT_FOUND) continue;  // dropped meanwhile
    if (!s.ok()) return s;
    *response->add_tables() = std::move(table);
    last_listed = *it;
  }
  return grpc::Status::OK;
}

grpc::Status AdminService::GetTable(grpc::ServerContext*, const admin::GetTableRequest* request,
                                    admin::Table* response) {
  LBT_ADMIT(gate_);
  Result<proto::TableName> name = TableOf(request->name());
  if (!name.ok()) return ToGrpcStatus(name.status());
  return Describe(bigtable_, *name, request->view(), response);
}

grpc::Status AdminService::UpdateTable(grpc::ServerContext*, const admin::UpdateTableRequest* request,
                                       google::longrunning::Operation* response) {
  LBT_ADMIT(gate_);
  Result<proto::TableName> name = proto::ParseTableName(request->table().name(), "table.name");
  if (!name.ok()) return ToGrpcStatus(name.status());
  if (request->update_mask().paths().empty()) {
    return ToGrpcStatus(Status::InvalidArgument("update_mask: name at least one field to update"));
  }
  for (const std::string& path : request->update_mask().paths()) {
    if (path != "deletion_protection") {
      return ToGrpcStatus(Status::InvalidArgument(fmt::format(
          "update_mask: lbt can update deletion_protection only, not '{}'", path)));
    }
  }
  if (Status s = bigtable_->SetDeletionProtection(name->table, request->table().deletion_protection()); !s.ok()) {
    return ToGrpcStatus(s);
  }
  admin::Table table;
  if (grpc::Status s = Describe(bigtable_, *name, admin::Table::SCHEMA_VIEW, &table); !s.ok()) return s;
  // The change is made: the operation comes back already done.
  static std::atomic<int64_t> next_operation{1};
  const std::string full_name = proto::FullTableName(name->instance, name->table);
  response->set_name(fmt::format("{}/operations/{}", full_name, next_operation++));
  response->set_done(true);
  admin::UpdateTableMetadata metadata;
  metadata.set_name(full_name);
  response->mutable_metadata()->PackFrom(metadata);
  response->mutable_response()->PackFrom(table);
  return grpc::Status::OK;
}

grpc::Status AdminService::DeleteTable(grpc::ServerContext*, const admin::DeleteTableRequest* request,
                                       google::protobuf::Empty*) {
  LBT_ADMIT(gate_);
  Result<proto::TableName> name = TableOf(request->name());
  if (!name.ok()) return ToGrpcStatus(name.status());
  return ToGrpcStatus(bigtable_->DeleteTable(name->table));
}

namespace {

// An update may change the GC rule. Bigtable refuses to change a family to
// or from an aggregate type, and lbt keeps no other value types.
// The fields an update changes: those its mask names, or gc_rule alone when
// it has no mask, as Bigtable reads an update without one.
struct UpdatedFields {
  bool gc_rule = false;
  bool value_type = false;
};

Result<UpdatedFields> UpdatedFieldsOf(const admin::ModifyColumnFamiliesRequest::Modification& m,
                                      const std::string& field) {
  UpdatedFields out;
  if (m.update_mask().paths().empty()) out.gc_rule = true;
  for (const std::string& path : m.update_mask().paths()) {
    if (path == "gc_rule") {
      out.gc_rule = true;
    } else if (path == "value_type") {
      out.value_type = true;
    } else {
      return Status::InvalidArgument(
          fmt::format("{}.update_mask: lbt can update gc_rule and value_type, not '{}'", field, path));
    }
  }
  return out;
}

// An update as the engine's change, checked against the family as the
// earlier modifications leave it (and made there).
Result<FamilyChange> UpdateOf(const admin::ModifyColumnFamiliesRequest::Modification& m, const std::string& field,
                              FamilySpec* family) {
  LBT_ASSIGN_OR_RETURN(UpdatedFields fields, UpdatedFieldsOf(m, field));
  FamilyChange change = FamilyChange::Update(m.id());
  if (fields.gc_rule) {
    LBT_ASSIGN_OR_RETURN(change.gc_rule, proto::FromProto(m.update().gc_rule(), field + ".update.gc_rule"));
    family->gc_rule = *change.gc_rule;
  }
  if (fields.value_type) {
    LBT_ASSIGN_OR_RETURN(change.value_type,
                         proto::ValueTypeFromProto(m.update().value_type(), field + ".update.value_type"));
    Status allowed = CheckValueTypeChange(family->name, family->value_type, *change.value_type);
    if (!allowed.ok()) return Status::InvalidArgument(field + ".update.value_type: " + allowed.message());
    family->value_type = StoredValueType(*change.value_type);
  }
  return change;
}

// One modification as the engine's change, checked against the table as
// the earlier ones leave it (and made there), so that a request that would
// fail part way is refused whole, with an error that names the field.
Result<FamilyChange> ChangeOf(const admin::ModifyColumnFamiliesRequest::Modification& m, const std::string& field,
                              TableSpec* table) {
  using M = admin::ModifyColumnFamiliesRequest::Modification;
  const bool exists = table->FindFamily(m.id()) != nullptr;
  switch (m.mod_case()) {
    case M::kCreate: {
      if (exists) return Status::AlreadyExists(fmt::format("{}.id: column family '{}' already exists", field, m.id()));
      LBT_RETURN_IF_ERROR(ValidateFamilyName(m.id()));
      LBT_ASSIGN_OR_RETURN(FamilySpec family, proto::FromProto(m.id(), m.create(), field + ".create"));
      table->families.emplace(m.id(), family);
      return FamilyChange::Create(std::move(family));
    }
    case M::kUpdate:
      if (!exists) return Status::NotFound(fmt::format("{}.id: column family '{}' does not exist", field, m.id()));
      return UpdateOf(m, field, &table->families.find(m.id())->second);
    case M::kDrop:
      // `drop: false` is set but asks for nothing; dropping would lose data
      // the client did not mean to lose.
      if (!m.drop()) {
        return Status::InvalidArgument(fmt::format("{}.drop: must be true to drop column family '{}'", field, m.id()));
      }
      if (!exists) return Status::NotFound(fmt::format("{}.id: column family '{}' does not exist", field, m.id()));
      table->families.erase(m.id());
      return FamilyChange::Drop(m.id());
    case M::MOD_NOT_SET: break;
  }
  return Status::InvalidArgument(fmt::format("{}: set one of create, update or drop", field));
}

}  // namespace

grpc::Status AdminService::ModifyColumnFamilies(grpc::ServerContext*,
                                                const admin::ModifyColumnFamiliesRequest* request,
                                                admin::Table* response) {
  LBT_ADMIT(gate_);
  Result<proto::TableName> name = TableOf(request->name());
  if (!name.ok()) return ToGrpcStatus(name.status());
  Result<TableSpec> spec = bigtable_->GetTable(name->table);
  if (!spec.ok()) return ToGrpcStatus(spec.status());
  TableSpec planned = *spec;
  std::vector<FamilyChange> changes;
  for (int i = 0; i < request->modifications_size(); ++i) {
    Result<FamilyChange> change = ChangeOf(request->modifications(i), fmt::format("modifications[{}]", i), &planned);
    if (!change.ok()) return ToGrpcStatus(change.status());
    changes.push_back(std::move(change).value());
  }
  // All the modifications commit together, or none does.
  if (Status s = bigtable_->ModifyFamilies(name->table, changes); !s.ok()) return ToGrpcStatus(s);
  return Describe(bigtable_, *name, admin::Table::SCHEMA_VIEW, response);
}

grpc::Status AdminService::DropRowRange(grpc::ServerContext*, const admin::DropRowRangeRequest* request,
                                        google::protobuf::Empty*) {
  LBT_ADMIT(gate_);
  Result<proto::TableName> name = TableOf(request->name());
  if (!name.ok()) return ToGrpcStatus(name.status());
  switch (request->target_case()) {
    case admin::DropRowRangeRequest::kRowKeyPrefix:
      if (request->row_key_prefix().empty()) {
        return ToGrpcStatus(Status::InvalidArgument(
            "row_key_prefix: must not be empty; use delete_all_data_from_table to drop every row"));
      }
      return ToGrpcStatus(bigtable_->DropRowRange(name->table, request->row_key_prefix()));
    case admin::DropRowRangeRequest::kDeleteAllDataFromTable:
      if (!request->delete_all_data_from_table()) break;
      return ToGrpcStatus(bigtable_->DropRowRange(name->table, ""));
    case admin::DropRowRangeRequest::TARGET_NOT_SET: break;
  }
  return ToGrpcStatus(Status::InvalidArgument("set row_key_prefix or delete_all_data_from_table"));
}

namespace {

// The token GenerateConsistencyToken issues for a table, and the only one
// CheckConsistency accepts for it.
std::string ConsistencyToken(const std::string& table) { return "lbt-consistent:" + table; }

}  // namespace

grpc::Status AdminService::GenerateConsistencyToken(grpc::ServerContext*,
                                                    const admin::GenerateConsistencyTokenRequest* request,
                                                    admin::GenerateConsistencyTokenResponse* response) {
  LBT_ADMIT(gate_);
  Result<proto::TableName> name = TableOf(request->name());
  if (!name.ok()) return ToGrpcStatus(name.status());
  if (Result<TableSpec> spec = bigtable_->GetTable(name->table); !spec.ok()) return ToGrpcStatus(spec.status());
  // One copy of the data: every write is consistent once acknowledged.
  response->set_consistency_token(ConsistencyToken(name->table));
  return grpc::Status::OK;
}

grpc::Status AdminService::CheckConsistency(grpc::ServerContext*, const admin::CheckConsistencyRequest* request,
                                            admin::CheckConsistencyResponse* response) {
  LBT_ADMIT(gate_);
  Result<proto::TableName> name = TableOf(request->name());
  if (!name.ok()) return ToGrpcStatus(name.status());
  if (request->consistency_token().empty()) {
    return ToGrpcStatus(Status::InvalidArgument("consistency_token: must not be empty"));
  }
  if (Result<TableSpec> spec = bigtable_->GetTable(name->table); !spec.ok()) return ToGrpcStatus(spec.status());
  if (request->consistency_token() != ConsistencyToken(name->table)) {
    return ToGrpcStatus(Status::InvalidArgument(fmt::format(
        "consistency_token: '{}' was not issued for table '{}'; get one from GenerateConsistencyToken",
        request->consistency_token(), name->table)));
  }
  response->set_consistent(true);
  return grpc::Status::OK;
}

}  // namespace lbt::server
