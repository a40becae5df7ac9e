// ChunkWriter against data.proto's chunk rules and against its reverse:
// rows written as chunks and assembled again by RowAssembler come back
// unchanged, whatever the split size.

#include "proto/chunk_writer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "proto/row_assembler.h"

namespace lbt::proto {
namespace {

namespace v2 = ::google::bigtable::v2;

// Every response a writer sent, and which it sent as the last.
struct Sent {
  std::vector<v2::ReadRowsResponse> responses;
  std::vector<bool> last;

  ChunkWriter::Send Sink() {
    return [this](const v2::ReadRowsResponse& response, bool is_last) {
      responses.push_back(response);
      last.push_back(is_last);
      return true;
    };
  }
  std::vector<v2::ReadRowsResponse::CellChunk> Chunks() const {
    std::vector<v2::ReadRowsResponse::CellChunk> out;
    for (const auto& r : responses) out.insert(out.end(), r.chunks().begin(), r.chunks().end());
    return out;
  }
};

std::vector<Row> SampleRows() {
  return {
      {"r1",
       {{"cf", "a", 3000, "newest", {}},
        {"cf", "a", 2000, "", {}},  // an empty value
        {"cf", "b", 2000, "0123456789", {"tag"}},
        {"other", "b", 1000, "same qualifier, new family", {"x", "y"}}}},
      {"r2", {{"cf", "a", 0, std::string(25, 'v'), {}}}},
      {"r3", {{"other", "", 5, "empty qualifier", {}}}},
  };
}

std::vector<Row> Reassemble(const Sent& sent) {
  RowAssembler assembler;
  std::vector<Row> rows;
  for (const auto& response : sent.responses) EXPECT_TRUE(assembler.Add(response, &rows).ok());
  EXPECT_TRUE(assembler.Finish().ok());
  return rows;
}

void ExpectSameRows(const std::vector<Row>& got, const std::vector<Row>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].key, want[i].key);
    EXPECT_EQ(got[i].cells, want[i].cells) << "row " << want[i].key;
  }
}

TEST(ChunkWriterTest, RowsRoundTripThroughTheAssemblerAtEverySplitSize) {
  for (size_t split : {1, 3, 10, 24, 25, 26, 1 << 20}) {
    Sent sent;
    ChunkWriter writer(sent.Sink(), split);
    for (const Row& row : SampleRows()) ASSERT_TRUE(writer.AddRow(row));
    ASSERT_TRUE(writer.Finish(nullptr, ""));
    SCOPED_TRACE("split size " + std::to_string(split));
    ExpectSameRows(Reassemble(sent), SampleRows());
  }
}

TEST(ChunkWriterTest, KeysFamiliesAndQualifiersAreSentOnlyWhenTheyChange) {
  Sent sent;
  ChunkWriter writer(sent.Sink(), 1 << 20);
  ASSERT_TRUE(writer.AddRow(SampleRows()[0]));
  ASSERT_TRUE(writer.Finish(nullptr, ""));
  const auto chunks = sent.Chunks();
  ASSERT_EQ(chunks.size(), 4u);
  // The row's first chunk: key, family, qualifier.
  EXPECT_EQ(chunks[0].row_key(), "r1");
  EXPECT_EQ(chunks[0].family_name().value(), "cf");
  EXPECT_EQ(chunks[0].qualifier().value(), "a");
  // The same column: nothing repeated.
  EXPECT_TRUE(chunks[1].row_key().empty());
  EXPECT_FALSE(chunks[1].has_family_name());
  EXPECT_FALSE(chunks[1].has_qualifier());
  EXPECT_EQ(chunks[1].timestamp_micros(), 2000);
  // A new qualifier in the same family: the qualifier alone.
  EXPECT_FALSE(chunks[2].has_family_name());
  EXPECT_EQ(chunks[2].qualifier().value(), "b");
  ASSERT_EQ(chunks[2].labels_size(), 1);
  // A new family: family and qualifier, though the qualifier is the same.
  EXPECT_EQ(chunks[3].family_name().value(), "other");
  ASSERT_TRUE(chunks[3].has_qualifier());
  EXPECT_EQ(chunks[3].qualifier().value(), "b");
  // Only the row's last chunk commits it.
  for (size_t i = 0; i + 1 < chunks.size(); ++i) EXPECT_FALSE(chunks[i].commit_row()) << i;
  EXPECT_TRUE(chunks.back().commit_row());
}

