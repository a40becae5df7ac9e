// CAST(bytes AS bundle.pkg.Message) over a table's schema bundle: fields
// of every kind as a STRUCT, unset fields, SAFE_CAST of bytes that are no
// message, NULL, and a message type that contains itself.

#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <gtest/gtest.h>

#include "local/local_bigtable.h"
#include "sql/query.h"
#include "tests/sql/query_lines.h"
#include "tests/test_util.h"

namespace lbt::sql {
namespace {

namespace pb = google::protobuf;
using Lines = std::vector<std::string>;

void AddField(pb::DescriptorProto* m, const std::string& name, int number, pb::FieldDescriptorProto::Type type,
              const std::string& type_name = "", bool repeated = false) {
  pb::FieldDescriptorProto* f = m->add_field();
  f->set_name(name);
  f->set_number(number);
  f->set_type(type);
  f->set_label(repeated ? pb::FieldDescriptorProto::LABEL_REPEATED : pb::FieldDescriptorProto::LABEL_OPTIONAL);
  if (!type_name.empty()) f->set_type_name(type_name);
}

// pkg.Node { string name; uint64 big; double weight; bool ok; bytes raw;
// Color color; repeated sint32 scores; Node child; }
pb::FileDescriptorSet Schema() {
  pb::FileDescriptorSet set;
  pb::FileDescriptorProto* file = set.add_file();
  file->set_name("node.proto");
  file->set_package("pkg");
  file->set_syntax("proto3");
  pb::EnumDescriptorProto* color = file->add_enum_type();
  color->set_name("Color");
  color->add_value()->set_name("COLOR_UNSPECIFIED");
  pb::EnumValueDescriptorProto* red = color->add_value();
  red->set_name("RED");
  red->set_number(1);
  pb::DescriptorProto* node = file->add_message_type();
  node->set_name("Node");
  using T = pb::FieldDescriptorProto;
  AddField(node, "name", 1, T::TYPE_STRING);
  AddField(node, "big", 2, T::TYPE_UINT64);
  AddField(node, "weight", 3, T::TYPE_DOUBLE);
  AddField(node, "ok", 4, T::TYPE_BOOL);
  AddField(node, "raw", 5, T::TYPE_BYTES);
  AddField(node, "color", 6, T::TYPE_ENUM, ".pkg.Color");
  AddField(node, "scores", 7, T::TYPE_SINT32, "", true);
  AddField(node, "child", 8, T::TYPE_MESSAGE, ".pkg.Node");
  return set;
}

class ProtoCastTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bigtable_ = std::make_unique<LocalBigtable>(dir_.Sub("db"), DatabaseOptions{});
    ASSERT_OK(bigtable_->CreateTable("t", {{"f", GcRule::Never(), ValueType::kBytes}}, {}, false));
    const pb::FileDescriptorSet set = Schema();
    ASSERT_OK(bigtable_->CreateSchemaBundle("t", SchemaBundleSpec{"b", set.SerializeAsString(), ""}).status());
    ASSERT_TRUE(pool_.BuildFile(set.file(0)) != nullptr);
  }

  // A pkg.Node with `fill` applied, serialized.
  std::string Node(const std::function<void(pb::Message*)>& fill) {
    std::unique_ptr<pb::Message> m(factory_.GetPrototype(pool_.FindMessageTypeByName("pkg.Node"))->New());
    fill(m.get());
    return m->SerializeAsString();
  }

  void Put(const std::string& row, const std::string& value) {
    ASSERT_OK(bigtable_->MutateRow("t", row, {Mutation::SetCell("f", "n", value, 1000)}));
  }

  Result<Lines> Query(const std::string& sql) {
    LBT_ASSIGN_OR_RETURN(testing::QueryResult result, testing::RunQuery(bigtable_.get(), sql));
    return std::move(result.lines);
  }

  testing::TempDir dir_;
  std::unique_ptr<LocalBigtable> bigtable_;
  pb::DescriptorPool pool_;
  pb::DynamicMessageFactory factory_{&pool_};
};

TEST_F(ProtoCastTest, FieldsOfEveryKind) {
  Put("r", Node([](pb::Message* m) {
        const pb::Descriptor* d = m->GetDescriptor();
        const pb::Reflection* r = m->GetReflection();
        r->SetString(m, d->FindFieldByName("name"), "root");
        r->SetUInt64(m, d->FindFieldByName("big"), 18446744073709551615ULL);
        r->SetDouble(m, d->FindFieldByName("weight"), 1.5);
        r->SetBool(m, d->FindFieldByName("ok"), true);
        r->SetString(m, d->FindFieldByName("raw"), std::string("\x01\x02", 2));
        r->SetEnumValue(m, d->FindFieldByName("color"), 1);
        r->AddInt32(m, d->FindFieldByName("scores"), -3);
        r->AddInt32(m, d->FindFieldByName("scores"), 4);
        pb::Message* child = r->MutableMessage(m, d->FindFieldByName("child"));
        child->GetReflection()->SetString(child, d->FindFieldByName("name"), "kid");
      }));
  const std::string n = "CAST(f['n'] AS b.pkg.Node)";
  Result<Lines> rows = Query("SELECT " + n + ".name, " + n + ".big, " + n + ".weight, " + n + ".ok, " + n +
                             ".color, ARRAY_LENGTH(" + n + ".scores), " + n + ".scores[OFFSET(0)], " + n +
                             ".child.name, " + n + ".child.child IS NULL, " + n + ".child.weight FROM t");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(*rows, (Lines{"root|-1|1.5|true|RED|2|-3|kid|true|0"}));
}

TEST_F(ProtoCastTest, BytesThatAreNoMessageNullsAndUnknownTypes) {
  Put("bad", std::string("\xff\xff\xff", 3));
  Result<Lines> safe =
      Query("SELECT SAFE_CAST(f['n'] AS b.pkg.Node) IS NULL, SAFE_CAST(f['x'] AS b.pkg.Node) IS NULL FROM t");
  ASSERT_TRUE(safe.ok()) << safe.status().ToString();
  EXPECT_EQ(*safe, (Lines{"true|true"}));
  Result<Lines> failed = Query("SELECT CAST(f['n'] AS b.pkg.Node).name FROM t");
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().message(), "3 bytes are not a pkg.Node message");
  EXPECT_FALSE(Query("SELECT CAST(f['n'] AS b.pkg.Missing) FROM t").ok());
  EXPECT_FALSE(Query("SELECT CAST(_key AS nobundle.pkg.Node) FROM t").ok());
  EXPECT_FALSE(Query("SELECT CAST('text' AS b.pkg.Node) FROM t").ok());
}

// A message that contains itself reads as STRUCTs down to kMaxProtoDepth
// levels, and as its encoded BYTES below.
TEST_F(ProtoCastTest, ARecursiveTypeStopsAtADepth) {
  Put("deep", Node([](pb::Message* m) {
        const pb::Descriptor* d = m->GetDescriptor();
        pb::Message* at = m;
        for (int i = 0; i < 12; ++i) at = at->GetReflection()->MutableMessage(at, d->FindFieldByName("child"));
        at->GetReflection()->SetString(at, d->FindFieldByName("name"), "bottom");
      }));
  std::string path = "CAST(f['n'] AS b.pkg.Node)";
  for (int i = 0; i < 7; ++i) path += ".child";
  Result<Lines> rows = Query("SELECT " + path + ".child IS NOT NULL, BYTE_LENGTH(" + path + ".child) > 0 FROM t");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(*rows, (Lines{"true|true"}));
}

}  // namespace
}  // namespace lbt::sql
