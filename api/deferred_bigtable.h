// DeferredBigtable: a Bigtable that opens the real one on first use.
//
// Remote mode wraps its client in one, so that commands which never reach
// the service (help, version, a mistyped command) need no credentials and
// make no connection, as with cbt. The first operation opens the target;
// if that fails, it and every later operation fail with the same status.
//
// REQUIRES: what `open` returns has no local maintenance (local() is
// nullptr), as for a remote Bigtable: local() answers without opening.
//
// Threading: as the wrapped Bigtable; CancelCalls is safe from any thread.

#ifndef LBT_API_DEFERRED_BIGTABLE_H_
#define LBT_API_DEFERRED_BIGTABLE_H_

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "api/bigtable.h"

namespace lbt {

class DeferredBigtable final : public Bigtable {
 public:
  using Opener = std::function<Result<std::unique_ptr<Bigtable>>()>;

  // `describe` and `prompt` answer Describe() and PromptName() without
  // opening. `open` is called at most once.
  DeferredBigtable(std::string describe, std::string prompt, Opener open);

  std::string Describe() const override { return describe_; }
  std::string PromptName() const override { return prompt_; }

  Status CreateTable(std::string_view table, const std::vector<FamilySpec>& families,
                     const std::vector<std::string>& splits, bool deletion_protection) override;
  Status DeleteTable(std::string_view table) override;
  Result<std::vector<std::string>> ListTables() override;
  Result<TableSpec> GetTable(std::string_view table) override;
  Status ModifyFamilies(std::string_view table, const std::vector<FamilyChange>& changes) override;
  Status SetDeletionProtection(std::string_view table, bool enabled) override;
  Status SetAutomatedBackupPolicy(std::string_view table, const std::optional<AutomatedBackupPolicy>& policy) override;
  Status SetChangeStream(std::string_view table, const std::optional<ChangeStreamConfig>& config) override;
  Status DropRowRange(std::string_view table, std::string_view prefix) override;
  Status WaitForReplication(std::string_view table) override;
  Result<AuthorizedViewSpec> CreateAuthorizedView(std::string_view table, const AuthorizedViewSpec& view) override;
  Result<AuthorizedViewSpec> GetAuthorizedView(std::string_view table, std::string_view view_id) override;
  Result<std::vector<AuthorizedViewSpec>> ListAuthorizedViews(std::string_view table) override;
  Result<AuthorizedViewSpec> UpdateAuthorizedView(std::string_view table, const AuthorizedViewSpec& view,
                                                  const AuthorizedViewUpdate& update) override;
  Status DeleteAuthorizedView(std::string_view table, std::string_view view_id, std::string_view etag) override;
  Result<std::unique_ptr<Table>> OpenTable(const TableRef& ref) override;
  Result<LogicalViewSpec> CreateLogicalView(const LogicalViewSpec& view) override;
  Result<LogicalViewSpec> GetLogicalView(std::string_view view_id) override;
  Result<std::vector<LogicalViewSpec>> ListLogicalViews() override;
  Result<LogicalViewSpec> UpdateLogicalView(const LogicalViewSpec& view, const LogicalViewUpdate& update) override;
  Status DeleteLogicalView(std::string_view view_id, std::string_view etag) override;
  Result<MaterializedViewSpec> CreateMaterializedView(const MaterializedViewSpec& view) override;
  Result<MaterializedViewSpec> GetMaterializedView(std::string_view view_id) override;
  Result<std::vector<MaterializedViewSpec>> ListMaterializedViews() override;
  Result<MaterializedViewSpec> UpdateMaterializedView(const MaterializedViewSpec& view,
                                                      const MaterializedViewUpdate& update) override;
  Status DeleteMaterializedView(std::string_view view_id, std::string_view etag) override;
  Result<std::unique_ptr<RowStream>> ReadMaterializedView(std::string_view view_id,
                                                          const ReadRequest& request) override;

  // True until opening fails: the commands that ask then call the service
  // and report its error.
  bool Exists() override;
  Status Flush() override;
  int64_t NowMicros() const override;
  LocalMaintenance* local() override;  // nullptr: see REQUIRES above
  void CancelCalls() override;
  // Opens, as a query needs the service; nullptr if opening failed (the
  // query's reads then report why).
  sql::QueryService* query_service() override;
  // Opens, as managing instances needs the service; nullptr if opening failed.
  InstanceAdmin* instance_admin() override;

 private:
  // The opened target, opening it on the first call.
  Result<Bigtable*> Target();

  const std::string describe_;
  const std::string prompt_;
  Opener open_;
  std::mutex mu_;
  bool tried_ = false;
  Status open_status_;
  std::unique_ptr<Bigtable> target_;
  // target_.get() once opened, for CancelCalls from another thread.
  std::atomic<Bigtable*> opened_{nullptr};
};

}  // namespace lbt

#endif  // LBT_API_DEFERRED_BIGTABLE_H_
