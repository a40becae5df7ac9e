// GetIamPolicy, SetIamPolicy and TestIamPermissions, as both admin
// services serve them: the Instance Admin service for instances, the Table
// Admin service for tables and backups. Policies are kept with etags and
// never enforced: TestIamPermissions grants every permission asked about
// on a resource that exists.

#ifndef LBT_SERVER_IAM_POLICIES_H_
#define LBT_SERVER_IAM_POLICIES_H_

#include "api/instance.h"
#include "api/instance_admin.h"
#include "api/status.h"
#include "google/iam/v1/iam_policy.pb.h"
#include "google/iam/v1/policy.pb.h"

namespace lbt::server {

// Which resources a service takes.
enum class IamResources { kInstances, kTablesAndBackups };

// `admin` may be null (nothing to keep policies for): FailedPrecondition.
Status GetIamPolicy(InstanceAdmin* admin, IamResources kinds, const google::iam::v1::GetIamPolicyRequest& request,
                    google::iam::v1::Policy* response);
Status SetIamPolicy(InstanceAdmin* admin, IamResources kinds, const google::iam::v1::SetIamPolicyRequest& request,
                    google::iam::v1::Policy* response);
Status TestIamPermissions(InstanceAdmin* admin, IamResources kinds,
                          const google::iam::v1::TestIamPermissionsRequest& request,
                          google::iam::v1::TestIamPermissionsResponse* response);

}  // namespace lbt::server

#endif  // LBT_SERVER_IAM_POLICIES_H_
