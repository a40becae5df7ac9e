// Schema bundles' descriptor sets (protoschema/): checked as protobuf
// builds them, dependencies included, and read for their type names.

#include "protoschema/descriptor_set.h"

#include <google/protobuf/descriptor.pb.h>
#include <gtest/gtest.h>

namespace lbt::protoschema {
namespace {

namespace pb = google::protobuf;

pb::FileDescriptorProto File(const std::string& name, const std::string& package) {
  pb::FileDescriptorProto file;
  file.set_name(name);
  file.set_package(package);
  file.set_syntax("proto3");
  return file;
}

void AddField(pb::DescriptorProto* message, const std::string& name, int number, pb::FieldDescriptorProto::Type type,
              const std::string& type_name = "") {
  pb::FieldDescriptorProto* f = message->add_field();
  f->set_name(name);
  f->set_number(number);
  f->set_type(type);
  f->set_label(pb::FieldDescriptorProto::LABEL_OPTIONAL);
  if (!type_name.empty()) f->set_type_name(type_name);
}

// shop/item.proto (Item) and shop/order.proto (Order, importing Item).
pb::FileDescriptorSet Shop(bool with_item = true) {
  pb::FileDescriptorSet set;
  pb::FileDescriptorProto order = File("shop/order.proto", "shop");
  order.add_dependency("shop/item.proto");
  pb::DescriptorProto* message = order.add_message_type();
  message->set_name("Order");
  AddField(message, "id", 1, pb::FieldDescriptorProto::TYPE_STRING);
  AddField(message, "item", 2, pb::FieldDescriptorProto::TYPE_MESSAGE, ".shop.Item");
  message->add_nested_type()->set_name("Note");
  *set.add_file() = order;  // before its dependency: the order must not matter
  if (with_item) {
    pb::FileDescriptorProto item = File("shop/item.proto", "shop");
    item.add_message_type()->set_name("Item");
    pb::EnumDescriptorProto* size = item.add_enum_type();
    size->set_name("Size");
    size->add_value()->set_name("SIZE_UNSPECIFIED");
    *set.add_file() = item;
  }
  return set;
}

TEST(DescriptorSet, ASetWithItsDependenciesBuildsAndNamesItsTypes) {
  const std::string bytes = Shop().SerializeAsString();
  EXPECT_TRUE(CheckDescriptorSet(bytes, "f").ok());
  EXPECT_EQ(TypeNames(bytes), (std::vector<std::string>{"shop.Item", "shop.Order", "shop.Order.Note", "shop.Size"}));
}

TEST(DescriptorSet, WhatDoesNotBuildIsRefusedNamingTheField) {
  Status missing = CheckDescriptorSet(Shop(false).SerializeAsString(), "proto_descriptors");
  ASSERT_TRUE(missing.IsInvalidArgument());
  EXPECT_EQ(missing.message(), "proto_descriptors: the set lacks shop/item.proto, which another file imports");
  EXPECT_TRUE(CheckDescriptorSet("junk", "f").IsInvalidArgument());
  EXPECT_TRUE(CheckDescriptorSet("", "f").IsInvalidArgument());  // no files
  pb::FileDescriptorSet clash = Shop();
  AddField(clash.mutable_file(0)->mutable_message_type(0), "again", 1, pb::FieldDescriptorProto::TYPE_STRING);
  Status reused = CheckDescriptorSet(clash.SerializeAsString(), "f");
  ASSERT_TRUE(reused.IsInvalidArgument());
  EXPECT_NE(reused.message().find("shop.Order.again"), std::string::npos) << reused.message();
}

}  // namespace
}  // namespace lbt::protoschema
