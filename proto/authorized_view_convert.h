// Authorized views between the Admin API's AuthorizedView message and
// api/authorized_view.h.

#ifndef LBT_PROTO_AUTHORIZED_VIEW_CONVERT_H_
#define LBT_PROTO_AUTHORIZED_VIEW_CONVERT_H_

#include <string>
#include <string_view>

#include "api/authorized_view.h"
#include "api/resource.h"
#include "google/bigtable/admin/v2/table.pb.h"
#include "proto/convert.h"

namespace lbt::proto {

namespace admin = ::google::bigtable::admin::v2;

// The view as `response_view` shows it, named as a view of `table`'s table
// and instance: NAME_ONLY the name; BASIC adds the etag and deletion
// protection; FULL the subset too.
admin::AuthorizedView ToProto(const AuthorizedViewSpec& view, const TableRef& table,
                              admin::AuthorizedView::ResponseView response_view);
// The view a request describes (its id comes from elsewhere); `field`
// names the message in errors. InvalidArgument without a subset_view.
Result<AuthorizedViewSpec> FromProto(const admin::AuthorizedView& view, std::string_view field);

}  // namespace lbt::proto

#endif  // LBT_PROTO_AUTHORIZED_VIEW_CONVERT_H_
