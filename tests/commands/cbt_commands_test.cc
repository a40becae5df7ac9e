// The cbt dialect beyond what the golden files cover: exit codes, errors
// that change nothing, bytes that cbt's own CLI cannot carry, JSON output.

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "commands/core/command_table.h"
#include "commands/core/interrupt.h"
#include "commands/core/statement.h"
#include "commands/core/tokenizer.h"
#include "local/local_bigtable.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using nlohmann::json;

class CbtCommandsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("TZ", "UTC", 1);
    tzset();
    Open(OutputFormat::kText);
  }

  void Open(OutputFormat format) {
    SessionOptions options;
    options.format = format;
    session_ = std::make_unique<Session>(options, std::make_unique<LocalBigtable>(dir_.Sub("db"), DatabaseOptions{}));
  }

  // Runs one line as the shell and scripts do; returns its exit code and
  // fills out_/err_.
  int Run(const std::string& line) {
    out_.clear();
    err_.clear();
    Output out(&out_), err(&err_);
    CommandOutcome outcome = RunStatement(session_.get(), &out, &err, line);
    message_ = outcome.status.message();
    return outcome.ExitCode();
  }

  testing::TempDir dir_;
  std::unique_ptr<Session> session_;
  std::string out_, err_, message_;
};

TEST_F(CbtCommandsTest, ReadsOfAMissingDatabaseDoNotCreateIt) {
  EXPECT_EQ(Run("ls"), 0);
  EXPECT_EQ(out_, "");
  EXPECT_EQ(Run("read t"), 1);
  EXPECT_NE(message_.find("table 't' does not exist"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir_.Sub("db")));
  EXPECT_EQ(Run("createtable t families=cf"), 0);
  EXPECT_TRUE(std::filesystem::exists(dir_.Sub("db/data.mdb")));
}

TEST_F(CbtCommandsTest, UsageErrorsExitTwoAndFailuresOne) {
  ASSERT_EQ(Run("createtable t families=cf"), 0);
  EXPECT_EQ(Run("raed t"), 2);
  EXPECT_NE(message_.find("did you mean 'read'"), std::string::npos) << message_;
  EXPECT_EQ(Run("read"), 2);
  EXPECT_EQ(Run("read t prefx=a"), 2);
  EXPECT_NE(message_.find("did you mean 'prefix='"), std::string::npos) << message_;
  EXPECT_EQ(Run("set t r cfa=1"), 2);
  EXPECT_EQ(Run("read nope"), 1);
  EXPECT_EQ(Run("set t r nope:a=1@1000"), 1);
  EXPECT_NE(message_.find("its families are: cf"), std::string::npos) << message_;
  EXPECT_EQ(Run("createinstance i"), 2);
  EXPECT_NE(message_.find("createinstance needs"), std::string::npos) << message_;
  EXPECT_EQ(Run("createinstance i \"Display name\" c1 us-east1-b 1 SSD"), 1);
  EXPECT_NE(message_.find("instance_id: instance id 'i' must be 6 to 33 characters"), std::string::npos) << message_;
}

TEST_F(CbtCommandsTest, AFailedCommandChangesNothing) {
  ASSERT_EQ(Run("createtable t families=cf"), 0);
  EXPECT_EQ(Run("set t r cf:a=1@1000 cf:b=2@1234"), 1);
  EXPECT_NE(message_.find("1234"), std::string::npos) << message_;
  EXPECT_NE(message_.find("multiple of 1000"), std::string::npos) << message_;
  EXPECT_EQ(Run("set t " + std::string(4097, 'k') + " cf:a=1"), 1);
  EXPECT_NE(message_.find("4096"), std::string::npos) << message_;
  EXPECT_EQ(Run("count t"), 0);
  EXPECT_EQ(out_, "0\n");
  EXPECT_EQ(Run("setgcpolicy t cf maxversions=0"), 1);
  EXPECT_EQ(Run("ls t"), 0);
  EXPECT_NE(out_.find("\ncf\t\t\t\t{}\n"), std::string::npos) << out_;
}

TEST_F(CbtCommandsTest, NulBytesTravelThroughScriptsQuoting) {
  ASSERT_EQ(Run("createtable t families=cf"), 0);
  ASSERT_EQ(Run(R"(set t $'r\x00w' cf:$'q\x00'=$'\x00v\xff'@1000)"), 0);
  ASSERT_EQ(Run(R"(lookup t $'r\x00w')"), 0);
  const std::string nul(1, '\0');
  EXPECT_EQ(out_, std::string(40, '-') + "\nr" + nul + "w\n  cf:q" + nul + std::string(35, ' ') +
                      " @ 1970/01/01-00:00:00.001000\n    \"\\x00v\\xff\"\n\n");
}

