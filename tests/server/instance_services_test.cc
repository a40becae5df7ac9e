// Production's rules where the instance-level RPCs once took anything:
// cluster placement, ListOperations' resource and pages, ListBackups'
// pages and filter, IAM policy versions, and SampleRowKeys of a
// materialized view; and how a data request's names, app profile and
// instance resolve (server/request_target.h). The services run over a
// local database with instances, reached through gRPC's in-process channel.

#include <google/protobuf/util/time_util.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "api/materialized_view.h"
#include "local/local_bigtable.h"
#include "proto/change_stream_convert.h"
#include "proto/convert.h"
#include "server/admin_service.h"
#include "server/data_service.h"
#include "server/instance_admin_service.h"
#include "sql/materialized_view.h"
#include "tests/test_util.h"
#include "views/materialized_view_maintainer.h"

namespace lbt::testing {
namespace {

namespace v2 = ::google::bigtable::v2;
namespace admin = ::google::bigtable::admin::v2;
namespace longrunning = ::google::longrunning;
using grpc::StatusCode;

constexpr char kProject[] = "projects/p";

class InstanceServicesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bigtable_ = std::make_unique<LocalBigtable>(dir_.Sub("db"), DatabaseOptions{});
    router_ = std::make_unique<server::InstanceRouter>(bigtable_.get());
    data_ = std::make_unique<server::DataService>(router_.get(), &runtime_);
    admin_service_ = std::make_unique<server::AdminService>(router_.get(), &runtime_, &operations_);
    instance_service_ = std::make_unique<server::InstanceAdminService>(router_.get(), &operations_, &runtime_);
    operations_service_ = std::make_unique<server::OperationsService>(&operations_, &runtime_);
    grpc::ServerBuilder builder;
    builder.RegisterService(data_.get());
    builder.RegisterService(admin_service_.get());
    builder.RegisterService(instance_service_.get());
    builder.RegisterService(operations_service_.get());
    server_ = builder.BuildAndStart();
    auto channel = server_->InProcessChannel(grpc::ChannelArguments());
    data_stub_ = v2::Bigtable::NewStub(channel);
    tables_ = admin::BigtableTableAdmin::NewStub(channel);
    instances_ = admin::BigtableInstanceAdmin::NewStub(channel);
    operations_stub_ = longrunning::Operations::NewStub(channel);
  }
  void TearDown() override { server_->Shutdown(); }

  static std::string InstanceName(const std::string& id) { return std::string(kProject) + "/instances/" + id; }

  // CreateInstance of `id` with one cluster per zone given.
  grpc::Status CreateInstance(const std::string& id, const std::vector<std::string>& zones) {
    admin::CreateInstanceRequest request;
    request.set_parent(kProject);
    request.set_instance_id(id);
    request.mutable_instance()->set_display_name("Instance " + id);
    for (size_t i = 0; i < zones.size(); ++i) {
      admin::Cluster& cluster = (*request.mutable_clusters())[fmt::format("{}-c{}", id, i + 1)];
      cluster.set_location(std::string(kProject) + "/locations/" + zones[i]);
      cluster.set_serve_nodes(1);
    }
    longrunning::Operation operation;
    grpc::ClientContext context;
    return instances_->CreateInstance(&context, request, &operation);
  }

  grpc::Status ListOperations(const std::string& name, int page_size, const std::string& token,
                              longrunning::ListOperationsResponse* response) {
    longrunning::ListOperationsRequest request;
    request.set_name(name);
    request.set_page_size(page_size);
    request.set_page_token(token);
    grpc::ClientContext context;
    return operations_stub_->ListOperations(&context, request, response);
  }

  grpc::Status ListBackups(const std::string& cluster, int page_size, const std::string& token,
                           const std::string& filter, admin::ListBackupsResponse* response) {
    admin::ListBackupsRequest request;
    request.set_parent(cluster);
    request.set_page_size(page_size);
    request.set_page_token(token);
    request.set_filter(filter);
    grpc::ClientContext context;
    return tables_->ListBackups(&context, request, response);
  }

