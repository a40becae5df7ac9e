// advise: for every rule, a dataset that shows it and one that does not;
// the designs the schema guidance recommends draw no key finding.

#include "lab/advise.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "tests/lab/lab_fixture.h"

namespace lbt::lab {
namespace {

constexpr int64_t kMinute = 60'000'000;
constexpr int64_t kStart = 1'700'000'000'000'000;

class AdviseTest : public LabTest {
 protected:
  std::set<std::string> Rules(const std::string& table, const AdviceLimits& limits = {}) {
    std::vector<TableSpec> tables;
    Result<std::vector<std::string>> names = bigtable_->ListTables();
    EXPECT_TRUE(names.ok());
    for (const std::string& name : *names) tables.push_back(*bigtable_->GetTable(name));
    std::set<std::string> rules;
    for (const Finding& f : Advise(Sample(table), tables, limits)) rules.insert(f.rule);
    return rules;
  }

  const Finding* Find(const std::string& table, const std::string& rule) {
    findings_ = Advise(Sample(table), {});
    for (const Finding& f : findings_) {
      if (f.rule == rule) return &f;
    }
    return nullptr;
  }

  // One cell per key, a minute apart in key order.
  void Keys(const std::string& table, const std::vector<std::string>& keys) {
    Create(table, {"f"});
    for (size_t i = 0; i < keys.size(); ++i) Put(table, keys[i], "f", "q", "v", kStart + kMinute * i);
  }

  static bool AnyKeyRule(const std::set<std::string>& rules) {
    return std::any_of(rules.begin(), rules.end(), [](const std::string& r) { return r.rfind("key-", 0) == 0; });
  }

  std::vector<Finding> findings_;
};

TEST_F(AdviseTest, TimestampFirstKeysAreFoundAndTheFixPromotesTheHost) {
  TimeSeries("first", 500, TimeFirst);
  TimeSeries("promoted", 500, HostFirst);
  const Finding* f = Find("first", "key-starts-with-timestamp");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, "warning");
  EXPECT_NE(f->fix.find("becomes \"host"), std::string::npos) << f->fix;
  EXPECT_DOUBLE_EQ(f->evidence["share"].get<double>(), 1.0);
  EXPECT_FALSE(f->why.empty());
  EXPECT_FALSE(AnyKeyRule(Rules("promoted")));
}

TEST_F(AdviseTest, ReversedTimestampsFirstAreStillTimestampsFirst) {
  constexpr int64_t kLongMax = 9223372036854775807;
  std::vector<std::string> keys;
  for (int i = 0; i < 50; ++i)
    keys.push_back(std::to_string(kLongMax - (1700000000000 + i * 1000)) + "#dev" + std::to_string(i));
  Keys("reversed", keys);
  EXPECT_TRUE(Rules("reversed").count("key-starts-with-timestamp"));
}

TEST_F(AdviseTest, TheGuidancesOwnDesignsDrawNoKeyFinding) {
  Keys("mobile", {"phone#4c410523#20190501", "phone#4c410523#20190502", "phone#4c410524#20190501",
                  "tablet#a0b81f74#20190501", "tablet#a0b81f74#20190502", "tablet#a0b81f75#20190501"});
  std::vector<std::string> devices;
  for (int i = 0; i < 40; ++i) {
    devices.push_back("device#sensor" + std::to_string(100 + i) + "#" +
                      std::to_string(9223372036854775807 - (1700000000000 + i)));
  }
  Keys("devices", devices);
  Keys("places", {"asia#india#bangalore", "asia#india#mumbai", "asia#japan#osaka", "asia#japan#sapporo",
                  "southamerica#bolivia#cochabamba", "southamerica#bolivia#lapaz", "southamerica#chile#santiago"});
  EXPECT_FALSE(AnyKeyRule(Rules("mobile")));
  EXPECT_FALSE(AnyKeyRule(Rules("devices")));
  EXPECT_FALSE(AnyKeyRule(Rules("places")));
}

TEST_F(AdviseTest, SequentialIdsThatGrowWithTimeAreFound) {
  std::vector<std::string> sequential, reversed;
  for (int id = 1; id <= 300; ++id) {
    sequential.push_back(std::to_string(id));
    std::string digits = std::to_string(100000 + id * 7919 % 90000);
    reversed.push_back(std::string(digits.rbegin(), digits.rend()));
  }
  Keys("users", sequential);
  Keys("reversed_users", reversed);
  const std::set<std::string> rules = Rules("users");
  EXPECT_TRUE(rules.count("key-sequential-id"));
  EXPECT_TRUE(rules.count("key-unpadded-number"));  // 9 sorts after 10
  EXPECT_FALSE(Rules("reversed_users").count("key-sequential-id"));
  // The fix's example changes: an id that reads the same reversed ("1",
  // "11") would show nothing.
  const Finding* f = Find("users", "key-sequential-id");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->fix.find("\"1\" becomes \"1\""), std::string::npos) << f->fix;
  EXPECT_NE(f->fix.find("\"10\" becomes \"01\""), std::string::npos) << f->fix;
}

