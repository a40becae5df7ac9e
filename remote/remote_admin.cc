#include "remote/remote_admin.h"

#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "api/resource.h"
#include "proto/convert.h"

namespace lbt::remote {

namespace {

namespace admin = ::google::bigtable::admin::v2;
using AdminStub = RemoteCalls::AdminStub;

// One change as a Modification. An update of the GC rule alone goes
// without a mask, as cbt sends it; a value type change names its path.
admin::ModifyColumnFamiliesRequest::Modification ModificationOf(const FamilyChange& change) {
  admin::ModifyColumnFamiliesRequest::Modification m;
  m.set_id(change.family.name);
  switch (change.kind) {
    case FamilyChange::Kind::kCreate: *m.mutable_create() = proto::ToProto(change.family); break;
    case FamilyChange::Kind::kUpdate:
      if (change.gc_rule) *m.mutable_update()->mutable_gc_rule() = proto::ToProto(*change.gc_rule);
      if (change.value_type) {
        *m.mutable_update()->mutable_value_type() = proto::ToProto(*change.value_type);
        if (change.gc_rule) m.mutable_update_mask()->add_paths("gc_rule");
        m.mutable_update_mask()->add_paths("value_type");
      }
      break;
    case FamilyChange::Kind::kDrop: m.set_drop(true); break;
  }
  return m;
}

// Waits about a second between two consistency checks, in slices, so that
// CancelAll and the deadline end the wait at once.
Status PauseBetweenChecks(RemoteCalls* calls, uint64_t cancellations, RemoteCalls::Clock::time_point deadline) {
  for (int slice = 0; slice < 20; ++slice) {
    if (calls->cancellations() != cancellations) return Status::Cancelled("waitforreplication cancelled");
    if (RemoteCalls::Clock::now() >= deadline) {
      return Status::FromCode(Status::Code::kDeadlineExceeded, "replication did not finish within -timeout");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return Status::OK();
}

}  // namespace

Status CreateTable(RemoteCalls* calls, std::string_view table, const NewTable& spec) {
  LBT_RETURN_IF_ERROR(ValidateTableName(table));
  admin::CreateTableRequest request;
  request.set_parent(calls->instance_name());
  request.set_table_id(std::string(table));
  *request.mutable_table() = proto::ToProto(spec);
  for (const std::string& key : spec.splits) request.add_initial_splits()->set_key(key);
  admin::Table response;
  return calls->Unary(calls->admin(), &AdminStub::CreateTable, "parent", request.parent(), request, &response);
}

Status DeleteTable(RemoteCalls* calls, std::string_view table) {
  admin::DeleteTableRequest request;
  request.set_name(calls->TableName(table));
  google::protobuf::Empty response;
  return calls->Unary(calls->admin(), &AdminStub::DeleteTable, "name", request.name(), request, &response);
}

Status UndeleteTable(RemoteCalls* calls, std::string_view table) {
  admin::UndeleteTableRequest request;
  request.set_name(calls->TableName(table));
  google::longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(
      calls->Unary(calls->admin(), &AdminStub::UndeleteTable, "name", request.name(), request, &operation));
  return AwaitOperation(calls, std::move(operation));
}

Result<std::vector<std::string>> ListTables(RemoteCalls* calls) {
  std::vector<std::string> names;
  admin::ListTablesRequest request;
  request.set_parent(calls->instance_name());
  request.set_view(admin::Table::NAME_ONLY);
  do {
    admin::ListTablesResponse response;
    LBT_RETURN_IF_ERROR(
        calls->Unary(calls->admin(), &AdminStub::ListTables, "parent", request.parent(), request, &response));
    for (const admin::Table& t : response.tables()) {
      LBT_ASSIGN_OR_RETURN(TableRef name, ParseTableName(t.name(), "tables.name"));
      names.push_back(std::move(name.table));
    }
    request.set_page_token(response.next_page_token());
  } while (!request.page_token().empty());
  std::sort(names.begin(), names.end());
  return names;
}

Result<TableSpec> GetTable(RemoteCalls* calls, std::string_view table) {
  admin::GetTableRequest request;
  request.set_name(calls->TableName(table));
  request.set_view(admin::Table::SCHEMA_VIEW);
  admin::Table response;
  LBT_RETURN_IF_ERROR(calls->Unary(calls->admin(), &AdminStub::GetTable, "name", request.name(), request, &response));
  return proto::FromProto(response, "table");
}

Status ModifyFamilies(RemoteCalls* calls, std::string_view table, const std::vector<FamilyChange>& changes) {
  admin::ModifyColumnFamiliesRequest request;
  request.set_name(calls->TableName(table));
  for (const FamilyChange& change : changes) *request.add_modifications() = ModificationOf(change);
  admin::Table response;
  return calls->Unary(calls->admin(), &AdminStub::ModifyColumnFamilies, "name", request.name(), request, &response);
}

Status SetDeletionProtection(RemoteCalls* calls, std::string_view table, bool enabled) {
  admin::UpdateTableRequest request;
  request.mutable_table()->set_name(calls->TableName(table));
  request.mutable_table()->set_deletion_protection(enabled);
  request.mutable_update_mask()->add_paths("deletion_protection");
  google::longrunning::Operation response;
  LBT_RETURN_IF_ERROR(
      calls->Unary(calls->admin(), &AdminStub::UpdateTable, "table.name", request.table().name(), request, &response));
  return response.has_error() ? proto::FromRpcStatus(response.error()) : Status::OK();
}

Status SetRowKeySchema(RemoteCalls* calls, std::string_view table, const std::optional<RowKeySchema>& schema,
                       bool ignore_warnings) {
  admin::UpdateTableRequest request;
  request.mutable_table()->set_name(calls->TableName(table));
  if (schema) *request.mutable_table()->mutable_row_key_schema() = proto::ToProto(*schema);
  request.mutable_update_mask()->add_paths("row_key_schema");
  request.set_ignore_warnings(ignore_warnings);
  google::longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(
      calls->Unary(calls->admin(), &AdminStub::UpdateTable, "table.name", request.table().name(), request, &operation));
  return AwaitOperation(calls, std::move(operation));
}

Status SetTieredStorage(RemoteCalls* calls, std::string_view table, const std::optional<TieredStorage>& tiers) {
  NewTable shown;
  shown.tiered_storage = tiers;
  admin::UpdateTableRequest request;
  *request.mutable_table() = proto::ToProto(shown);
  request.mutable_table()->set_name(calls->TableName(table));
  request.mutable_update_mask()->add_paths("tiered_storage_config");
  google::longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(
      calls->Unary(calls->admin(), &AdminStub::UpdateTable, "table.name", request.table().name(), request, &operation));
  return AwaitOperation(calls, std::move(operation));
}

Status SetAutomatedBackupPolicy(RemoteCalls* calls, std::string_view table,
                                const std::optional<AutomatedBackupPolicy>& policy) {
  admin::UpdateTableRequest request;
  request.mutable_table()->set_name(calls->TableName(table));
  if (policy) {
    using google::protobuf::util::TimeUtil;
    auto* shown = request.mutable_table()->mutable_automated_backup_policy();
    *shown->mutable_retention_period() = TimeUtil::MicrosecondsToDuration(policy->retention_micros);
    if (policy->frequency_micros != 0) {
      *shown->mutable_frequency() = TimeUtil::MicrosecondsToDuration(policy->frequency_micros);
    }
  }
  request.mutable_update_mask()->add_paths("automated_backup_policy");
  google::longrunning::Operation operation;
  LBT_RETURN_IF_ERROR(
      calls->Unary(calls->admin(), &AdminStub::UpdateTable, "table.name", request.table().name(), request, &operation));
  return AwaitOperation(calls, std::move(operation));
}

Status DropRowRange(RemoteCalls* calls, std::string_view table, std::string_view prefix) {
  admin::DropRowRangeRequest request;
  request.set_name(calls->TableName(table));
  if (prefix.empty()) {
    request.set_delete_all_data_from_table(true);
  } else {
    request.set_row_key_prefix(std::string(prefix));
  }
  google::protobuf::Empty response;
  return calls->Unary(calls->admin(), &AdminStub::DropRowRange, "name", request.name(), request, &response);
}

Status WaitForReplication(RemoteCalls* calls, std::string_view table) {
  const uint64_t cancellations = calls->cancellations();
  const RemoteCalls::Clock::time_point deadline = calls->Deadline();
  admin::GenerateConsistencyTokenRequest request;
  request.set_name(calls->TableName(table));
  admin::GenerateConsistencyTokenResponse token;
  LBT_RETURN_IF_ERROR(calls->Unary(calls->admin(), &AdminStub::GenerateConsistencyToken, "name", request.name(),
                                   request, &token, deadline));
  admin::CheckConsistencyRequest check;
  check.set_name(request.name());
  check.set_consistency_token(token.consistency_token());
  while (true) {
    admin::CheckConsistencyResponse answer;
    LBT_RETURN_IF_ERROR(
        calls->Unary(calls->admin(), &AdminStub::CheckConsistency, "name", check.name(), check, &answer, deadline));
    if (answer.consistent()) return Status::OK();
    // Replication takes seconds.
    LBT_RETURN_IF_ERROR(PauseBetweenChecks(calls, cancellations, deadline));
  }
}

}  // namespace lbt::remote