  TempDir dir_;
  std::unique_ptr<LocalBigtable> bigtable_;
  server::CallRuntime runtime_;
  server::OperationStore operations_;
  std::unique_ptr<server::InstanceRouter> router_;
  std::unique_ptr<server::DataService> data_;
  std::unique_ptr<server::AdminService> admin_service_;
  std::unique_ptr<server::InstanceAdminService> instance_service_;
  std::unique_ptr<server::OperationsService> operations_service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v2::Bigtable::Stub> data_stub_;
  std::unique_ptr<admin::BigtableTableAdmin::Stub> tables_;
  std::unique_ptr<admin::BigtableInstanceAdmin::Stub> instances_;
  std::unique_ptr<longrunning::Operations::Stub> operations_stub_;
};

TEST_F(InstanceServicesTest, AnInstanceHasOneClusterAZoneInAtMostEightRegions) {
  grpc::Status s = CreateInstance("twins-inst", {"us-east1-b", "us-east1-b"});
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("zone us-east1-b"), std::string::npos) << s.error_message();
  std::vector<std::string> zones;
  for (int i = 0; i < 1000; ++i) zones.push_back(fmt::format("region{}-{}", i / 3, "abc"[i % 3]));
  s = CreateInstance("many-inst", zones);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("at most 8"), std::string::npos) << s.error_message();
  ASSERT_TRUE(CreateInstance("two-zones", {"us-east1-b", "us-east1-c"}).ok());
}

// Zones are named as production's are, so one region cannot hold a
// thousand clusters under made-up zone names.
TEST_F(InstanceServicesTest, AThousandZonesOfOneRegionAreRefused) {
  std::vector<std::string> zones;
  for (int i = 0; i < 1000; ++i) zones.push_back(fmt::format("us-east1-{}{}", "abcd"[i % 4], i));
  grpc::Status s = CreateInstance("one-region", zones);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("is not a zone"), std::string::npos) << s.error_message();
  EXPECT_EQ(CreateInstance("odd-zone", {"us-east1-"}).error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(CreateInstance("odd-zone", {"us-east1-B"}).error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(CreateInstance("odd-zone", {"local"}).ok());
}

// Instance abcdef's operations are not abcdefg's, and they come in pages.
TEST_F(InstanceServicesTest, ListOperationsListsTheResourcesOwnInPages) {
  ASSERT_TRUE(CreateInstance("abcdefg", {"us-east1-b"}).ok());
  ASSERT_TRUE(CreateInstance("abcdef", {"us-east1-b"}).ok());
  for (const char* zone : {"us-east1-c", "us-east1-d"}) {
    admin::CreateClusterRequest request;
    request.set_parent(InstanceName("abcdef"));
    request.set_cluster_id(fmt::format("abcdef-{}", zone));
    request.mutable_cluster()->set_location(std::string(kProject) + "/locations/" + zone);
    request.mutable_cluster()->set_serve_nodes(1);
    longrunning::Operation operation;
    grpc::ClientContext context;
    ASSERT_TRUE(instances_->CreateCluster(&context, request, &operation).ok());
  }
  longrunning::ListOperationsResponse all;
  ASSERT_TRUE(ListOperations(InstanceName("abcdef"), 0, "", &all).ok());
  ASSERT_EQ(all.operations_size(), 3) << "the instance's creation and its two clusters'";
  for (const auto& op : all.operations()) {
    EXPECT_EQ(op.name().find("operations/" + InstanceName("abcdef") + "/"), 0u) << op.name();
  }
  EXPECT_EQ(all.next_page_token(), "");
  longrunning::ListOperationsResponse same;
  ASSERT_TRUE(ListOperations("operations/" + InstanceName("abcdef"), 0, "", &same).ok());
  EXPECT_EQ(same.operations_size(), 3) << "production's spelling of the resource";

  std::vector<std::string> paged;
  std::string token;
  for (int page = 0; page < 5; ++page) {
    longrunning::ListOperationsResponse response;
    ASSERT_TRUE(ListOperations(InstanceName("abcdef"), 2, token, &response).ok());
    EXPECT_LE(response.operations_size(), 2);
    for (const auto& op : response.operations()) paged.push_back(op.name());
    token = response.next_page_token();
    if (token.empty()) break;
  }
  ASSERT_EQ(paged.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(paged[i], all.operations(i).name());

  longrunning::ListOperationsResponse refused;
  for (const char* forged : {"18446744073709551615", "999", "x", "-1"}) {
    grpc::Status s = ListOperations(InstanceName("abcdef"), 2, forged, &refused);
    EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT) << forged;
    EXPECT_NE(s.error_message().find("page_token"), std::string::npos) << s.error_message();
  }
}

TEST_F(InstanceServicesTest, ListBackupsPagesStayInTheListAndFiltersAreChecked) {
  ASSERT_TRUE(CreateInstance("backed-up", {"us-east1-b"}).ok());
  const std::string cluster = InstanceName("backed-up") + "/clusters/backed-up-c1";
  admin::ListBackupsResponse response;
  // Malformed filters, with no backup to try them on.
  for (const char* filter : {"nonsense", "size_bytes > lots", "colour = red", "expire_time < yesterday"}) {
    grpc::Status s = ListBackups(cluster, 0, "", filter, &response);
    EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT) << filter;
    EXPECT_NE(s.error_message().find("filter"), std::string::npos) << s.error_message();
  }
  ASSERT_OK_AND_ASSIGN(auto tables, bigtable_->instance_admin()->OpenTables({"p", "backed-up"}));
  ASSERT_OK(tables->CreateTable("t", {{"cf"}}, {}, false));
  const int64_t expire =
      (std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch()) +
       std::chrono::hours(24 * 3))
          .count();
  for (const char* id : {"b1", "b2", "b3"}) {
    ASSERT_OK(tables->CreateBackup("backed-up-c1", id, "t", expire).status());
  }
  std::vector<std::string> listed;
  std::string token;
  for (int page = 0; page < 5; ++page) {
    ASSERT_TRUE(ListBackups(cluster, 2, token, "", &response).ok());
    for (const auto& b : response.backups()) listed.push_back(b.name());
    token = response.next_page_token();
    if (token.empty()) break;
  }
  EXPECT_EQ(listed.size(), 3u);
  for (const char* forged : {"18446744073709551615", "4", "0", "-1"}) {
    grpc::Status s = ListBackups(cluster, 2, forged, "", &response);
    EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT) << forged;
    EXPECT_NE(s.error_message().find("page_token"), std::string::npos) << s.error_message();
  }
}

