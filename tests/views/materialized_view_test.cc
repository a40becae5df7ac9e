// Materialized views over a local database: after any workload, once the
// maintainer has caught up, a view holds what its query returns run
// directly on the source table; backfill; ReadRows' layout; production's
// refusals. Each test runs with writes straight to LMDB and through the
// write-ahead log (as lbt serve writes).

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api/instance.h"
#include "api/instance_admin.h"
#include "local/local_bigtable.h"
#include "sql/materialized_view.h"
#include "sql/query.h"
#include "tests/test_util.h"
#include "views/materialized_view_maintainer.h"

namespace lbt::views {
namespace {

using sql::CheckMaterializedViewQuery;
using sql::Prepare;
using sql::PreparedQuery;
using sql::ResultStream;
using sql::Values;

// Every aggregate view counts its rows, so no group is left out for having
// only NULL aggregates, and the direct query's groups are the view's.
constexpr const char* kByDevice =
    "SELECT SPLIT(CAST(_key AS STRING), '#')[SAFE_OFFSET(0)] AS device, COUNT(*) AS readings, "
    "SUM(CAST(CAST(m['temp'] AS STRING) AS INT64)) AS total, MIN(CAST(m['temp'] AS STRING)) AS low, "
    "MAX(CAST(CAST(m['temp'] AS STRING) AS INT64)) AS high, AVG(CAST(CAST(m['temp'] AS STRING) AS INT64)) AS mean, "
    "COUNT(m['note']) AS notes FROM sensors WHERE m['temp'] IS NOT NULL GROUP BY device";
constexpr const char* kByNote =
    "SELECT CAST(m['note'] AS STRING) AS note, _key AS reading, CAST(m['temp'] AS STRING) AS temp FROM sensors "
    "WHERE m['note'] IS NOT NULL ORDER BY note, reading";
constexpr const char* kTotal = "SELECT '*' AS _key, COUNT(*) AS n FROM sensors GROUP BY _key";

// A random write, delete or drop among a few devices and notes.
void RandomSensorChange(Bigtable* bigtable, std::mt19937& rng) {
  const std::string devices[] = {"dev1", "dev2", "dev3", "dev#4"};
  const std::string row = devices[rng() % 4] + "#" + std::to_string(rng() % 12);
  const std::string notes[] = {"hot", "cold", "ok", std::string("n\0ul", 4)};
  switch (rng() % 9) {
    case 0:
    case 1:
    case 2:
      ASSERT_OK(bigtable->MutateRow(
          "sensors", row, {Mutation::SetCell("m", "temp", std::to_string(static_cast<int>(rng() % 60) - 20))}));
      break;
    case 3: ASSERT_OK(bigtable->MutateRow("sensors", row, {Mutation::SetCell("m", "note", notes[rng() % 4])})); break;
    case 4: ASSERT_OK(bigtable->MutateRow("sensors", row, {Mutation::DeleteFromColumn("m", "note")})); break;
    case 5: ASSERT_OK(bigtable->MutateRow("sensors", row, {Mutation::DeleteFromRow()})); break;
    case 6:
      ASSERT_OK(bigtable
                    ->MutateRows("sensors", {{row, {Mutation::SetCell("m", "temp", "7")}},
                                             {row + "x", {Mutation::SetCell("m", "note", "ok")}}})
                    .status());
      break;
    case 7:
      ASSERT_OK(bigtable
                    ->CheckAndMutateRow("sensors", row, std::nullopt, {Mutation::DeleteFromColumn("m", "temp")},
                                        {Mutation::SetCell("m", "temp", "1")})
                    .status());
      break;
    default:
      if (rng() % 4 == 0) ASSERT_OK(bigtable->DropRowRange("sensors", devices[rng() % 4]));
      break;
  }
}

// Rows of a query as "a|b|c", sorted.
std::vector<std::string> SortedRows(Bigtable* bigtable, const std::string& sql) {
  Result<std::unique_ptr<PreparedQuery>> q = Prepare(bigtable, sql, {});
  EXPECT_TRUE(q.ok()) << sql << ": " << q.status().ToString();
  if (!q.ok()) return {};
  Result<std::unique_ptr<ResultStream>> stream = (*q)->Execute({});
  EXPECT_TRUE(stream.ok()) << stream.status().ToString();
  if (!stream.ok()) return {};
  std::vector<std::string> out;
  for (Values row; (*stream)->Next(&row);) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) line += (i ? "|" : "") + row[i].ToText();
    out.push_back(line);
  }
  EXPECT_OK((*stream)->status());
  std::sort(out.begin(), out.end());
  return out;
}

