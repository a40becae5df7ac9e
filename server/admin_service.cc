#include "server/admin_service.h"
#include "server/iam_policies.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <vector>

#include <google/protobuf/util/time_util.h>

#include "proto/convert.h"
#include "server/fault_injection.h"
#include "server/handler.h"
#include "server/request_target.h"

namespace lbt::server {

namespace {

// The table as a response shows it; an unset view is SCHEMA_VIEW.
Status Describe(Bigtable* bigtable, const InstanceName& instance, const std::string& table, admin::Table::View view,
                admin::Table* out) {
  LBT_ASSIGN_OR_RETURN(TableSpec spec, bigtable->GetTable(table));
  if (view == admin::Table::VIEW_UNSPECIFIED) view = admin::Table::SCHEMA_VIEW;
  *out = proto::ToProto(spec, instance, view);
  return Status::OK();
}

// Lists the tables after the page token, as the request's view shows them,
// up to its page size.
Status ListPage(Bigtable* bigtable, const InstanceName& instance, const admin::ListTablesRequest& request,
                admin::ListTablesResponse* response) {
  LBT_ASSIGN_OR_RETURN(std::vector<std::string> names, bigtable->ListTables());
  // A page token is the last name of the page before: names are sorted.
  auto it =
      request.page_token().empty() ? names.begin() : std::upper_bound(names.begin(), names.end(), request.page_token());
  const admin::Table::View view =
      request.view() == admin::Table::VIEW_UNSPECIFIED ? admin::Table::NAME_ONLY : request.view();
  std::string last_listed;
  for (; it != names.end(); ++it) {
    if (request.page_size() > 0 && response->tables_size() == request.page_size()) {
      response->set_next_page_token(last_listed);
      break;
    }
    admin::Table table;
    Status s = Describe(bigtable, instance, *it, view, &table);
    if (s.code() == Status::Code::kNotFound) continue;  // dropped meanwhile
    LBT_RETURN_IF_ERROR(s);
    *response->add_tables() = std::move(table);
    last_listed = *it;
  }
  return Status::OK();
}

// What an UpdateTable changes, checked before anything is.
struct TableUpdate {
  bool deletion_protection = false;
  bool backup_policy = false;
  std::optional<AutomatedBackupPolicy> policy;  // nullopt: automated backups off
  bool change_stream = false;
  std::optional<ChangeStreamConfig> stream;  // nullopt: the change stream off
  bool tiered_storage = false;
  std::optional<TieredStorage> tiers;  // nullopt: no tiered storage rule
  bool row_key = false;
  std::optional<RowKeySchema> row_key_schema;  // nullopt: removed (with ignore_warnings)
};

// UpdateTable's mask: deletion protection and the automated backup policy,
// whole or by field (a field named alone keeps the other one's value).
Result<TableUpdate> UpdateOf(Bigtable* tables, const TableRef& name, const admin::UpdateTableRequest& request) {
  const google::protobuf::FieldMask& mask = request.update_mask();
  if (mask.paths().empty()) return Status::InvalidArgument("update_mask: name at least one field to update");
  TableUpdate update;
  std::optional<AutomatedBackupPolicy> given;
  std::optional<ChangeStreamConfig> given_stream;
  std::optional<TieredStorage> given_tiers;
  std::optional<RowKeySchema> given_schema;
  if (request.table().has_automated_backup_policy() || request.table().has_change_stream_config() ||
      request.table().has_tiered_storage_config() || request.table().has_row_key_schema()) {
    LBT_ASSIGN_OR_RETURN(TableSpec described, proto::FromProto(request.table(), "table"));
    given = described.automated_backup_policy;
    given_stream = described.change_stream;
    given_tiers = described.tiered_storage;
    given_schema = described.row_key_schema;
  }
  for (const std::string& path : mask.paths()) {
    if (path == "deletion_protection") {
      update.deletion_protection = true;
    } else if (path == "change_stream_config" || path == "change_stream_config.retention_period") {
      // Without a config, or with a zero retention, the stream goes off.
      update.change_stream = true;
      update.stream = given_stream;
      if (update.stream && update.stream->retention_micros == 0) update.stream.reset();
      if (update.stream) {
        LBT_RETURN_IF_ERROR(ValidateChangeStreamRetention(update.stream->retention_micros,
                                                          "table.change_stream_config.retention_period"));
      }
    } else if (path == "automated_backup_policy") {
      update.backup_policy = true;
      update.policy = given;
    } else if (path == "automated_backup_policy.retention_period" || path == "automated_backup_policy.frequency") {
      if (!update.backup_policy) {
        LBT_ASSIGN_OR_RETURN(TableSpec current, tables->GetTable(name.table));
        update.policy = current.automated_backup_policy.value_or(AutomatedBackupPolicy{});
        update.backup_policy = true;
      }
      if (!update.policy) update.policy = AutomatedBackupPolicy{};
      const AutomatedBackupPolicy field = given.value_or(AutomatedBackupPolicy{});
      if (path.ends_with("retention_period")) {
        update.policy->retention_micros = field.retention_micros;
      } else {
        update.policy->frequency_micros = field.frequency_micros;
      }
    } else if (path == "tiered_storage_config" ||
               path == "tiered_storage_config.infrequent_access.include_if_older_than") {
      // Without a rule, tiered storage goes off.
      update.tiered_storage = true;
      update.tiers = given_tiers;
      if (update.tiers) LBT_RETURN_IF_ERROR(ValidateTieredStorage(*update.tiers, "table.tiered_storage_config"));
    } else if (path == "row_key_schema") {
      update.row_key = true;
      update.row_key_schema = given_schema;
    } else if (path == "granularity") {
      return Status::InvalidArgument(
          "update_mask: granularity is immutable: a table keeps the one it was created with");
    } else {
      return Status::InvalidArgument(
          fmt::format("update_mask: lbt can update deletion_protection, change_stream_config, "
                      "automated_backup_policy, tiered_storage_config and row_key_schema, not '{}'",
                      path));
    }
  }
  if (update.policy) {
    LBT_RETURN_IF_ERROR(ValidateAutomatedBackupPolicy(&*update.policy, "table.automated_backup_policy"));
  }
  return update;
}

// Makes `update`, or nothing: a change refused (the change stream of a
// materialized view's source cannot go off) undoes those made before it.
// The one that can be refused goes first, so that the undo is rarely needed.
Status ApplyUpdate(Bigtable* tables, const std::string& table, const TableUpdate& update, bool protection,
                   bool ignore_warnings) {
  LBT_ASSIGN_OR_RETURN(TableSpec before, tables->GetTable(table));
  std::vector<std::function<Status()>> undo;
  auto step = [&](Status made, std::function<Status()> undo_it) -> Status {
    if (made.ok()) {
      undo.push_back(std::move(undo_it));
      return made;
    }
    for (auto it = undo.rbegin(); it != undo.rend(); ++it) (void)(*it)();
    return made;
  };
  if (update.change_stream) {
    LBT_RETURN_IF_ERROR(step(tables->SetChangeStream(table, update.stream),
                             [&] { return tables->SetChangeStream(table, before.change_stream); }));
  }
  if (update.deletion_protection) {
    LBT_RETURN_IF_ERROR(step(tables->SetDeletionProtection(table, protection),
                             [&] { return tables->SetDeletionProtection(table, before.deletion_protection); }));
  }
  if (update.backup_policy) {
    LBT_RETURN_IF_ERROR(step(tables->SetAutomatedBackupPolicy(table, update.policy),
                             [&] { return tables->SetAutomatedBackupPolicy(table, before.automated_backup_policy); }));
  }
  if (update.tiered_storage) {
    LBT_RETURN_IF_ERROR(step(tables->SetTieredStorage(table, update.tiers),
                             [&] { return tables->SetTieredStorage(table, before.tiered_storage); }));
  }
  if (update.row_key) {
    LBT_RETURN_IF_ERROR(step(tables->SetRowKeySchema(table, update.row_key_schema, ignore_warnings), [&] {
      return tables->SetRowKeySchema(table, before.row_key_schema, /*ignore_warnings=*/true);
    }));
  }
  return Status::OK();
}

// UpdateTable's metadata: the table updated.
admin::UpdateTableMetadata DoneMetadata(const TableRef& name) {
  admin::UpdateTableMetadata metadata;
  metadata.set_name(name.FullName());
  return metadata;
}

// What DropRowRange drops: the rows under a prefix, or every row ("").
Result<std::string> DropTargetOf(const admin::DropRowRangeRequest& request) {
  switch (request.target_case()) {
    case admin::DropRowRangeRequest::kRowKeyPrefix:
      if (request.row_key_prefix().empty()) {
        return Status::InvalidArgument(
            "row_key_prefix: must not be empty; use delete_all_data_from_table to drop every row");
      }
      return request.row_key_prefix();
    case admin::DropRowRangeRequest::kDeleteAllDataFromTable:
      if (!request.delete_all_data_from_table()) break;
      return std::string();
    case admin::DropRowRangeRequest::TARGET_NOT_SET: break;
  }
  return Status::InvalidArgument("set row_key_prefix or delete_all_data_from_table");
}

// The token GenerateConsistencyToken issues for a table, and the only one
// CheckConsistency accepts for it.
std::string ConsistencyToken(const std::string& table) { return "lbt-consistent:" + table; }

}  // namespace

grpc::ServerUnaryReactor* AdminService::CreateTable(grpc::CallbackServerContext* context,
                                                    const admin::CreateTableRequest* request, admin::Table* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceName instance, ParseInstanceName(request->parent(), "parent"));
    if (request->table_id().empty()) return Status::InvalidArgument("table_id: must not be empty");
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(instance));
    LBT_ASSIGN_OR_RETURN(NewTable spec, proto::NewTableFromProto(request->table(), "table"));
    std::optional<ChangeStreamConfig> stream;
    if (request->table().has_change_stream_config()) {
      LBT_ASSIGN_OR_RETURN(int64_t retention,
                           proto::DurationMicros(request->table().change_stream_config().retention_period(),
                                                 "table.change_stream_config.retention_period"));
      stream = ChangeStreamConfig{retention, 0};
      LBT_RETURN_IF_ERROR(
          ValidateChangeStreamRetention(stream->retention_micros, "table.change_stream_config.retention_period"));
    }
    // initial_splits shape tablets; a local database has none to shape.
    // The table and its settings commit together; its change stream,
    // checked already, right after.
    LBT_RETURN_IF_ERROR(tables->CreateTable(request->table_id(), spec));
    if (stream) LBT_RETURN_IF_ERROR(tables->SetChangeStream(request->table_id(), stream));
    return Describe(tables.get(), instance, request->table_id(), admin::Table::SCHEMA_VIEW, response);
  });
}

