// Schema bundles (table.proto's SchemaBundle): protobuf schemas kept with a
// table, as a serialized google.protobuf.FileDescriptorSet, so that its
// cells' protobuf messages can be named by type. A bundle belongs to its
// table: it goes when the table goes.

#ifndef LBT_API_SCHEMA_BUNDLE_H_
#define LBT_API_SCHEMA_BUNDLE_H_

#include <string>

namespace lbt {

struct SchemaBundleSpec {
  std::string id;
  // A serialized google.protobuf.FileDescriptorSet: every file its
  // messages need, dependencies included.
  std::string descriptors;
  // Counts the bundle's versions ("1", "2", ...), as a table's views' do;
  // an update or delete that names another is ABORTED.
  std::string etag;
};

}  // namespace lbt

#endif  // LBT_API_SCHEMA_BUNDLE_H_