TEST_F(CbtCommandsTest, JsonlOutputIsOneRowPerLine) {
  ASSERT_EQ(Run("createtable t families=cf"), 0);
  ASSERT_EQ(Run(R"(set t a cf:x=1@1000 cf:y=$'\xff'@2000)"), 0);
  ASSERT_EQ(Run("set t b cf:x=2@1000"), 0);
  Open(OutputFormat::kJsonl);
  ASSERT_EQ(Run("read t"), 0);
  std::istringstream lines(out_);
  std::string line;
  std::vector<json> rows;
  while (std::getline(lines, line)) rows.push_back(json::parse(line));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["key"], "a");
  EXPECT_EQ(rows[0]["cells"][1]["value_b64"], "/w==");
  EXPECT_EQ(rows[1]["cells"][0]["timestamp"], 1000);
  ASSERT_EQ(Run("count t prefix=a"), 0);
  EXPECT_EQ(json::parse(out_), (json{{"count", 1}}));
  ASSERT_EQ(Run("lookup t nope"), 0);
  EXPECT_EQ(out_, "");
}

TEST_F(CbtCommandsTest, CountPicksItsDialectByTheTablesQuotes) {
  ASSERT_EQ(Run("createtable t families=cf"), 0);
  ASSERT_EQ(Run("set t a1 cf:q=1@1000"), 0);
  ASSERT_EQ(Run("set t b1 cf:q=2@1000"), 0);
  ASSERT_EQ(Run("count \"t\" prefix=a"), 0);
  EXPECT_EQ(out_, "1\n") << "quoted table with cbt options is cbt's count";
  ASSERT_EQ(Run("count t filter='{\"passAllFilter\":true}'"), 0);
  EXPECT_EQ(out_, "2\n");
  ASSERT_EQ(Run("count 't'"), 0);
  EXPECT_EQ(out_.substr(0, 9), "2 row(s)\n") << "quoted table alone is HBase's count";
  ASSERT_EQ(Run("count 't', {INTERVAL => 1}"), 0);
  EXPECT_NE(out_.find("Current count: 1, row: a1"), std::string::npos);
}

TEST_F(CbtCommandsTest, WritingAnAlreadyExpiredCellSaysSo) {
  ASSERT_EQ(Run("createtable t families=m:maxage=7d"), 0);
  ASSERT_EQ(Run("set t r m:old=1@1000000 m:new=2"), 0);
  EXPECT_NE(err_.find("note: m:old at 1000000 is already past"), std::string::npos) << err_;
  EXPECT_EQ(err_.find("m:new"), std::string::npos) << err_;
  ASSERT_EQ(Run("count t"), 0);
  EXPECT_EQ(out_, "1\n");
}

TEST_F(CbtCommandsTest, GcRemovesEligibleCellsFromTheWholeTable) {
  ASSERT_EQ(Run("createtable t families=cf"), 0);
  ASSERT_EQ(Run("set t a cf:q=1@1000 cf:q=2@2000"), 0);
  ASSERT_EQ(Run("set t b cf:q=1@1000 cf:q=2@2000 cf:q=3@3000"), 0);
  ASSERT_EQ(Run("setgcpolicy t cf maxversions=1"), 0);
  ASSERT_EQ(Run("gc t"), 0);
  EXPECT_EQ(out_, "collected 3 of 5 cells in t\n");
  ASSERT_EQ(Run("setgcpolicy t cf never"), 0);
  ASSERT_EQ(Run("read t keys-only=true"), 0);
  EXPECT_EQ(std::count(out_.begin(), out_.end(), '@'), 2) << "only the newest cell of each row is left";
  EXPECT_EQ(Run("gc nope"), 1);
}

TEST_F(CbtCommandsTest, FilterRunsBeforeCbtsOptions) {
  ASSERT_EQ(Run("createtable t families=cf"), 0);
  ASSERT_EQ(Run("set t r cf:q=v1@1000 cf:q=v2@2000 cf:q=v3@3000"), 0);
  // The newest cell within the range, and keys-only after a value filter.
  ASSERT_EQ(Run("lookup t r cells-per-column=1 filter='{\"timestampRangeFilter\":{\"endTimestampMicros\":\"2500\"}}'"),
            0);
  EXPECT_NE(out_.find("\"v2\""), std::string::npos) << out_;
  ASSERT_EQ(Run("lookup t r keys-only=true filter='{\"valueRegexFilter\":\"djI=\"}'"), 0);
  EXPECT_NE(out_.find("@ 1970/01/01-00:00:00.002000\n    \"\""), std::string::npos) << out_;
}

