// The Table Admin API through gRPC.

#include <google/protobuf/util/time_util.h>

#include <functional>
#include <limits>
#include <optional>

#include "api/materialized_view.h"
#include "tests/server/server_fixture.h"

namespace lbt::testing {
namespace {

using grpc::StatusCode;

class AdminServiceTest : public ServerTest {
 protected:
  grpc::Status Create(const std::string& id, const admin::Table& table, admin::Table* out = nullptr) {
    admin::CreateTableRequest request;
    request.set_parent(kInstance);
    request.set_table_id(id);
    *request.mutable_table() = table;
    admin::Table response;
    grpc::ClientContext context;
    grpc::Status s = admin_->CreateTable(&context, request, &response);
    if (out != nullptr) *out = response;
    return s;
  }

  admin::Table Get(const std::string& id) {
    admin::GetTableRequest request;
    request.set_name(TableName(id));
    admin::Table response;
    grpc::ClientContext context;
    grpc::Status s = admin_->GetTable(&context, request, &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return response;
  }

  grpc::Status Delete(const std::string& id) {
    admin::DeleteTableRequest request;
    request.set_name(TableName(id));
    google::protobuf::Empty response;
    grpc::ClientContext context;
    return admin_->DeleteTable(&context, request, &response);
  }

  grpc::Status Protect(const std::string& id, bool on) {
    admin::UpdateTableRequest request;
    request.mutable_table()->set_name(TableName(id));
    request.mutable_table()->set_deletion_protection(on);
    request.mutable_update_mask()->add_paths("deletion_protection");
    google::longrunning::Operation op;
    grpc::ClientContext context;
    grpc::Status s = admin_->UpdateTable(&context, request, &op);
    if (s.ok()) {
      EXPECT_TRUE(op.done());
    }
    return s;
  }

  // A union of a max age and an intersection of versions and age.
  static admin::GcRule NestedRule() {
    admin::GcRule rule;
    rule.mutable_union_()->add_rules()->mutable_max_age()->set_seconds(86400);
    auto* both = rule.mutable_union_()->add_rules()->mutable_intersection();
    both->add_rules()->set_max_num_versions(2);
    both->add_rules()->mutable_max_age()->set_seconds(3600);
    return rule;
  }
};

TEST_F(AdminServiceTest, CreatesTablesWithNestedRulesAndAggregates) {
  admin::Table table;
  *(*table.mutable_column_families())["cf"].mutable_gc_rule() = NestedRule();
  *(*table.mutable_column_families())["sum"].mutable_value_type() = proto::ToProto(ValueType::kIntSum);
  admin::Table created;
  ASSERT_TRUE(Create("t", table, &created).ok());
  EXPECT_EQ(created.name(), TableName("t"));
  admin::Table got = Get("t");
  ASSERT_EQ(got.column_families_size(), 2);
  EXPECT_EQ(got.column_families().at("cf").gc_rule().SerializeAsString(), NestedRule().SerializeAsString());
  EXPECT_TRUE(got.column_families().at("sum").value_type().aggregate_type().has_sum());
  auto spec = db_->GetTable("t");
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->families.at("sum").value_type, ValueType::kIntSum);
  EXPECT_EQ(Create("t", table).error_code(), StatusCode::ALREADY_EXISTS);
}

// A tiered storage rule (at least 30 days, table.proto) is taken at
// CreateTable, kept across a restart, changed and removed by UpdateTable's
// mask, and refused under 30 days, naming the field.
TEST_F(AdminServiceTest, TieredStorageRulesAreKeptAndChecked) {
  auto with_rule = [](int64_t days) {
    admin::Table table;
    *table.mutable_tiered_storage_config()->mutable_infrequent_access()->mutable_include_if_older_than() =
        google::protobuf::util::TimeUtil::SecondsToDuration(days * 86400);
    return table;
  };
  grpc::Status s = Create("short", with_rule(7));
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("table.tiered_storage_config.infrequent_access.include_if_older_than"),
            std::string::npos)
      << s.error_message();
  ASSERT_TRUE(Create("t", with_rule(45)).ok());
  Restart();
  EXPECT_EQ(Get("t").tiered_storage_config().infrequent_access().include_if_older_than().seconds(), 45 * 86400);
  auto update = [&](const admin::Table& table) {
    admin::UpdateTableRequest request;
    *request.mutable_table() = table;
    request.mutable_table()->set_name(TableName("t"));
    request.mutable_update_mask()->add_paths("tiered_storage_config");
    google::longrunning::Operation op;
    grpc::ClientContext context;
    return admin_->UpdateTable(&context, request, &op);
  };
  ASSERT_TRUE(update(with_rule(90)).ok());
  EXPECT_EQ(Get("t").tiered_storage_config().infrequent_access().include_if_older_than().seconds(), 90 * 86400);
  EXPECT_EQ(update(with_rule(29)).error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Get("t").tiered_storage_config().infrequent_access().include_if_older_than().seconds(), 90 * 86400);
  ASSERT_TRUE(update(admin::Table()).ok());
  EXPECT_FALSE(Get("t").has_tiered_storage_config());
}

// A row-key schema (Table.row_key_schema) is taken at CreateTable, kept
// across a restart and shown; checked as table.proto says (named fields,
// not reserved, no family's name, scalar types with encodings, a singleton
// of one field, a delimiter); UpdateTable sets one on a table without,
// removes one only with ignore_warnings, and changes none. A family cannot
// take a field's name.
TEST_F(AdminServiceTest, RowKeySchemasAreKeptAndChecked) {
  auto schema = [](const std::string& second_field) {
    admin::Type::Struct s;
    auto* device = s.add_fields();
    device->set_field_name("device");
    device->mutable_type()->mutable_string_type()->mutable_encoding()->mutable_utf8_bytes();
    auto* ts = s.add_fields();
    ts->set_field_name(second_field);
    ts->mutable_type()->mutable_int64_type()->mutable_encoding()->mutable_big_endian_bytes();
    s.mutable_encoding()->mutable_delimited_bytes()->set_delimiter("#");
    return s;
  };
  auto table_with = [](const admin::Type::Struct& s) {
    admin::Table table;
    (*table.mutable_column_families())["stats"];
    *table.mutable_row_key_schema() = s;
    return table;
  };
  auto refused = [&](const admin::Type::Struct& s, const std::string& part) {
    grpc::Status st = Create("bad", table_with(s));
    EXPECT_EQ(st.error_code(), StatusCode::INVALID_ARGUMENT) << part;
    EXPECT_NE(st.error_message().find(part), std::string::npos) << st.error_message();
  };
  refused(schema("_key"), "table.row_key_schema.fields[1].field_name");
  refused(schema("stats"), "column family");
  refused(schema("device"), "names two fields");
  admin::Type::Struct singleton = schema("ts");
  singleton.mutable_encoding()->mutable_singleton();
  refused(singleton, "singleton");
  admin::Type::Struct no_delimiter = schema("ts");
  no_delimiter.mutable_encoding()->mutable_delimited_bytes()->clear_delimiter();
  refused(no_delimiter, "delimiter");
  admin::Type::Struct floating = schema("ts");
  floating.mutable_fields(1)->mutable_type()->mutable_float64_type();
  refused(floating, "table.row_key_schema.fields[1].type");

  ASSERT_TRUE(Create("t", table_with(schema("ts"))).ok());
  Restart();
  EXPECT_EQ(Get("t").row_key_schema().SerializeAsString(), schema("ts").SerializeAsString());
  auto update = [&](const std::optional<admin::Type::Struct>& s, bool ignore_warnings) {
    admin::UpdateTableRequest request;
    request.mutable_table()->set_name(TableName("t"));
    if (s) *request.mutable_table()->mutable_row_key_schema() = *s;
    request.mutable_update_mask()->add_paths("row_key_schema");
    request.set_ignore_warnings(ignore_warnings);
    google::longrunning::Operation op;
    grpc::ClientContext context;
    return admin_->UpdateTable(&context, request, &op);
  };
  EXPECT_EQ(update(schema("when"), true).error_code(), StatusCode::INVALID_ARGUMENT) << "no change of a schema";
  EXPECT_EQ(update(std::nullopt, false).error_code(), StatusCode::INVALID_ARGUMENT) << "removal needs the flag";
  EXPECT_TRUE(Get("t").has_row_key_schema());
  ASSERT_TRUE(update(std::nullopt, true).ok());
  EXPECT_FALSE(Get("t").has_row_key_schema());
  ASSERT_TRUE(update(schema("when"), false).ok());
  EXPECT_EQ(Get("t").row_key_schema().fields(1).field_name(), "when");

  admin::ModifyColumnFamiliesRequest modify;
  modify.set_name(TableName("t"));
  auto* m = modify.add_modifications();
  m->set_id("when");
  m->mutable_create();
  admin::Table table;
  grpc::ClientContext context;
  grpc::Status st = admin_->ModifyColumnFamilies(&context, modify, &table);
  EXPECT_EQ(st.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("row key schema"), std::string::npos) << st.error_message();
}

TEST_F(AdminServiceTest, ListsTablesInPages) {
  for (const char* id : {"a", "b", "c", "d", "e"}) ASSERT_TRUE(Create(id, {}).ok());
  std::vector<std::string> names;
  std::string token;
  int pages = 0;
  do {
    admin::ListTablesRequest request;
    request.set_parent(kInstance);
    request.set_page_size(2);
    request.set_page_token(token);
    admin::ListTablesResponse response;
    grpc::ClientContext context;
    ASSERT_TRUE(admin_->ListTables(&context, request, &response).ok());
    for (const auto& t : response.tables()) names.push_back(t.name());
    token = response.next_page_token();
    ++pages;
  } while (!token.empty());
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(names,
            (std::vector<std::string>{TableName("a"), TableName("b"), TableName("c"), TableName("d"), TableName("e")}));
}

TEST_F(AdminServiceTest, DeletionProtectionRefusesDeletes) {
  admin::Table table;
  (*table.mutable_column_families())["cf"];
  table.set_deletion_protection(true);
  ASSERT_TRUE(Create("t", table).ok());
  EXPECT_TRUE(Get("t").deletion_protection());
  EXPECT_EQ(Delete("t").error_code(), StatusCode::FAILED_PRECONDITION);
  ASSERT_TRUE(Protect("t", false).ok());
  EXPECT_TRUE(Delete("t").ok());
  EXPECT_EQ(Delete("t").error_code(), StatusCode::NOT_FOUND);
}

// UpdateTable's automated_backup_policy, whole and by field, with
// production's rules: a retention of 3 to 90 days, a frequency of 24 hours.
TEST_F(AdminServiceTest, UpdatesTheAutomatedBackupPolicy) {
  ASSERT_TRUE(Create("t", admin::Table()).ok());
  auto update = [&](int64_t retention_days, std::vector<std::string> paths) {
    admin::UpdateTableRequest request;
    request.mutable_table()->set_name(TableName("t"));
    if (retention_days > 0) {
      request.mutable_table()->mutable_automated_backup_policy()->mutable_retention_period()->set_seconds(
          retention_days * 86400);
    }
    for (const std::string& path : paths) request.mutable_update_mask()->add_paths(path);
    google::longrunning::Operation operation;
    grpc::ClientContext context;
    return admin_->UpdateTable(&context, request, &operation);
  };
  EXPECT_EQ(update(1, {"automated_backup_policy"}).error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_FALSE(Get("t").has_automated_backup_policy()) << "a refused update changes nothing";
  ASSERT_TRUE(update(7, {"automated_backup_policy"}).ok());
  admin::Table got = Get("t");
  EXPECT_EQ(got.automated_backup_policy().retention_period().seconds(), 7 * 86400);
  EXPECT_EQ(got.automated_backup_policy().frequency().seconds(), 86400) << "an unset frequency is 24 hours";
  ASSERT_TRUE(update(30, {"automated_backup_policy.retention_period"}).ok());
  EXPECT_EQ(Get("t").automated_backup_policy().retention_period().seconds(), 30 * 86400);
  ASSERT_TRUE(update(0, {"automated_backup_policy"}).ok());  // the mask names it, the table has none: off
  EXPECT_FALSE(Get("t").has_automated_backup_policy());
  EXPECT_EQ(update(7, {"column_families"}).error_code(), StatusCode::INVALID_ARGUMENT);
}

// A refused UpdateTable changes nothing, whichever field of its mask is
// refused: here the change stream, which a materialized view's source
// keeps, beside an automated backup policy that alone would be taken.
class LocalAdminServiceTest : public AdminServiceTest {
 protected:
  void SetUp() override {
    serve_local_ = true;
    Start();
  }
};

TEST_F(LocalAdminServiceTest, AnUpdateRefusedInOneFieldChangesNoOther) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Bigtable> tables, local_->instance_admin()->OpenTables({"p", "i"}));
  ASSERT_OK(tables->CreateTable("src", {{"m"}}, {}, false));
  MaterializedViewSpec view{.id = "v", .query = "SELECT _key FROM src ORDER BY _key", .source_table = "src"};
  ASSERT_OK(tables->instance_admin()->CreateMaterializedView(tables->instance(), view).status());
  admin::UpdateTableRequest request;
  request.mutable_table()->set_name(TableName("src"));
  request.mutable_table()->mutable_automated_backup_policy()->mutable_retention_period()->set_seconds(7 * 86400);
  request.mutable_update_mask()->add_paths("automated_backup_policy");
  request.mutable_update_mask()->add_paths("change_stream_config");  // no config: the stream off
  request.mutable_update_mask()->add_paths("deletion_protection");
  request.mutable_table()->set_deletion_protection(true);
  google::longrunning::Operation operation;
  grpc::ClientContext context;
  EXPECT_EQ(admin_->UpdateTable(&context, request, &operation).error_code(), StatusCode::FAILED_PRECONDITION);
  admin::Table got = Get("src");
  EXPECT_FALSE(got.has_automated_backup_policy());
  EXPECT_FALSE(got.deletion_protection());
  EXPECT_TRUE(got.has_change_stream_config());
}

