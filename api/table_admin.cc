#include "api/table_admin.h"

namespace lbt {

Status TableAdmin::CreateFamily(std::string_view table, const FamilySpec& family) {
  return ModifyFamilies(table, {FamilyChange::Create(family)});
}

Status TableAdmin::DeleteFamily(std::string_view table, std::string_view family) {
  return ModifyFamilies(table, {FamilyChange::Drop(std::string(family))});
}

Status TableAdmin::SetGcRule(std::string_view table, std::string_view family, const GcRule& rule) {
  return ModifyFamilies(table, {FamilyChange::SetGcRule(std::string(family), rule)});
}

Status TableAdmin::SetValueType(std::string_view table, std::string_view family, ValueType type) {
  return ModifyFamilies(table, {FamilyChange::SetValueType(std::string(family), type)});
}

namespace {

Status NoAuthorizedViews() {
  return Status::FromCode(Status::Code::kUnimplemented, "this service has no authorized views");
}

}  // namespace

Result<AuthorizedViewSpec> TableAdmin::CreateAuthorizedView(std::string_view, const AuthorizedViewSpec&) {
  return NoAuthorizedViews();
}
Result<AuthorizedViewSpec> TableAdmin::GetAuthorizedView(std::string_view, std::string_view) {
  return NoAuthorizedViews();
}
Result<std::vector<AuthorizedViewSpec>> TableAdmin::ListAuthorizedViews(std::string_view) {
  return NoAuthorizedViews();
}
Result<AuthorizedViewSpec> TableAdmin::UpdateAuthorizedView(std::string_view, const AuthorizedViewSpec&,
                                                            const AuthorizedViewUpdate&) {
  return NoAuthorizedViews();
}
Status TableAdmin::DeleteAuthorizedView(std::string_view, std::string_view, std::string_view) {
  return NoAuthorizedViews();
}

Status TableAdmin::UndeleteTable(std::string_view) {
  return Status::FromCode(Status::Code::kUnimplemented, "this service cannot undelete tables");
}

Status TableAdmin::SetRowKeySchema(std::string_view, const std::optional<RowKeySchema>&, bool) {
  return Status::FromCode(Status::Code::kUnimplemented, "this service has no row key schemas");
}

namespace {
Status NoSchemaBundles() {
  return Status::FromCode(Status::Code::kUnimplemented, "this service has no schema bundles");
}
}  // namespace

Result<SchemaBundleSpec> TableAdmin::CreateSchemaBundle(std::string_view, const SchemaBundleSpec&) {
  return NoSchemaBundles();
}
Result<SchemaBundleSpec> TableAdmin::GetSchemaBundle(std::string_view, std::string_view) { return NoSchemaBundles(); }
Result<std::vector<SchemaBundleSpec>> TableAdmin::ListSchemaBundles(std::string_view) { return NoSchemaBundles(); }
Result<SchemaBundleSpec> TableAdmin::UpdateSchemaBundle(std::string_view, const SchemaBundleSpec&, bool) {
  return NoSchemaBundles();
}
Status TableAdmin::DeleteSchemaBundle(std::string_view, std::string_view, std::string_view) {
  return NoSchemaBundles();
}

Status TableAdmin::SetTieredStorage(std::string_view, const std::optional<TieredStorage>&) {
  return Status::FromCode(Status::Code::kUnimplemented, "this service has no tiered storage");
}

Status TableAdmin::SetAutomatedBackupPolicy(std::string_view, const std::optional<AutomatedBackupPolicy>&) {
  return Status::FromCode(Status::Code::kUnimplemented, "this service takes no automated backups");
}

Status TableAdmin::SetChangeStream(std::string_view, const std::optional<ChangeStreamConfig>&) {
  return Status::FromCode(Status::Code::kUnimplemented, "this service has no change streams");
}

namespace {

Status NoBackups() { return Status::FromCode(Status::Code::kUnimplemented, "this service has no backups"); }

}  // namespace

Result<BackupSpec> TableAdmin::CreateBackup(std::string_view, std::string_view, std::string_view, int64_t) {
  return NoBackups();
}
Result<BackupSpec> TableAdmin::GetBackup(std::string_view, std::string_view) { return NoBackups(); }
Result<std::vector<BackupSpec>> TableAdmin::ListBackups(std::string_view) { return NoBackups(); }
Result<BackupSpec> TableAdmin::UpdateBackupExpireTime(std::string_view, std::string_view, int64_t) {
  return NoBackups();
}
Status TableAdmin::DeleteBackup(std::string_view, std::string_view) { return NoBackups(); }
Result<BackupSpec> TableAdmin::CopyBackup(const BackupSpec&, std::string_view, std::string_view, int64_t) {
  return NoBackups();
}
Status TableAdmin::RestoreTable(const BackupSpec&, std::string_view) { return NoBackups(); }

Result<IamPolicy> TableAdmin::GetIamPolicy(std::string_view) {
  return Status::FromCode(Status::Code::kUnimplemented, "this service keeps no IAM policies");
}
Result<IamPolicy> TableAdmin::SetIamPolicy(std::string_view, const IamPolicy&) {
  return Status::FromCode(Status::Code::kUnimplemented, "this service keeps no IAM policies");
}

}  // namespace lbt