// An expire time that is no Timestamp (nanos of -1, or seconds whose
// microseconds overflow) is refused, naming the field, as ListHotTablets'
// times are.
TEST_F(InstanceServicesTest, TimesOutsideTimestampsRangeAreRefused) {
  ASSERT_TRUE(CreateInstance("timed-inst", {"us-east1-b"}).ok());
  ASSERT_OK_AND_ASSIGN(auto tables, bigtable_->instance_admin()->OpenTables({"p", "timed-inst"}));
  ASSERT_OK(tables->CreateTable("t", {{"cf"}}, {}, false));
  const int64_t in_three_days =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count() +
      3 * 86400;
  for (auto [seconds, nanos] : {std::pair<int64_t, int32_t>{in_three_days, -1},
                                std::pair<int64_t, int32_t>{std::numeric_limits<int64_t>::max(), 0}}) {
    admin::CreateBackupRequest request;
    request.set_parent(InstanceName("timed-inst") + "/clusters/timed-inst-c1");
    request.set_backup_id("b");
    request.mutable_backup()->set_source_table(InstanceName("timed-inst") + "/tables/t");
    request.mutable_backup()->mutable_expire_time()->set_seconds(seconds);
    request.mutable_backup()->mutable_expire_time()->set_nanos(nanos);
    longrunning::Operation operation;
    grpc::ClientContext context;
    grpc::Status s = tables_->CreateBackup(&context, request, &operation);
    EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT) << seconds << " " << nanos;
    EXPECT_EQ(s.error_message().rfind("backup.expire_time: ", 0), 0u) << s.error_message();
  }
  admin::ListHotTabletsRequest hot;
  hot.set_parent(InstanceName("timed-inst") + "/clusters/timed-inst-c1");
  hot.mutable_start_time()->set_seconds(std::numeric_limits<int64_t>::max());
  admin::ListHotTabletsResponse tablets;
  grpc::ClientContext context;
  grpc::Status s = instances_->ListHotTablets(&context, hot, &tablets);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message().rfind("start_time: ", 0), 0u) << s.error_message();
}

