// The Table Admin API's schema-bundle RPCs for a remote Bigtable:
// CreateSchemaBundle and UpdateSchemaBundle (operations, awaited),
// GetSchemaBundle, ListSchemaBundles (every page) and DeleteSchemaBundle.

#ifndef LBT_REMOTE_REMOTE_SCHEMA_BUNDLES_H_
#define LBT_REMOTE_REMOTE_SCHEMA_BUNDLES_H_

#include <string_view>
#include <vector>

#include "api/schema_bundle.h"
#include "remote/remote_calls.h"

namespace lbt::remote {

Result<SchemaBundleSpec> CreateSchemaBundle(RemoteCalls* calls, std::string_view table, const SchemaBundleSpec& bundle);
Result<SchemaBundleSpec> GetSchemaBundle(RemoteCalls* calls, std::string_view table, std::string_view bundle_id);
Result<std::vector<SchemaBundleSpec>> ListSchemaBundles(RemoteCalls* calls, std::string_view table);
Result<SchemaBundleSpec> UpdateSchemaBundle(RemoteCalls* calls, std::string_view table, const SchemaBundleSpec& bundle,
                                            bool ignore_warnings);
Status DeleteSchemaBundle(RemoteCalls* calls, std::string_view table, std::string_view bundle_id,
                          std::string_view etag);

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_SCHEMA_BUNDLES_H_
