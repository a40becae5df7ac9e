// Internal to remote/: tables and column families through the service's
// Table Admin API, and waiting for replication. None of these retries.

#ifndef LBT_REMOTE_REMOTE_ADMIN_H_
#define LBT_REMOTE_REMOTE_ADMIN_H_

#include <string>
#include <string_view>
#include <vector>

#include "api/bigtable.h"
#include "remote/remote_calls.h"

namespace lbt::remote {

Status CreateTable(RemoteCalls* calls, std::string_view table, const NewTable& spec);
Status DeleteTable(RemoteCalls* calls, std::string_view table);
Status UndeleteTable(RemoteCalls* calls, std::string_view table);
// The instance's table names, sorted, every page of them.
Result<std::vector<std::string>> ListTables(RemoteCalls* calls);
Result<TableSpec> GetTable(RemoteCalls* calls, std::string_view table);
// All the changes in one ModifyColumnFamilies request.
Status ModifyFamilies(RemoteCalls* calls, std::string_view table, const std::vector<FamilyChange>& changes);
Status SetDeletionProtection(RemoteCalls* calls, std::string_view table, bool enabled);
Status SetTieredStorage(RemoteCalls* calls, std::string_view table, const std::optional<TieredStorage>& tiers);
Status SetRowKeySchema(RemoteCalls* calls, std::string_view table, const std::optional<RowKeySchema>& schema,
                       bool ignore_warnings);
Status SetAutomatedBackupPolicy(RemoteCalls* calls, std::string_view table,
                                const std::optional<AutomatedBackupPolicy>& policy);
// Drops the rows under `prefix`, or every row when it is empty.
Status DropRowRange(RemoteCalls* calls, std::string_view table, std::string_view prefix);
// Asks for a consistency token, then checks it once a second until the
// service says every write before it has replicated, as cbt's
// waitforreplication does. Ends with CANCELLED at CancelAll and
// DEADLINE_EXCEEDED at the deadline.
Status WaitForReplication(RemoteCalls* calls, std::string_view table);

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_ADMIN_H_