// ListAppProfiles honours page_size, across instances too, and refuses a
// token it did not give.
TEST_F(InstanceServicesTest, ListAppProfilesComesInPages) {
  ASSERT_TRUE(CreateInstance("paged-one", {"us-east1-b"}).ok());
  ASSERT_TRUE(CreateInstance("paged-two", {"us-east1-b", "us-east1-c"}).ok());
  for (const char* parent : {"projects/p/instances/paged-two", "projects/p/instances/-"}) {
    std::vector<std::string> listed;
    std::string token;
    int pages = 0;
    do {
      admin::ListAppProfilesRequest request;
      request.set_parent(parent);
      request.set_page_size(1);
      request.set_page_token(token);
      admin::ListAppProfilesResponse response;
      grpc::ClientContext context;
      ASSERT_TRUE(instances_->ListAppProfiles(&context, request, &response).ok());
      EXPECT_LE(response.app_profiles_size(), 1);
      for (const admin::AppProfile& profile : response.app_profiles()) listed.push_back(profile.name());
      token = response.next_page_token();
    } while (!token.empty() && ++pages < 10);
    EXPECT_EQ(std::set<std::string>(listed.begin(), listed.end()).size(), listed.size()) << parent;
    EXPECT_EQ(listed.size(), std::string(parent).ends_with("-") ? 2u : 1u) << parent;
  }
  admin::ListAppProfilesRequest forged;
  forged.set_parent("projects/p/instances/-");
  forged.set_page_token("projects/p/instances/nowhere/appProfiles/default");
  admin::ListAppProfilesResponse response;
  grpc::ClientContext context;
  EXPECT_EQ(instances_->ListAppProfiles(&context, forged, &response).error_code(), StatusCode::INVALID_ARGUMENT);
}

TEST_F(InstanceServicesTest, IamPoliciesTakeIamsVersionsOnly) {
  ASSERT_TRUE(CreateInstance("iam-inst", {"us-east1-b"}).ok());
  auto set = [&](int32_t version, bool conditional) {
    google::iam::v1::SetIamPolicyRequest request;
    request.set_resource(InstanceName("iam-inst"));
    request.mutable_policy()->set_version(version);
    auto* binding = request.mutable_policy()->add_bindings();
    binding->set_role("roles/bigtable.reader");
    binding->add_members("user:someone@example.com");
    if (conditional) binding->mutable_condition()->set_expression("request.time < timestamp('2030-01-01T00:00:00Z')");
    google::iam::v1::Policy policy;
    grpc::ClientContext context;
    return instances_->SetIamPolicy(&context, request, &policy);
  };
  for (int32_t version : {99, 2, -1}) {
    grpc::Status s = set(version, false);
    EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT) << version;
    EXPECT_NE(s.error_message().find("policy.version"), std::string::npos) << s.error_message();
  }
  grpc::Status s = set(1, true);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("policy.bindings[0].condition"), std::string::npos) << s.error_message();
  for (int32_t version : {0, 1, 3}) EXPECT_TRUE(set(version, false).ok()) << version;
  EXPECT_TRUE(set(3, true).ok());
}