TEST_F(AdviseTest, HashedKeysAreFoundButShortDeviceIdsAreNot) {
  std::vector<std::string> hashed, devices;
  for (int i = 0; i < 30; ++i) {
    hashed.push_back(
        fmt::format("{:016x}{:016x}#event", 0x9e3779b97f4a7c15ull * (i + 1), 0xbf58476d1ce4e5b9ull * (i + 7)));
    devices.push_back(fmt::format("phone#{:08x}#20190501", 0x4c410523u + i * 977));
  }
  Keys("hashed", hashed);
  Keys("devices", devices);
  EXPECT_TRUE(Rules("hashed").count("key-hashed"));
  EXPECT_FALSE(Rules("devices").count("key-hashed"));
}

TEST_F(AdviseTest, UnpaddedNumbersAreFoundAndPaddedOnesAreNot) {
  std::vector<std::string> unpadded, padded;
  for (int i = 1; i <= 120; ++i) {
    unpadded.push_back("item#" + std::to_string(i));
    padded.push_back(fmt::format("item#{:05}", i));
  }
  Keys("unpadded", unpadded);
  Keys("padded", padded);
  const Finding* f = Find("unpadded", "key-unpadded-number");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->fix.find("3 digits"), std::string::npos) << f->fix;
  EXPECT_FALSE(Rules("padded").count("key-unpadded-number"));
  // The example compares keys alike before the number, a smaller number
  // sorting after a larger one.
  EXPECT_NE(f->message.find("\"item#11\" sorts after \"item#100\""), std::string::npos) << f->message;
}

// Padded keys beside one short key of another prefix: "huge#1" sorts
// before "small#00000", and no example may claim otherwise.
TEST_F(AdviseTest, AnUnpaddedNumberUnderAnotherPrefixIsNoExample) {
  std::vector<std::string> keys = {"huge#1"};
  for (int i = 0; i < 60; ++i) keys.push_back(fmt::format("small#{:05}", i));
  Keys("mixed", keys);
  const Finding* f = Find("mixed", "key-unpadded-number");
  if (f != nullptr) EXPECT_EQ(f->message.find("huge#1"), std::string::npos) << f->message;
}

TEST_F(AdviseTest, DomainsInTheirUsualOrderAreFound) {
  Keys("sites", {"maps.google.com#/", "mail.google.com#/inbox", "www.example.org#/a", "docs.example.org#/b",
                 "news.example.net#/c", "shop.example.com#/d"});
  Keys("reversed_sites", {"com.google.maps#/", "com.google.mail#/inbox", "org.example.www#/a", "org.example.docs#/b",
                          "net.example.news#/c", "com.example.shop#/d"});
  const Finding* f = Find("sites", "key-domain-not-reversed");
  ASSERT_NE(f, nullptr);
  // The fix reverses the first such key: docs.example.org sorts first.
  EXPECT_NE(f->fix.find("\"docs.example.org#/b\" becomes \"org.example.docs#/b\""), std::string::npos) << f->fix;
  EXPECT_FALSE(Rules("reversed_sites").count("key-domain-not-reversed"));
}

TEST_F(AdviseTest, EmailsAndPhoneNumbersInKeysOrFamilyNamesArePersonalData) {
  Keys("by_email",
       {"alice@example.com#1", "bob@example.org#2", "carol@example.net#3", "dan@example.com#4", "erin@example.com#5"});
  Keys("by_phone",
       {"+1-555-010-0199#a", "+1-555-010-0100#b", "+44 20 7946 0958#c", "+1-555-010-0101#d", "+1-555-010-0102#e"});
  Keys("by_id", {"user#1001#a", "user#1002#b", "user#1003#c", "user#1004#d", "user#1005#e"});
  // A family named for a person (Bigtable's family names allow '-', not '@').
  ASSERT_OK(bigtable_->CreateFamily("by_id", {"555-010-0199", GcRule::Never(), ValueType::kBytes}));
  EXPECT_TRUE(Rules("by_email").count("key-pii"));
  EXPECT_TRUE(Rules("by_phone").count("key-pii"));
  EXPECT_TRUE(Rules("by_id").count("key-pii"));  // the family name
  Keys("clean", {"user#1001#a", "user#1002#b", "user#1003#c", "user#1004#d", "user#1005#e"});
  EXPECT_FALSE(Rules("clean").count("key-pii"));
}