grpc::ServerUnaryReactor* AdminService::ListTables(grpc::CallbackServerContext* context,
                                                   const admin::ListTablesRequest* request,
                                                   admin::ListTablesResponse* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(InstanceName instance, ParseInstanceName(request->parent(), "parent"));
    if (request->page_size() < 0) return Status::InvalidArgument("page_size: must not be negative");
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(instance));
    return ListPage(tables.get(), instance, *request, response);
  });
}

grpc::ServerUnaryReactor* AdminService::GetTable(grpc::CallbackServerContext* context,
                                                 const admin::GetTableRequest* request, admin::Table* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(AdminTarget target, ResolveAdminTable(*router_, request->name(), "name"));
    const TableRef& name = target.ref;
    InstanceTables& tables = target.tables;
    LBT_RETURN_IF_ERROR(Describe(tables.get(), name.instance, name.table, request->view(), response));
    const bool replication = request->view() == admin::Table::REPLICATION_VIEW || request->view() == admin::Table::FULL;
    if (replication && router_->admin() != nullptr) {
      // One copy, always caught up: every cluster of the instance is READY.
      Result<InstanceSpec> instance = router_->admin()->GetInstance(name.instance);
      if (instance.ok()) {
        for (const ClusterSpec& cluster : instance->clusters) {
          (*response->mutable_cluster_states())[cluster.id].set_replication_state(admin::Table::ClusterState::READY);
        }
      }
    }
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* AdminService::UpdateTable(grpc::CallbackServerContext* context,
                                                    const admin::UpdateTableRequest* request,
                                                    google::longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(AdminTarget target, ResolveAdminTable(*router_, request->table().name(), "table.name"));
    const TableRef& name = target.ref;
    InstanceTables& tables = target.tables;
    LBT_ASSIGN_OR_RETURN(TableUpdate update, UpdateOf(tables.get(), name, *request));
    LBT_RETURN_IF_ERROR(ApplyUpdate(tables.get(), name.table, update, request->table().deletion_protection(),
                                    request->ignore_warnings()));
    admin::Table table;
    LBT_RETURN_IF_ERROR(Describe(tables.get(), name.instance, name.table, admin::Table::SCHEMA_VIEW, &table));
    *response = Done(name.FullName(), DoneMetadata(name), table);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* AdminService::DeleteTable(grpc::CallbackServerContext* context,
                                                    const admin::DeleteTableRequest* request,
                                                    google::protobuf::Empty*) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(AdminTarget target, ResolveAdminTable(*router_, request->name(), "name"));
    const TableRef& name = target.ref;
    InstanceTables& tables = target.tables;
    return tables->DeleteTable(name.table);
  });
}

