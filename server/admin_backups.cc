// AdminService's backup RPCs, over each instance's TableAdmin (api/table_admin.h):
// CreateBackup, GetBackup, ListBackups, UpdateBackup, DeleteBackup,
// CopyBackup and RestoreTable. A backup is made before its RPC returns; its
// operation comes back done, with production's metadata.

#include <fmt/format.h>
#include <google/protobuf/empty.pb.h>
#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <charconv>
#include <chrono>

#include "api/backup.h"
#include "api/instance_admin.h"
#include "proto/convert.h"
#include "proto/instance_convert.h"
#include "server/admin_service.h"
#include "server/fault_injection.h"
#include "server/handler.h"
#include "server/request_target.h"

namespace lbt::server {

namespace {

namespace longrunning = ::google::longrunning;

template <typename T>
bool ParseNumber(const std::string& text, T* out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

int64_t Micros(const google::protobuf::Timestamp& t) {
  return google::protobuf::util::TimeUtil::TimestampToMicroseconds(t);
}

void SetTime(int64_t micros, google::protobuf::Timestamp* out) {
  *out = google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(micros);
}

admin::BackupInfo InfoOf(const BackupSpec& backup) {
  admin::BackupInfo info;
  info.set_backup(backup.Full());
  SetTime(backup.start_time_micros, info.mutable_start_time());
  SetTime(backup.end_time_micros, info.mutable_end_time());
  info.set_source_table(backup.SourceTableFull());
  info.set_source_backup(backup.source_backup);
  return info;
}

void SetDoneProgress(const BackupSpec& backup, admin::OperationProgress* progress) {
  progress->set_progress_percent(100);
  SetTime(backup.start_time_micros, progress->mutable_start_time());
  SetTime(backup.end_time_micros, progress->mutable_end_time());
}

// Whether production would optimize a table restored from `backup` into
// `to`: when the backup's cluster and a cluster of the instance restored
// into keep data on different storage (an HDD backup into an SSD
// instance). Unknown clusters (deleted, or an instance never created)
// need nothing.
bool RestoreNeedsOptimizing(InstanceAdmin* instances, const BackupSpec& backup, const InstanceName& to) {
  Result<InstanceSpec> from_instance = instances->GetInstance(backup.instance);
  Result<InstanceSpec> to_instance = instances->GetInstance(to);
  if (!from_instance.ok() || !to_instance.ok()) return false;
  const ClusterSpec* from = from_instance->FindCluster(backup.cluster);
  if (from == nullptr) return false;
  return std::any_of(to_instance->clusters.begin(), to_instance->clusters.end(),
                     [&](const ClusterSpec& c) { return c.storage_type != from->storage_type; });
}

// ---- ListBackups: filter, order and pages ----

// One term of a filter: `field op value`, as ListBackups' filter writes it.
struct FilterTerm {
  std::string field, op, value;
};

Result<std::vector<FilterTerm>> ParseFilter(const std::string& filter) {
  std::vector<FilterTerm> terms;
  std::string rest = filter;
  while (!rest.empty()) {
    size_t and_at = rest.find(" AND ");
    std::string term = rest.substr(0, and_at);
    rest = and_at == std::string::npos ? "" : rest.substr(and_at + 5);
    static const char* kOps[] = {"<=", ">=", "!=", "=", "<", ">", ":"};
    size_t at = std::string::npos;
    std::string op;
    for (const char* candidate : kOps) {
      size_t found = term.find(candidate);
      if (found != std::string::npos && found < at) at = found, op = candidate;
    }
    auto trim = [](std::string s) {
      s.erase(0, s.find_first_not_of(" ("));
      s.erase(s.find_last_not_of(" )") + 1);
      if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
      return s;
    };
    if (at == std::string::npos) {
      return Status::InvalidArgument(fmt::format("filter: '{}' is not of the form <field> <op> <value>", term));
    }
    terms.push_back({trim(term.substr(0, at)), op, trim(term.substr(at + op.size()))});
  }
  return terms;
}

template <typename T>
bool Compare(const T& a, const std::string& op, const T& b) {
  if (op == "=" || op == ":") return a == b;
  if (op == "!=") return a != b;
  if (op == "<") return a < b;
  if (op == ">") return a > b;
  if (op == "<=") return a <= b;
  return a >= b;
}

Result<bool> Matches(const admin::Backup& backup, const FilterTerm& term) {
  if (term.field == "name" || term.field == "source_table") {
    const std::string& text = term.field == "name" ? backup.name() : backup.source_table();
    if (term.op == ":") return text.find(term.value) != std::string::npos;
    return Compare(text, term.op, term.value);
  }
  if (term.field == "state")
    return Compare(std::string(admin::Backup::State_Name(backup.state())), term.op, term.value);
  if (term.field == "size_bytes") {
    int64_t value = 0;
    if (!ParseNumber(term.value, &value)) {
      return Status::InvalidArgument(fmt::format("filter: size_bytes takes a number, not '{}'", term.value));
    }
    return Compare(backup.size_bytes(), term.op, value);
  }
  if (term.field == "expire_time" || term.field == "start_time" || term.field == "end_time") {
    google::protobuf::Timestamp value;
    if (!google::protobuf::util::TimeUtil::FromString(term.value, &value)) {
      return Status::InvalidArgument(fmt::format(
          "filter: {} takes an RFC 3339 time such as \"2026-01-31T00:00:00Z\", not '{}'", term.field, term.value));
    }
    const google::protobuf::Timestamp& at = term.field == "expire_time"  ? backup.expire_time()
                                            : term.field == "start_time" ? backup.start_time()
                                                                         : backup.end_time();
    return Compare(Micros(at), term.op, Micros(value));
  }
  return Status::InvalidArgument(fmt::format(
      "filter: lbt filters backups on name, source_table, state, size_bytes, start_time, end_time and expire_time, "
      "not '{}'",
      term.field));
}

Status SortBackups(const std::string& order_by, std::vector<admin::Backup>* backups) {
  std::string field = order_by;
  bool descending = false;
  if (size_t space = field.find(' '); space != std::string::npos) {
    descending = field.substr(space + 1) == "desc";
    field = field.substr(0, space);
  }
  auto key = [&](const admin::Backup& b) -> std::string {
    if (field == "source_table") return b.source_table();
    if (field == "size_bytes") return fmt::format("{:020}", b.size_bytes());
    if (field == "expire_time") return fmt::format("{:020}", Micros(b.expire_time()));
    if (field == "start_time") return fmt::format("{:020}", Micros(b.start_time()));
    if (field == "end_time") return fmt::format("{:020}", Micros(b.end_time()));
    return b.name();
  };
  static const char* kFields[] = {"", "name", "source_table", "size_bytes", "expire_time", "start_time", "end_time"};
  if (std::find(std::begin(kFields), std::end(kFields), field) == std::end(kFields)) {
    return Status::InvalidArgument(fmt::format("order_by: backups cannot be ordered by '{}'", field));
  }
  std::stable_sort(backups->begin(), backups->end(),
                   [&](const auto& a, const auto& b) { return descending ? key(b) < key(a) : key(a) < key(b); });
  return Status::OK();
}

}  // namespace

Status AdminService::RequireBackups() const {
  if (router_->admin() == nullptr) return Status::FailedPrecondition("the Bigtable served keeps no backups");
  return Status::OK();
}

grpc::ServerUnaryReactor* AdminService::CreateBackup(grpc::CallbackServerContext* context,
                                                     const admin::CreateBackupRequest* request,
                                                     longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_RETURN_IF_ERROR(RequireBackups());
    LBT_ASSIGN_OR_RETURN(ClusterName cluster, ParseClusterName(request->parent(), "parent"));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(cluster.instance));
    LBT_ASSIGN_OR_RETURN(TableRef source,
                         BackupSourceOf(cluster, request->backup().source_table(), "backup.source_table"));
    if (!request->backup().has_expire_time()) return Status::InvalidArgument("backup.expire_time: must be set");
    LBT_ASSIGN_OR_RETURN(int64_t expire, proto::TimestampMicros(request->backup().expire_time(), "backup.expire_time"));
    LBT_ASSIGN_OR_RETURN(BackupSpec made,
                         tables->CreateBackup(cluster.cluster, request->backup_id(), source.table, expire));
    admin::CreateBackupMetadata metadata;
    metadata.set_name(made.Full());
    metadata.set_source_table(request->backup().source_table());
    SetTime(made.start_time_micros, metadata.mutable_start_time());
    SetTime(made.end_time_micros, metadata.mutable_end_time());
    *response = Done(made.Full(), metadata, proto::ToProto(made));
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* AdminService::GetBackup(grpc::CallbackServerContext* context,
                                                  const admin::GetBackupRequest* request, admin::Backup* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_RETURN_IF_ERROR(RequireBackups());
    LBT_ASSIGN_OR_RETURN(BackupName name, ParseBackupName(request->name(), "name"));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(name.instance));
    LBT_ASSIGN_OR_RETURN(BackupSpec backup, tables->GetBackup(name.cluster, name.id));
    *response = proto::ToProto(backup);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* AdminService::ListBackups(grpc::CallbackServerContext* context,
                                                    const admin::ListBackupsRequest* request,
                                                    admin::ListBackupsResponse* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_RETURN_IF_ERROR(RequireBackups());
    LBT_ASSIGN_OR_RETURN(ClusterName cluster, ParseClusterName(request->parent(), "parent"));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(cluster.instance));
    if (request->page_size() < 0) return Status::InvalidArgument("page_size: must not be negative");
    LBT_ASSIGN_OR_RETURN(std::vector<FilterTerm> terms, ParseFilter(request->filter()));
    // Each term is checked once whatever the backups: a malformed filter
    // is refused when no backup would have tried it.
    for (const FilterTerm& term : terms) LBT_RETURN_IF_ERROR(Matches(admin::Backup(), term).status());
    LBT_ASSIGN_OR_RETURN(std::vector<BackupSpec> backups, tables->ListBackups(cluster.cluster));
    std::vector<admin::Backup> kept;
    for (const BackupSpec& backup : backups) {
      admin::Backup shown = proto::ToProto(backup);
      bool match = true;
      for (const FilterTerm& term : terms) {
        LBT_ASSIGN_OR_RETURN(bool ok, Matches(shown, term));
        match = match && ok;
      }
      if (match) kept.push_back(std::move(shown));
    }
    LBT_RETURN_IF_ERROR(SortBackups(request->order_by(), &kept));
    // A page token is the number of backups the pages before held: never
    // past the list's end, as a next page is given only before it.
    size_t from = 0;
    if (!request->page_token().empty() &&
        (!ParseNumber(request->page_token(), &from) || from == 0 || from > kept.size())) {
      return Status::InvalidArgument("page_token: not a token this server gave");
    }
    const size_t size = request->page_size() > 0 ? static_cast<size_t>(request->page_size()) : kept.size();
    const size_t end = from + std::min(size, kept.size() - from);
    for (size_t i = from; i < end; ++i) *response->add_backups() = kept[i];
    if (end < kept.size()) response->set_next_page_token(std::to_string(end));
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* AdminService::UpdateBackup(grpc::CallbackServerContext* context,
                                                     const admin::UpdateBackupRequest* request,
                                                     admin::Backup* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_RETURN_IF_ERROR(RequireBackups());
    LBT_ASSIGN_OR_RETURN(BackupName name, ParseBackupName(request->backup().name(), "backup.name"));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(name.instance));
    const auto& paths = request->update_mask().paths();
    if (paths.size() != 1 || paths[0] != "expire_time") {
      return Status::InvalidArgument("update_mask: a backup's expire_time alone can be updated; name it");
    }
    LBT_ASSIGN_OR_RETURN(int64_t expire, proto::TimestampMicros(request->backup().expire_time(), "backup.expire_time"));
    LBT_ASSIGN_OR_RETURN(BackupSpec updated, tables->UpdateBackupExpireTime(name.cluster, name.id, expire));
    *response = proto::ToProto(updated);
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* AdminService::DeleteBackup(grpc::CallbackServerContext* context,
                                                     const admin::DeleteBackupRequest* request,
                                                     google::protobuf::Empty*) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_RETURN_IF_ERROR(RequireBackups());
    LBT_ASSIGN_OR_RETURN(BackupName name, ParseBackupName(request->name(), "name"));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(name.instance));
    return tables->DeleteBackup(name.cluster, name.id);
  });
}