TEST_F(CbtCommandsTest, HelpListsCommandsAndExplainsOne) {
  ASSERT_EQ(Run("help"), 0);
  for (const char* name : {"read", "lookup", "set", "createtable", "import", "setgcpolicy"}) {
    EXPECT_NE(out_.find(std::string("  ") + name), std::string::npos) << name;
  }
  EXPECT_NE(out_.find("  createinstance"), std::string::npos) << "instance commands are listed";
  ASSERT_EQ(Run("help read"), 0);
  EXPECT_NE(out_.find("prefix=<prefix>"), std::string::npos);
  EXPECT_NE(out_.find("Examples"), std::string::npos);
  EXPECT_EQ(Run("help raed"), 1);
  EXPECT_NE(message_.find("read"), std::string::npos);
  ASSERT_EQ(Run("help"), 0);
  EXPECT_NE(out_.find("HBase shell"), std::string::npos);
  EXPECT_NE(out_.find("  scan "), std::string::npos);
  ASSERT_EQ(Run("help scan"), 0);
  EXPECT_NE(out_.find("ROWPREFIXFILTER"), std::string::npos);
  EXPECT_EQ(Run("help scna"), 1);
  EXPECT_NE(message_.find("did you mean 'scan'"), std::string::npos) << message_;
}

TEST_F(CbtCommandsTest, ImportReadsCbtsCsvLayout) {
  ASSERT_EQ(Run("createtable t families=cf,meta"), 0);
  std::string csv = dir_.Sub("in.csv");
  std::ofstream(csv) << ",cf,,meta\n,a,b,os\nr1,1,\"x,y\",linux\nr2,,\"multi\nline\",\n";
  ASSERT_EQ(Run("import t " + csv + " batch-size=1"), 0);
  EXPECT_EQ(err_, "Done importing 2 rows.\n");
  ASSERT_EQ(Run("read t columns=cf:b keys-only=false"), 0);
  EXPECT_NE(out_.find("\"x,y\""), std::string::npos) << out_;
  EXPECT_NE(out_.find("\"multi\\nline\""), std::string::npos) << out_;
  std::ofstream(csv) << ",a\nr3,v\n";
  EXPECT_EQ(Run("import t " + csv), 1);  // no family row and no column-family=
  ASSERT_EQ(Run("import t " + csv + " column-family=meta"), 0);
  ASSERT_EQ(Run("count t"), 0);
  EXPECT_EQ(out_, "3\n");
  EXPECT_EQ(Run("import t /nonexistent.csv column-family=cf"), 1);
}

// The new user's first import: data from 2019 into a maxage=10d family.
// Every cell is dropped, and the import says so once, with the count and
// the policy.
TEST_F(CbtCommandsTest, ImportSaysWhichCellsItsGcPolicyDropped) {
  ASSERT_EQ(Run("createtable t families=cf:maxage=10d,keep"), 0);
  std::string csv = dir_.Sub("old.csv");
  std::ofstream(csv) << ",cf,,keep\n,a,b,c\nr1,1@1556668800000,2@1556668800000,x\nr2,3@1556668800000,,\n";
  ASSERT_EQ(Run("import t " + csv + " timestamp=value-encoded"), 0);
  EXPECT_EQ(err_,
            "note: 3 cells of family 'cf' were dropped: they are already past its GC policy (age() > 10d)\n"
            "Done importing 2 rows.\n");
  ASSERT_EQ(Run("count t"), 0);
  EXPECT_EQ(out_, "1\n");  // r1 keeps its cell in `keep`
}

