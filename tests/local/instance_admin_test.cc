// Instances of a local database (local/local_instance_admin.h): each
// instance's tables apart from the others', production's validation, and
// instance records that last.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <thread>

#include "api/backup.h"
#include "api/instance_admin.h"
#include "local/local_bigtable.h"
#include "storage/database.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

const InstanceName kA{"proj", "inst-a"};
const InstanceName kB{"proj", "inst-b"};

InstanceSpec Instance(const InstanceName& name, int nodes = 3) {
  InstanceSpec spec;
  spec.name = name;
  spec.display_name = "Instance " + name.instance;
  ClusterSpec cluster;
  cluster.id = name.instance + "-c1";
  cluster.location = "projects/proj/locations/us-east1-b";
  cluster.serve_nodes = nodes;
  spec.clusters.push_back(cluster);
  return spec;
}

class InstanceAdminTest : public ::testing::Test {
 protected:
  void SetUp() override { Open(); }
  void Open() {
    root_.reset();
    root_ = std::make_unique<LocalBigtable>(dir_.Sub("db"), DatabaseOptions{});
    admin_ = root_->instance_admin();
    ASSERT_NE(admin_, nullptr);
  }
  std::unique_ptr<Bigtable> Tables(const InstanceName& name) {
    auto tables = admin_->OpenTables(name);
    EXPECT_TRUE(tables.ok());
    return std::move(tables).value();
  }
  std::vector<std::string> Keys(Bigtable* bigtable, const std::string& table) {
    std::vector<std::string> keys;
    auto stream = bigtable->ReadRows(table, ReadRequest{});
    EXPECT_TRUE(stream.ok()) << stream.status().ToString();
    if (!stream.ok()) return keys;
    for (Row row; (*stream)->Next(&row);) keys.push_back(row.key);
    return keys;
  }

  testing::TempDir dir_;
  std::unique_ptr<LocalBigtable> root_;
  InstanceAdmin* admin_ = nullptr;
};

TEST_F(InstanceAdminTest, ATableOfOneInstanceIsNotSeenFromAnother) {
  auto a = Tables(kA);
  auto b = Tables(kB);
  ASSERT_OK(a->CreateTable("t", {{"cf"}}, {}, false));
  ASSERT_OK(b->CreateTable("t", {{"cf"}}, {}, false));
  ASSERT_OK(a->MutateRow("t", "in-a", {Mutation::SetCell("cf", "q", "1", 1000)}));
  ASSERT_OK(b->MutateRow("t", "in-b", {Mutation::SetCell("cf", "q", "2", 1000)}));
  EXPECT_EQ(Keys(a.get(), "t"), std::vector<std::string>{"in-a"});
  EXPECT_EQ(Keys(b.get(), "t"), std::vector<std::string>{"in-b"});
  // The default instance (the shell's) has no table t; nor does a name
  // with '/' reach another instance's.
  EXPECT_EQ(*root_->ListTables(), std::vector<std::string>{});
  EXPECT_TRUE(root_->GetTable("t").status().IsNotFound());
  EXPECT_TRUE(root_->GetTable("proj/inst-a/t").status().IsNotFound());
  ASSERT_OK_AND_ASSIGN(TableSpec spec, a->GetTable("t"));
  EXPECT_EQ(spec.name, "t");
  // Messages name the table as its instance knows it.
  Status s = a->MutateRow("t", "r", {Mutation::SetCell("nope", "q", "v", 1000)});
  EXPECT_EQ(s.message(), "column family 'nope' does not exist in table 't'; its families are: cf");
}

TEST_F(InstanceAdminTest, AnInstanceComesIntoBeingWithItsFirstTable) {
  EXPECT_TRUE(admin_->GetInstance(kA).status().IsNotFound());
  ASSERT_OK(Tables(kA)->CreateTable("t", {}, {}, false));
  ASSERT_OK_AND_ASSIGN(InstanceSpec implied, admin_->GetInstance(kA));
  EXPECT_EQ(implied.display_name, "inst-a");
  ASSERT_EQ(implied.clusters.size(), 1u);
  EXPECT_EQ(implied.clusters[0].id, "inst-a-c1");
  ASSERT_EQ(implied.app_profiles.size(), 1u);
  EXPECT_EQ(implied.app_profiles[0].id, "default");
  // Creating it now finds it there.
  EXPECT_EQ(admin_->CreateInstance(Instance(kA)).code(), Status::Code::kAlreadyExists);
  // The default instance always exists, and stays.
  ASSERT_OK(admin_->GetInstance(DefaultInstanceName()).status());
  EXPECT_EQ(admin_->DeleteInstance(DefaultInstanceName()).code(), Status::Code::kFailedPrecondition);
}

