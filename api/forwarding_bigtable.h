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
#include "api/instance_admin.h"

namespace lbt {

// Each Status or Result call: the target (Target(), which may fail), then
// the call on it.
#define LBT_FORWARD_TO_TARGET(call)                   \
  do {                                                \
    Result<Bigtable*> forward_to = Target();          \
    if (!forward_to.ok()) return forward_to.status(); \
    return (*forward_to)->call;                       \
  } while (false)

class ForwardingBigtable : public Bigtable {
 public:
  explicit ForwardingBigtable(Bigtable* target) : target_(target) {}

  std::string Describe() const override { return target_->Describe(); }
  std::string PromptName() const override { return target_->PromptName(); }
  InstanceName instance() override { return target_->instance(); }

  // The target's own Table: a subclass that watches data calls wraps the
  // target's Table in a ForwardingTable of its own.
  Result<std::unique_ptr<Table>> OpenTable(const TableRef& ref) override { LBT_FORWARD_TO_TARGET(OpenTable(ref)); }

  using TableAdmin::CreateTable;
  Status CreateTable(std::string_view table, const NewTable& spec) override {
    LBT_FORWARD_TO_TARGET(CreateTable(table, spec));
  }
  Status DeleteTable(std::string_view table) override { LBT_FORWARD_TO_TARGET(DeleteTable(table)); }
  Result<std::vector<std::string>> ListTables() override { LBT_FORWARD_TO_TARGET(ListTables()); }
  Result<TableSpec> GetTable(std::string_view table) override { LBT_FORWARD_TO_TARGET(GetTable(table)); }
  Status ModifyFamilies(std::string_view table, const std::vector<FamilyChange>& changes) override {
    LBT_FORWARD_TO_TARGET(ModifyFamilies(table, changes));
  }
  Status SetDeletionProtection(std::string_view table, bool enabled) override {
    LBT_FORWARD_TO_TARGET(SetDeletionProtection(table, enabled));
  }
  Status UndeleteTable(std::string_view table) override { LBT_FORWARD_TO_TARGET(UndeleteTable(table)); }
  Status SetRowKeySchema(std::string_view table, const std::optional<RowKeySchema>& schema,
                         bool ignore_warnings) override {
    LBT_FORWARD_TO_TARGET(SetRowKeySchema(table, schema, ignore_warnings));
  }
  Status SetTieredStorage(std::string_view table, const std::optional<TieredStorage>& tiers) override {
    LBT_FORWARD_TO_TARGET(SetTieredStorage(table, tiers));
  }
  Status SetAutomatedBackupPolicy(std::string_view table, const std::optional<AutomatedBackupPolicy>& policy) override {
    LBT_FORWARD_TO_TARGET(SetAutomatedBackupPolicy(table, policy));
  }
  Status SetChangeStream(std::string_view table, const std::optional<ChangeStreamConfig>& config) override {
    LBT_FORWARD_TO_TARGET(SetChangeStream(table, config));
  }
  Status DropRowRange(std::string_view table, std::string_view prefix) override {
    LBT_FORWARD_TO_TARGET(DropRowRange(table, prefix));
  }
  Status WaitForReplication(std::string_view table) override { LBT_FORWARD_TO_TARGET(WaitForReplication(table)); }

