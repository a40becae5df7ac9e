// Schema bundles' descriptors (api/schema_bundle.h): a serialized
// google.protobuf.FileDescriptorSet, checked the way protobuf builds one,
// every file with its dependencies, and read for the message and enum
// types it defines.

#ifndef LBT_PROTOSCHEMA_DESCRIPTOR_SET_H_
#define LBT_PROTOSCHEMA_DESCRIPTOR_SET_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"

namespace google::protobuf {
class Descriptor;
class DescriptorPool;
class EnumDescriptor;
class DynamicMessageFactory;
class Message;
}  // namespace google::protobuf

namespace lbt::protoschema {

// OK if `bytes` is a FileDescriptorSet whose files all build, each file's
// dependencies present in the set; InvalidArgument naming `field` and the
// first problem otherwise. An empty set is refused: a bundle holds types.
Status CheckDescriptorSet(std::string_view bytes, std::string_view field);

// The full names of the message and enum types the set defines, nested
// ones included, in name order ("pkg.Message", "pkg.Message.Inner"). The
// set must have passed CheckDescriptorSet.
std::vector<std::string> TypeNames(std::string_view bytes);

// A descriptor set built, for reading messages of its types. Thread-safe.
class ProtoTypes {
 public:
  // InvalidArgument naming `field`, as CheckDescriptorSet, when the set
  // does not build.
  static Result<std::shared_ptr<const ProtoTypes>> Build(std::string_view bytes, std::string_view field);
  ~ProtoTypes();

  // The message type of that full name ("pkg.Message"), or nullptr.
  const google::protobuf::Descriptor* FindMessage(std::string_view full_name) const;
  // The enum type of that full name ("pkg.Enum"), or nullptr.
  const google::protobuf::EnumDescriptor* FindEnum(std::string_view full_name) const;
  // A message of `type` (one of this set's) parsed from `bytes`; nullptr
  // when they are not one.
  std::unique_ptr<google::protobuf::Message> Parse(const google::protobuf::Descriptor* type,
                                                   std::string_view bytes) const;

 private:
  ProtoTypes();
  std::unique_ptr<google::protobuf::DescriptorPool> pool_;
  std::unique_ptr<google::protobuf::DynamicMessageFactory> factory_;
};

}  // namespace lbt::protoschema

#endif  // LBT_PROTOSCHEMA_DESCRIPTOR_SET_H_
