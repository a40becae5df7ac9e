// cbt's text for its instance, cluster and app-profile commands, as the
// installed cbt prints what Bigtable answers: Go's tabwriter tables, and a
// routing policy shown as Go's %v of the proto oneof ("&{...}").

#ifndef LBT_COMMANDS_RENDER_INSTANCE_TEXT_H_
#define LBT_COMMANDS_RENDER_INSTANCE_TEXT_H_

#include <string>
#include <vector>

#include "api/backup.h"
#include "api/instance.h"

namespace lbt {

std::string InstancesText(const std::vector<InstanceSpec>& instances);
std::string ClustersText(const InstanceSpec& instance);
std::string AppProfileText(const InstanceName& instance, const AppProfileSpec& profile, bool created);
std::string AppProfilesText(const InstanceSpec& instance);
// A backup's fields, one per line; the backups of a list as a table.
std::string BackupText(const BackupSpec& backup);
std::string BackupsText(const std::vector<BackupSpec>& backups);
// An authorized view of `table`: its name, protection, etag and subset,
// bytes quoted as cbt quotes values.
std::string AuthorizedViewText(std::string_view table, const AuthorizedViewSpec& view);
// RFC 3339 in UTC, to the second: 2026-11-24T19:49:00Z.
std::string Rfc3339(int64_t micros);
// "&{cluster_id:\"c1\"  allow_transactional_writes:true}", "&{}".
std::string RoutingPolicyText(const AppProfileSpec& profile);
// The zone of a cluster's "projects/P/locations/Z".
std::string ZoneOf(const ClusterSpec& cluster);

}  // namespace lbt

#endif  // LBT_COMMANDS_RENDER_INSTANCE_TEXT_H_