  Result<AuthorizedViewSpec> CreateAuthorizedView(std::string_view table, const AuthorizedViewSpec& view) override {
    LBT_FORWARD_TO_TARGET(CreateAuthorizedView(table, view));
  }
  Result<AuthorizedViewSpec> GetAuthorizedView(std::string_view table, std::string_view view_id) override {
    LBT_FORWARD_TO_TARGET(GetAuthorizedView(table, view_id));
  }
  Result<std::vector<AuthorizedViewSpec>> ListAuthorizedViews(std::string_view table) override {
    LBT_FORWARD_TO_TARGET(ListAuthorizedViews(table));
  }
  Result<AuthorizedViewSpec> UpdateAuthorizedView(std::string_view table, const AuthorizedViewSpec& view,
                                                  const AuthorizedViewUpdate& update) override {
    LBT_FORWARD_TO_TARGET(UpdateAuthorizedView(table, view, update));
  }
  Status DeleteAuthorizedView(std::string_view table, std::string_view view_id, std::string_view etag) override {
    LBT_FORWARD_TO_TARGET(DeleteAuthorizedView(table, view_id, etag));
  }
  Result<SchemaBundleSpec> CreateSchemaBundle(std::string_view table, const SchemaBundleSpec& bundle) override {
    LBT_FORWARD_TO_TARGET(CreateSchemaBundle(table, bundle));
  }
  Result<SchemaBundleSpec> GetSchemaBundle(std::string_view table, std::string_view bundle_id) override {
    LBT_FORWARD_TO_TARGET(GetSchemaBundle(table, bundle_id));
  }
  Result<std::vector<SchemaBundleSpec>> ListSchemaBundles(std::string_view table) override {
    LBT_FORWARD_TO_TARGET(ListSchemaBundles(table));
  }
  Result<SchemaBundleSpec> UpdateSchemaBundle(std::string_view table, const SchemaBundleSpec& bundle,
                                              bool ignore_warnings) override {
    LBT_FORWARD_TO_TARGET(UpdateSchemaBundle(table, bundle, ignore_warnings));
  }
  Status DeleteSchemaBundle(std::string_view table, std::string_view bundle_id, std::string_view etag) override {
    LBT_FORWARD_TO_TARGET(DeleteSchemaBundle(table, bundle_id, etag));
  }

  Result<BackupSpec> CreateBackup(std::string_view cluster, std::string_view backup_id, std::string_view table,
                                  int64_t expire_time_micros) override {
    LBT_FORWARD_TO_TARGET(CreateBackup(cluster, backup_id, table, expire_time_micros));
  }
  Result<BackupSpec> GetBackup(std::string_view cluster, std::string_view backup_id) override {
    LBT_FORWARD_TO_TARGET(GetBackup(cluster, backup_id));
  }
  Result<std::vector<BackupSpec>> ListBackups(std::string_view cluster) override {
    LBT_FORWARD_TO_TARGET(ListBackups(cluster));
  }
  Result<BackupSpec> UpdateBackupExpireTime(std::string_view cluster, std::string_view backup_id,
                                            int64_t expire_time_micros) override {
    LBT_FORWARD_TO_TARGET(UpdateBackupExpireTime(cluster, backup_id, expire_time_micros));
  }
  Status DeleteBackup(std::string_view cluster, std::string_view backup_id) override {
    LBT_FORWARD_TO_TARGET(DeleteBackup(cluster, backup_id));
  }
  Result<BackupSpec> CopyBackup(const BackupSpec& source, std::string_view cluster, std::string_view backup_id,
                                int64_t expire_time_micros) override {
    LBT_FORWARD_TO_TARGET(CopyBackup(source, cluster, backup_id, expire_time_micros));
  }
  Status RestoreTable(const BackupSpec& backup, std::string_view table_id) override {
    LBT_FORWARD_TO_TARGET(RestoreTable(backup, table_id));
  }
  Result<IamPolicy> GetIamPolicy(std::string_view resource) override { LBT_FORWARD_TO_TARGET(GetIamPolicy(resource)); }
  Result<IamPolicy> SetIamPolicy(std::string_view resource, const IamPolicy& policy) override {
    LBT_FORWARD_TO_TARGET(SetIamPolicy(resource, policy));
  }

  bool Exists() override { return target_->Exists(); }
  Status Flush() override { LBT_FORWARD_TO_TARGET(Flush()); }
  int64_t NowMicros() const override { return target_->NowMicros(); }
  LocalMaintenance* local() override { return target_->local(); }
  void CancelCalls() override { target_->CancelCalls(); }
  sql::QueryService* query_service() override { return target_->query_service(); }
  InstanceAdmin* instance_admin() override { return target_->instance_admin(); }
  ServerFaults* server_faults() override { return target_->server_faults(); }

 protected:
  Bigtable* target() const { return target_; }
  // Where the Status and Result calls go: target() unless a subclass
  // finds it otherwise (DeferredBigtable opens it on first use, or fails
  // as opening failed).
  virtual Result<Bigtable*> Target() { return target_; }
  // Forwards later operations to `target` instead. Only between
  // operations, from the thread that makes them.
  void set_target(Bigtable* target) { target_ = target; }

 private:
  Bigtable* target_;
};

}  // namespace lbt

#undef LBT_FORWARD_TO_TARGET

#endif  // LBT_API_FORWARDING_BIGTABLE_H_