// A duration past protobuf's range once overflowed to zero: a retention
// of -2^63 seconds turned a change stream off, and a frequency of it was
// taken. Each is INVALID_ARGUMENT naming the field, and nothing changes.
TEST_F(AdminServiceTest, DurationsPastTheirRangeAreRefused) {
  admin::Table streamed;
  streamed.mutable_change_stream_config()->mutable_retention_period()->set_seconds(86400);
  ASSERT_TRUE(Create("t", streamed).ok());
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  auto update = [&](const std::string& path, const std::function<void(admin::Table*)>& set) {
    admin::UpdateTableRequest request;
    request.mutable_table()->set_name(TableName("t"));
    set(request.mutable_table());
    request.mutable_update_mask()->add_paths(path);
    google::longrunning::Operation operation;
    grpc::ClientContext context;
    return admin_->UpdateTable(&context, request, &operation);
  };
  grpc::Status s = update("change_stream_config", [&](admin::Table* t) {
    t->mutable_change_stream_config()->mutable_retention_period()->set_seconds(kMin);
  });
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("change_stream_config.retention_period"), std::string::npos) << s.error_message();
  EXPECT_EQ(Get("t").change_stream_config().retention_period().seconds(), 86400);
  s = update("automated_backup_policy", [&](admin::Table* t) {
    t->mutable_automated_backup_policy()->mutable_retention_period()->set_seconds(7 * 86400);
    t->mutable_automated_backup_policy()->mutable_frequency()->set_seconds(kMin);
  });
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("automated_backup_policy.frequency"), std::string::npos) << s.error_message();
  EXPECT_FALSE(Get("t").has_automated_backup_policy());
  admin::Table overflowing;
  overflowing.mutable_change_stream_config()->mutable_retention_period()->set_seconds(kMin);
  EXPECT_EQ(Create("u", overflowing).error_code(), StatusCode::INVALID_ARGUMENT);
}

