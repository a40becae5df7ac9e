// Authorized views of a remote Bigtable: their admin RPCs. Data requests
// through a view name it (remote_table.h).

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

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_AUTHORIZED_VIEWS_H_