TEST_F(CbtCommandsTest, ImportErrorsNameTheirLineAndOnlyTheHintsThatFit) {
  ASSERT_EQ(Run("createtable t families=cf"), 0);
  std::string csv = dir_.Sub("in.csv");
  std::ofstream(csv) << "\n,cf\n,a\nr1,1@1000\nr2,2@1234\nr3,3@2000\n";
  EXPECT_EQ(Run("import t " + csv + " timestamp=value-encoded"), 1);
  EXPECT_EQ(err_,
            "error: line 5: row 'r2' was not written: timestamp 1234 is not a multiple of 1000: table 't' "
            "keeps microseconds at millisecond granularity (MILLIS)\n");
  EXPECT_EQ(message_, "1 row failed; the other 2 were written");
  std::ofstream(csv) << ",cf\n,a\nr1,\"open\n";
  EXPECT_EQ(Run("import t " + csv), 1);
  EXPECT_EQ(message_, "line 3: a quoted field is never closed; no rows were written");  // no JSON hint: it is CSV
  std::string jsonl = dir_.Sub("in.jsonl");
  std::ofstream(jsonl) << R"({"key":"j1","cells":[{"family":"cf","qualifier":"a","value":"v","timestamp":1000}]})"
                       << "\n"
                       << R"({"key":"j2","cells":[{"family":"nope","qualifier":"a","value":"v","timestamp":1000}]})"
                       << "\n";
  EXPECT_EQ(Run("import t " + jsonl), 1);
  EXPECT_NE(err_.find("error: line 2: row 'j2' was not written: column family 'nope' does not exist"),
            std::string::npos)
      << err_;
  EXPECT_EQ(Run("import t " + jsonl + " format=csv"), 1);
  EXPECT_NE(message_.find("(read as CSV; for JSON lines add format=jsonl)"), std::string::npos) << message_;
  EXPECT_EQ(Run("import t " + csv + " format=jsonl"), 1);
  EXPECT_EQ(message_,
            "line 1: not a JSON row object (read as JSON lines; for CSV add format=csv); no rows were written");
}

TEST_F(CbtCommandsTest, JsonLinesWithoutTimestampsAreWrittenNow) {
  ASSERT_EQ(Run("createtable t families=cf"), 0);
  std::string jsonl = dir_.Sub("in.jsonl");
  std::ofstream(jsonl) << R"({"key":"r","cells":[{"family":"cf","qualifier":"a","value":"v"}]})"
                       << "\n";
  const int64_t before = session_->bigtable()->NowMicros();
  ASSERT_EQ(Run("import t " + jsonl), 0);
  ASSERT_OK_AND_ASSIGN(std::optional<Row> row, session_->bigtable()->ReadRow("t", "r"));
  ASSERT_TRUE(row.has_value());
  EXPECT_GE(row->cells[0].timestamp, before);
  EXPECT_LE(row->cells[0].timestamp, session_->bigtable()->NowMicros());
}

// Ctrl-C while reading the input keeps nothing; while writing, the commits
// before it, and the message says how many rows that is.
TEST_F(CbtCommandsTest, AnInterruptedImportSaysWhatItKept) {
  ASSERT_EQ(Run("createtable t families=cf"), 0);
  std::string csv = dir_.Sub("in.csv");
  {
    std::ofstream out(csv);
    out << ",cf\n,a\n";
    for (int i = 0; i < 3000; ++i) out << "r" << 10000 + i << ",v\n";
  }
  RequestInterrupt();
  EXPECT_EQ(Run("import t " + csv), 1);
  EXPECT_EQ(message_, "interrupted; no rows were written");
  std::ofstream(csv) << ",cf\n,a\nb,1\nc,2\na,3\nd,4\n";  // read whole before the first check
  EXPECT_EQ(Run("import t " + csv + " batch-size=2"), 1);
  ClearInterrupt();
  EXPECT_EQ(message_, "interrupted; the first 2 of 4 rows in row key order were written and are kept");
  ASSERT_EQ(Run("read t keys-only=true"), 0);
  EXPECT_NE(out_.find("\na\n"), std::string::npos) << out_;
  EXPECT_NE(out_.find("\nb\n"), std::string::npos) << out_;
  EXPECT_EQ(out_.find("\nc\n"), std::string::npos) << out_;
}

