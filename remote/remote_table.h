// A remote table's data operations (api/table.h): each request names what
// its TableRef names (table_name, authorized_view_name or
// materialized_view_name), so that the service enforces a view itself.

#ifndef LBT_REMOTE_REMOTE_TABLE_H_
#define LBT_REMOTE_REMOTE_TABLE_H_

#include <memory>

#include "api/table.h"
#include "remote/remote_calls.h"

namespace lbt::remote {

// `calls` is not owned and must outlive the result. Nothing is looked up:
// reading through a view needs no right to read its definition, and a
// table or view that does not exist is NotFound at the first call.
std::unique_ptr<Table> OpenRemoteTable(RemoteCalls* calls, const TableRef& ref);

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_TABLE_H_