grpc::ServerUnaryReactor* AdminService::CopyBackup(grpc::CallbackServerContext* context,
                                                   const admin::CopyBackupRequest* request,
                                                   longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_RETURN_IF_ERROR(RequireBackups());
    LBT_ASSIGN_OR_RETURN(ClusterName to, ParseClusterName(request->parent(), "parent"));
    LBT_ASSIGN_OR_RETURN(BackupName from, ParseBackupName(request->source_backup(), "source_backup"));
    if (!request->has_expire_time()) return Status::InvalidArgument("expire_time: must be set");
    LBT_ASSIGN_OR_RETURN(int64_t expire, proto::TimestampMicros(request->expire_time(), "expire_time"));
    LBT_ASSIGN_OR_RETURN(InstanceTables from_tables, router_->Tables(from.instance));
    LBT_ASSIGN_OR_RETURN(BackupSpec source, from_tables->GetBackup(from.cluster, from.id));
    LBT_ASSIGN_OR_RETURN(InstanceTables to_tables, router_->Tables(to.instance));
    LBT_ASSIGN_OR_RETURN(BackupSpec made, to_tables->CopyBackup(source, to.cluster, request->backup_id(), expire));
    admin::CopyBackupMetadata metadata;
    metadata.set_name(made.Full());
    *metadata.mutable_source_backup_info() = InfoOf(source);
    SetDoneProgress(made, metadata.mutable_progress());
    *response = Done(made.Full(), metadata, proto::ToProto(made));
    return Status::OK();
  });
}

