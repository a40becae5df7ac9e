// Authorized views of a remote Bigtable: their admin RPCs, and a Bigtable
// whose data requests name a view (authorized_view_name) rather than its
// table, so that the service enforces it.

#ifndef LBT_REMOTE_REMOTE_AUTHORIZED_VIEWS_H_
#define LBT_REMOTE_REMOTE_AUTHORIZED_VIEWS_H_

#include <memory>
#include <string_view>
#include <vector>

#include "api/bigtable.h"
#include "remote/remote_calls.h"

namespace lbt::remote {

Result<AuthorizedViewSpec> CreateAuthorizedView(RemoteCalls* calls, std::string_view table,
                                                const AuthorizedViewSpec& view);
Result<AuthorizedViewSpec> GetAuthorizedView(RemoteCalls* calls, std::string_view table, std::string_view view_id);
Result<std::vector<AuthorizedViewSpec>> ListAuthorizedViews(RemoteCalls* calls, std::string_view table);
Result<AuthorizedViewSpec> UpdateAuthorizedView(RemoteCalls* calls, std::string_view table,
                                                const AuthorizedViewSpec& view, const AuthorizedViewUpdate& update);
Status DeleteAuthorizedView(RemoteCalls* calls, std::string_view table, std::string_view view_id,
                            std::string_view etag);

// `remote`'s data operations on `table` through view `view_id`; `remote`
// is not owned and must outlive the result.
Result<std::unique_ptr<Bigtable>> OpenAuthorizedView(Bigtable* remote, std::string_view table,
                                                     std::string_view view_id);

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_AUTHORIZED_VIEWS_H_
