#include "protoschema/descriptor_set.h"

#include <fmt/format.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>

namespace lbt::protoschema {

namespace {

namespace pb = google::protobuf;

// Collects what the pool's builder says is wrong, first problem first.
class Collector final : public pb::DescriptorPool::ErrorCollector {
 public:
  void AddError(const std::string& filename, const std::string& element, const pb::Message*, ErrorLocation,
                const std::string& message) override {
    if (first_.empty()) first_ = fmt::format("{}: {}: {}", filename, element, message);
  }
  const std::string& first() const { return first_; }

 private:
  std::string first_;
};

// The set's files built into a pool, dependencies first; nullptr with
// *error set when one does not build.
std::unique_ptr<pb::DescriptorPool> BuildPool(const pb::FileDescriptorSet& set, std::string* error) {
  std::map<std::string, const pb::FileDescriptorProto*> files;
  for (const pb::FileDescriptorProto& file : set.file()) files[file.name()] = &file;
  auto pool = std::make_unique<pb::DescriptorPool>();
  Collector collector;
  // Depth first over each file's dependencies; `building` catches cycles.
  std::map<std::string, int> state;  // 1: building, 2: built
  std::function<bool(const std::string&)> build = [&](const std::string& name) -> bool {
    if (state[name] == 2) return true;
    if (state[name] == 1) return *error = fmt::format("{}: its dependencies import it again", name), false;
    auto it = files.find(name);
    if (it == files.end()) return *error = fmt::format("the set lacks {}, which another file imports", name), false;
    state[name] = 1;
    for (const std::string& dependency : it->second->dependency()) {
      if (!build(dependency)) return false;
    }
    if (pool->BuildFileCollectingErrors(*it->second, &collector) == nullptr) {
      return *error = collector.first().empty() ? name + " does not build" : collector.first(), false;
    }
    state[name] = 2;
    return true;
  };
  for (const auto& [name, file] : files) {
    if (!build(name)) return nullptr;
  }
  return pool;
}

void AddNames(const pb::Descriptor* message, std::vector<std::string>* out) {
  out->push_back(std::string(message->full_name()));
  for (int i = 0; i < message->nested_type_count(); ++i) AddNames(message->nested_type(i), out);
  for (int i = 0; i < message->enum_type_count(); ++i) out->push_back(std::string(message->enum_type(i)->full_name()));
}

}  // namespace

Status CheckDescriptorSet(std::string_view bytes, std::string_view field) {
  pb::FileDescriptorSet set;
  if (!set.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::InvalidArgument(fmt::format("{}: not a serialized google.protobuf.FileDescriptorSet", field));
  }
  if (set.file_size() == 0) return Status::InvalidArgument(fmt::format("{}: the descriptor set has no files", field));
  std::string error;
  if (BuildPool(set, &error) == nullptr) return Status::InvalidArgument(fmt::format("{}: {}", field, error));
  return Status::OK();
}

ProtoTypes::ProtoTypes() = default;
ProtoTypes::~ProtoTypes() = default;

Result<std::shared_ptr<const ProtoTypes>> ProtoTypes::Build(std::string_view bytes, std::string_view field) {
  LBT_RETURN_IF_ERROR(CheckDescriptorSet(bytes, field));
  pb::FileDescriptorSet set;
  set.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
  std::string error;
  std::shared_ptr<ProtoTypes> types(new ProtoTypes());
  types->pool_ = BuildPool(set, &error);
  if (types->pool_ == nullptr) return Status::InvalidArgument(fmt::format("{}: {}", field, error));
  types->factory_ = std::make_unique<pb::DynamicMessageFactory>(types->pool_.get());
  return std::shared_ptr<const ProtoTypes>(std::move(types));
}

const pb::Descriptor* ProtoTypes::FindMessage(std::string_view full_name) const {
  return pool_->FindMessageTypeByName(std::string(full_name));
}

const pb::EnumDescriptor* ProtoTypes::FindEnum(std::string_view full_name) const {
  return pool_->FindEnumTypeByName(std::string(full_name));
}

std::unique_ptr<pb::Message> ProtoTypes::Parse(const pb::Descriptor* type, std::string_view bytes) const {
  std::unique_ptr<pb::Message> message(factory_->GetPrototype(type)->New());
  if (!message->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return nullptr;
  return message;
}

std::vector<std::string> TypeNames(std::string_view bytes) {
  pb::FileDescriptorSet set;
  std::vector<std::string> names;
  std::string error;
  if (!set.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return names;
  std::unique_ptr<pb::DescriptorPool> pool = BuildPool(set, &error);
  if (pool == nullptr) return names;
  for (const pb::FileDescriptorProto& proto : set.file()) {
    const pb::FileDescriptor* file = pool->FindFileByName(proto.name());
    for (int i = 0; i < file->message_type_count(); ++i) AddNames(file->message_type(i), &names);
    for (int i = 0; i < file->enum_type_count(); ++i) names.push_back(std::string(file->enum_type(i)->full_name()));
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace lbt::protoschema