TEST_F(InstanceAdminTest, CreateValidatesAsProductionDoes) {
  InstanceSpec spec = Instance({"proj", "short"});
  EXPECT_EQ(admin_->CreateInstance(spec).code(), Status::Code::kInvalidArgument);  // 5 characters
  spec = Instance(kA);
  spec.display_name = "abc";
  EXPECT_EQ(admin_->CreateInstance(spec).code(), Status::Code::kInvalidArgument);
  spec = Instance(kA);
  spec.clusters.clear();
  EXPECT_EQ(admin_->CreateInstance(spec).code(), Status::Code::kInvalidArgument);
  spec = Instance(kA, /*nodes=*/0);
  EXPECT_EQ(admin_->CreateInstance(spec).code(), Status::Code::kInvalidArgument);
  spec = Instance(kA);
  spec.labels["Upper"] = "x";
  EXPECT_EQ(admin_->CreateInstance(spec).code(), Status::Code::kInvalidArgument);
  spec = Instance(kA);
  spec.clusters[0].autoscaling = ClusterAutoscaling{2, 1, 50, 0};  // max below min
  EXPECT_EQ(admin_->CreateInstance(spec).code(), Status::Code::kInvalidArgument);
  spec.clusters[0].autoscaling = ClusterAutoscaling{1, 3, 90, 0};  // CPU target past 80
  EXPECT_EQ(admin_->CreateInstance(spec).code(), Status::Code::kInvalidArgument);
  EXPECT_TRUE(admin_->GetInstance(kA).status().IsNotFound()) << "a refused create leaves nothing";
  spec.clusters[0].autoscaling = ClusterAutoscaling{1, 3, 60, 0};
  ASSERT_OK(admin_->CreateInstance(spec));
  ASSERT_OK_AND_ASSIGN(InstanceSpec created, admin_->GetInstance(kA));
  EXPECT_EQ(created.clusters[0].serve_nodes, 3);
  ASSERT_TRUE(created.clusters[0].autoscaling.has_value());
  EXPECT_EQ(created.clusters[0].autoscaling->cpu_target_percent, 60);
}

// Production: one cluster in a zone, clusters in at most 8 regions.
TEST_F(InstanceAdminTest, ClustersTakeOneZoneEachInAtMostEightRegions) {
  InstanceSpec spec = Instance(kA);
  ClusterSpec twin = spec.clusters[0];
  twin.id = "inst-a-c2";
  spec.clusters.push_back(twin);
  Status s = admin_->CreateInstance(spec);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("clusters: clusters 'inst-a-c1' and 'inst-a-c2' are both in zone us-east1-b"),
            std::string::npos)
      << s.message();

  spec = Instance(kA);
  spec.clusters.clear();
  for (int i = 0; i < 1000; ++i) {
    ClusterSpec c = Instance(kA).clusters[0];
    c.id = fmt::format("cluster-{}", i);
    c.location = fmt::format("projects/proj/locations/region{}-{}", i / 3, "abc"[i % 3]);
    spec.clusters.push_back(c);
  }
  s = admin_->CreateInstance(spec);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("334 regions"), std::string::npos) << s.message();
  EXPECT_TRUE(admin_->GetInstance(kA).status().IsNotFound()) << "a refused create leaves nothing";

  // Three zones of each of 8 regions: 24 clusters, production's most.
  spec.clusters.resize(24);
  ASSERT_OK(admin_->CreateInstance(spec));
  ClusterSpec ninth_region = spec.clusters[0];
  ninth_region.id = "cluster-ninth";
  ninth_region.location = "projects/proj/locations/region9-a";
  EXPECT_EQ(admin_->CreateCluster(kA, ninth_region).code(), Status::Code::kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(InstanceSpec kept, admin_->GetInstance(kA));
  EXPECT_EQ(kept.clusters.size(), 24u) << "a refused cluster is not added";
}

TEST_F(InstanceAdminTest, DeletingAnInstanceDeletesItsTablesAndTheirCells) {
  ASSERT_OK(admin_->CreateInstance(Instance(kA)));
  auto a = Tables(kA);
  ASSERT_OK(a->CreateTable("t", {{"cf"}}, {}, false));
  ASSERT_OK(a->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "v", 1000)}));
  ASSERT_OK(root_->CreateTable("kept", {}, {}, false));
  ASSERT_OK(admin_->DeleteInstance(kA));
  EXPECT_TRUE(admin_->GetInstance(kA).status().IsNotFound());
  EXPECT_EQ(*a->ListTables(), std::vector<std::string>{});
  EXPECT_EQ(*root_->ListTables(), std::vector<std::string>{"kept"});
  // A table of the same name made again starts empty.
  ASSERT_OK(a->CreateTable("t", {{"cf"}}, {}, false));
  EXPECT_EQ(Keys(a.get(), "t"), std::vector<std::string>{});
  EXPECT_TRUE(admin_->DeleteInstance(kB).IsNotFound());
}

