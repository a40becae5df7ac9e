// The parser and printer of resource names: every form, and every error
// word for word (clients and the server's tests compare them).

#include "api/resource.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "tests/test_util.h"
#include "util/bytes.h"

namespace lbt {
namespace {

// The message of a parse that must fail with INVALID_ARGUMENT.
template <typename T>
std::string ErrorOf(const Result<T>& result) {
  EXPECT_FALSE(result.ok());
  if (result.ok()) return "";
  EXPECT_EQ(result.status().code(), Status::Code::kInvalidArgument) << result.status().message();
  return result.status().message();
}
std::string ErrorOf(const Status& status) {
  EXPECT_EQ(status.code(), Status::Code::kInvalidArgument) << status.message();
  return status.message();
}

TEST(ResourceNameTest, SplitKeepsEmptySegments) {
  EXPECT_EQ(SplitResourceName(""), (std::vector<std::string_view>{""}));
  EXPECT_EQ(SplitResourceName("a/b/c"), (std::vector<std::string_view>{"a", "b", "c"}));
  EXPECT_EQ(SplitResourceName("/a//"), (std::vector<std::string_view>{"", "a", "", ""}));
}

TEST(ResourceNameTest, AnIdIsTheLastSegment) {
  EXPECT_EQ(ResourceId("projects/p/instances/i/logicalViews/v"), "v");
  EXPECT_EQ(ResourceId("v"), "v");
  EXPECT_EQ(ResourceId("a/"), "");
}

TEST(ResourceNameTest, LengthIsCheckedFirst) {
  EXPECT_OK(CheckResourceNameLength(std::string(kMaxResourceNameBytes, 'a'), "name"));
  const std::string long_name = "projects/p/instances/i/tables/" + std::string(600, 't');
  const std::string expected = "name: '" + Abbreviated(long_name) + "' is " + std::to_string(long_name.size()) +
                               " bytes long; a resource name has at most 512";
  EXPECT_EQ(ErrorOf(CheckResourceNameLength(long_name, "name")), expected);
  // Every parse refuses it the same way, before reading its form.
  EXPECT_EQ(ErrorOf(ParseTableName(long_name, "name")), expected);
  EXPECT_EQ(ErrorOf(ParseAuthorizedViewName(long_name, "name")), expected);
  EXPECT_EQ(ErrorOf(ParseMaterializedViewName(long_name, "name")), expected);
  EXPECT_EQ(ErrorOf(ParseInstanceName(long_name, "name")), expected);
  EXPECT_EQ(ErrorOf(ParseProjectName(long_name, "name")), expected);
  EXPECT_EQ(ErrorOf(ParseChildName(long_name, "clusters", "name")), expected);
  EXPECT_EQ(ErrorOf(ParseClusterName(long_name, "name")), expected);
  EXPECT_EQ(ErrorOf(ParseBackupName(long_name, "name")), expected);
}

TEST(ResourceNameTest, Projects) {
  EXPECT_EQ(ProjectName("p"), "projects/p");
  ASSERT_OK_AND_ASSIGN(std::string project, ParseProjectName("projects/p", "parent"));
  EXPECT_EQ(project, "p");
  ASSERT_OK_AND_ASSIGN(project, ParseProjectName("projects/-", "parent"));
  EXPECT_EQ(project, "-");
  for (const char* bad : {"", "projects", "projects/", "project/p", "projects/p/instances/i"}) {
    EXPECT_EQ(ErrorOf(ParseProjectName(bad, "parent")),
              std::string("parent: '") + bad + "' is not a project name of the form projects/<project>");
  }
}

TEST(ResourceNameTest, Instances) {
  const InstanceName instance{"p", "i"};
  EXPECT_EQ(instance.Full(), "projects/p/instances/i");
  EXPECT_EQ(instance.Child("clusters", "c"), "projects/p/instances/i/clusters/c");
  ASSERT_OK_AND_ASSIGN(InstanceName parsed, ParseInstanceName("projects/p/instances/i", "name"));
  EXPECT_EQ(parsed, instance);
  EXPECT_OK(ValidateInstanceName("projects/p/instances/i", "name"));
  for (const char* bad : {"", "projects/p", "projects/p/instances/", "projects//instances/i", "project/p/instances/i",
                          "projects/p/instance/i", "projects/p/instances/i/tables/t"}) {
    const std::string expected = std::string("instance_name: '") + bad +
                                 "' is not an instance name of the form projects/<project>/instances/<instance>";
    EXPECT_EQ(ErrorOf(ParseInstanceName(bad, "instance_name")), expected);
    EXPECT_EQ(ErrorOf(ValidateInstanceName(bad, "instance_name")), expected);
  }
}

TEST(ResourceNameTest, ChildrenOfAnInstance) {
  ASSERT_OK_AND_ASSIGN(ChildName name, ParseChildName("projects/p/instances/i/appProfiles/a", "appProfiles", "name"));
  EXPECT_EQ(name.instance, (InstanceName{"p", "i"}));
  EXPECT_EQ(name.id, "a");
  for (const char* bad : {"projects/p/instances/i/appProfiles/", "projects/p/instances/i/clusters/a",
                          "projects/p/instances/i/appProfiles/a/b", "projects//instances/i/appProfiles/a", ""}) {
    EXPECT_EQ(ErrorOf(ParseChildName(bad, "appProfiles", "name")),
              std::string("name: '") + bad +
                  "' is not a name of the form projects/<project>/instances/<instance>/appProfiles/<id>");
  }
}

TEST(ResourceNameTest, Tables) {
  EXPECT_EQ(FullTableName({"p", "i"}, "t1"), "projects/p/instances/i/tables/t1");
  ASSERT_OK_AND_ASSIGN(TableRef ref, ParseTableName("projects/p/instances/i/tables/t1", "table_name"));
  TableRef expected = TableRef::Table("t1");
  expected.instance = {"p", "i"};
  EXPECT_EQ(ref, expected);
  EXPECT_EQ(ref.FullName(), "projects/p/instances/i/tables/t1");
  for (const char* bad :
       {"", "t1", "projects/p/instances/i", "projects/p/instances/i/tables/", "projects//instances/i/tables/t",
        "projects/p/clusters/i/tables/t", "projects/p/instances/i/tables/t/x", "projects/p/instances//tables/t"}) {
    EXPECT_EQ(ErrorOf(ParseTableName(bad, "table_name")),
              std::string("table_name: '") + bad +
                  "' is not a table name of the form projects/<project>/instances/<instance>/tables/<table>");
  }
}

TEST(ResourceNameTest, AuthorizedViews) {
  const std::string full = "projects/p/instances/i/tables/t/authorizedViews/v";
  ASSERT_OK_AND_ASSIGN(TableRef ref, ParseAuthorizedViewName(full, "authorized_view_name"));
  TableRef expected = TableRef::AuthorizedView("t", "v");
  expected.instance = {"p", "i"};
  EXPECT_EQ(ref, expected);
  EXPECT_EQ(ref.FullName(), full);
  for (const char* bad : {"", "projects/p/instances/i/tables/t", "projects/p/instances/i/tables/t/authorizedViews/",
                          "projects/p/instances/i/tables/t/authorizedViews/v/w",
                          "projects/p/instances/i/tables//authorizedViews/v", "tables/t/authorizedViews/v"}) {
    EXPECT_EQ(ErrorOf(ParseAuthorizedViewName(bad, "authorized_view_name")),
              std::string("authorized_view_name: '") + bad +
                  "' is not an authorized view name of the form "
                  "projects/<project>/instances/<instance>/tables/<table>/authorizedViews/<view>");
  }
}

TEST(ResourceNameTest, SchemaBundles) {
  const std::string full = "projects/p/instances/i/tables/t/schemaBundles/b";
  ASSERT_OK_AND_ASSIGN(SchemaBundleName name, ParseSchemaBundleName(full, "name"));
  TableRef table = TableRef::Table("t");
  table.instance = {"p", "i"};
  EXPECT_EQ(name.table, table);
  EXPECT_EQ(name.id, "b");
  EXPECT_EQ(name.Full(), full);
  for (const char* bad : {"", "projects/p/instances/i/tables/t", "projects/p/instances/i/tables/t/schemaBundles/",
                          "projects/p/instances/i/tables/t/schemaBundles/b/c", "tables/t/schemaBundles/b"}) {
    EXPECT_EQ(ErrorOf(ParseSchemaBundleName(bad, "name")),
              std::string("name: '") + bad +
                  "' is not a schema bundle name of the form "
                  "projects/<project>/instances/<instance>/tables/<table>/schemaBundles/<bundle>");
  }
}

TEST(ResourceNameTest, MaterializedViews) {
  const std::string full = "projects/p/instances/i/materializedViews/m";
  ASSERT_OK_AND_ASSIGN(TableRef ref, ParseMaterializedViewName(full, "materialized_view_name"));
  TableRef expected = TableRef::MaterializedView("m");
  expected.instance = {"p", "i"};
  EXPECT_EQ(ref, expected);
  EXPECT_EQ(ref.FullName(), full);
  for (const char* bad : {"", "projects/p/instances/i/materializedViews/", "projects/p/instances/i/tables/m",
                          "projects/p/instances/i/materializedViews/m/x"}) {
    EXPECT_EQ(ErrorOf(ParseMaterializedViewName(bad, "materialized_view_name")),
              std::string("materialized_view_name: '") + bad +
                  "' is not a name of the form projects/<project>/instances/<instance>/materializedViews/<id>");
  }
}

TEST(ResourceNameTest, Clusters) {
  ASSERT_OK_AND_ASSIGN(ClusterName name, ParseClusterName("projects/p/instances/i/clusters/c", "parent"));
  EXPECT_EQ(name.instance, (InstanceName{"p", "i"}));
  EXPECT_EQ(name.cluster, "c");
  EXPECT_EQ(name.Full(), "projects/p/instances/i/clusters/c");
  ASSERT_OK_AND_ASSIGN(name, ParseClusterName("projects/p/instances/i/clusters/-", "parent"));
  EXPECT_EQ(name.cluster, "-");
  for (const char* bad : {"", "projects/p/instances/i", "projects/p/instances/i/clusters/",
                          "projects/p/instances/i/clusters/c/backups/b", "projects/p/instances/i/tables/c"}) {
    EXPECT_EQ(ErrorOf(ParseClusterName(bad, "parent")),
              std::string("parent: '") + bad +
                  "' is not a cluster name of the form projects/<project>/instances/<instance>/clusters/<cluster>");
  }
}

TEST(ResourceNameTest, Backups) {
  const std::string full = "projects/p/instances/i/clusters/c/backups/b";
  ASSERT_OK_AND_ASSIGN(BackupName name, ParseBackupName(full, "name"));
  EXPECT_EQ(name.instance, (InstanceName{"p", "i"}));
  EXPECT_EQ(name.cluster, "c");
  EXPECT_EQ(name.id, "b");
  EXPECT_EQ(name.Full(), full);
  for (const char* bad : {"", "projects/p/instances/i/clusters/c", "projects/p/instances/i/clusters/c/backups/",
                          "projects/p/instances/i/clusters//backups/b", "projects/p/instances/i/clusters/c/backup/b",
                          "projects/p/instances/i/clusters/c/backups/b/x"}) {
    EXPECT_EQ(ErrorOf(ParseBackupName(bad, "name")),
              std::string("name: '") + bad +
                  "' is not a backup name of the form "
                  "projects/<project>/instances/<instance>/clusters/<cluster>/backups/<backup>");
  }
}

TEST(ResourceNameTest, ErrorsEchoLongNamesCutShort) {
  const std::string name = "projects/p/instances/i/tables/t/" + std::string(200, 'x');
  const std::string message = ErrorOf(ParseTableName(name, "table_name"));
  EXPECT_EQ(message.rfind("table_name: '" + Abbreviated(name) + "' is not a table name", 0), 0u) << message;
  EXPECT_EQ(message.find(name), std::string::npos);
}

TEST(ResourceNameTest, IamResourcesOfTheTableAdminService) {
  EXPECT_TRUE(NamesTableAdminResource("projects/p/instances/i/tables/t"));
  EXPECT_TRUE(NamesTableAdminResource("projects/p/instances/i/clusters/c/backups/b"));
  EXPECT_FALSE(NamesTableAdminResource("projects/p/instances/i"));
  EXPECT_FALSE(NamesTableAdminResource(""));
  // Ids that spell a collection's name are ids.
  EXPECT_FALSE(NamesTableAdminResource("projects/tables/instances/backups"));
  EXPECT_FALSE(NamesTableAdminResource("projects/p/instances/tables"));
  EXPECT_TRUE(NamesTableAdminResource("projects/tables/instances/tables/tables/tables"));
}

}  // namespace
}  // namespace lbt
