// Instances, clusters and app profiles between Bigtable's Instance Admin
// messages and lbt's model (api/instance.h). Errors name the request field.

#ifndef LBT_PROTO_INSTANCE_CONVERT_H_
#define LBT_PROTO_INSTANCE_CONVERT_H_

#include <string_view>

#include "api/backup.h"
#include "api/instance.h"
#include "api/status.h"
#include "google/bigtable/admin/v2/instance.pb.h"
#include "google/bigtable/admin/v2/table.pb.h"
#include "google/iam/v1/policy.pb.h"

namespace lbt::proto {

namespace admin = ::google::bigtable::admin::v2;

admin::Instance ToProto(const InstanceSpec& spec);
// The display name, type and labels of `instance`, for `name`.
Result<InstanceSpec> FromProto(const InstanceName& name, const admin::Instance& instance, std::string_view field);

admin::Cluster ToProto(const InstanceName& instance, const ClusterSpec& cluster);
// A cluster as a request gives it; `id` is the request's cluster id.
Result<ClusterSpec> FromProto(std::string_view id, const admin::Cluster& cluster, std::string_view field);

admin::AppProfile ToProto(const InstanceName& instance, const AppProfileSpec& profile);
Result<AppProfileSpec> FromProto(std::string_view id, const admin::AppProfile& profile, std::string_view field);

admin::Backup ToProto(const BackupSpec& backup);
// The backup a response shows (a remote service's).
Result<BackupSpec> FromProto(const admin::Backup& backup, std::string_view field);

google::iam::v1::Policy ToProto(const IamPolicy& policy);
IamPolicy FromProto(const google::iam::v1::Policy& policy);

}  // namespace lbt::proto

#endif  // LBT_PROTO_INSTANCE_CONVERT_H_