TEST_F(InstanceAdminTest, ClustersAndAppProfilesKeepTheirRules) {
  ASSERT_OK(admin_->CreateInstance(Instance(kA)));
  EXPECT_EQ(admin_->DeleteCluster(kA, "inst-a-c1").code(), Status::Code::kFailedPrecondition);  // the last
  ClusterSpec second = Instance(kA).clusters[0];
  second.id = "inst-a-c2";
  EXPECT_EQ(admin_->CreateCluster(kA, second).code(), Status::Code::kInvalidArgument);  // the first one's zone
  second.location = "projects/proj/locations/us-east1-c";
  ASSERT_OK(admin_->CreateCluster(kA, second));
  EXPECT_EQ(admin_->CreateCluster(kA, second).code(), Status::Code::kAlreadyExists);
  AppProfileSpec profile;
  profile.id = "batch";
  profile.routing = AppProfileSpec::Routing::kSingleCluster;
  profile.cluster_id = "inst-a-c2";
  ASSERT_OK_AND_ASSIGN(AppProfileSpec created, admin_->CreateAppProfile(kA, profile, false));
  EXPECT_EQ(admin_->DeleteCluster(kA, "inst-a-c2").code(), Status::Code::kFailedPrecondition);  // routed to
  profile.cluster_id = "no-such-cluster";
  EXPECT_EQ(admin_->CreateAppProfile(kA, profile, false).status().code(), Status::Code::kInvalidArgument);
  // An update naming an etag that is not the profile's is ABORTED; the
  // profile's own goes through and gets a new one.
  AppProfileSpec update = created;
  update.description = "changed";
  update.etag = "stale";
  EXPECT_EQ(admin_->UpdateAppProfile(kA, update, false).status().code(), Status::Code::kAborted);
  update.etag = created.etag;
  ASSERT_OK_AND_ASSIGN(AppProfileSpec updated, admin_->UpdateAppProfile(kA, update, false));
  EXPECT_NE(updated.etag, created.etag);
  EXPECT_EQ(updated.description, "changed");
  ASSERT_OK(admin_->DeleteAppProfile(kA, "batch"));
  ASSERT_OK(admin_->DeleteCluster(kA, "inst-a-c2"));
}

TEST_F(InstanceAdminTest, InstancesLastAndOlderTablesAreTheDefaultInstances) {
  // Tables a release without instances made: bare names in the catalog.
  {
    auto db = Database::Open(dir_.Sub("db"));
    ASSERT_TRUE(db.ok());
    ASSERT_OK((*db)->CreateTable("older"));
  }
  Open();
  ASSERT_OK(admin_->CreateInstance(Instance(kA)));
  ASSERT_OK(Tables(kA)->CreateTable("newer", {}, {}, false));
  Open();
  EXPECT_EQ(*root_->ListTables(), std::vector<std::string>{"older"});
  EXPECT_EQ(*Tables(kA)->ListTables(), std::vector<std::string>{"newer"});
  ASSERT_OK_AND_ASSIGN(InstanceSpec a, admin_->GetInstance(kA));
  EXPECT_EQ(a.display_name, "Instance inst-a");
  ASSERT_OK_AND_ASSIGN(std::vector<InstanceSpec> all, admin_->ListInstances("-"));
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].name, DefaultInstanceName());
  EXPECT_EQ(all[1].name, kA);
  ASSERT_OK_AND_ASSIGN(std::vector<InstanceSpec> in_proj, admin_->ListInstances("proj"));
  EXPECT_EQ(in_proj.size(), 1u);
}

}  // namespace
}  // namespace lbt