TEST(ChunkWriterTest, ALongValueIsSplitAndAnnouncesItsSize) {
  Sent sent;
  ChunkWriter writer(sent.Sink(), 10);
  ASSERT_TRUE(writer.AddRow({"r", {{"cf", "q", 7000, std::string(25, 'v'), {"l"}}}}));
  ASSERT_TRUE(writer.Finish(nullptr, ""));
  const auto chunks = sent.Chunks();
  ASSERT_EQ(chunks.size(), 3u);  // 10 + 10 + 5 bytes
  EXPECT_EQ(chunks[0].value().size(), 10u);
  EXPECT_EQ(chunks[2].value().size(), 5u);
  // The first piece names the cell; the others carry bytes only.
  EXPECT_EQ(chunks[0].timestamp_micros(), 7000);
  EXPECT_EQ(chunks[0].labels_size(), 1);
  for (size_t i = 1; i < chunks.size(); ++i) {
    EXPECT_TRUE(chunks[i].row_key().empty());
    EXPECT_FALSE(chunks[i].has_family_name());
    EXPECT_FALSE(chunks[i].has_qualifier());
    EXPECT_EQ(chunks[i].timestamp_micros(), 0);
    EXPECT_EQ(chunks[i].labels_size(), 0);
  }
  // value_size on every piece but the last; commit on the last alone.
  EXPECT_EQ(chunks[0].value_size(), 25);
  EXPECT_EQ(chunks[1].value_size(), 25);
  EXPECT_EQ(chunks[2].value_size(), 0);
  EXPECT_FALSE(chunks[1].commit_row());
  EXPECT_TRUE(chunks[2].commit_row());
}

TEST(ChunkWriterTest, ResponsesEndOnRowBoundariesAndOnlyTheLastIsLast) {
  Sent sent;
  ChunkWriter writer(sent.Sink(), 64);
  std::vector<Row> rows;
  for (int i = 0; i < 20; ++i)
    rows.push_back({"row" + std::to_string(100 + i), {{"cf", "q", 0, std::string(30, 'x'), {}}}});
  rows.push_back({"big", {{"cf", "q", 0, std::string(500, 'y'), {}}}});  // longer than a response
  rows.push_back({"tail", {{"cf", "q", 0, "z", {}}}});                   // left for Finish
  for (const Row& row : rows) ASSERT_TRUE(writer.AddRow(row));
  ASSERT_TRUE(writer.Finish(nullptr, ""));
  ASSERT_GT(sent.responses.size(), 5u);
  for (size_t i = 0; i < sent.responses.size(); ++i) {
    const auto& response = sent.responses[i];
    ASSERT_GT(response.chunks_size(), 0);
    EXPECT_TRUE(response.chunks(response.chunks_size() - 1).commit_row()) << "response " << i;
    EXPECT_EQ(sent.last[i], i + 1 == sent.responses.size());
  }
  ExpectSameRows(Reassemble(sent), rows);
}

TEST(ChunkWriterTest, FinishCarriesStatsAndTheLastScannedKey) {
  Sent sent;
  ChunkWriter writer(sent.Sink(), 1 << 20);
  ASSERT_TRUE(writer.AddRow({"a", {{"cf", "q", 0, "v", {}}}}));
  v2::RequestStats stats;
  stats.mutable_full_read_stats_view()->mutable_read_iteration_stats()->set_rows_seen_count(7);
  ASSERT_TRUE(writer.Finish(&stats, "zz"));
  ASSERT_EQ(sent.responses.size(), 1u);
  EXPECT_TRUE(sent.last[0]);
  EXPECT_EQ(sent.responses[0].chunks_size(), 1);
  EXPECT_EQ(sent.responses[0].request_stats().full_read_stats_view().read_iteration_stats().rows_seen_count(), 7);
  EXPECT_EQ(sent.responses[0].last_scanned_row_key(), "zz");
}

TEST(ChunkWriterTest, NothingToSayIsNotSent) {
  Sent sent;
  ChunkWriter writer(sent.Sink(), 1 << 20);
  ASSERT_TRUE(writer.AddRow({"empty", {}}));
  ASSERT_TRUE(writer.Finish(nullptr, ""));
  EXPECT_TRUE(sent.responses.empty());
}

TEST(ChunkWriterTest, AFailedSendIsReported) {
  int sends = 0;
  ChunkWriter writer([&](const v2::ReadRowsResponse&, bool) { return ++sends < 2; }, 8);
  EXPECT_TRUE(writer.AddRow({"a", {{"cf", "q", 0, "0123456789", {}}}}));
  EXPECT_FALSE(writer.AddRow({"b", {{"cf", "q", 0, "0123456789", {}}}}));
  EXPECT_EQ(sends, 2);
}

}  // namespace
}  // namespace lbt::proto