TEST_F(AdviseTest, LongKeysAndRawBytes) {
  std::vector<std::string> long_keys, binary;
  for (int i = 0; i < 20; ++i) {
    long_keys.push_back("customer-account-" + std::string(120, 'x') + "#" + std::to_string(1000 + i));
    binary.push_back(std::string("\x00\x01\x02", 3) + static_cast<char>(i) + "#r");
  }
  Keys("long", long_keys);
  Keys("binary", binary);
  EXPECT_TRUE(Rules("long").count("key-too-long"));
  EXPECT_TRUE(Rules("binary").count("key-raw-bytes"));
  TimeSeries("short", 50, HostFirst);
  EXPECT_FALSE(Rules("short").count("key-too-long"));
  EXPECT_FALSE(Rules("short").count("key-raw-bytes"));
}

TEST_F(AdviseTest, TooManyFamilies) {
  std::vector<std::string> many, few;
  for (int i = 0; i < 101; ++i) many.push_back("f" + std::to_string(i));
  for (int i = 0; i < 5; ++i) few.push_back("f" + std::to_string(i));
  Create("wide_schema", many);
  Create("narrow_schema", few);
  EXPECT_TRUE(Rules("wide_schema").count("too-many-families"));
  EXPECT_FALSE(Rules("narrow_schema").count("too-many-families"));
}

TEST_F(AdviseTest, HistoryAndSingleValueColumnsInOneFamilyAreMixedRetention) {
  Create("devices", {"stats"});
  Create("tidy", {"stats"});
  for (int d = 0; d < 20; ++d) {
    const std::string row = "device#" + std::to_string(1000 + d);
    Put("devices", row, "stats", "os", "android", kStart);
    Put("tidy", row, "stats", "os", "android", kStart);
    Put("tidy", row, "stats", "model", "pixel", kStart);
    for (int v = 0; v < 5; ++v) Put("devices", row, "stats", "cpu", std::to_string(v), kStart + v * kMinute);
  }
  const Finding* f = Find("devices", "mixed-retention-family");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("cpu"), std::string::npos);
  EXPECT_FALSE(Rules("tidy").count("mixed-retention-family"));
}

TEST_F(AdviseTest, ATimeSeriesKeptAsVersionsIsFound) {
  Create("memusage", {"m"});
  Create("readings", {"m"});
  for (int d = 0; d < 5; ++d) {
    const std::string device = "4c41052" + std::to_string(d);
    for (int v = 0; v < 60; ++v) {
      Put("memusage", device + "#memusage", "m", "used", std::to_string(v), kStart + v * kMinute);
      Put("readings", device + "#memusage#" + std::to_string(1700000000000 + v * 60000), "m", "used", std::to_string(v),
          kStart + v * kMinute);
    }
  }
  const Finding* f = Find("memusage", "versions-as-time-series");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->evidence["max_versions"], 60);
  EXPECT_NE(f->fix.find("#memusage#"), std::string::npos) << f->fix;
  EXPECT_FALSE(Rules("readings").count("versions-as-time-series"));
}

TEST_F(AdviseTest, HourlyBucketsOfAnAggregateCounterAreNotATimeSeriesOfVersions) {
  ASSERT_OK(bigtable_->CreateTable("views", {{"count", GcRule::Never(), ValueType::kIntSum}}, {}, false));
  for (int page = 0; page < 5; ++page) {
    for (int hour = 0; hour < 48; ++hour) {
      ASSERT_OK(bigtable_->MutateRow("views", "page#" + std::to_string(page),
                                     {Mutation::AddToCell("count", "views", 3, kStart + hour * 60 * kMinute)}));
    }
  }
  EXPECT_FALSE(Rules("views").count("versions-as-time-series"));
}

TEST_F(AdviseTest, RowsThatGrowAColumnPerEventAreUnbounded) {
  Create("events", {"e"});
  Create("garden", {"TEMP"});
  std::vector<Mutation> events, days;
  for (int i = 0; i < 1200; ++i)
    events.push_back(Mutation::SetCell("e", std::to_string(1700000000000 + i * 1000), "x", kStart));
  for (int d = 1; d <= 31; ++d) days.push_back(Mutation::SetCell("TEMP", std::to_string(d), "60.1", kStart));
  ASSERT_OK(bigtable_->MutateRow("events", "user#1", events));
  ASSERT_OK(bigtable_->MutateRow("garden", "VEGGIEGARDEN#201503", days));
  EXPECT_TRUE(Rules("events").count("row-unbounded-wide"));
  EXPECT_FALSE(Rules("garden").count("row-unbounded-wide"));
}