namespace lbt {
namespace {

constexpr int64_t kDayMicros = int64_t{24} * 3600 * 1000000;

// DeleteInstance is refused while a table of it has deletion protection
// ("the instance containing the table", admin/v2/table.proto), and then
// deletes nothing.
TEST_F(InstanceAdminTest, AProtectedTableKeepsItsInstance) {
  ASSERT_OK(admin_->CreateInstance(Instance(kA)));
  auto a = Tables(kA);
  ASSERT_OK(a->CreateTable("kept", {{"cf"}}, {}, /*deletion_protection=*/true));
  ASSERT_OK(a->CreateTable("other", {{"cf"}}, {}, false));
  ASSERT_OK(a->MutateRow("other", "r", {Mutation::SetCell("cf", "q", "v", 1000)}));
  ASSERT_OK(admin_->CreateLogicalView(kA, {"v", "SELECT _key FROM other", false, ""}).status());
  const Status refused = admin_->DeleteInstance(kA);
  EXPECT_EQ(refused.code(), Status::Code::kFailedPrecondition) << refused.ToString();
  EXPECT_NE(refused.message().find("'kept'"), std::string::npos) << refused.ToString();
  EXPECT_OK(admin_->GetInstance(kA).status());
  EXPECT_EQ(*a->ListTables(), (std::vector<std::string>{"kept", "other"}));
  EXPECT_EQ(Keys(a.get(), "other"), std::vector<std::string>{"r"});
  EXPECT_EQ(admin_->ListLogicalViews(kA)->size(), 1u);
  ASSERT_OK(a->SetDeletionProtection("kept", false));
  ASSERT_OK(admin_->DeleteInstance(kA));
  EXPECT_TRUE(admin_->GetInstance(kA).status().IsNotFound());
}

// A new table, or instance, starts without the IAM policy a deleted one of
// the same name had.
TEST_F(InstanceAdminTest, ANewResourceStartsWithoutTheDeletedOnesPolicy) {
  ASSERT_OK(admin_->CreateInstance(Instance(kA)));
  auto a = Tables(kA);
  ASSERT_OK(a->CreateTable("t", {{"cf"}}, {}, false));
  IamPolicy policy;
  policy.bindings.push_back({.role = "roles/bigtable.reader", .members = {"user:someone@example.com"}});
  const std::string table = kA.Full() + "/tables/t";
  ASSERT_OK(admin_->SetIamPolicy(table, policy).status());
  ASSERT_OK(admin_->SetIamPolicy(kA.Full(), policy).status());
  ASSERT_EQ(admin_->GetIamPolicy(table)->bindings.size(), 1u);
  ASSERT_OK(a->DeleteTable("t"));
  ASSERT_OK(a->CreateTable("t", {{"cf"}}, {}, false));
  EXPECT_TRUE(admin_->GetIamPolicy(table)->bindings.empty());
  ASSERT_OK(admin_->SetIamPolicy(table, policy).status());
  ASSERT_OK(admin_->DeleteInstance(kA));
  ASSERT_OK(admin_->CreateInstance(Instance(kA)));
  EXPECT_TRUE(admin_->GetIamPolicy(kA.Full())->bindings.empty());
  ASSERT_OK(Tables(kA)->CreateTable("t", {{"cf"}}, {}, false));
  EXPECT_TRUE(admin_->GetIamPolicy(table)->bindings.empty());
}

class BackupTest : public InstanceAdminTest {
 protected:
  void SetUp() override {
    InstanceAdminTest::SetUp();
    ASSERT_OK(admin_->CreateInstance(Instance(kA)));
    a_ = Tables(kA);
    ASSERT_OK(a_->CreateTable("t", {{"z-first", GcRule::MaxVersions(1)}, {"a-second"}}, {}, false));
    ASSERT_OK(a_->MutateRow("t", "r1", {Mutation::SetCell("z-first", "q", "old", 1000)}));
  }
  int64_t Expire() const { return root_->NowMicros() + 7 * kDayMicros; }