// SampleRowKeys naming materialized_view_name samples the view.
TEST_F(InstanceServicesTest, SampleRowKeysServesAMaterializedView) {
  ASSERT_OK(bigtable_->CreateTable("readings", {{"m", GcRule::Never(), ValueType::kBytes}}, {}, false));
  for (int i = 0; i < 30; ++i) {
    ASSERT_OK(bigtable_->MutateRow("readings", fmt::format("dev{:02}#{}", i % 10, i),
                                   {Mutation::SetCell("m", "temp", std::to_string(i))}));
  }
  MaterializedViewSpec view;
  view.id = "per_device";
  view.query =
      "SELECT SPLIT(CAST(_key AS STRING), '#')[SAFE_OFFSET(0)] AS device, COUNT(*) AS n FROM readings GROUP BY device";
  ASSERT_OK_AND_ASSIGN(view.source_table, sql::CheckMaterializedViewQuery(bigtable_.get(), view.query));
  ASSERT_OK(bigtable_->instance_admin()->CreateMaterializedView(bigtable_->instance(), view).status());
  views::MaterializedViewMaintainer maintainer(bigtable_.get());
  ASSERT_OK(maintainer.CatchUp());

  v2::SampleRowKeysRequest request;
  request.set_materialized_view_name(DefaultInstanceName().Full() + "/materializedViews/per_device");
  grpc::ClientContext context;
  auto stream = data_stub_->SampleRowKeys(&context, request);
  std::vector<v2::SampleRowKeysResponse> samples;
  v2::SampleRowKeysResponse response;
  while (stream->Read(&response)) samples.push_back(response);
  grpc::Status s = stream->Finish();
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_FALSE(samples.empty());
  EXPECT_EQ(samples.back().row_key(), "");
  EXPECT_GT(samples.back().offset_bytes(), 0) << "ten groups' rows";

  request.set_materialized_view_name(DefaultInstanceName().Full() + "/materializedViews/nope");
  grpc::ClientContext missing_context;
  auto missing = data_stub_->SampleRowKeys(&missing_context, request);
  while (missing->Read(&response)) {
  }
  EXPECT_EQ(missing->Finish().error_code(), StatusCode::NOT_FOUND);
}

// A data request's names, app profile and instance are resolved once, in
// the order production reports their errors; the instance read then also
// answers whether the profile allows transactions.
class RequestTargetTest : public InstanceServicesTest {
 protected:
  void SetUp() override {
    InstanceServicesTest::SetUp();
    ASSERT_TRUE(CreateInstance("one-inst", {"us-east1-b"}).ok());
    ASSERT_TRUE(CreateInstance("two-inst", {"us-east1-b", "us-west1-a"}).ok());
    for (const char* instance : {"one-inst", "two-inst"}) {
      admin::CreateTableRequest request;
      request.set_parent(InstanceName(instance));
      request.set_table_id("t");
      (*request.mutable_table()->mutable_column_families())["cf"];
      *request.mutable_table()->mutable_change_stream_config()->mutable_retention_period() =
          google::protobuf::util::TimeUtil::SecondsToDuration(86400);
      admin::Table table;
      grpc::ClientContext context;
      ASSERT_TRUE(tables_->CreateTable(&context, request, &table).ok());
    }
  }

  static std::string Table(const std::string& instance) { return InstanceName(instance) + "/tables/t"; }

  // App profile "boost" of one-inst: Data Boost, single-cluster.
  grpc::Status CreateDataBoostProfile() {
    admin::CreateAppProfileRequest request;
    request.set_parent(InstanceName("one-inst"));
    request.set_app_profile_id("boost");
    request.mutable_app_profile()->mutable_single_cluster_routing()->set_cluster_id("one-inst-c1");
    request.mutable_app_profile()->mutable_data_boost_isolation_read_only()->set_compute_billing_owner(
        admin::AppProfile::DataBoostIsolationReadOnly::HOST_PAYS);
    admin::AppProfile profile;
    grpc::ClientContext context;
    return instances_->CreateAppProfile(&context, request, &profile);
  }

