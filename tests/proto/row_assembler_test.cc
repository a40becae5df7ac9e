// The ReadRows chunk rules as a client must apply them (data.proto's
// CellChunk comments): rows assemble across responses, split values join,
// a reset drops the row in progress, and a stream that breaks a rule is an
// error rather than a wrong row.

#include "proto/row_assembler.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace lbt::proto {
namespace {

namespace v2 = ::google::bigtable::v2;
using Chunk = v2::ReadRowsResponse::CellChunk;

Chunk Cell(std::string key, std::string family, std::string qualifier, int64_t ts, std::string value,
           bool commit = false) {
  Chunk c;
  if (!key.empty()) c.set_row_key(key);
  if (!family.empty()) c.mutable_family_name()->set_value(family);
  if (!qualifier.empty()) c.mutable_qualifier()->set_value(qualifier);
  c.set_timestamp_micros(ts);
  c.set_value(value);
  c.set_commit_row(commit);
  return c;
}

Chunk Reset() {
  Chunk c;
  c.set_reset_row(true);
  return c;
}

// Feeds each chunk in a response of its own; returns the rows, or the
// first error (Finish's included).
Result<std::vector<Row>> Assemble(const std::vector<Chunk>& chunks) {
  RowAssembler assembler;
  std::vector<Row> rows;
  for (const Chunk& chunk : chunks) {
    v2::ReadRowsResponse response;
    *response.add_chunks() = chunk;
    LBT_RETURN_IF_ERROR(assembler.Add(response, &rows));
  }
  LBT_RETURN_IF_ERROR(assembler.Finish());
  return rows;
}

TEST(RowAssemblerTest, RowsAssembleAcrossResponsesAndSplitValuesJoin) {
  Chunk first = Cell("r1", "f", "a", 2000, "he");
  first.set_value_size(5);
  Chunk rest = Cell("", "", "", 0, "llo");
  Result<std::vector<Row>> rows =
      Assemble({first, rest, Cell("", "", "b", 1000, "x", true), Cell("r2", "g", "c", 0, "y", true)});
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].key, "r1");
  ASSERT_EQ((*rows)[0].cells.size(), 2u);
  EXPECT_EQ((*rows)[0].cells[0].value, "hello");
  EXPECT_EQ((*rows)[0].cells[1].family, "f");  // the family carries over
  EXPECT_EQ((*rows)[0].cells[1].qualifier, "b");
  EXPECT_EQ((*rows)[1].cells[0].family, "g");
}

TEST(RowAssemblerTest, AResetDropsTheRowInProgress) {
  Result<std::vector<Row>> rows =
      Assemble({Cell("r1", "f", "a", 1000, "old"), Reset(), Cell("r1", "f", "a", 1000, "new", true)});
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 1u);
  ASSERT_EQ((*rows)[0].cells.size(), 1u);
  EXPECT_EQ((*rows)[0].cells[0].value, "new");
}

TEST(RowAssemblerTest, StreamsThatBreakTheRulesAreRefused) {
  Chunk reset_with_key = Reset();
  reset_with_key.set_row_key("r1");
  Chunk reset_with_value = Reset();
  reset_with_value.set_value("v");
  Chunk reset_with_timestamp = Reset();
  reset_with_timestamp.set_timestamp_micros(1000);
  Chunk reset_with_family = Reset();
  reset_with_family.mutable_family_name()->set_value("f");
  Chunk reset_with_label = Reset();
  reset_with_label.add_labels("l");
  Chunk family_without_qualifier = Cell("r1", "f", "", 0, "v", true);
  Chunk split = Cell("r1", "f", "a", 0, "he");
  split.set_value_size(5);
  Chunk split_committed = split;  // a piece that announces more commits
  split_committed.set_commit_row(true);
  const std::vector<std::pair<const char*, std::vector<Chunk>>> cases = {
      {"a bare reset", {Reset()}},
      {"a reset after a committed row", {Cell("r1", "f", "a", 0, "v", true), Reset()}},
      {"a reset with a row key", {Cell("r1", "f", "a", 0, "v"), reset_with_key}},
      {"a reset with a value", {Cell("r1", "f", "a", 0, "v"), reset_with_value}},
      {"a reset with a timestamp", {Cell("r1", "f", "a", 0, "v"), reset_with_timestamp}},
      {"a reset with a family", {Cell("r1", "f", "a", 0, "v"), reset_with_family}},
      {"a reset with a label", {Cell("r1", "f", "a", 0, "v"), reset_with_label}},
      {"no row key", {Cell("", "f", "a", 0, "v", true)}},
      {"a family without a qualifier", {family_without_qualifier}},
      {"a new row before commit", {Cell("r1", "f", "a", 0, "v"), Cell("r2", "f", "a", 0, "v", true)}},
      {"a repeated row", {Cell("r1", "f", "a", 0, "v", true), Cell("r1", "f", "a", 0, "v", true)}},
      {"a commit on a piece that announces more", {split_committed, Cell("", "", "", 0, "llo")}},
      {"a split value's piece naming a cell", {split, Cell("", "f", "b", 0, "llo", true)}},
      {"the stream ends inside a row", {Cell("r1", "f", "a", 0, "v")}},
  };
  for (const auto& [name, chunks] : cases) {
    Result<std::vector<Row>> rows = Assemble(chunks);
    EXPECT_FALSE(rows.ok()) << name << " was accepted";
    if (!rows.ok()) EXPECT_NE(rows.status().message().find("chunk rules"), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace lbt::proto