  std::unique_ptr<Bigtable> a_;
};

// An authorized view or a backup made under a name once used starts
// without the policy the earlier one had, however that one went: deleted
// itself, or with its table.
TEST_F(BackupTest, ANewViewOrBackupStartsWithoutTheDeletedOnesPolicy) {
  IamPolicy policy;
  policy.bindings.push_back({.role = "roles/bigtable.reader", .members = {"user:someone@example.com"}});
  const std::string view = kA.Full() + "/tables/t/authorizedViews/v";
  const AuthorizedViewSpec spec{.id = "v", .subset = {.row_prefixes = {"r"}}};
  auto policy_of = [&](const std::string& resource) { return admin_->GetIamPolicy(resource)->bindings.size(); };
  ASSERT_OK(a_->CreateAuthorizedView("t", spec).status());
  ASSERT_OK(admin_->SetIamPolicy(view, policy).status());
  ASSERT_OK(a_->DeleteAuthorizedView("t", "v", ""));
  ASSERT_OK(a_->CreateAuthorizedView("t", spec).status());
  EXPECT_EQ(policy_of(view), 0u);
  ASSERT_OK(admin_->SetIamPolicy(view, policy).status());
  ASSERT_OK(a_->DeleteTable("t"));
  ASSERT_OK(a_->CreateTable("t", {{"cf"}}, {}, false));
  ASSERT_OK(a_->CreateAuthorizedView("t", spec).status());
  EXPECT_EQ(policy_of(view), 0u);

  const std::string backup = kA.Full() + "/clusters/inst-a-c1/backups/b";
  ASSERT_OK(Tables(kA)->CreateBackup("inst-a-c1", "b", "t", Expire()).status());
  ASSERT_OK(admin_->SetIamPolicy(backup, policy).status());
  ASSERT_OK(Tables(kA)->DeleteBackup("inst-a-c1", "b"));
  ASSERT_OK(Tables(kA)->CreateBackup("inst-a-c1", "b", "t", Expire()).status());
  EXPECT_EQ(policy_of(backup), 0u);
  ASSERT_OK(admin_->SetIamPolicy(backup, policy).status());
  ASSERT_OK(Tables(kA)->DeleteBackup("inst-a-c1", "b"));
  ASSERT_OK_AND_ASSIGN(BackupSpec source, Tables(kA)->CreateBackup("inst-a-c1", "source", "t", Expire()));
  ASSERT_OK(Tables(kA)->CopyBackup(source, "inst-a-c1", "b", Expire()).status());
  EXPECT_EQ(policy_of(backup), 0u);
}

// A MICROS table's backup restores to a MICROS table, its cells' every
// microsecond with it.
TEST_F(BackupTest, ARestoreKeepsTheTablesGranularity) {
  ASSERT_OK(a_->CreateTable("fine", NewTable{.families = {{"cf"}}, .granularity = TimestampGranularity::kMicros}));
  ASSERT_OK(a_->MutateRow("fine", "r", {Mutation::SetCell("cf", "q", "v", 1234567)}));
  ASSERT_OK_AND_ASSIGN(BackupSpec backup, Tables(kA)->CreateBackup("inst-a-c1", "fine-b", "fine", Expire()));
  EXPECT_EQ(backup.granularity, TimestampGranularity::kMicros);
  ASSERT_OK_AND_ASSIGN(BackupSpec listed, Tables(kA)->GetBackup("inst-a-c1", "fine-b"));
  EXPECT_EQ(listed.granularity, TimestampGranularity::kMicros);
  ASSERT_OK(Tables(kA)->RestoreTable(backup, "fine-restored"));
  ASSERT_OK_AND_ASSIGN(TableSpec restored, a_->GetTable("fine-restored"));
  EXPECT_EQ(restored.granularity, TimestampGranularity::kMicros);
  ASSERT_OK_AND_ASSIGN(std::optional<Row> row, a_->ReadRow("fine-restored", "r"));
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->cells[0].timestamp, 1234567);
  ASSERT_OK(a_->MutateRow("fine-restored", "r", {Mutation::SetCell("cf", "q", "w", 1234568)}));
}

// The row-key schema and tiered storage rule come back with a restore,
// through a copy of the backup too.
TEST_F(BackupTest, ARestoreKeepsTheRowKeySchemaAndTieredStorage) {
  RowKeySchema schema;
  schema.fields = {{"device", RowKeyField::Type::kString}, {"rts", RowKeyField::Type::kString}};
  schema.delimiter = "#";
  const TieredStorage tiers{90LL * 24 * 3600 * 1000000};
  ASSERT_OK(
      a_->CreateTable("keyed", NewTable{.families = {{"cf"}}, .tiered_storage = tiers, .row_key_schema = schema}));
  ASSERT_OK_AND_ASSIGN(BackupSpec backup, Tables(kA)->CreateBackup("inst-a-c1", "keyed-b", "keyed", Expire()));
  ASSERT_OK_AND_ASSIGN(BackupSpec copy, Tables(kA)->CopyBackup(backup, "inst-a-c1", "keyed-c", Expire()));
  for (const BackupSpec* b : {&backup, &copy}) {
    const std::string name = "restored-" + b->id;
    ASSERT_OK(Tables(kA)->RestoreTable(*b, name));
    ASSERT_OK_AND_ASSIGN(TableSpec restored, a_->GetTable(name));
    EXPECT_EQ(restored.row_key_schema, schema) << name;
    ASSERT_TRUE(restored.tiered_storage.has_value()) << name;
    EXPECT_EQ(restored.tiered_storage->infrequent_access_older_than_micros, tiers.infrequent_access_older_than_micros);
  }
}

TEST_F(BackupTest, ARestoreHoldsTheTableAsTheBackupFoundIt) {
  ASSERT_OK_AND_ASSIGN(BackupSpec backup, Tables(kA)->CreateBackup("inst-a-c1", "b1", "t", Expire()));
  EXPECT_EQ(backup.source_table, "t");
  EXPECT_LE(backup.start_time_micros, backup.end_time_micros);
  EXPECT_GT(backup.size_bytes, 0);
  ASSERT_OK(a_->MutateRow("t", "r2", {Mutation::SetCell("a-second", "q", "new", 2000)}));
  ASSERT_OK(Tables(kA)->RestoreTable(backup, "restored"));
  EXPECT_EQ(Keys(a_.get(), "restored"), std::vector<std::string>{"r1"});
  ASSERT_OK_AND_ASSIGN(TableSpec restored, a_->GetTable("restored"));
  // The families in their creation order, with their rules.
  std::vector<std::string> order;
  for (const FamilySpec* f : restored.FamiliesInCreationOrder()) order.push_back(f->name);
  EXPECT_EQ(order, (std::vector<std::string>{"z-first", "a-second"}));
  EXPECT_EQ(restored.FindFamily("z-first")->gc_rule, GcRule::MaxVersions(1));
  ASSERT_TRUE(restored.restored_from.has_value());
  EXPECT_EQ(restored.restored_from->backup, "projects/proj/instances/inst-a/clusters/inst-a-c1/backups/b1");
  EXPECT_EQ(Tables(kA)->RestoreTable(backup, "restored").code(), Status::Code::kAlreadyExists);
  // Into another instance too, which comes into being with the table.
  ASSERT_OK(Tables(kB)->RestoreTable(backup, "copy-in-b"));
  EXPECT_EQ(Keys(Tables(kB).get(), "copy-in-b"), std::vector<std::string>{"r1"});
  // A backup's cells are no table of any instance.
  EXPECT_EQ(*a_->ListTables(), (std::vector<std::string>{"restored", "t"}));
  ASSERT_OK_AND_ASSIGN(auto instances, admin_->ListInstances("-"));
  EXPECT_EQ(instances.size(), 3u);  // the default, A and B
}

// Two CreateBackup calls with one id at once: one makes a whole backup, the
// other gets ALREADY_EXISTS (each once cleared the hidden table the other
// was filling, acknowledging a backup with no data). Likewise two restores
// into one table.
TEST_F(BackupTest, RacingCallsWithOneIdMakeOneWholeBackup) {
  std::vector<RowMutation> rows;
  for (int i = 0; i < 3000; ++i)
    rows.push_back({fmt::format("row{:05}", i), {Mutation::SetCell("a-second", "q", "v", 1000)}});
  ASSERT_OK(a_->MutateRows("t", rows).status());
  for (int round = 0; round < 12; ++round) {
    const std::string id = "race" + std::to_string(round);
    Status results[2];
    std::thread first([&] { results[0] = Tables(kA)->CreateBackup("inst-a-c1", id, "t", Expire()).status(); });
    std::thread second([&] { results[1] = Tables(kA)->CreateBackup("inst-a-c1", id, "t", Expire()).status(); });
    first.join();
    second.join();
    ASSERT_EQ(results[0].ok() + results[1].ok(), 1) << results[0].ToString() << " / " << results[1].ToString();
    const Status& loser = results[0].ok() ? results[1] : results[0];
    EXPECT_EQ(loser.code(), Status::Code::kAlreadyExists) << loser.ToString();
    ASSERT_OK_AND_ASSIGN(BackupSpec backup, Tables(kA)->GetBackup("inst-a-c1", id));
    const std::string table = "restored" + std::to_string(round);
    std::thread restore1([&] { results[0] = Tables(kA)->RestoreTable(backup, table); });
    std::thread restore2([&] { results[1] = Tables(kA)->RestoreTable(backup, table); });
    restore1.join();
    restore2.join();
    ASSERT_EQ(results[0].ok() + results[1].ok(), 1) << results[0].ToString() << " / " << results[1].ToString();
    EXPECT_EQ(Keys(a_.get(), table).size(), 3001u) << "round " << round;
  }
}

TEST_F(BackupTest, ExpireTimesAreProductionsAndEnforced) {
  const int64_t now = root_->NowMicros();
  EXPECT_EQ(Tables(kA)->CreateBackup("inst-a-c1", "b", "t", now + kDayMicros / 8).status().code(),
            Status::Code::kInvalidArgument);  // 3 hours
  EXPECT_EQ(Tables(kA)->CreateBackup("inst-a-c1", "b", "t", now + 91 * kDayMicros).status().code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(Tables(kA)->CreateBackup("no-such-cluster", "b", "t", Expire()).status().code(), Status::Code::kNotFound);
  EXPECT_EQ(Tables(kA)->CreateBackup("inst-a-c1", "b", "nope", Expire()).status().code(), Status::Code::kNotFound);
  ASSERT_OK(Tables(kA)->CreateBackup("inst-a-c1", "b", "t", Expire()).status());
  EXPECT_EQ(Tables(kA)->CreateBackup("inst-a-c1", "b", "t", Expire()).status().code(), Status::Code::kAlreadyExists);
  const int64_t later = Expire() + 1000;
  ASSERT_OK_AND_ASSIGN(BackupSpec updated, Tables(kA)->UpdateBackupExpireTime("inst-a-c1", "b", later));
  EXPECT_EQ(updated.expire_time_micros, later);
  ASSERT_OK_AND_ASSIGN(auto listed, Tables(kA)->ListBackups("-"));
  ASSERT_EQ(listed.size(), 1u);
  ASSERT_OK(Tables(kA)->DeleteBackup("inst-a-c1", "b"));
  EXPECT_TRUE(Tables(kA)->GetBackup("inst-a-c1", "b").status().IsNotFound());
}

TEST_F(BackupTest, AnExpiredBackupIsGone) {
  // A clock that moves on: the database's own, set for the test.
  int64_t now = 1'700'000'000'000'000;
  DatabaseOptions options;
  options.clock = [&now] { return now; };
  a_.reset();  // one handle on the database at a time in a process
  root_.reset();
  root_ = std::make_unique<LocalBigtable>(dir_.Sub("db"), options);
  admin_ = root_->instance_admin();
  ASSERT_OK(Tables(kA)->CreateBackup("inst-a-c1", "b", "t", now + kDayMicros).status());
  now += 2 * kDayMicros;
  EXPECT_TRUE(Tables(kA)->GetBackup("inst-a-c1", "b").status().IsNotFound());
  ASSERT_OK_AND_ASSIGN(auto listed, Tables(kA)->ListBackups("-"));
  EXPECT_TRUE(listed.empty());
}

TEST_F(BackupTest, ACopyHoldsTheSameMomentAndDeletingTheInstanceTakesItsBackups) {
  ASSERT_OK_AND_ASSIGN(BackupSpec backup, Tables(kA)->CreateBackup("inst-a-c1", "b", "t", Expire()));
  ASSERT_OK(admin_->CreateInstance(Instance(kB)));
  ASSERT_OK_AND_ASSIGN(BackupSpec copy, Tables(kB)->CopyBackup(backup, "inst-b-c1", "copy", Expire()));
  EXPECT_EQ(copy.source_backup, backup.Full());
  EXPECT_EQ(copy.SourceTableFull(), "projects/proj/instances/inst-a/tables/t");  // A's, though the copy is B's
  EXPECT_EQ(copy.start_time_micros, backup.start_time_micros);
  ASSERT_OK(admin_->DeleteInstance(kA));
  EXPECT_TRUE(Tables(kA)->GetBackup("inst-a-c1", "b").status().IsNotFound());
  ASSERT_OK_AND_ASSIGN(BackupSpec still, Tables(kB)->GetBackup("inst-b-c1", "copy"));
  ASSERT_OK(Tables(kB)->RestoreTable(still, "t"));
  EXPECT_EQ(Keys(Tables(kB).get(), "t"), std::vector<std::string>{"r1"});
}

// Automated backups: production's policy rules (a retention of 3 to 90
// days, a frequency of 24 hours), one backup when one is due and none
// before the frequency has passed; kept for the retention.
TEST_F(InstanceAdminTest, AutomatedBackupsAreTakenWhenDue) {
  constexpr int64_t kDay = int64_t{24} * 3600 * 1000000;
  ASSERT_OK(admin_->CreateInstance(Instance(kA)));
  auto a = Tables(kA);
  ASSERT_OK(a->CreateTable("events", {{"cf"}}, {}, false));
  ASSERT_OK(a->MutateRow("events", "r", {Mutation::SetCell("cf", "q", "1", 1000)}));
  EXPECT_EQ(a->SetAutomatedBackupPolicy("events", AutomatedBackupPolicy{kDay, 0}).code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(a->SetAutomatedBackupPolicy("events", AutomatedBackupPolicy{7 * kDay, 12 * 3600 * 1000000LL}).code(),
            Status::Code::kInvalidArgument);
  ASSERT_OK(a->SetAutomatedBackupPolicy("events", AutomatedBackupPolicy{7 * kDay, 0}));
  ASSERT_OK_AND_ASSIGN(TableSpec spec, a->GetTable("events"));
  ASSERT_TRUE(spec.automated_backup_policy.has_value());
  EXPECT_EQ(spec.automated_backup_policy->frequency_micros, kDay) << "an unset frequency is 24 hours";

  ASSERT_OK(root_->local()->RunAutomatedBackups());
  ASSERT_OK(root_->local()->RunAutomatedBackups());  // not due again for a day
  ASSERT_OK_AND_ASSIGN(std::vector<BackupSpec> backups, Tables(kA)->ListBackups("-"));
  ASSERT_EQ(backups.size(), 1u);
  EXPECT_EQ(backups[0].id.rfind("auto-events-", 0), 0u) << backups[0].id;
  EXPECT_EQ(backups[0].source_table, "events");
  EXPECT_NEAR(static_cast<double>(backups[0].expire_time_micros - backups[0].start_time_micros),
              static_cast<double>(7 * kDay), 60e6);

  // Off: no more.
  ASSERT_OK(a->SetAutomatedBackupPolicy("events", std::nullopt));
  ASSERT_OK(Tables(kA)->DeleteBackup(backups[0].cluster, backups[0].id));
  ASSERT_OK(root_->local()->RunAutomatedBackups());
  ASSERT_OK_AND_ASSIGN(backups, Tables(kA)->ListBackups("-"));
  EXPECT_TRUE(backups.empty());
}

// Logical views belong to their instance: deleting it deletes them, even a
// protected one (protection guards a view from being deleted alone), and
// a new instance of the same name starts without them.
TEST_F(InstanceAdminTest, DeletingAnInstanceDeletesItsLogicalViews) {
  ASSERT_OK(admin_->CreateInstance(Instance(kA)));
  auto a = Tables(kA);
  ASSERT_OK(a->CreateTable("t", {{"cf"}}, {}, false));
  ASSERT_OK(a->instance_admin()->CreateLogicalView(a->instance(), {"v", "SELECT _key FROM t", true, ""}).status());
  EXPECT_EQ(a->instance_admin()->DeleteLogicalView(a->instance(), "v", "").code(), Status::Code::kFailedPrecondition);
  EXPECT_EQ(a->CreateTable("v", {{"cf"}}, {}, false).code(), Status::Code::kAlreadyExists) << "a view's name";
  ASSERT_OK(admin_->CreateLogicalView(kB, {"v", "SELECT _key FROM t", false, ""}).status());
  ASSERT_OK(admin_->DeleteInstance(kA));
  ASSERT_OK(admin_->CreateInstance(Instance(kA)));
  ASSERT_OK_AND_ASSIGN(std::vector<LogicalViewSpec> left, admin_->ListLogicalViews(kA));
  EXPECT_TRUE(left.empty());
  ASSERT_OK_AND_ASSIGN(left, admin_->ListLogicalViews(kB));
  EXPECT_EQ(left.size(), 1u) << "another instance's views stay";
}

}  // namespace
}  // namespace lbt

namespace lbt {
namespace {

// A deleted table is kept, hidden, for an undelete: in its own instance,
// with its cells, families and views, for kUndeleteRetentionMicros; after
// that a purge pass (or an explicit one) deletes it for good.
TEST(UndeleteTest, ADeletedTableComesBackWithinTheRetentionOnly) {
  testing::TempDir dir;
  testing::FakeClock clock;
  DatabaseOptions options;
  options.clock = clock.Fn();
  LocalBigtable root(dir.Sub("db"), options);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Bigtable> a, root.instance_admin()->OpenTables(kA));
  for (Bigtable* tables : {static_cast<Bigtable*>(&root), a.get()}) {
    ASSERT_OK(tables->CreateTable("t", {{"cf", GcRule::MaxVersions(2)}}, {}, false));
    ASSERT_OK(tables->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "v", 1000)}));
    ASSERT_OK(tables->DeleteTable("t"));
    EXPECT_TRUE(tables->ListTables()->empty());
  }
  // Each instance's own comes back: the default one's now.
  ASSERT_OK(root.UndeleteTable("t"));
  ASSERT_OK_AND_ASSIGN(std::optional<Row> row, root.ReadRow("t", "r"));
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->cells[0].value, "v");
  EXPECT_EQ(root.GetTable("t")->FindFamily("cf")->gc_rule, GcRule::MaxVersions(2));
  EXPECT_FALSE(root.GetTable("t")->deleted_micros.has_value());
  // Past the retention, A's is gone: a purge pass deletes it for good.
  clock.now += kUndeleteRetentionMicros + 1000;
  EXPECT_EQ(a->UndeleteTable("t").code(), Status::Code::kNotFound);
  ASSERT_OK_AND_ASSIGN(std::vector<std::string> purged, root.local()->PurgeDeletedTables(/*expired_only=*/true));
  EXPECT_EQ(purged, std::vector<std::string>{"proj/inst-a/t"});
  // An explicit purge takes the rest, however recent.
  ASSERT_OK(root.DeleteTable("t"));
  ASSERT_OK_AND_ASSIGN(purged, root.local()->PurgeDeletedTables(/*expired_only=*/true));
  EXPECT_TRUE(purged.empty());
  ASSERT_OK_AND_ASSIGN(purged, root.local()->PurgeDeletedTables(/*expired_only=*/false));
  EXPECT_EQ(purged, std::vector<std::string>{"t"});
  EXPECT_EQ(root.UndeleteTable("t").code(), Status::Code::kNotFound);
}

}  // namespace
}  // namespace lbt