  grpc::Status MutateRow(const std::string& table_name, const std::string& app_profile,
                         const std::string& authorized_view_name = "") {
    v2::MutateRowRequest request;
    request.set_table_name(table_name);
    request.set_authorized_view_name(authorized_view_name);
    request.set_app_profile_id(app_profile);
    request.set_row_key("r");
    *request.add_mutations() = proto::ToProto(Mutation::SetCell("cf", "q", "v"));
    v2::MutateRowResponse response;
    grpc::ClientContext context;
    return data_stub_->MutateRow(&context, request, &response);
  }
  grpc::Status CheckAndMutateRow(const std::string& table_name, const std::string& app_profile) {
    v2::CheckAndMutateRowRequest request;
    request.set_table_name(table_name);
    request.set_app_profile_id(app_profile);
    request.set_row_key("r");
    *request.add_true_mutations() = proto::ToProto(Mutation::SetCell("cf", "q", "v"));
    v2::CheckAndMutateRowResponse response;
    grpc::ClientContext context;
    return data_stub_->CheckAndMutateRow(&context, request, &response);
  }
  grpc::Status ReadModifyWriteRow(const std::string& table_name) {
    v2::ReadModifyWriteRowRequest request;
    request.set_table_name(table_name);
    request.set_row_key("r");
    auto* rule = request.add_rules();
    rule->set_family_name("cf");
    rule->set_column_qualifier("n");
    rule->set_increment_amount(1);
    v2::ReadModifyWriteRowResponse response;
    grpc::ClientContext context;
    return data_stub_->ReadModifyWriteRow(&context, request, &response);
  }
  grpc::Status ReadRows(const v2::ReadRowsRequest& request) {
    grpc::ClientContext context;
    auto stream = data_stub_->ReadRows(&context, request);
    v2::ReadRowsResponse response;
    while (stream->Read(&response)) {
    }
    return stream->Finish();
  }
};

// GetClientConfiguration checks its instance's app profile as PingAndWarm
// and every data request do.
TEST_F(RequestTargetTest, ClientConfigurationChecksTheAppProfile) {
  auto ask = [&](const std::string& app_profile) {
    v2::GetClientConfigurationRequest request;
    request.set_instance_name(InstanceName("one-inst"));
    request.set_app_profile_id(app_profile);
    v2::ClientConfiguration config;
    grpc::ClientContext context;
    return data_stub_->GetClientConfiguration(&context, request, &config);
  };
  EXPECT_TRUE(ask("").ok());
  EXPECT_TRUE(ask("default").ok());
  grpc::Status s = ask("nope");
  EXPECT_EQ(s.error_code(), StatusCode::NOT_FOUND) << s.error_message();
  EXPECT_NE(s.error_message().find("nope"), std::string::npos) << s.error_message();
  EXPECT_EQ(ask("-not-an-id").error_code(), StatusCode::INVALID_ARGUMENT);
}

TEST_F(RequestTargetTest, AMalformedNameIsReportedBeforeTheAppProfile) {
  grpc::Status s = MutateRow("tables/t", "-not-an-id");
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(),
            "table_name: 'tables/t' is not a table name of the form "
            "projects/<project>/instances/<instance>/tables/<table>");
  s = MutateRow(Table("one-inst"), "-not-an-id");
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message().rfind("app_profile_id: ", 0), 0u) << s.error_message();
  s = MutateRow(Table("one-inst"), "", Table("one-inst") + "/authorizedViews/v");
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(),
            "table_name: name the table or an authorized view of it (authorized_view_name), not both");
}

TEST_F(RequestTargetTest, AMaterializedViewIsNamedAloneAndInItsForm) {
  v2::ReadRowsRequest request;
  request.set_materialized_view_name(InstanceName("one-inst") + "/materializedViews/m");
  request.set_table_name(Table("one-inst"));
  grpc::Status s = ReadRows(request);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(),
            "materialized_view_name: name a table, an authorized view or a materialized view, not two of them");
  request.clear_table_name();
  request.set_materialized_view_name(Table("one-inst"));
  s = ReadRows(request);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "materialized_view_name: '" + Table("one-inst") +
                                   "' is not a name of the form "
                                   "projects/<project>/instances/<instance>/materializedViews/<id>");
}