TEST_F(AdminServiceTest, ModifiesFamiliesAllOrNothing) {
  CreateTable("t", {"cf"});
  auto modify = [&](std::vector<admin::ModifyColumnFamiliesRequest::Modification> mods) {
    admin::ModifyColumnFamiliesRequest request;
    request.set_name(TableName("t"));
    for (auto& m : mods) *request.add_modifications() = m;
    admin::Table response;
    grpc::ClientContext context;
    return admin_->ModifyColumnFamilies(&context, request, &response);
  };
  admin::ModifyColumnFamiliesRequest::Modification create, update, drop, drop_missing;
  create.set_id("new");
  create.mutable_create()->mutable_gc_rule()->set_max_num_versions(1);
  update.set_id("cf");
  *update.mutable_update()->mutable_gc_rule() = NestedRule();
  update.mutable_update_mask()->add_paths("gc_rule");
  drop.set_id("cf");
  drop.set_drop(true);
  drop_missing.set_id("ghost");
  drop_missing.set_drop(true);

  const std::string before = Dump();
  EXPECT_EQ(modify({create, drop_missing}).error_code(), StatusCode::NOT_FOUND);
  EXPECT_EQ(Dump(), before) << "a request that fails part way changes nothing";
  ASSERT_TRUE(modify({create, update}).ok());
  admin::Table got = Get("t");
  EXPECT_EQ(got.column_families().at("new").gc_rule().max_num_versions(), 1);
  EXPECT_TRUE(got.column_families().at("cf").gc_rule().has_union_());
  ASSERT_TRUE(modify({drop}).ok());
  EXPECT_EQ(Get("t").column_families_size(), 1);
}

