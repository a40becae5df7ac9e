// The catalog records that the storage core keeps or clears itself, beside
// the tables' "table:" entries: pending drops, and the IAM policy records
// that follow a table and its authorized views (a table created under a
// name once used starts without a policy). Other records (instances,
// backups, views) are the product's, which keeps them through Database's
// record functions.
//
// WARNING: the key shapes are part of the on-disk format.

#ifndef LBT_STORAGE_FORMAT_RECORD_KEYS_H_
#define LBT_STORAGE_FORMAT_RECORD_KEYS_H_

#include <string>
#include <string_view>

#include "api/resource.h"
#include "api/schema.h"
#include "api/status.h"

namespace lbt {

// The hidden table of idempotency tokens (api/mutation.h's Idempotency):
// a row per token, a cell at the time its write was applied, collected
// after kIdempotencyWindowMicros. Its '#' hides it from every instance's
// tables, as the product hides its own (local/instance_records.h), and its
// instance part names none.
inline constexpr std::string_view kIdempotencyTable = "#idempotency/lbt/tokens";

// A table whose cells are still being deleted: "drop:" + its id, 8 hex
// digits, put in the transaction that removes the table from the catalog
// and deleted with its last cell, so that a deletion a crash cut short is
// finished when the database is next opened for writing.
inline constexpr std::string_view kPendingDropKeyPrefix = "drop:";
std::string PendingDropKey(TableId id);
bool ParsePendingDropKey(std::string_view key, TableId* id);

// An IAM policy's record: "iam:" + the resource's full name (an instance,
// "projects/P/instances/I"; a table, ".../tables/T"; a backup,
// ".../clusters/C/backups/B"; an authorized view, ".../tables/T/
// authorizedViews/V").
std::string IamKey(std::string_view resource);
// The instance a catalogued table name belongs to, and the table's own
// name in it: "P/I/T" is table T of instance projects/P/instances/I, a
// bare name one of the default instance's. WARNING: on disk (the tables'
// names in the catalog).
InstanceName InstanceOfTable(std::string_view catalog_name, std::string_view* table = nullptr);
// The IAM record of a catalogued table: "P/I/T" is table T of instance
// projects/P/instances/I, a bare name one of the default instance's.
std::string TableIamKey(std::string_view catalog_name);
// The IAM record of authorized view `view_id` of a catalogued table.
std::string ViewIamKey(std::string_view catalog_name, std::string_view view_id);

// Aborted: an update or delete named etag that is no longer the view's.
// `kind` is "authorized view", "logical view" or "materialized view".
Status StaleViewEtag(std::string_view kind, std::string_view id);
// The etag after `etag`: a view's etags count its versions ("1", "2", ...).
std::string NextViewEtag(const std::string& etag);

}  // namespace lbt

#endif  // LBT_STORAGE_FORMAT_RECORD_KEYS_H_