Status CreateSensorView(Bigtable* bigtable, const std::string& id, const std::string& query) {
  MaterializedViewSpec view;
  view.id = id;
  view.query = query;
  LBT_ASSIGN_OR_RETURN(view.source_table, CheckMaterializedViewQuery(bigtable, query));
  return bigtable->instance_admin()->CreateMaterializedView(bigtable->instance(), view).status();
}

class MaterializedViewTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    DatabaseOptions options;
    options.log_writes = GetParam();
    bigtable_ = std::make_unique<LocalBigtable>(dir_.Sub("db"), options);
    ASSERT_OK(bigtable_->CreateTable("sensors", {{"m", GcRule::Never(), ValueType::kBytes}}, {}, false));
    maintainer_ = std::make_unique<MaterializedViewMaintainer>(bigtable_.get());
  }
  void TearDown() override { maintainer_.reset(); }

  Status CreateView(const std::string& id, const std::string& query) {
    return CreateSensorView(bigtable_.get(), id, query);
  }

  void Put(const std::string& row, const std::string& column, const std::string& value) {
    ASSERT_OK(bigtable_->MutateRow("sensors", row, {Mutation::SetCell("m", column, value)}));
  }

  // The query's rows as "a|b|c", sorted.
  std::vector<std::string> Rows(const std::string& sql) { return SortedRows(bigtable_.get(), sql); }

  // The view's rows equal its query run on the source.
  void ExpectCaughtUp(const std::string& view, const std::string& query) {
    ASSERT_OK(maintainer_->CatchUp());
    EXPECT_EQ(Rows("SELECT * FROM " + view), Rows(query)) << view;
  }

  void RandomChange(std::mt19937& rng) { RandomSensorChange(bigtable_.get(), rng); }
  // A second instance of the database, with a "sensors" table of its own.
  Result<std::unique_ptr<Bigtable>> InstanceWithSensors(const InstanceName& name, const std::string& cluster_id) {
    InstanceSpec spec;
    spec.name = name;
    spec.display_name = name.instance;
    ClusterSpec cluster;
    cluster.id = cluster_id;
    cluster.location = "projects/" + name.project + "/locations/us-east1-b";
    cluster.serve_nodes = 1;
    spec.clusters.push_back(cluster);
    LBT_RETURN_IF_ERROR(bigtable_->instance_admin()->CreateInstance(spec));
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Bigtable> tables, bigtable_->instance_admin()->OpenTables(name));
    LBT_RETURN_IF_ERROR(tables->CreateTable("sensors", {{"m", GcRule::Never(), ValueType::kBytes}}, {}, false));
    return tables;
  }

  testing::TempDir dir_;
  std::unique_ptr<LocalBigtable> bigtable_;
  std::unique_ptr<MaterializedViewMaintainer> maintainer_;
};

TEST_P(MaterializedViewTest, StaysEqualToItsQueryThroughARandomWorkload) {
  ASSERT_OK(CreateView("by_device", kByDevice));
  ASSERT_OK(CreateView("by_note", kByNote));
  ASSERT_OK(CreateView("total", kTotal));
  std::mt19937 rng(29);
  for (int round = 0; round < 12; ++round) {
    for (int i = 0; i < 40; ++i) RandomChange(rng);
    if (round % 3 == 2) continue;  // sometimes two rounds in one pass
    ExpectCaughtUp("by_device", kByDevice);
    ExpectCaughtUp("by_note", kByNote);
    ExpectCaughtUp("total", kTotal);
  }
  ExpectCaughtUp("by_device", kByDevice);
  ExpectCaughtUp("by_note", kByNote);
  EXPECT_FALSE(Rows("SELECT * FROM by_device").empty());
  EXPECT_FALSE(Rows("SELECT * FROM by_note").empty());
  // A query over the view filters and orders as over a table.
  EXPECT_EQ(Rows("SELECT device, readings FROM by_device WHERE device = 'dev1'"),
            Rows("SELECT SPLIT(CAST(_key AS STRING), '#')[SAFE_OFFSET(0)] AS device, COUNT(*) AS readings FROM "
                 "sensors WHERE m['temp'] IS NOT NULL AND STARTS_WITH(_key, b'dev1#') GROUP BY device"));
}