grpc::ServerUnaryReactor* AdminService::UndeleteTable(grpc::CallbackServerContext* context,
                                                      const admin::UndeleteTableRequest* request,
                                                      google::longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    using google::protobuf::util::TimeUtil;
    admin::UndeleteTableMetadata metadata;
    *metadata.mutable_start_time() = TimeUtil::GetCurrentTime();
    LBT_ASSIGN_OR_RETURN(AdminTarget target, ResolveAdminTable(*router_, request->name(), "name"));
    const TableRef& name = target.ref;
    LBT_RETURN_IF_ERROR(target.tables->UndeleteTable(name.table));
    admin::Table table;
    LBT_RETURN_IF_ERROR(Describe(target.tables.get(), name.instance, name.table, admin::Table::SCHEMA_VIEW, &table));
    metadata.set_name(name.FullName());
    *metadata.mutable_end_time() = TimeUtil::GetCurrentTime();
    *response = Done(name.FullName(), metadata, table);
    return Status::OK();
  });
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

grpc::ServerUnaryReactor* AdminService::ModifyColumnFamilies(grpc::CallbackServerContext* context,
                                                             const admin::ModifyColumnFamiliesRequest* request,
                                                             admin::Table* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(AdminTarget target, ResolveAdminTable(*router_, request->name(), "name"));
    const TableRef& name = target.ref;
    InstanceTables& tables = target.tables;
    LBT_ASSIGN_OR_RETURN(TableSpec planned, tables->GetTable(name.table));
    std::vector<FamilyChange> changes;
    for (int i = 0; i < request->modifications_size(); ++i) {
      LBT_ASSIGN_OR_RETURN(FamilyChange change,
                           ChangeOf(request->modifications(i), fmt::format("modifications[{}]", i), &planned));
      changes.push_back(std::move(change));
    }
    // All the modifications commit together, or none does.
    LBT_RETURN_IF_ERROR(tables->ModifyFamilies(name.table, changes));
    return Describe(tables.get(), name.instance, name.table, admin::Table::SCHEMA_VIEW, response);
  });
}