TEST_F(AdminServiceTest, UpdatesValueTypesBetweenBytesAndString) {
  admin::Table table;
  (*table.mutable_column_families())["cf"];
  *(*table.mutable_column_families())["sum"].mutable_value_type() = proto::ToProto(ValueType::kIntSum);
  ASSERT_TRUE(Create("t", table).ok());
  auto set_type = [&](const std::string& family, ValueType type, bool with_mask = true) {
    admin::ModifyColumnFamiliesRequest request;
    request.set_name(TableName("t"));
    auto* m = request.add_modifications();
    m->set_id(family);
    *m->mutable_update()->mutable_value_type() = proto::ToProto(type);
    if (with_mask) m->mutable_update_mask()->add_paths("value_type");
    admin::Table response;
    grpc::ClientContext context;
    return admin_->ModifyColumnFamilies(&context, request, &response);
  };
  EXPECT_TRUE(set_type("cf", ValueType::kString, /*with_mask=*/false).ok());
  EXPECT_FALSE(Get("t").column_families().at("cf").has_value_type()) << "without a mask an update changes gc_rule only";
  // cbt sends the deprecated encoding; Bigtable keeps it as UTF-8 bytes.
  ASSERT_TRUE(set_type("cf", ValueType::kStringUtf8Raw).ok());
  EXPECT_TRUE(Get("t").column_families().at("cf").value_type().string_type().encoding().has_utf8_bytes());

  const std::string before = Dump();
  grpc::Status to_aggregate = set_type("cf", ValueType::kIntSum);
  EXPECT_EQ(to_aggregate.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(to_aggregate.error_message().find("modifications[0].update.value_type"), std::string::npos)
      << to_aggregate.error_message();
  EXPECT_EQ(set_type("sum", ValueType::kString).error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Dump(), before);
  ASSERT_TRUE(set_type("cf", ValueType::kBytes).ok());
  EXPECT_FALSE(Get("t").column_families().at("cf").has_value_type());
}

TEST_F(AdminServiceTest, DropsRowRanges) {
  CreateTable("t", {"cf"});
  for (const char* key : {"user#1", "user#2", "item#1"}) {
    ASSERT_TRUE(MutateRow("t", key, {Mutation::SetCell("cf", "q", "v", Ms(1))}).ok());
  }
  auto drop = [&](admin::DropRowRangeRequest request) {
    request.set_name(TableName("t"));
    google::protobuf::Empty response;
    grpc::ClientContext context;
    return admin_->DropRowRange(&context, request, &response);
  };
  admin::DropRowRangeRequest by_prefix;
  by_prefix.set_row_key_prefix("user#");
  ASSERT_TRUE(drop(by_prefix).ok());
  EXPECT_EQ(RowKeys(ReadAll(db_.get(), "t")), (std::vector<std::string>{"item#1"}));
  admin::DropRowRangeRequest all;
  all.set_delete_all_data_from_table(true);
  ASSERT_TRUE(drop(all).ok());
  EXPECT_TRUE(ReadAll(db_.get(), "t").empty());
}

TEST_F(AdminServiceTest, IsAlwaysConsistent) {
  CreateTable("t", {"cf"});
  admin::GenerateConsistencyTokenRequest generate;
  generate.set_name(TableName("t"));
  admin::GenerateConsistencyTokenResponse token;
  grpc::ClientContext c1;
  ASSERT_TRUE(admin_->GenerateConsistencyToken(&c1, generate, &token).ok());
  admin::CheckConsistencyRequest check;
  check.set_name(TableName("t"));
  check.set_consistency_token(token.consistency_token());
  admin::CheckConsistencyResponse consistent;
  grpc::ClientContext c2;
  ASSERT_TRUE(admin_->CheckConsistency(&c2, check, &consistent).ok());
  EXPECT_TRUE(consistent.consistent());
}

TEST_F(AdminServiceTest, BadRequestsNameTheField) {
  admin::Table table;
  (*table.mutable_column_families())["bad name!"];
  grpc::Status s = Create("t", table);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  admin::Table zero_versions;
  (*zero_versions.mutable_column_families())["cf"].mutable_gc_rule()->set_max_num_versions(0);
  s = Create("t", zero_versions);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("max_num_versions"), std::string::npos) << s.error_message();
  admin::CreateTableRequest no_parent;
  no_parent.set_table_id("t");
  admin::Table response;
  grpc::ClientContext context;
  s = admin_->CreateTable(&context, no_parent, &response);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("parent"), std::string::npos);
  EXPECT_EQ(Dump(), "");
}

TEST_F(AdminServiceTest, RpcsLbtDoesNotServeSayWhich) {
  admin::SnapshotTableRequest request;
  google::longrunning::Operation response;
  grpc::ClientContext context;
  grpc::Status s = admin_->SnapshotTable(&context, request, &response);
  EXPECT_EQ(s.error_code(), StatusCode::UNIMPLEMENTED);
  EXPECT_NE(s.error_message().find("SnapshotTable"), std::string::npos);
}

// Served over a bare database, which has no instances to keep backups in.
TEST_F(AdminServiceTest, BackupsNeedInstances) {
  admin::CreateBackupRequest request;
  google::longrunning::Operation response;
  grpc::ClientContext context;
  grpc::Status s = admin_->CreateBackup(&context, request, &response);
  EXPECT_EQ(s.error_code(), StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find("keeps no backups"), std::string::npos) << s.error_message();
}

}  // namespace
}  // namespace lbt::testing