TEST_P(MaterializedViewTest, BackfillsFromTheRowsAlreadyThere) {
  std::mt19937 rng(7);
  for (int i = 0; i < 300; ++i) RandomChange(rng);
  ASSERT_OK(CreateView("by_device", kByDevice));
  ASSERT_OK(CreateView("by_note", kByNote));
  // Until its first build is done, a view cannot be read (production's
  // FAILED_PRECONDITION).
  Result<std::unique_ptr<RowStream>> early = bigtable_->ReadMaterializedView("by_device", {});
  EXPECT_EQ(early.status().code(), Status::Code::kFailedPrecondition) << early.status().ToString();
  ASSERT_OK_AND_ASSIGN(MaterializedViewSpec before,
                       bigtable_->instance_admin()->GetMaterializedView(bigtable_->instance(), "by_device"));
  EXPECT_FALSE(before.backfilled);
  ExpectCaughtUp("by_device", kByDevice);
  ExpectCaughtUp("by_note", kByNote);
  ASSERT_OK_AND_ASSIGN(MaterializedViewSpec after,
                       bigtable_->instance_admin()->GetMaterializedView(bigtable_->instance(), "by_device"));
  EXPECT_TRUE(after.backfilled);
  EXPECT_FALSE(Rows("SELECT * FROM by_device").empty());
  // The source's change stream feeds the view: turned on with it.
  ASSERT_OK_AND_ASSIGN(TableSpec spec, bigtable_->GetTable("sensors"));
  EXPECT_TRUE(spec.change_stream.has_value());
}

// A pass redone from an older token (a pass cut short by a crash is redone
// so) changes nothing: every step is idempotent.
TEST_P(MaterializedViewTest, ReplayingChangesAgainChangesNothing) {
  ASSERT_OK(CreateView("by_device", kByDevice));
  ASSERT_OK(CreateView("by_note", kByNote));
  std::mt19937 rng(11);
  for (int i = 0; i < 50; ++i) RandomChange(rng);
  ASSERT_OK(maintainer_->CatchUp());
  std::map<std::string, std::optional<Row>> first;  // each view's position then
  for (const char* view : {"by_device", "by_note"}) {
    ASSERT_OK_AND_ASSIGN(auto storage, bigtable_->local()->OpenMaterializedViewStorage(view));
    ASSERT_OK_AND_ASSIGN(first[view], storage->state().ReadRow("m"));
    ASSERT_TRUE(first[view].has_value());
  }
  for (int i = 0; i < 200; ++i) RandomChange(rng);
  ExpectCaughtUp("by_device", kByDevice);
  ExpectCaughtUp("by_note", kByNote);
  // Back to the earlier position: the 200 changes are applied again.
  for (const char* view : {"by_device", "by_note"}) {
    ASSERT_OK_AND_ASSIGN(auto storage, bigtable_->local()->OpenMaterializedViewStorage(view));
    std::vector<Mutation> restore = {Mutation::DeleteFromRow()};
    for (const Cell& c : first[view]->cells) restore.push_back(Mutation::SetCell(c.family, c.qualifier, c.value, 0));
    ASSERT_OK(storage->state().MutateRow("m", restore));
  }
  ExpectCaughtUp("by_device", kByDevice);
  ExpectCaughtUp("by_note", kByNote);
}