grpc::ServerUnaryReactor* AdminService::DropRowRange(grpc::CallbackServerContext* context,
                                                     const admin::DropRowRangeRequest* request,
                                                     google::protobuf::Empty*) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(AdminTarget target, ResolveAdminTable(*router_, request->name(), "name"));
    const TableRef& name = target.ref;
    InstanceTables& tables = target.tables;
    LBT_ASSIGN_OR_RETURN(std::string prefix, DropTargetOf(*request));
    return tables->DropRowRange(name.table, prefix);
  });
}

grpc::ServerUnaryReactor* AdminService::GenerateConsistencyToken(grpc::CallbackServerContext* context,
                                                                 const admin::GenerateConsistencyTokenRequest* request,
                                                                 admin::GenerateConsistencyTokenResponse* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(AdminTarget target, ResolveAdminTable(*router_, request->name(), "name"));
    const TableRef& name = target.ref;
    InstanceTables& tables = target.tables;
    LBT_RETURN_IF_ERROR(tables->GetTable(name.table).status());
    // One copy of the data: every write is consistent once acknowledged.
    response->set_consistency_token(ConsistencyToken(name.table));
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* AdminService::CheckConsistency(grpc::CallbackServerContext* context,
                                                         const admin::CheckConsistencyRequest* request,
                                                         admin::CheckConsistencyResponse* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_ASSIGN_OR_RETURN(AdminTarget target, ResolveAdminTable(*router_, request->name(), "name"));
    const TableRef& name = target.ref;
    InstanceTables& tables = target.tables;
    if (request->consistency_token().empty()) return Status::InvalidArgument("consistency_token: must not be empty");
    LBT_RETURN_IF_ERROR(tables->GetTable(name.table).status());
    if (request->consistency_token() != ConsistencyToken(name.table)) {
      return Status::InvalidArgument(
          fmt::format("consistency_token: '{}' was not issued for table '{}'; get one from GenerateConsistencyToken",
                      request->consistency_token(), name.table));
    }
    response->set_consistent(true);
    return Status::OK();
  });
}

// ---- long-running operations ----

google::longrunning::Operation AdminService::Done(std::string_view parent, const google::protobuf::Message& metadata,
                                                  const google::protobuf::Message& result) {
  google::longrunning::Operation operation;
  operation.set_done(true);
  operation.mutable_metadata()->PackFrom(metadata);
  operation.mutable_response()->PackFrom(result);
  return operations_->Add(parent, std::move(operation));
}

// ---- IAM policies of tables, authorized views and backups (iam_policies.h) ----

grpc::ServerUnaryReactor* AdminService::GetIamPolicy(grpc::CallbackServerContext* context,
                                                     const google::iam::v1::GetIamPolicyRequest* request,
                                                     google::iam::v1::Policy* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this] {
    return server::GetIamPolicy(router_, IamResources::kTablesAndBackups, *request, response);
  });
}

grpc::ServerUnaryReactor* AdminService::SetIamPolicy(grpc::CallbackServerContext* context,
                                                     const google::iam::v1::SetIamPolicyRequest* request,
                                                     google::iam::v1::Policy* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this] {
    return server::SetIamPolicy(router_, IamResources::kTablesAndBackups, *request, response);
  });
}

grpc::ServerUnaryReactor* AdminService::TestIamPermissions(grpc::CallbackServerContext* context,
                                                           const google::iam::v1::TestIamPermissionsRequest* request,
                                                           google::iam::v1::TestIamPermissionsResponse* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this] {
    return server::TestIamPermissions(router_, IamResources::kTablesAndBackups, *request, response);
  });
}

}  // namespace lbt::server