TEST_F(RequestTargetTest, AnUnknownAppProfileIsNotFoundBeforeTransactionsAreAskedAbout) {
  grpc::Status s = CheckAndMutateRow(Table("two-inst"), "nope");
  EXPECT_EQ(s.error_code(), StatusCode::NOT_FOUND);
  EXPECT_EQ(s.error_message(),
            "app_profile_id: app profile projects/p/instances/two-inst/appProfiles/nope does not exist");
  // An instance made with two clusters routes its default profile to any:
  // no single-row transactions.
  s = CheckAndMutateRow(Table("two-inst"), "");
  EXPECT_EQ(s.error_code(), StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(s.error_message(),
            "Single-row transactions are not allowed by this app profile "
            "(projects/p/instances/two-inst/appProfiles/default): they need single-cluster routing with "
            "allow_transactional_writes");
  EXPECT_EQ(CheckAndMutateRow(Table("two-inst"), "default").error_code(), StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ReadModifyWriteRow(Table("two-inst")).error_code(), StatusCode::FAILED_PRECONDITION);
  // One cluster: the default profile allows them, named or not.
  EXPECT_TRUE(CheckAndMutateRow(Table("one-inst"), "").ok());
  EXPECT_TRUE(CheckAndMutateRow(Table("one-inst"), "default").ok());
  EXPECT_TRUE(ReadModifyWriteRow(Table("one-inst")).ok());
  // Plain writes need no transactions.
  EXPECT_TRUE(MutateRow(Table("two-inst"), "").ok());
}

// An instance's edition is kept, shown and changed through the update
// mask; its tags are taken at creation only (INPUT_ONLY, IMMUTABLE). SQL
// through a Data Boost app profile runs on an ENTERPRISE_PLUS instance
// only, as production's Data Boost overview says.
TEST_F(RequestTargetTest, DataBoostRunsSqlOnEnterprisePlusInstancesOnly) {
  ASSERT_TRUE(CreateDataBoostProfile().ok());
  auto prepare = [&](const std::string& profile) {
    v2::PrepareQueryRequest request;
    request.set_instance_name(InstanceName("one-inst"));
    request.set_app_profile_id(profile);
    request.set_query("SELECT _key FROM t");
    request.mutable_proto_format();
    v2::PrepareQueryResponse response;
    grpc::ClientContext context;
    return data_stub_->PrepareQuery(&context, request, &response);
  };
  auto edition = [&] {
    admin::GetInstanceRequest request;
    request.set_name(InstanceName("one-inst"));
    admin::Instance instance;
    grpc::ClientContext context;
    EXPECT_TRUE(instances_->GetInstance(&context, request, &instance).ok());
    return instance.edition();
  };
  auto update = [&](const std::string& path, admin::Instance::Edition to) {
    admin::PartialUpdateInstanceRequest request;
    request.mutable_instance()->set_name(InstanceName("one-inst"));
    request.mutable_instance()->set_edition(to);
    (*request.mutable_instance()->mutable_tags())["123/env"] = "prod";
    request.mutable_update_mask()->add_paths(path);
    longrunning::Operation operation;
    grpc::ClientContext context;
    return instances_->PartialUpdateInstance(&context, request, &operation);
  };
  EXPECT_EQ(edition(), admin::Instance::ENTERPRISE);
  EXPECT_TRUE(prepare("").ok());
  grpc::Status s = prepare("boost");
  EXPECT_EQ(s.error_code(), StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find("Enterprise Plus"), std::string::npos) << s.error_message();
  ASSERT_TRUE(update("edition", admin::Instance::ENTERPRISE_PLUS).ok());
  EXPECT_EQ(edition(), admin::Instance::ENTERPRISE_PLUS);
  s = prepare("boost");
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(update("tags", admin::Instance::ENTERPRISE_PLUS).error_code(), StatusCode::INVALID_ARGUMENT);

  admin::CreateInstanceRequest create;
  create.set_parent(kProject);
  create.set_instance_id("tagged-inst");
  create.mutable_instance()->set_display_name("Tagged");
  create.mutable_instance()->set_edition(admin::Instance::ENTERPRISE_PLUS);
  (*create.mutable_instance()->mutable_tags())["no-slash"] = "x";
  admin::Cluster& cluster = (*create.mutable_clusters())["tagged-inst-c1"];
  cluster.set_location(std::string(kProject) + "/locations/us-east1-b");
  cluster.set_serve_nodes(1);
  longrunning::Operation operation;
  grpc::ClientContext bad;
  s = instances_->CreateInstance(&bad, create, &operation);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("instance.tags[no-slash]"), std::string::npos) << s.error_message();
  create.mutable_instance()->mutable_tags()->clear();
  (*create.mutable_instance()->mutable_tags())["123/env"] = "prod";
  grpc::ClientContext good;
  ASSERT_TRUE(instances_->CreateInstance(&good, create, &operation).ok());
  admin::GetInstanceRequest get;
  get.set_name(InstanceName("tagged-inst"));
  admin::Instance made;
  grpc::ClientContext context;
  ASSERT_TRUE(instances_->GetInstance(&context, get, &made).ok());
  EXPECT_EQ(made.edition(), admin::Instance::ENTERPRISE_PLUS);
  EXPECT_TRUE(made.tags().empty());  // input only
}