TEST_P(MaterializedViewTest, ReadRowsShowsTheColumnsAsCells) {
  Put("dev1#1", "temp", "10");
  Put("dev1#2", "temp", "20");
  Put("dev2#1", "temp", "5");
  Put("dev2#1", "note", "hot");
  ASSERT_OK(CreateView("total", kTotal));
  ASSERT_OK(CreateView("per_row", "SELECT _key, COUNT(*) AS n FROM sensors GROUP BY _key"));
  ASSERT_OK(CreateView("by_note", kByNote));
  ASSERT_OK(maintainer_->CatchUp());

  // A _key column is the row key; each other column a cell of family
  // "default" qualified by its name, at timestamp 0, INT64 as 8 bytes.
  ASSERT_OK_AND_ASSIGN(auto rows, bigtable_->ReadMaterializedView("total", {}));
  Row row;
  ASSERT_TRUE(rows->Next(&row));
  EXPECT_EQ(row.key, "*");
  ASSERT_EQ(row.cells.size(), 1u);
  EXPECT_EQ(row.cells[0].family, "default");
  EXPECT_EQ(row.cells[0].qualifier, "n");
  EXPECT_EQ(row.cells[0].timestamp, 0);
  EXPECT_EQ(row.cells[0].value, EncodeInt64(3));
  EXPECT_FALSE(rows->Next(&row));

  ASSERT_OK_AND_ASSIGN(rows, bigtable_->ReadMaterializedView("per_row", {}));
  std::vector<std::string> keys;
  while (rows->Next(&row)) keys.push_back(row.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"dev1#1", "dev1#2", "dev2#1"}));

  // An index view keeps its key columns as cells too.
  ASSERT_OK_AND_ASSIGN(rows, bigtable_->ReadMaterializedView("by_note", {}));
  ASSERT_TRUE(rows->Next(&row));
  std::vector<std::string> qualifiers;
  for (const Cell& c : row.cells) qualifiers.push_back(c.qualifier + "=" + c.value);
  std::sort(qualifiers.begin(), qualifiers.end());
  EXPECT_EQ(qualifiers, (std::vector<std::string>{"note=hot", "reading=dev2#1", "temp=5"}));
  EXPECT_FALSE(rows->Next(&row));

  // Views are read, never written.
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Table> as_table, bigtable_->OpenTable(TableRef::MaterializedView("total")));
  EXPECT_EQ(as_table->MutateRow("x", {Mutation::SetCell("default", "n", "1")}).code(), Status::Code::kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(int64_t count, as_table->CountRows(RowRange::All()));
  EXPECT_EQ(count, 1);
}

// A row the view cannot keep is left out, as production leaves it out, and
// the view goes on: nothing one row holds can stop it.
TEST_P(MaterializedViewTest, RowsItCannotKeepAreLeftOutAndTheViewGoesOn) {
  const std::string sum =
      "SELECT '*' AS _key, SUM(CAST(CAST(m['temp'] AS STRING) AS INT64)) AS s, COUNT(*) AS c FROM sensors "
      "WHERE m['temp'] IS NOT NULL GROUP BY _key";
  const std::string notes = "SELECT CAST(m['note'] AS STRING) AS note, COUNT(*) AS c FROM sensors GROUP BY note";
  ASSERT_OK(CreateView("sum", sum));
  ASSERT_OK(CreateView("notes", notes));
  Put("r1", "temp", "9223372036854775807");
  ASSERT_OK(maintainer_->CatchUp());
  EXPECT_EQ(Rows("SELECT s, c FROM sum"), (std::vector<std::string>{"9223372036854775807|1"}));
  Put("r2", "temp", "1");  // the SUM overflows: the group is left out
  ASSERT_OK(maintainer_->CatchUp());
  EXPECT_EQ(Rows("SELECT s, c FROM sum"), std::vector<std::string>{});
  ASSERT_OK(bigtable_->MutateRow("sensors", "r2", {Mutation::DeleteFromRow()}));
  Put("r3", "temp", "-10");
  ASSERT_OK(maintainer_->CatchUp());
  EXPECT_EQ(Rows("SELECT s, c FROM sum"), (std::vector<std::string>{"9223372036854775797|2"}));

  // A key Bigtable cannot hold (empty, or over 4 KiB) leaves its row out.
  Put("n1", "note", "");
  Put("n2", "note", std::string(5000, 'x'));
  Put("n3", "note", "ok");
  ASSERT_OK(maintainer_->CatchUp());
  EXPECT_EQ(Rows("SELECT note, c FROM notes"), (std::vector<std::string>{"ok|1"}));
  Put("n4", "note", "ok");
  ASSERT_OK(maintainer_->CatchUp());
  EXPECT_EQ(Rows("SELECT note, c FROM notes"), (std::vector<std::string>{"ok|2"}));
}