TEST_F(AdviseTest, LargeRowsAndCells) {
  Create("blobs", {"b"});
  Put("blobs", "big", "b", "data", std::string(11 << 20, 'x'), kStart);  // over the 10 MB guidance
  Put("blobs", "small", "b", "data", std::string(1 << 20, 'x'), kStart);
  const std::set<std::string> rules = Rules("blobs");
  EXPECT_TRUE(rules.count("cell-too-large"));
  EXPECT_FALSE(rules.count("row-too-large"));  // 11 MB is a fine row
  // The row rule's logic, with its limit lowered rather than 100 MB written.
  AdviceLimits limits;
  limits.row_bytes = 5 << 20;
  EXPECT_TRUE(Rules("blobs", limits).count("row-too-large"));
  Create("modest", {"b"});
  Put("modest", "r", "b", "data", std::string(1 << 20, 'x'), kStart);
  EXPECT_FALSE(Rules("modest", limits).count("row-too-large"));
  EXPECT_FALSE(Rules("modest").count("cell-too-large"));
}

TEST_F(AdviseTest, TablesOfOneSchemaPerMonthAreManySimilarTables) {
  for (const char* t : {"events_2019_01", "events_2019_02", "events_2019_03"}) Keys(t, {"a", "b"});
  Create("orders_2019_01", {"o"});
  Create("orders_2019_02", {"p"});  // another schema: not the same dataset split up
  Create("orders_2019_03", {"q"});
  const Finding* f = Find("events_2019_01", "many-similar-tables");
  EXPECT_EQ(f, nullptr);  // Find() passes no other tables
  EXPECT_TRUE(Rules("events_2019_01").count("many-similar-tables"));
  EXPECT_FALSE(Rules("orders_2019_01").count("many-similar-tables"));
}

// Keys of a fixed number of delimited fields are a composite key the
// table could declare; advise names a schema for them until it does.
TEST_F(AdviseTest, UndeclaredKeyFieldsSuggestARowKeySchema) {
  std::vector<std::string> keys;
  for (int i = 0; i < 20; ++i) keys.push_back(fmt::format("phone#d{:02}#{}", i, 1700000000000 + i));
  Keys("devices", keys);
  const Finding* f = Find("devices", "undeclared-key-fields");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, "info");
  EXPECT_EQ(f->fix,
            "declare them (names are yours to choose): setrowkeyschema devices part1:string,part2:string,ts:string; "
            "SQL then reads each as a column, and a WHERE on the first reads one key range");
  // Declared, the finding goes.
  RowKeySchema schema;
  schema.fields = {
      {"type", RowKeyField::Type::kString}, {"id", RowKeyField::Type::kString}, {"ts", RowKeyField::Type::kString}};
  schema.delimiter = "#";
  ASSERT_OK(bigtable_->SetRowKeySchema("devices", schema, false));
  EXPECT_FALSE(Rules("devices").count("undeclared-key-fields"));
  // Keys of varying shapes are no composite key.
  keys.push_back("phone#odd");
  Keys("ragged", keys);
  EXPECT_FALSE(Rules("ragged").count("undeclared-key-fields"));
  Keys("single", {"a1", "b2", "c3", "d4", "e5", "f6"});
  EXPECT_FALSE(Rules("single").count("undeclared-key-fields"));
}

TEST_F(AdviseTest, EveryRuleHasALesson) {
  std::set<std::string> ids;
  for (const AdviceRule& r : AdviceRules()) {
    EXPECT_FALSE(r.summary.empty()) << r.id;
    ids.insert(std::string(r.id));
  }
  for (const char* id : {"key-starts-with-timestamp", "key-sequential-id", "key-hashed", "key-unpadded-number",
                         "key-domain-not-reversed", "key-pii", "key-too-long", "too-many-families",
                         "mixed-retention-family", "versions-as-time-series", "row-unbounded-wide", "row-too-large",
                         "cell-too-large", "many-similar-tables", "key-raw-bytes", "undeclared-key-fields"}) {
    EXPECT_TRUE(ids.count(id)) << id;
  }
}

}  // namespace
}  // namespace lbt::lab
