// The catalog as users see it through Database: tables and families,
// persisted across reopen and shared between handles.

#include "storage/catalog.h"

#include <gtest/gtest.h>

#include "storage/database.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::TempDir;

std::unique_ptr<Database> OpenDb(const std::string& dir) {
  auto db = Database::Open(dir);
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  return db.ok() ? std::move(db).value() : nullptr;
}

TEST(CatalogTest, TablesAndFamiliesSurviveReopen) {
  TempDir dir;
  {
    auto db = OpenDb(dir.path());
    ASSERT_OK(db->CreateTable("b", {{"cf", GcRule::MaxVersions(2), ValueType::kBytes}}));
    ASSERT_OK(db->CreateTable("a"));
    ASSERT_OK(db->ModifyFamilies("a", {FamilyChange::Create({"sum", GcRule::Never(), ValueType::kIntSum})}));
    ASSERT_OK(db->ModifyFamilies(
        "a", {FamilyChange::Create(
                 {"ts", GcRule::Union({GcRule::MaxAge(86'400'000'000), GcRule::MaxVersions(1)}), ValueType::kBytes})}));
  }
  auto db = OpenDb(dir.path());
  ASSERT_OK_AND_ASSIGN(auto tables, db->ListTables());
  EXPECT_EQ(tables, (std::vector<std::string>{"a", "b"}));
  ASSERT_OK_AND_ASSIGN(TableSpec a, db->GetTable("a"));
  ASSERT_EQ(a.families.size(), 2u);
  EXPECT_EQ(a.families.at("sum").value_type, ValueType::kIntSum);
  EXPECT_EQ(a.families.at("ts").gc_rule, GcRule::Union({GcRule::MaxAge(86'400'000'000), GcRule::MaxVersions(1)}));
  ASSERT_OK_AND_ASSIGN(TableSpec b, db->GetTable("b"));
  EXPECT_EQ(b.families.at("cf").gc_rule, GcRule::MaxVersions(2));
}

TEST(CatalogTest, ErrorsNameTheProblem) {
  TempDir dir;
  auto db = OpenDb(dir.path());
  ASSERT_OK(db->CreateTable("t", {{"cf", {}, ValueType::kBytes}}));
  Status s = db->CreateTable("t");
  EXPECT_TRUE(s.IsAlreadyExists());
  EXPECT_NE(s.message().find("'t'"), std::string::npos);
  s = db->GetTable("nope").status();
  EXPECT_TRUE(s.IsNotFound());
  EXPECT_NE(s.message().find("'nope'"), std::string::npos);
  EXPECT_TRUE(db->ModifyFamilies("t", {FamilyChange::Create({"cf", {}, ValueType::kBytes})}).IsAlreadyExists());
  s = db->ModifyFamilies("t", {FamilyChange::Drop("zz")});
  EXPECT_TRUE(s.IsNotFound());
  EXPECT_NE(s.message().find("cf"), std::string::npos) << "lists the existing families";
  EXPECT_TRUE(db->CreateTable("bad name").IsInvalidArgument());
  EXPECT_TRUE(db->CreateTable("t2", {{"a", {}, ValueType::kBytes}, {"a", {}, ValueType::kBytes}}).IsInvalidArgument());
  EXPECT_TRUE(db->CreateTable("t3", {{"a", GcRule::MaxVersions(0), ValueType::kBytes}}).IsInvalidArgument());
  // Failed calls changed nothing.
  ASSERT_OK_AND_ASSIGN(auto tables, db->ListTables());
  EXPECT_EQ(tables, std::vector<std::string>{"t"});
}

TEST(CatalogTest, ASecondHandleSeesSchemaChanges) {
  TempDir dir;
  auto first = OpenDb(dir.path());
  auto second = OpenDb(dir.path());
  ASSERT_OK_AND_ASSIGN(auto before, second->ListTables());
  EXPECT_TRUE(before.empty());
  ASSERT_OK(first->CreateTable("t", {{"cf", {}, ValueType::kBytes}}));
  ASSERT_OK_AND_ASSIGN(auto after, second->ListTables());
  EXPECT_EQ(after, std::vector<std::string>{"t"});
  ASSERT_OK(first->ModifyFamilies("t", {FamilyChange::SetGcRule("cf", GcRule::MaxVersions(3))}));
  ASSERT_OK_AND_ASSIGN(TableSpec spec, second->GetTable("t"));
  EXPECT_EQ(spec.families.at("cf").gc_rule, GcRule::MaxVersions(3));
}

TEST(CatalogTest, StringValueTypesSurviveReopenAndKeepCells) {
  TempDir dir;
  {
    auto db = OpenDb(dir.path());
    ASSERT_OK(db->CreateTable("t", {{"cf", {}, ValueType::kBytes}, {"n", {}, ValueType::kIntSum}}));
    ASSERT_OK(db->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "hello", 1000)}));
    ASSERT_OK(db->ModifyFamilies("t", {FamilyChange::SetValueType("cf", ValueType::kStringUtf8Raw)}));
    Status refused = db->ModifyFamilies("t", {FamilyChange::SetValueType("n", ValueType::kString)});
    EXPECT_EQ(refused.code(), Status::Code::kInvalidArgument);
    EXPECT_TRUE(db->ModifyFamilies("t", {FamilyChange::SetValueType("ghost", ValueType::kString)}).IsNotFound());
  }
  auto db = OpenDb(dir.path());
  ASSERT_OK_AND_ASSIGN(TableSpec spec, db->GetTable("t"));
  EXPECT_EQ(spec.families.at("cf").value_type, ValueType::kString) << "the deprecated encoding is stored as bytes";
  EXPECT_EQ(spec.families.at("n").value_type, ValueType::kIntSum);
  auto rows = testing::ReadAll(db.get(), "t");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].cells[0].value, "hello");
}

TEST(CatalogTest, DroppedTableNamesCanBeReusedWithoutOldData) {
  TempDir dir;
  auto db = OpenDb(dir.path());
  ASSERT_OK(db->CreateTable("t", {{"cf", {}, ValueType::kBytes}}));
  ASSERT_OK(db->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "old", 1000)}));
  ASSERT_OK(db->DeleteTable("t"));
  EXPECT_TRUE(db->DeleteTable("t").IsNotFound());
  ASSERT_OK(db->CreateTable("t", {{"cf", {}, ValueType::kBytes}}));
  EXPECT_TRUE(testing::ReadAll(db.get(), "t").empty());
  ASSERT_OK_AND_ASSIGN(int64_t n, db->CountRows("t"));
  EXPECT_EQ(n, 0);
}

// The catalog entry's newer fields (authorized views with binary prefixes
// and qualifiers, the automated backup policy) round-trip; an entry written
// before they existed, as an older release wrote it, reads as none of them.
// They need no format version: older entries simply lack them.
TEST(CatalogTest, ViewsAndBackupPolicyRoundTripAndOlderEntriesHaveNone) {
  TableSpec spec;
  spec.name = "t";
  spec.id = 7;
  AuthorizedViewSpec view;
  view.id = "v";
  view.subset.row_prefixes = {std::string("a\xff\0b", 4), ""};
  view.subset.family_subsets["cf"] = FamilySubset{{std::string("\x01q", 2)}, {"pub"}};
  view.deletion_protection = true;
  view.etag = "3";
  spec.authorized_views = {view};
  spec.view_etags_issued = 3;
  spec.automated_backup_policy = AutomatedBackupPolicy{7 * 86400000000LL, 86400000000LL};
  TableSpec back;
  ASSERT_TRUE(DecodeTableSpec("t", EncodeTableSpec(spec), &back).ok());
  ASSERT_EQ(back.authorized_views.size(), 1u);
  EXPECT_EQ(back.authorized_views[0].subset, view.subset);
  EXPECT_TRUE(back.authorized_views[0].deletion_protection);
  EXPECT_EQ(back.authorized_views[0].etag, "3");
  EXPECT_EQ(back.view_etags_issued, 3);
  EXPECT_EQ(back.automated_backup_policy, spec.automated_backup_policy);

  TableSpec older;
  ASSERT_TRUE(DecodeTableSpec("t", R"({"id":7,"next_family_id":1,"families":[]})", &older).ok());
  EXPECT_TRUE(older.authorized_views.empty());
  EXPECT_EQ(older.view_etags_issued, 0);
  EXPECT_FALSE(older.automated_backup_policy.has_value());
  EXPECT_FALSE(DecodeTableSpec("t", R"({"id":7,"families":[],"authorized_views":[{"id":"v"}]})", &older).ok())
      << "a malformed view is corruption, not an empty view";
}

// The settings added to a table's entry after format 2 (granularity, a
// deletion kept for an undelete, tiered storage, a row-key schema) are
// optional fields: they round-trip, an entry of an older release reads as
// a MILLIS table with none of them, and a malformed one is corruption.
TEST(CatalogTest, NewerTableSettingsRoundTripAndOlderEntriesHaveDefaults) {
  TableSpec spec;
  spec.name = "t";
  spec.id = 7;
  spec.granularity = TimestampGranularity::kMicros;
  spec.deleted_micros = 1795694220000000;
  spec.tiered_storage = TieredStorage{kMinInfrequentAccessAgeMicros};
  spec.row_key_schema =
      RowKeySchema{.fields = {{"device", RowKeyField::Type::kString},
                              {"ts", RowKeyField::Type::kTimestamp, RowKeyField::IntEncoding::kOrderedCodeBytes}},
                   .encoding = RowKeySchema::Encoding::kDelimitedBytes,
                   .delimiter = std::string("#\0", 2)};
  TableSpec back;
  ASSERT_TRUE(DecodeTableSpec("t", EncodeTableSpec(spec), &back).ok());
  EXPECT_EQ(back.granularity, TimestampGranularity::kMicros);
  EXPECT_EQ(back.deleted_micros, spec.deleted_micros);
  EXPECT_EQ(back.tiered_storage, spec.tiered_storage);
  EXPECT_EQ(back.row_key_schema, spec.row_key_schema);

  TableSpec older;
  ASSERT_TRUE(DecodeTableSpec("t", R"({"id":7,"next_family_id":1,"families":[]})", &older).ok());
  EXPECT_EQ(older.granularity, TimestampGranularity::kMillis);
  EXPECT_FALSE(older.deleted_micros || older.tiered_storage || older.row_key_schema);
  EXPECT_FALSE(DecodeTableSpec("t", R"({"id":7,"families":[],"granularity":"nanos"})", &older).ok());
  EXPECT_FALSE(DecodeTableSpec("t", R"({"id":7,"families":[],"row_key_schema":{"fields":[]}})", &older).ok());
}

// Schema bundles (binary descriptors, kept as base64) and families of a
// bundle's type round-trip; an entry of an older release has none, and a
// bundle whose descriptors are not base64 is corruption.
TEST(CatalogTest, SchemaBundlesAndTypedFamiliesRoundTrip) {
  TableSpec spec;
  spec.name = "t";
  spec.id = 7;
  spec.schema_bundles = {SchemaBundleSpec{"store", std::string("\x0a\x00\xff", 3), "4"}};
  FamilySpec typed{"typed", GcRule::Never(), ValueType::kProto};
  typed.schema_bundle_id = "store";
  typed.type_name = "shop.Order";
  spec.AddFamily(typed);
  TableSpec back;
  ASSERT_TRUE(DecodeTableSpec("t", EncodeTableSpec(spec), &back).ok());
  ASSERT_EQ(back.schema_bundles.size(), 1u);
  EXPECT_EQ(back.schema_bundles[0].id, "store");
  EXPECT_EQ(back.schema_bundles[0].descriptors, spec.schema_bundles[0].descriptors);
  EXPECT_EQ(back.schema_bundles[0].etag, "4");
  const FamilySpec* f = back.FindFamily("typed");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->value_type, ValueType::kProto);
  EXPECT_EQ(f->schema_bundle_id, "store");
  EXPECT_EQ(f->type_name, "shop.Order");

  TableSpec older;
  ASSERT_TRUE(DecodeTableSpec("t", R"({"id":7,"next_family_id":1,"families":[]})", &older).ok());
  EXPECT_TRUE(older.schema_bundles.empty());
  EXPECT_FALSE(DecodeTableSpec(
                   "t", R"({"id":7,"families":[],"schema_bundles":[{"id":"b","etag":"1","descriptors":"!!"}]})", &older)
                   .ok());
}

// EditCatalog changes records and tables in one transaction: all of it,
// or, when the change fails, none of it; a dropped table's cells go with
// it. ReadCatalog sees one snapshot of both.
TEST(CatalogTest, EditCatalogIsAllOrNothing) {
  TempDir dir;
  auto db = OpenDb(dir.path());
  ASSERT_OK(db->CreateTable("t", {{"cf", {}, ValueType::kBytes}}));
  ASSERT_OK(db->MutateRow("t", "r", {Mutation::SetCell("cf", "q", "v", 1000)}));
  Status refused = db->EditCatalog([](CatalogTxn& catalog) -> Status {
    LBT_RETURN_IF_ERROR(catalog.PutRecord("x:1", "one"));
    LBT_RETURN_IF_ERROR(catalog.DropTable("t"));
    return Status::Aborted("changed my mind");
  });
  EXPECT_EQ(refused.code(), Status::Code::kAborted);
  ASSERT_OK_AND_ASSIGN(std::optional<std::string> none, db->ReadRecord("x:1"));
  EXPECT_FALSE(none.has_value());
  EXPECT_EQ(testing::ReadAll(db.get(), "t").size(), 1u);

  ASSERT_OK(db->EditCatalog([](CatalogTxn& catalog) -> Status {
    EXPECT_NE(catalog.FindTable("t"), nullptr);
    LBT_RETURN_IF_ERROR(catalog.PutRecord("x:1", "one"));
    LBT_RETURN_IF_ERROR(catalog.PutRecord("x:2", "two"));
    EXPECT_TRUE(catalog.DropTable("missing").IsNotFound());
    return catalog.DropTable("t");
  }));
  EXPECT_TRUE(db->GetTable("t").status().IsNotFound());
  ASSERT_OK(db->CreateTable("t", {{"cf", {}, ValueType::kBytes}}));
  EXPECT_TRUE(testing::ReadAll(db.get(), "t").empty());

  ASSERT_OK(db->ReadCatalog([](const CatalogTxn& catalog) -> Status {
    EXPECT_EQ(catalog.TableNames(), std::vector<std::string>{"t"});
    LBT_ASSIGN_OR_RETURN(auto records, catalog.Records("x:"));
    EXPECT_EQ(records, (std::vector<std::pair<std::string, std::string>>{{"x:1", "one"}, {"x:2", "two"}}));
    return Status::OK();
  }));
}

}  // namespace
}  // namespace lbt
