// ForwardingBigtable: a Bigtable that passes every operation to another
// one. Subclasses override the few operations they watch or change (the
// shell's `explain` records the reads a command makes).
//
// The target is not owned and must outlive this object. Threading: as the
// target's.

#ifndef LBT_API_FORWARDING_BIGTABLE_H_
#define LBT_API_FORWARDING_BIGTABLE_H_

#include <memory>
#include <string>
#include <vector>

#include "api/bigtable.h"

namespace lbt {

class ForwardingBigtable : public Bigtable {
 public:
  explicit ForwardingBigtable(Bigtable* target) : target_(target) {}

  std::string Describe() const override { return target_->Describe(); }
  std::string PromptName() const override { return target_->PromptName(); }

  // The target's own Table: a subclass that watches data calls wraps the
  // target's Table in a ForwardingTable of its own. (Bigtable::OpenTable
  // would bind the Table to this object's per-table calls, which come back
  // to OpenTable: it is for implementations that override those calls.)
  Result<std::unique_ptr<Table>> OpenTable(const TableRef& ref) override { return target_->OpenTable(ref); }

  Status CreateTable(std::string_view table, const std::vector<FamilySpec>& families,
                     const std::vector<std::string>& splits, bool deletion_protection) override {
    return target_->CreateTable(table, families, splits, deletion_protection);
  }
  Status DeleteTable(std::string_view table) override { return target_->DeleteTable(table); }
  Result<std::vector<std::string>> ListTables() override { return target_->ListTables(); }
  Result<TableSpec> GetTable(std::string_view table) override { return target_->GetTable(table); }
  Status ModifyFamilies(std::string_view table, const std::vector<FamilyChange>& changes) override {
    return target_->ModifyFamilies(table, changes);
  }
  Status SetDeletionProtection(std::string_view table, bool enabled) override {
    return target_->SetDeletionProtection(table, enabled);
  }
  Status SetAutomatedBackupPolicy(std::string_view table, const std::optional<AutomatedBackupPolicy>& policy) override {
    return target_->SetAutomatedBackupPolicy(table, policy);
  }
  Status SetChangeStream(std::string_view table, const std::optional<ChangeStreamConfig>& config) override {
    return target_->SetChangeStream(table, config);
  }
  Status DropRowRange(std::string_view table, std::string_view prefix) override {
    return target_->DropRowRange(table, prefix);
  }
  Status WaitForReplication(std::string_view table) override { return target_->WaitForReplication(table); }

  Result<AuthorizedViewSpec> CreateAuthorizedView(std::string_view table, const AuthorizedViewSpec& view) override {
    return target_->CreateAuthorizedView(table, view);
  }
  Result<AuthorizedViewSpec> GetAuthorizedView(std::string_view table, std::string_view view_id) override {
    return target_->GetAuthorizedView(table, view_id);
  }
  Result<std::vector<AuthorizedViewSpec>> ListAuthorizedViews(std::string_view table) override {
    return target_->ListAuthorizedViews(table);
  }
  Result<AuthorizedViewSpec> UpdateAuthorizedView(std::string_view table, const AuthorizedViewSpec& view,
                                                  const AuthorizedViewUpdate& update) override {
    return target_->UpdateAuthorizedView(table, view, update);
  }
  Status DeleteAuthorizedView(std::string_view table, std::string_view view_id, std::string_view etag) override {
    return target_->DeleteAuthorizedView(table, view_id, etag);
  }

  Result<LogicalViewSpec> CreateLogicalView(const LogicalViewSpec& view) override {
    return target_->CreateLogicalView(view);
  }
  Result<LogicalViewSpec> GetLogicalView(std::string_view view_id) override { return target_->GetLogicalView(view_id); }
  Result<std::vector<LogicalViewSpec>> ListLogicalViews() override { return target_->ListLogicalViews(); }
  Result<LogicalViewSpec> UpdateLogicalView(const LogicalViewSpec& view, const LogicalViewUpdate& update) override {
    return target_->UpdateLogicalView(view, update);
  }
  Status DeleteLogicalView(std::string_view view_id, std::string_view etag) override {
    return target_->DeleteLogicalView(view_id, etag);
  }

  Result<MaterializedViewSpec> CreateMaterializedView(const MaterializedViewSpec& view) override {
    return target_->CreateMaterializedView(view);
  }
  Result<MaterializedViewSpec> GetMaterializedView(std::string_view view_id) override {
    return target_->GetMaterializedView(view_id);
  }
  Result<std::vector<MaterializedViewSpec>> ListMaterializedViews() override {
    return target_->ListMaterializedViews();
  }
  Result<MaterializedViewSpec> UpdateMaterializedView(const MaterializedViewSpec& view,
                                                      const MaterializedViewUpdate& update) override {
    return target_->UpdateMaterializedView(view, update);
  }
  Status DeleteMaterializedView(std::string_view view_id, std::string_view etag) override {
    return target_->DeleteMaterializedView(view_id, etag);
  }
  Result<std::unique_ptr<RowStream>> ReadMaterializedView(std::string_view view_id,
                                                          const ReadRequest& request) override {
    return target_->ReadMaterializedView(view_id, request);
  }

  bool Exists() override { return target_->Exists(); }
  Status Flush() override { return target_->Flush(); }
  int64_t NowMicros() const override { return target_->NowMicros(); }
  LocalMaintenance* local() override { return target_->local(); }
  void CancelCalls() override { target_->CancelCalls(); }
  sql::QueryService* query_service() override { return target_->query_service(); }
  InstanceAdmin* instance_admin() override { return target_->instance_admin(); }

 protected:
  Bigtable* target() const { return target_; }
  // Forwards later operations to `target` instead. Only between
  // operations, from the thread that makes them.
  void set_target(Bigtable* target) { target_ = target; }

 private:
  Bigtable* target_;
};

}  // namespace lbt

#endif  // LBT_API_FORWARDING_BIGTABLE_H_
