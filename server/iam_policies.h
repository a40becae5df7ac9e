// GetIamPolicy, SetIamPolicy and TestIamPermissions, as both admin
// services serve them: the Instance Admin service for instances, the Table
// Admin service for tables, authorized views and backups. Policies are kept with etags and
// never enforced: TestIamPermissions grants every permission asked about
// on a resource that exists.

#ifndef LBT_SERVER_IAM_POLICIES_H_
#define LBT_SERVER_IAM_POLICIES_H_

#include "api/status.h"
#include "google/iam/v1/iam_policy.pb.h"
#include "google/iam/v1/policy.pb.h"
#include "server/instance_router.h"

namespace lbt::server {

// Which resources a service takes.
enum class IamResources { kInstances, kTablesAndBackups };

// An instance's policy is its InstanceAdmin's; a table's, authorized
// view's or backup's its instance's TableAdmin's. FailedPrecondition where
// `router` has no InstanceAdmin (nothing to keep policies for).
Status GetIamPolicy(const InstanceRouter* router, IamResources kinds,
                    const google::iam::v1::GetIamPolicyRequest& request, google::iam::v1::Policy* response);
Status SetIamPolicy(const InstanceRouter* router, IamResources kinds,
                    const google::iam::v1::SetIamPolicyRequest& request, google::iam::v1::Policy* response);
Status TestIamPermissions(const InstanceRouter* router, IamResources kinds,
                          const google::iam::v1::TestIamPermissionsRequest& request,
                          google::iam::v1::TestIamPermissionsResponse* response);

}  // namespace lbt::server

#endif  // LBT_SERVER_IAM_POLICIES_H_