// Unsorted input, input larger than the sort memory, and a table that has
// data in the range already: what import writes is what set writes.
TEST_F(CbtCommandsTest, ImportOfUnsortedRowsMatchesSetOfEach) {
  ASSERT_EQ(Run("createtable t families=cf:maxversions=2"), 0);
  ASSERT_EQ(Run("createtable ref families=cf:maxversions=2"), 0);
  std::string csv = dir_.Sub("in.csv");
  std::ofstream out(csv);
  out << ",cf,\n,a,b\n";
  for (int i = 0; i < 300; ++i) {
    const std::string key = "h" + std::to_string(i % 7) + "#" + std::to_string(1000 + i / 7);
    const std::string a = std::to_string(i) + "@" + std::to_string((1 + i % 3) * 1000);
    out << key << "," << a << ",b" << i << "@5000\n";
    if (i % 50 == 0) {  // data in the range
      ASSERT_EQ(Run("set t " + key + " cf:a=old@1000 cf:c=kept@1000"), 0);
      ASSERT_EQ(Run("set ref " + key + " cf:a=old@1000 cf:c=kept@1000"), 0);
    }
    ASSERT_EQ(Run("set ref " + key + " cf:a=" + a + " cf:b=b" + std::to_string(i) + "@5000"), 0);
  }
  out.close();
  ASSERT_EQ(Run("import t " + csv + " timestamp=value-encoded"), 0);
  ASSERT_EQ(Run("read t"), 0);
  const std::string imported = out_;
  ASSERT_EQ(Run("read ref"), 0);
  EXPECT_EQ(imported, out_);
  EXPECT_GT(imported.size(), 1000u);
}

}  // namespace
}  // namespace lbt

namespace lbt {
namespace {

// hotspots simulates the nodes of the instance's cluster unless nodes= says.
TEST_F(CbtCommandsTest, HotspotsUsesTheClustersNodes) {
  Open(OutputFormat::kJson);
  ASSERT_EQ(Run("createtable t families=cf"), 0);
  ASSERT_EQ(Run("set t r1 cf:a=1@1000"), 0);
  ASSERT_EQ(Run("hotspots t"), 0);
  EXPECT_NE(out_.find("\"nodes\":3,"), std::string::npos) << out_;  // the default instance's cluster
  ASSERT_EQ(Run("updatecluster local-c1 num-nodes=5"), 0);
  ASSERT_EQ(Run("hotspots t"), 0);
  EXPECT_NE(out_.find("\"nodes\":5,"), std::string::npos) << out_;
  ASSERT_EQ(Run("hotspots t nodes=2"), 0);
  EXPECT_NE(out_.find("\"nodes\":2,"), std::string::npos) << out_;
}

// Backups from the shell: a restore holds the table as the backup found it,
// in both dialects.
TEST_F(CbtCommandsTest, BackupsRestoreTheTableOfTheirMoment) {
  ASSERT_EQ(Run("createtable t families=cf"), 0);
  ASSERT_EQ(Run("set t r1 cf:a=1@1000"), 0);
  ASSERT_EQ(Run("createbackup local-c1 b1 t"), 0);
  EXPECT_NE(out_.find("Name: projects/lbt/instances/local/clusters/local-c1/backups/b1\n"), std::string::npos) << out_;
  ASSERT_EQ(Run("set t r2 cf:a=2@1000"), 0);
  ASSERT_EQ(Run("restoretable t-restored local-c1 b1"), 0);
  ASSERT_EQ(Run("count t-restored"), 0);
  EXPECT_EQ(out_, "1\n");
  ASSERT_EQ(Run("listbackups"), 0);
  EXPECT_NE(out_.find("local-c1\tb1\t\tt\t"), std::string::npos) << out_;
  EXPECT_EQ(Run("restoretable t-restored local-c1 b1"), 1);
  EXPECT_NE(message_.find("already exists"), std::string::npos) << message_;
  EXPECT_EQ(Run("createbackup local-c1 b2 t expire=1h"), 1);
  EXPECT_NE(message_.find("at least 6 hours"), std::string::npos) << message_;
  EXPECT_EQ(Run("createbackup local-c1 b2 t expire=soon"), 2);
  EXPECT_EQ(Run("createbackup no-such-cluster b2 t"), 1);
  ASSERT_EQ(Run("deletebackup local-c1 b1"), 0);
  EXPECT_EQ(Run("getbackup local-c1 b1"), 1);
  EXPECT_NE(message_.find("does not exist"), std::string::npos) << message_;

  ASSERT_EQ(Run("snapshot 't', 's1'"), 0);
  ASSERT_EQ(Run("clone_snapshot 's1', 'from-snapshot'"), 0);
  ASSERT_EQ(Run("count from-snapshot"), 0);
  EXPECT_EQ(out_, "2\n");
  EXPECT_EQ(Run("restore_snapshot 's1'"), 1);  // t is enabled
  EXPECT_NE(message_.find("Disable it first"), std::string::npos) << message_;
}

}  // namespace
}  // namespace lbt