// A query fixing a view's leading key columns reads only those view rows:
// an index answers by its key, as a table does.
TEST_P(MaterializedViewTest, QueriesReadOnlyTheKeysTheyFix) {
  for (int i = 0; i < 30; ++i) Put("dev" + std::to_string(i % 3) + "#" + std::to_string(i), "temp", std::to_string(i));
  Put("dev1#4", "note", "hot");
  Put("dev2#5", "note", "hot");
  Put("dev0#6", "note", "cold");
  ASSERT_OK(CreateView("by_device", kByDevice));
  ASSERT_OK(CreateView("by_note", kByNote));
  ASSERT_OK(CreateView("per_row", "SELECT _key, COUNT(*) AS n FROM sensors GROUP BY _key"));
  ASSERT_OK(maintainer_->CatchUp());
  auto examined = [&](const std::string& sql, std::vector<std::string>* rows) -> int64_t {
    Result<std::unique_ptr<PreparedQuery>> q = Prepare(bigtable_.get(), sql, {});
    EXPECT_TRUE(q.ok()) << q.status().ToString();
    if (!q.ok()) return -1;
    Result<std::unique_ptr<ResultStream>> stream = (*q)->Execute({});
    EXPECT_TRUE(stream.ok()) << stream.status().ToString();
    if (!stream.ok()) return -1;
    for (Values row; (*stream)->Next(&row);) rows->push_back(row[0].ToText());
    EXPECT_OK((*stream)->status());
    return (*stream)->stats().rows_examined;
  };
  std::vector<std::string> rows;
  EXPECT_EQ(examined("SELECT readings FROM by_device WHERE device = 'dev1'", &rows), 1);
  EXPECT_EQ(rows, (std::vector<std::string>{"10"}));
  rows.clear();
  EXPECT_EQ(examined("SELECT reading FROM by_note WHERE 'hot' = note ORDER BY reading", &rows), 2);
  EXPECT_EQ(rows, (std::vector<std::string>{"dev1#4", "dev2#5"}));
  rows.clear();
  EXPECT_EQ(examined("SELECT n FROM per_row WHERE _key = b'dev2#5'", &rows), 1);
  // Nothing fixed, or a key column compared otherwise: every view row.
  rows.clear();
  EXPECT_EQ(examined("SELECT reading FROM by_note WHERE note > 'a'", &rows), 3);
  rows.clear();
  EXPECT_EQ(examined("SELECT device FROM by_device WHERE readings = 10", &rows), 3);
  EXPECT_EQ(rows.size(), 3u);
}

