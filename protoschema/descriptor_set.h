// Schema bundles' descriptors (api/schema_bundle.h): a serialized
// google.protobuf.FileDescriptorSet, checked the way protobuf builds one,
// every file with its dependencies, and read for the message and enum
// types it defines.

#ifndef LBT_PROTOSCHEMA_DESCRIPTOR_SET_H_
#define LBT_PROTOSCHEMA_DESCRIPTOR_SET_H_

#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"

namespace lbt::protoschema {

// OK if `bytes` is a FileDescriptorSet whose files all build, each file's
// dependencies present in the set; InvalidArgument naming `field` and the
// first problem otherwise. An empty set is refused: a bundle holds types.
Status CheckDescriptorSet(std::string_view bytes, std::string_view field);

// The full names of the message and enum types the set defines, nested
// ones included, in name order ("pkg.Message", "pkg.Message.Inner"). The
// set must have passed CheckDescriptorSet.
std::vector<std::string> TypeNames(std::string_view bytes);

}  // namespace lbt::protoschema

#endif  // LBT_PROTOSCHEMA_DESCRIPTOR_SET_H_