// A Data Boost app profile reads only: every write through it is refused,
// naming the profile, and writes nothing; reads go on. (Production's
// words; the status code is lbt's choice, README's differences table.)
TEST_F(RequestTargetTest, ADataBoostAppProfileReadsButDoesNotWrite) {
  grpc::Status made = CreateDataBoostProfile();
  ASSERT_TRUE(made.ok()) << made.error_message();
  ASSERT_TRUE(MutateRow(Table("one-inst"), "").ok());
  grpc::Status s = MutateRow(Table("one-inst"), "boost");
  EXPECT_EQ(s.error_code(), StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(s.error_message(),
            "You can't send write or delete requests with Data Boost: app profile "
            "projects/p/instances/one-inst/appProfiles/boost is read-only (data_boost_isolation_read_only)");
  EXPECT_EQ(CheckAndMutateRow(Table("one-inst"), "boost").error_code(), StatusCode::FAILED_PRECONDITION);
  {
    v2::MutateRowsRequest request;
    request.set_table_name(Table("one-inst"));
    request.set_app_profile_id("boost");
    auto* entry = request.add_entries();
    entry->set_row_key("other");
    *entry->add_mutations() = proto::ToProto(Mutation::SetCell("cf", "q", "v"));
    grpc::ClientContext context;
    auto stream = data_stub_->MutateRows(&context, request);
    v2::MutateRowsResponse response;
    while (stream->Read(&response)) {
    }
    EXPECT_EQ(stream->Finish().error_code(), StatusCode::FAILED_PRECONDITION);
  }
  // Reads through it are served, and see only the write made without it.
  v2::ReadRowsRequest read;
  read.set_table_name(Table("one-inst"));
  read.set_app_profile_id("boost");
  grpc::ClientContext context;
  auto stream = data_stub_->ReadRows(&context, read);
  v2::ReadRowsResponse response;
  std::vector<std::string> keys;
  while (stream->Read(&response)) {
    for (const auto& chunk : response.chunks()) {
      if (!chunk.row_key().empty()) keys.push_back(chunk.row_key());
    }
  }
  ASSERT_TRUE(stream->Finish().ok());
  EXPECT_EQ(keys, std::vector<std::string>{"r"});
}

TEST_F(RequestTargetTest, ChangesNameTheFirstClusterOfTheirInstance) {
  ASSERT_TRUE(MutateRow(Table("two-inst"), "").ok());
  v2::ReadChangeStreamRequest request;
  request.set_table_name(Table("two-inst"));
  *request.mutable_partition() = proto::ToProto(RowRange::All());
  *request.mutable_start_time() =
      google::protobuf::util::TimeUtil::GetCurrentTime() - google::protobuf::util::TimeUtil::SecondsToDuration(60);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  auto stream = data_stub_->ReadChangeStream(&context, request);
  std::string source;
  for (v2::ReadChangeStreamResponse response; source.empty() && stream->Read(&response);) {
    if (response.has_data_change()) source = response.data_change().source_cluster_id();
  }
  context.TryCancel();
  stream->Finish();
  EXPECT_EQ(source, "two-inst-c1");
}

}  // namespace
}  // namespace lbt::testing