TEST_P(MaterializedViewTest, RefusesWhatProductionRefuses) {
  const std::pair<const char*, const char*> cases[] = {
      {"SELECT _key, m['temp'] AS t FROM sensors", "queries must contain a GROUP BY or ORDER BY clause"},
      {"SELECT COUNT(*) AS n FROM sensors", "queries must contain a GROUP BY or ORDER BY clause"},
      {"SELECT _key AS k, COUNT(*) AS n FROM sensors GROUP BY k ORDER BY k",
       "ORDER BY is not supported with GROUP BY in materialized views."},
      {"SELECT _key, m['temp'] AS t FROM sensors ORDER BY _key DESC",
       "Only ascending order in ORDER BY by is supported in materialized views."},
      {"SELECT _key, m['temp'] AS t FROM sensors ORDER BY _key LIMIT 5",
       "Limit and offset are not supported in materialized views."},
      {"SELECT m['temp'] AS t FROM sensors ORDER BY t",
       "queries must select and order by the unmodified _key column from the source table"},
      {"SELECT _key, m['temp'] AS t FROM sensors ORDER BY _key, m['note']",
       "every ORDER BY column must be selected in the final query"},
      {"SELECT COUNT(*) AS n FROM sensors GROUP BY m['temp']",
       "every GROUP BY column must be selected in the final query"},
      {"SELECT '*' AS _key, m['note'] AS note, COUNT(*) AS n FROM sensors GROUP BY _key, note",
       "queries that provide a _key hint must only group by _key (and optionally _timestamp). Use a different column "
       "name if you want to create a composite key."},
      {"SELECT m['note'] AS note, ARRAY_AGG(_key) AS keys FROM sensors GROUP BY note",
       "Only stable functions are supported in materialized views (GoogleSQL:array_agg is not stable)"},
      {"SELECT _key, CURRENT_TIMESTAMP() AS now FROM sensors ORDER BY _key",
       "Only immutable functions are supported in materialized views (GoogleSQL:current_timestamp is not immutable)"},
      {"SELECT * FROM sensors ORDER BY _key", "SELECT * is not supported in materialized views"},
  };
  for (const auto& [query, message] : cases) {
    Result<std::string> checked = CheckMaterializedViewQuery(bigtable_.get(), query);
    ASSERT_FALSE(checked.ok()) << query;
    EXPECT_EQ(checked.status().code(), Status::Code::kInvalidArgument) << query;
    EXPECT_EQ(checked.status().message(), message) << query;
  }
  // A view reads a table: not another view.
  ASSERT_OK(CreateView("total", kTotal));
  Result<std::string> over_view =
      CheckMaterializedViewQuery(bigtable_.get(), "SELECT n, COUNT(*) AS c FROM total GROUP BY n");
  EXPECT_EQ(over_view.status().code(), Status::Code::kInvalidArgument) << over_view.status().ToString();
}

TEST_P(MaterializedViewTest, ProtectsItsSourceAndItself) {
  ASSERT_OK(CreateView("total", kTotal));
  Status drop = bigtable_->DeleteTable("sensors");
  EXPECT_EQ(drop.code(), Status::Code::kFailedPrecondition) << drop.ToString();
  EXPECT_NE(drop.message().find("materializedViews/total"), std::string::npos) << drop.ToString();
  EXPECT_EQ(bigtable_->SetChangeStream("sensors", std::nullopt).code(), Status::Code::kFailedPrecondition);
  // A family a view reads stays; another may go.
  ASSERT_OK(CreateView("by_note", kByNote));
  Status family = bigtable_->DeleteFamily("sensors", "m");
  EXPECT_EQ(family.code(), Status::Code::kFailedPrecondition) << family.ToString();
  EXPECT_NE(family.message().find("materializedViews/by_note"), std::string::npos) << family.ToString();
  EXPECT_EQ(family.message().find("materializedViews/total"), std::string::npos) << "total reads no family";
  ASSERT_OK(bigtable_->CreateFamily("sensors", FamilySpec{.name = "mm"}));
  ASSERT_OK(bigtable_->DeleteFamily("sensors", "mm"));
  ASSERT_OK(bigtable_->instance_admin()->DeleteMaterializedView(bigtable_->instance(), "by_note", ""));
  // Read through the table's alias, a family is as protected.
  ASSERT_OK(bigtable_->CreateFamily("sensors", FamilySpec{.name = "aliased"}));
  ASSERT_OK(CreateView("by_alias", "SELECT _key, s.aliased['q'] AS q FROM sensors AS s ORDER BY _key"));
  EXPECT_EQ(bigtable_->DeleteFamily("sensors", "aliased").code(), Status::Code::kFailedPrecondition);
  ASSERT_OK(bigtable_->instance_admin()->DeleteMaterializedView(bigtable_->instance(), "by_alias", ""));
  EXPECT_EQ(bigtable_->CreateTable("total", {}, {}, false).code(), Status::Code::kAlreadyExists);
  EXPECT_EQ(CreateView("total", kTotal).code(), Status::Code::kAlreadyExists);
  // Production's limit: five views a table.
  for (int i = 2; i <= 5; ++i) ASSERT_OK(CreateView("more" + std::to_string(i), kTotal));
  EXPECT_EQ(CreateView("more6", kTotal).code(), Status::Code::kFailedPrecondition);
  for (int i = 2; i <= 5; ++i)
    ASSERT_OK(
        bigtable_->instance_admin()->DeleteMaterializedView(bigtable_->instance(), "more" + std::to_string(i), ""));

  ASSERT_OK(bigtable_->instance_admin()
                ->UpdateMaterializedView(bigtable_->instance(), {.id = "total", .deletion_protection = true},
                                         {.deletion_protection = true})
                .status());
  Status protected_delete = bigtable_->instance_admin()->DeleteMaterializedView(bigtable_->instance(), "total", "");
  EXPECT_EQ(protected_delete.code(), Status::Code::kFailedPrecondition) << protected_delete.ToString();
  ASSERT_OK(bigtable_->instance_admin()
                ->UpdateMaterializedView(bigtable_->instance(), {.id = "total", .deletion_protection = false},
                                         {.deletion_protection = true})
                .status());
  ASSERT_OK(bigtable_->instance_admin()->DeleteMaterializedView(bigtable_->instance(), "total", ""));
  EXPECT_TRUE(bigtable_->instance_admin()->GetMaterializedView(bigtable_->instance(), "total").status().IsNotFound());
  ASSERT_OK(bigtable_->DeleteTable("sensors"));
  ASSERT_OK_AND_ASSIGN(std::vector<std::string> tables, bigtable_->ListTables());
  EXPECT_TRUE(tables.empty()) << "a view's hidden tables are no instance's";
}

