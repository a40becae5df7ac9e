#include "server/iam_policies.h"

#include <fmt/format.h>

#include "api/instance_admin.h"
#include "api/resource.h"
#include "proto/instance_convert.h"
#include "util/bytes.h"

namespace lbt::server {

namespace {

// The resource, checked to be of a kind the service takes.
Status Check(const InstanceRouter* router, IamResources kinds, const std::string& resource) {
  if (router->admin() == nullptr) return Status::FailedPrecondition("the Bigtable served keeps no IAM policies");
  LBT_RETURN_IF_ERROR(CheckResourceNameLength(resource, "resource"));
  if (resource.empty() || NamesTableAdminResource(resource) != (kinds == IamResources::kTablesAndBackups)) {
    return Status::InvalidArgument(
        fmt::format("resource: '{}' is not {}", Abbreviated(resource),
                    kinds == IamResources::kInstances ? "an instance name" : "the name of a table or a backup"));
  }
  return Status::OK();
}

// The tables of the instance a checked Table Admin resource belongs to
// ("projects/P/instances/I/...").
Result<InstanceTables> TablesOf(const InstanceRouter* router, const std::string& resource) {
  const std::vector<std::string_view> parts = SplitResourceName(resource);
  return router->Tables(InstanceName{std::string(parts[1]), std::string(parts[3])});
}

// Where a checked resource's policy is kept: an instance's by the instance
// admin, a table's, authorized view's or backup's by its instance's
// TableAdmin.
Result<IamPolicy> GetPolicy(const InstanceRouter* router, IamResources kinds, const std::string& resource) {
  if (kinds == IamResources::kInstances) return router->admin()->GetIamPolicy(resource);
  LBT_ASSIGN_OR_RETURN(InstanceTables tables, TablesOf(router, resource));
  return tables->GetIamPolicy(resource);
}

Result<IamPolicy> SetPolicy(const InstanceRouter* router, IamResources kinds, const std::string& resource,
                            const IamPolicy& policy) {
  if (kinds == IamResources::kInstances) return router->admin()->SetIamPolicy(resource, policy);
  LBT_ASSIGN_OR_RETURN(InstanceTables tables, TablesOf(router, resource));
  return tables->SetIamPolicy(resource, policy);
}

// IAM's rules for a policy's version (google/iam/v1/policy.proto): 0, 1
// or 3, and 3 for a policy with a conditional role binding.
Status CheckPolicyVersion(const google::iam::v1::Policy& policy) {
  const int32_t version = policy.version();
  if (version != 0 && version != 1 && version != 3) {
    return Status::InvalidArgument(
        fmt::format("policy.version: {} is not a policy version; the versions are 0, 1 and 3", version));
  }
  for (int i = 0; i < policy.bindings_size(); ++i) {
    if (policy.bindings(i).has_condition() && version != 3) {
      return Status::InvalidArgument(
          fmt::format("policy.bindings[{}].condition: a conditional role binding needs policy version 3", i));
    }
  }
  return Status::OK();
}

}  // namespace

Status GetIamPolicy(const InstanceRouter* router, IamResources kinds,
                    const google::iam::v1::GetIamPolicyRequest& request, google::iam::v1::Policy* response) {
  LBT_RETURN_IF_ERROR(Check(router, kinds, request.resource()));
  LBT_ASSIGN_OR_RETURN(IamPolicy policy, GetPolicy(router, kinds, request.resource()));
  *response = proto::ToProto(policy);
  return Status::OK();
}

Status SetIamPolicy(const InstanceRouter* router, IamResources kinds,
                    const google::iam::v1::SetIamPolicyRequest& request, google::iam::v1::Policy* response) {
  LBT_RETURN_IF_ERROR(Check(router, kinds, request.resource()));
  if (!request.has_policy()) return Status::InvalidArgument("policy: must be set");
  LBT_RETURN_IF_ERROR(CheckPolicyVersion(request.policy()));
  LBT_ASSIGN_OR_RETURN(IamPolicy stored,
                       SetPolicy(router, kinds, request.resource(), proto::FromProto(request.policy())));
  *response = proto::ToProto(stored);
  return Status::OK();
}

Status TestIamPermissions(const InstanceRouter* router, IamResources kinds,
                          const google::iam::v1::TestIamPermissionsRequest& request,
                          google::iam::v1::TestIamPermissionsResponse* response) {
  LBT_RETURN_IF_ERROR(Check(router, kinds, request.resource()));
  LBT_RETURN_IF_ERROR(GetPolicy(router, kinds, request.resource()).status());  // the resource exists
  for (const std::string& permission : request.permissions()) response->add_permissions(permission);
  return Status::OK();
}

}  // namespace lbt::server
