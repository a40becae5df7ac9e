#include "api/instance_admin.h"

#include <fmt/format.h>

#include "api/bigtable.h"

namespace lbt {

namespace {

Status NoLogicalViews() { return Status::FromCode(Status::Code::kUnimplemented, "this service has no logical views"); }
Status NoMaterializedViews() {
  return Status::FromCode(Status::Code::kUnimplemented, "this service has no materialized views");
}

}  // namespace

Result<LogicalViewSpec> InstanceAdmin::CreateLogicalView(const InstanceName&, const LogicalViewSpec&) {
  return NoLogicalViews();
}
Result<LogicalViewSpec> InstanceAdmin::GetLogicalView(const InstanceName&, std::string_view) {
  return NoLogicalViews();
}
Result<std::vector<LogicalViewSpec>> InstanceAdmin::ListLogicalViews(const InstanceName&) { return NoLogicalViews(); }
Result<LogicalViewSpec> InstanceAdmin::UpdateLogicalView(const InstanceName&, const LogicalViewSpec&,
                                                         const LogicalViewUpdate&) {
  return NoLogicalViews();
}
Status InstanceAdmin::DeleteLogicalView(const InstanceName&, std::string_view, std::string_view) {
  return NoLogicalViews();
}

Result<MaterializedViewSpec> InstanceAdmin::CreateMaterializedView(const InstanceName&, const MaterializedViewSpec&) {
  return NoMaterializedViews();
}
Result<MaterializedViewSpec> InstanceAdmin::GetMaterializedView(const InstanceName&, std::string_view) {
  return NoMaterializedViews();
}
Result<std::vector<MaterializedViewSpec>> InstanceAdmin::ListMaterializedViews(const InstanceName&) {
  return NoMaterializedViews();
}
Result<MaterializedViewSpec> InstanceAdmin::UpdateMaterializedView(const InstanceName&, const MaterializedViewSpec&,
                                                                   const MaterializedViewUpdate&) {
  return NoMaterializedViews();
}
Status InstanceAdmin::DeleteMaterializedView(const InstanceName&, std::string_view, std::string_view) {
  return NoMaterializedViews();
}

Result<InstanceAdmin*> InstanceAdminOf(Bigtable* bigtable, std::string_view what) {
  InstanceAdmin* admin = bigtable->instance_admin();
  if (admin == nullptr) {
    return Status::FromCode(Status::Code::kUnimplemented, fmt::format("{} has no {}", bigtable->Describe(), what));
  }
  return admin;
}

Result<LogicalViewSpec> GetLogicalViewOf(Bigtable* bigtable, std::string_view view_id) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, InstanceAdminOf(bigtable, "logical views"));
  return admin->GetLogicalView(bigtable->instance(), view_id);
}

Result<MaterializedViewSpec> GetMaterializedViewOf(Bigtable* bigtable, std::string_view view_id) {
  LBT_ASSIGN_OR_RETURN(InstanceAdmin * admin, InstanceAdminOf(bigtable, "materialized views"));
  return admin->GetMaterializedView(bigtable->instance(), view_id);
}

}  // namespace lbt
