#include "commands/render/renderer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/test_util.h"

namespace lbt {
namespace {

using nlohmann::json;

Row SampleRow() {
  return Row{
      "key",
      {Cell{"cf", "q", 1000, "v", {}}, Cell{"cf", std::string("\xff", 1), 2000, std::string("\0\xfe", 2), {"lab"}}}};
}

std::string Render(OutputFormat format, BytesMode bytes, const std::function<void(Renderer*)>& fn) {
  std::string text;
  {
    Output out(&text);
    auto r = Renderer::Create(format, bytes, &out);
    fn(r.get());
  }
  return text;
}

TEST(RendererTest, JsonlStreamsOneObjectPerRow) {
  std::string text = Render(OutputFormat::kJsonl, BytesMode::kAuto, [](Renderer* r) {
    r->BeginRows(nullptr);
    r->Row(SampleRow());
    r->Row(Row{"k2", {Cell{"cf", "q", 0, "x", {}}}});
    r->EndRows(nullptr);
  });
  std::istringstream lines(text);
  std::string line;
  std::vector<json> objects;
  while (std::getline(lines, line)) objects.push_back(json::parse(line));
  ASSERT_EQ(objects.size(), 2u);
  const json& first = objects[0];
  EXPECT_EQ(first["key"], "key");
  ASSERT_EQ(first["cells"].size(), 2u);
  EXPECT_EQ(first["cells"][0], (json{{"family", "cf"}, {"qualifier", "q"}, {"timestamp", 1000}, {"value", "v"}}));
  // Invalid UTF-8 moves to *_b64 fields; labels appear when present.
  EXPECT_EQ(first["cells"][1]["qualifier_b64"], "/w==");
  EXPECT_EQ(first["cells"][1]["value_b64"], "AP4=");
  EXPECT_FALSE(first["cells"][1].contains("value"));
  EXPECT_EQ(first["cells"][1]["labels"], json::array({"lab"}));
  EXPECT_FALSE(first["cells"][0].contains("labels"));
}

// Cells of an aggregate family also show the integer their bytes hold.
TEST(RendererTest, AggregateCellsCarryTheirInteger) {
  TableSpec table;
  table.families.emplace("sum", FamilySpec{"sum", GcRule::Never(), ValueType::kIntSum});
  table.families.emplace("cf", FamilySpec{"cf", GcRule::Never(), ValueType::kBytes});
  Row row{"k", {Cell{"cf", "q", 0, EncodeInt64(42), {}}, Cell{"sum", "n", 0, EncodeInt64(-7), {}}}};
  for (OutputFormat format : {OutputFormat::kJson, OutputFormat::kJsonl}) {
    std::string text = Render(format, BytesMode::kAuto, [&](Renderer* r) {
      r->BeginRows(&table);
      r->Row(row);
      r->EndRows(nullptr);
    });
    json parsed = json::parse(text);
    const json& cells = format == OutputFormat::kJson ? parsed["rows"][0]["cells"] : parsed["cells"];
    EXPECT_FALSE(cells[0].contains("value_int")) << "a bytes family's 8 bytes stay bytes";
    EXPECT_EQ(cells[1]["value_int"], -7);
  }
}

TEST(RendererTest, Base64ModeEncodesEveryBytesField) {
  std::string text = Render(OutputFormat::kJsonl, BytesMode::kBase64, [](Renderer* r) { r->Row(SampleRow()); });
  json row = json::parse(text);
  EXPECT_EQ(row["key_b64"], "a2V5");
  EXPECT_EQ(row["cells"][0]["qualifier_b64"], "cQ==");
  EXPECT_EQ(row["cells"][0]["value_b64"], "dg==");
  EXPECT_EQ(row["cells"][0]["family"], "cf");
}

TEST(RendererTest, JsonIsOneDocumentPerCommand) {
  std::string text = Render(OutputFormat::kJson, BytesMode::kAuto, [](Renderer* r) {
    r->BeginRows(nullptr);
    r->Row(SampleRow());
    r->Row(SampleRow());
    ReadSummary s;
    s.stats.rows_seen = 3;
    r->EndRows(&s);
  });
  json doc = json::parse(text);
  EXPECT_EQ(doc["rows"].size(), 2u);
  EXPECT_EQ(doc["stats"]["rows_seen"], 3);
  EXPECT_EQ(json::parse(Render(OutputFormat::kJson, BytesMode::kAuto, [](Renderer* r) { r->Count(7); })),
            (json{{"count", 7}}));
  EXPECT_EQ(json::parse(Render(OutputFormat::kJson, BytesMode::kAuto,
                               [](Renderer* r) {
                                 r->Tables({"a", "b"});
                               })),
            (json{{"tables", {"a", "b"}}}));
  TableSpec spec;
  spec.name = "t";
  spec.families["cf"] = FamilySpec{"cf", GcRule::MaxVersions(2), ValueType::kIntSum};
  json info = json::parse(Render(OutputFormat::kJson, BytesMode::kAuto, [&](Renderer* r) { r->TableInfo(spec); }));
  EXPECT_EQ(info, (json{{"table", "t"},
                        {"families", {{{"name", "cf"}, {"gc_policy", "versions() > 2"}, {"value_type", "intsum"}}}},
                        {"granularity", "millis"}}));
  // A row-key schema, as people read it.
  spec.row_key_schema =
      RowKeySchema{.fields = {{"device", RowKeyField::Type::kString},
                              {"ts", RowKeyField::Type::kInt64, RowKeyField::IntEncoding::kOrderedCodeBytes}},
                   .encoding = RowKeySchema::Encoding::kDelimitedBytes,
                   .delimiter = "#"};
  info = json::parse(Render(OutputFormat::kJson, BytesMode::kAuto, [&](Renderer* r) { r->TableInfo(spec); }));
  EXPECT_EQ(info["row_key_schema"], "device:string#ts:int64(ordered_code) (delimited by '#')");
  EXPECT_EQ(json::parse(Render(OutputFormat::kJson, BytesMode::kAuto,
                               [](Renderer* r) {
                                 r->BeginRows(nullptr);
                                 r->EndRows(nullptr);
                               })),
            (json{{"rows", json::array()}}));
}

TEST(RendererTest, TextPrintsLabelsUnderTheirCell) {
  std::string text = Render(OutputFormat::kText, BytesMode::kAuto, [](Renderer* r) { r->Row(SampleRow()); });
  EXPECT_NE(text.find("    \"\\x00\\xfe\"\n    labels: lab\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace lbt