// A view of another instance is kept by the database's one maintainer, and
// goes with its instance: record and hidden tables.
TEST_P(MaterializedViewTest, ViewsOfOtherInstancesAreKeptAndGoWithThem) {
  const InstanceName other{"proj", "inst-views"};
  InstanceAdmin* admin = bigtable_->instance_admin();
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Bigtable> tables, InstanceWithSensors(other, "views-c1"));
  std::mt19937 rng(23);
  for (int i = 0; i < 80; ++i) RandomSensorChange(tables.get(), rng);
  ASSERT_OK(CreateSensorView(tables.get(), "by_device", kByDevice));
  ASSERT_OK(maintainer_->CatchUp());
  EXPECT_EQ(SortedRows(tables.get(), "SELECT * FROM by_device"), SortedRows(tables.get(), kByDevice));
  for (int i = 0; i < 80; ++i) RandomSensorChange(tables.get(), rng);
  ASSERT_OK(maintainer_->CatchUp());
  EXPECT_EQ(SortedRows(tables.get(), "SELECT * FROM by_device"), SortedRows(tables.get(), kByDevice));
  EXPECT_TRUE(
      bigtable_->instance_admin()->GetMaterializedView(bigtable_->instance(), "by_device").status().IsNotFound())
      << "an instance's own";

  tables.reset();
  ASSERT_OK(admin->DeleteInstance(other));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Bigtable> again, admin->OpenTables(other));
  ASSERT_OK_AND_ASSIGN(std::vector<MaterializedViewSpec> left,
                       again->instance_admin()->ListMaterializedViews(again->instance()));
  EXPECT_TRUE(left.empty());
  ASSERT_OK(maintainer_->CatchUp());
}

// Views are the maintainer's by instance and id: two instances' views of
// one id are two views, each kept from its own source.
TEST_P(MaterializedViewTest, OneViewIdInTwoInstancesIsTwoViews) {
  const InstanceName other{"proj", "inst-twin"};
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Bigtable> tables, InstanceWithSensors(other, "twin-c1"));
  std::mt19937 rng(29);
  for (int i = 0; i < 60; ++i) RandomSensorChange(tables.get(), rng);
  for (int i = 0; i < 60; ++i) RandomChange(rng);
  ASSERT_OK(CreateSensorView(tables.get(), "by_device", kByDevice));
  ASSERT_OK(CreateView("by_device", kByDevice));
  for (int round = 0; round < 2; ++round) {
    ASSERT_OK(maintainer_->CatchUp());
    EXPECT_EQ(SortedRows(tables.get(), "SELECT * FROM by_device"), SortedRows(tables.get(), kByDevice));
    EXPECT_EQ(Rows("SELECT * FROM by_device"), Rows(kByDevice));
    for (int i = 0; i < 40; ++i) RandomSensorChange(tables.get(), rng);
    for (int i = 0; i < 40; ++i) RandomChange(rng);
  }
}

