// Bigtable's ReadRows acceptance corpus (tests/proto/data/readrows.json,
// from googleapis/conformance-tests; see data/README.md) run through
// RowAssembler: each case's chunks must assemble into exactly its cells,
// or, when the case ends in an error, into the cells of the rows committed
// before the stream broke the rules, and then an error.

#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "proto/row_assembler.h"

namespace lbt::proto {
namespace {

namespace v2 = ::google::bigtable::v2;
using json = nlohmann::json;

// One cell as the corpus writes its results: one label at most.
struct ExpectedCell {
  std::string row_key;
  std::string family;
  std::string qualifier;
  int64_t timestamp = 0;
  std::string value;
  std::string label;

  bool operator==(const ExpectedCell&) const = default;
};

std::ostream& operator<<(std::ostream& out, const ExpectedCell& c) {
  return out << "{" << c.row_key << " " << c.family << ":" << c.qualifier << "@" << c.timestamp << " '" << c.value
             << "' label '" << c.label << "'}";
}

struct AcceptanceCase {
  std::string description;
  std::vector<v2::ReadRowsResponse::CellChunk> chunks;
  std::vector<ExpectedCell> cells;
  bool error = false;
};

// A proto3 JSON chunk as the message, through protobuf's own JSON parser
// (bytes are base64, int64s strings, family and qualifier wrappers).
v2::ReadRowsResponse::CellChunk ChunkOf(const json& chunk) {
  v2::ReadRowsResponse::CellChunk out;
  auto parsed = google::protobuf::util::JsonStringToMessage(chunk.dump(), &out);
  EXPECT_TRUE(parsed.ok()) << chunk.dump();
  return out;
}

ExpectedCell ExpectedOf(const json& result) {
  ExpectedCell cell;
  cell.row_key = result.value("rowKey", "");
  cell.family = result.value("familyName", "");
  cell.qualifier = result.value("qualifier", "");
  cell.timestamp = std::stoll(result.value("timestampMicros", "0"));
  cell.value = result.value("value", "");
  cell.label = result.value("label", "");
  return cell;
}

std::vector<AcceptanceCase> LoadCorpus() {
  std::ifstream in(std::string(LBT_SOURCE_DIR) + "/tests/proto/data/readrows.json");
  json corpus = json::parse(in);
  std::vector<AcceptanceCase> cases;
  for (const json& test : corpus.at("readRowsTests")) {
    AcceptanceCase c;
    c.description = test.at("description");
    for (const json& chunk : test.value("chunks", json::array())) c.chunks.push_back(ChunkOf(chunk));
    for (const json& result : test.value("results", json::array())) {
      // Only the last result can be an error (tests.proto).
      if (result.value("error", false)) {
        c.error = true;
      } else {
        c.cells.push_back(ExpectedOf(result));
      }
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

const std::vector<AcceptanceCase>& Corpus() {
  static const std::vector<AcceptanceCase> cases = LoadCorpus();
  return cases;
}

// What a client got from the chunks: the cells of the rows completed, and
// whether the stream broke the rules (an error from Add or from Finish).
struct Assembled {
  std::vector<ExpectedCell> cells;
  bool error = false;
};

Assembled AssembleResponses(const std::vector<v2::ReadRowsResponse>& responses) {
  RowAssembler assembler;
  std::vector<Row> rows;
  Assembled out;
  for (const v2::ReadRowsResponse& response : responses) {
    if (!assembler.Add(response, &rows).ok()) {
      out.error = true;
      break;
    }
  }
  if (!out.error) out.error = !assembler.Finish().ok();
  for (const Row& row : rows) {
    for (const Cell& cell : row.cells) {
      EXPECT_LE(cell.labels.size(), 1u) << "the corpus has one label a cell at most";
      out.cells.push_back({row.key, cell.family, cell.qualifier, cell.timestamp, cell.value,
                           cell.labels.empty() ? "" : cell.labels.front()});
    }
  }
  return out;
}

class ReadRowsAcceptanceTest : public testing::TestWithParam<size_t> {
 protected:
  const AcceptanceCase& test_case() const { return Corpus()[GetParam()]; }

  void ExpectAssembles(const std::vector<v2::ReadRowsResponse>& responses) {
    Assembled got = AssembleResponses(responses);
    EXPECT_EQ(got.error, test_case().error);
    EXPECT_EQ(got.cells, test_case().cells);
  }
};

TEST(ReadRowsAcceptanceCorpus, HoldsAllItsCases) { EXPECT_EQ(Corpus().size(), 48u); }

TEST_P(ReadRowsAcceptanceTest, EachChunkInAResponseOfItsOwn) {
  std::vector<v2::ReadRowsResponse> responses;
  for (const auto& chunk : test_case().chunks) *responses.emplace_back().add_chunks() = chunk;
  ExpectAssembles(responses);
}

TEST_P(ReadRowsAcceptanceTest, AllChunksInOneResponse) {
  v2::ReadRowsResponse response;
  for (const auto& chunk : test_case().chunks) *response.add_chunks() = chunk;
  ExpectAssembles({response});
}

// The case's description as a test name: letters, digits and underscores.
std::string CaseName(const testing::TestParamInfo<size_t>& info) {
  std::string name;
  for (char c : Corpus()[info.param].description) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, ReadRowsAcceptanceTest, testing::Range<size_t>(0, Corpus().size()), CaseName);

}  // namespace
}  // namespace lbt::proto