grpc::ServerUnaryReactor* AdminService::RestoreTable(grpc::CallbackServerContext* context,
                                                     const admin::RestoreTableRequest* request,
                                                     longrunning::Operation* response) {
  return HandleAdmin(context, runtime_, __func__, *request, [=, this]() -> Status {
    LBT_RETURN_IF_ERROR(RequireBackups());
    LBT_ASSIGN_OR_RETURN(InstanceName to, ParseInstanceName(request->parent(), "parent"));
    if (request->table_id().empty()) return Status::InvalidArgument("table_id: must not be empty");
    LBT_ASSIGN_OR_RETURN(BackupName from, ParseBackupName(request->backup(), "backup"));
    LBT_ASSIGN_OR_RETURN(InstanceTables from_tables, router_->Tables(from.instance));
    LBT_ASSIGN_OR_RETURN(BackupSpec backup, from_tables->GetBackup(from.cluster, from.id));
    LBT_ASSIGN_OR_RETURN(InstanceTables tables, router_->Tables(to));
    LBT_RETURN_IF_ERROR(tables->RestoreTable(backup, request->table_id()));
    LBT_ASSIGN_OR_RETURN(TableSpec restored, tables->GetTable(request->table_id()));
    admin::RestoreTableMetadata metadata;
    metadata.set_name(FullTableName(to, request->table_id()));
    metadata.set_source_type(admin::RestoreSourceType::BACKUP);
    *metadata.mutable_backup_info() = InfoOf(backup);
    SetDoneProgress(backup, metadata.mutable_progress());
    if (RestoreNeedsOptimizing(router_->admin(), backup, to)) {
      // Production names a second operation, the table's optimization, which
      // clients poll to completion (nodejs-bigtable's system-test/
      // bigtable.ts, "should optimize when restoring from a different backing
      // type"). A local table has nothing to optimize: it is done.
      admin::OptimizeRestoredTableMetadata optimize;
      optimize.set_name(metadata.name());
      SetDoneProgress(backup, optimize.mutable_progress());
      const longrunning::Operation optimized = Done(metadata.name(), optimize, google::protobuf::Empty());
      metadata.set_optimize_table_operation_name(optimized.name());
    }
    *response = Done(metadata.name(), metadata, proto::ToProto(restored, to, admin::Table::SCHEMA_VIEW));
    return Status::OK();
  });
}

}  // namespace lbt::server
