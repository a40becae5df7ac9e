// Ids' rules: Bigtable's for table ids and family names, and the view ids
// that follow table ids' (so that a query names a view as it names a
// table). Each refuses with InvalidArgument.

#ifndef LBT_API_IDS_H_
#define LBT_API_IDS_H_

#include <string_view>

#include "api/status.h"

namespace lbt {

// A table id is [_a-zA-Z0-9][-_.a-zA-Z0-9]* of at most 50 characters; a
// family name is [-_.a-zA-Z0-9]+ of at most 64.
Status ValidateTableName(std::string_view name);
Status ValidateFamilyName(std::string_view name);

// An authorized, logical or materialized view's id, by table ids' rule;
// the error names `field`.
Status ValidateAuthorizedViewId(std::string_view id, std::string_view field);
Status ValidateLogicalViewId(std::string_view id, std::string_view field);
Status ValidateMaterializedViewId(std::string_view id, std::string_view field);
Status ValidateSchemaBundleId(std::string_view id, std::string_view field);

}  // namespace lbt

#endif  // LBT_API_IDS_H_
