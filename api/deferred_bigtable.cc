#include "api/deferred_bigtable.h"

#include <chrono>

namespace lbt {

DeferredBigtable::DeferredBigtable(std::string describe, std::string prompt, Opener open)
    : describe_(std::move(describe)), prompt_(std::move(prompt)), open_(std::move(open)) {}

Result<Bigtable*> DeferredBigtable::Target() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!tried_) {
    tried_ = true;
    Result<std::unique_ptr<Bigtable>> opened = open_();
    if (opened.ok()) {
      target_ = std::move(opened).value();
      opened_.store(target_.get());
    } else {
      open_status_ = opened.status();
    }
    open_ = nullptr;
  }
  if (!open_status_.ok()) return open_status_;
  return target_.get();
}

// Each operation: open (or fail as opening failed), then forward.
#define LBT_FORWARD(call)                     \
  do {                                        \
    Result<Bigtable*> target = Target();      \
    if (!target.ok()) return target.status(); \
    return (*target)->call;                   \
  } while (false)

Status DeferredBigtable::CreateTable(std::string_view table, const std::vector<FamilySpec>& families,
                                     const std::vector<std::string>& splits, bool deletion_protection) {
  LBT_FORWARD(CreateTable(table, families, splits, deletion_protection));
}
Status DeferredBigtable::ModifyFamilies(std::string_view table, const std::vector<FamilyChange>& changes) {
  LBT_FORWARD(ModifyFamilies(table, changes));
}
Status DeferredBigtable::DeleteTable(std::string_view table) { LBT_FORWARD(DeleteTable(table)); }
Result<std::vector<std::string>> DeferredBigtable::ListTables() { LBT_FORWARD(ListTables()); }
Result<TableSpec> DeferredBigtable::GetTable(std::string_view table) { LBT_FORWARD(GetTable(table)); }
Status DeferredBigtable::SetAutomatedBackupPolicy(std::string_view table,
                                                  const std::optional<AutomatedBackupPolicy>& policy) {
  LBT_FORWARD(SetAutomatedBackupPolicy(table, policy));
}
Status DeferredBigtable::SetChangeStream(std::string_view table, const std::optional<ChangeStreamConfig>& config) {
  LBT_FORWARD(SetChangeStream(table, config));
}
Result<LogicalViewSpec> DeferredBigtable::CreateLogicalView(const LogicalViewSpec& view) {
  LBT_FORWARD(CreateLogicalView(view));
}
Result<LogicalViewSpec> DeferredBigtable::GetLogicalView(std::string_view view_id) {
  LBT_FORWARD(GetLogicalView(view_id));
}
Result<std::vector<LogicalViewSpec>> DeferredBigtable::ListLogicalViews() { LBT_FORWARD(ListLogicalViews()); }
Result<LogicalViewSpec> DeferredBigtable::UpdateLogicalView(const LogicalViewSpec& view,
                                                            const LogicalViewUpdate& update) {
  LBT_FORWARD(UpdateLogicalView(view, update));
}
Status DeferredBigtable::DeleteLogicalView(std::string_view view_id, std::string_view etag) {
  LBT_FORWARD(DeleteLogicalView(view_id, etag));
}
Result<MaterializedViewSpec> DeferredBigtable::CreateMaterializedView(const MaterializedViewSpec& view) {
  LBT_FORWARD(CreateMaterializedView(view));
}
Result<MaterializedViewSpec> DeferredBigtable::GetMaterializedView(std::string_view view_id) {
  LBT_FORWARD(GetMaterializedView(view_id));
}
Result<std::vector<MaterializedViewSpec>> DeferredBigtable::ListMaterializedViews() {
  LBT_FORWARD(ListMaterializedViews());
}
Result<MaterializedViewSpec> DeferredBigtable::UpdateMaterializedView(const MaterializedViewSpec& view,
                                                                      const MaterializedViewUpdate& update) {
  LBT_FORWARD(UpdateMaterializedView(view, update));
}
Status DeferredBigtable::DeleteMaterializedView(std::string_view view_id, std::string_view etag) {
  LBT_FORWARD(DeleteMaterializedView(view_id, etag));
}
Result<std::unique_ptr<RowStream>> DeferredBigtable::ReadMaterializedView(std::string_view view_id,
                                                                          const ReadRequest& request) {
  LBT_FORWARD(ReadMaterializedView(view_id, request));
}
Result<AuthorizedViewSpec> DeferredBigtable::CreateAuthorizedView(std::string_view table,
                                                                  const AuthorizedViewSpec& view) {
  LBT_FORWARD(CreateAuthorizedView(table, view));
}
Result<AuthorizedViewSpec> DeferredBigtable::GetAuthorizedView(std::string_view table, std::string_view view_id) {
  LBT_FORWARD(GetAuthorizedView(table, view_id));
}
Result<std::vector<AuthorizedViewSpec>> DeferredBigtable::ListAuthorizedViews(std::string_view table) {
  LBT_FORWARD(ListAuthorizedViews(table));
}
Result<AuthorizedViewSpec> DeferredBigtable::UpdateAuthorizedView(std::string_view table,
                                                                  const AuthorizedViewSpec& view,
                                                                  const AuthorizedViewUpdate& update) {
  LBT_FORWARD(UpdateAuthorizedView(table, view, update));
}
Status DeferredBigtable::DeleteAuthorizedView(std::string_view table, std::string_view view_id, std::string_view etag) {
  LBT_FORWARD(DeleteAuthorizedView(table, view_id, etag));
}
Result<std::unique_ptr<Table>> DeferredBigtable::OpenTable(const TableRef& ref) { LBT_FORWARD(OpenTable(ref)); }
Status DeferredBigtable::SetDeletionProtection(std::string_view table, bool enabled) {
  LBT_FORWARD(SetDeletionProtection(table, enabled));
}
Status DeferredBigtable::DropRowRange(std::string_view table, std::string_view prefix) {
  LBT_FORWARD(DropRowRange(table, prefix));
}
Status DeferredBigtable::WaitForReplication(std::string_view table) { LBT_FORWARD(WaitForReplication(table)); }
Status DeferredBigtable::Flush() { LBT_FORWARD(Flush()); }

#undef LBT_FORWARD

bool DeferredBigtable::Exists() {
  Result<Bigtable*> target = Target();
  return !target.ok() || (*target)->Exists();
}

int64_t DeferredBigtable::NowMicros() const {
  Bigtable* opened = opened_.load();
  if (opened != nullptr) return opened->NowMicros();
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

LocalMaintenance* DeferredBigtable::local() { return nullptr; }

sql::QueryService* DeferredBigtable::query_service() {
  Result<Bigtable*> target = Target();
  return target.ok() ? (*target)->query_service() : nullptr;
}

InstanceAdmin* DeferredBigtable::instance_admin() {
  Result<Bigtable*> target = Target();
  return target.ok() ? (*target)->instance_admin() : nullptr;
}

void DeferredBigtable::CancelCalls() {
  Bigtable* opened = opened_.load();
  if (opened != nullptr) opened->CancelCalls();
}

}  // namespace lbt