// Maintainers killed with SIGKILL at random moments, amid writes and
// passes (its writes and the position it saves torn anywhere): each time,
// the next maintainer brings the views back to what their queries return,
// with nothing lost or counted twice.
TEST_P(MaterializedViewTest, KilledMaintainersLoseNothing) {
  const std::string dir = dir_.Sub("crash");
  DatabaseOptions options;
  options.log_writes = GetParam();
  {
    LocalBigtable bigtable(dir, options);
    ASSERT_OK(bigtable.CreateTable("sensors", {{"m", GcRule::Never(), ValueType::kBytes}}, {}, false));
    std::mt19937 rng(3);
    for (int i = 0; i < 100; ++i) RandomSensorChange(&bigtable, rng);
    ASSERT_OK(CreateSensorView(&bigtable, "by_device", kByDevice));
    ASSERT_OK(CreateSensorView(&bigtable, "by_note", kByNote));
  }
  std::mt19937 rng(17);
  for (int kill = 0; kill < 8; ++kill) {
    const pid_t child = fork();
    if (child == 0) {
      LocalBigtable bigtable(dir, options);
      MaterializedViewMaintainer maintainer(&bigtable);
      std::mt19937 writes(100 + kill);
      for (;;) {
        for (int i = 0; i < 20; ++i) RandomSensorChange(&bigtable, writes);
        (void)maintainer.CatchUp();
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5 + rng() % 80));
    ::kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status));
    LocalBigtable bigtable(dir, options);
    MaterializedViewMaintainer maintainer(&bigtable);
    ASSERT_OK(maintainer.CatchUp());
    EXPECT_EQ(SortedRows(&bigtable, "SELECT * FROM by_device"), SortedRows(&bigtable, kByDevice)) << "kill " << kill;
    EXPECT_EQ(SortedRows(&bigtable, "SELECT * FROM by_note"), SortedRows(&bigtable, kByNote)) << "kill " << kill;
    if (::testing::Test::HasFailure()) return;
  }
}

// Any process can bring the views up to date: the lock means "a pass is
// running", not "another process once ran a pass" (a one-shot `watch` or
// `read | less` kept it until it exited, and a script beside it read stale
// views).
TEST_P(MaterializedViewTest, AnotherMaintainerCatchesUpAfterTheFirstPassEnds) {
  ASSERT_OK(CreateView("total", kTotal));
  Put("dev1#1", "temp", "5");
  ASSERT_OK(maintainer_->CatchUp());  // the first maintainer stays, as a long-running process would
  Put("dev1#2", "temp", "6");
  MaterializedViewMaintainer second(bigtable_.get());
  ASSERT_OK(second.CatchUp());
  EXPECT_EQ(Rows("SELECT * FROM total"), std::vector<std::string>{"*|2"});
}

TEST_P(MaterializedViewTest, ARunningPassIsSkippedByTheBackgroundAndAwaitedByAStatement) {
  ASSERT_OK(CreateView("total", kTotal));
  Put("dev1#1", "temp", "5");
  ASSERT_OK(maintainer_->CatchUp());
  Put("dev1#2", "temp", "6");
  // Another process's pass, as far as flock can tell.
  const int fd = ::open((dir_.Sub("db") + "/materialized-views.lock").c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  ASSERT_OK(maintainer_->CatchUp(MaterializedViewMaintainer::WhenBusy::kSkip));
  EXPECT_EQ(Rows("SELECT * FROM total"), std::vector<std::string>{"*|1"});
  std::atomic<bool> done{false};
  Status waited;
  std::thread statement([&] {
    waited = maintainer_->CatchUp(MaterializedViewMaintainer::WhenBusy::kWait);
    done = true;
  });
  EXPECT_FALSE(done.load());
  ::close(fd);  // the other pass ends
  statement.join();
  ASSERT_OK(waited);
  EXPECT_EQ(Rows("SELECT * FROM total"), std::vector<std::string>{"*|2"});
}

INSTANTIATE_TEST_SUITE_P(Writes, MaterializedViewTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) { return info.param ? "Logged" : "Direct"; });

}  // namespace
}  // namespace lbt::views
