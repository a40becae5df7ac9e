#include "proto/row_assembler.h"

#include <fmt/format.h>

namespace lbt::proto {

namespace {

Status Broken(std::string_view what) {
  return Status::Corruption(fmt::format("the ReadRows stream broke the chunk rules: {}", what));
}

}  // namespace

Status RowAssembler::Add(const google::bigtable::v2::ReadRowsResponse& response, std::vector<Row>* rows) {
  for (const auto& chunk : response.chunks()) LBT_RETURN_IF_ERROR(AddChunk(chunk, rows));
  return Status::OK();
}

Status RowAssembler::AddChunk(const google::bigtable::v2::ReadRowsResponse::CellChunk& chunk, std::vector<Row>* rows) {
  if (chunk.reset_row()) {
    // A reset drops the row in progress, and says nothing else: the row is
    // sent again from its first chunk (data.proto's CellChunk rules).
    if (!in_row_) return Broken("reset_row arrived outside a row");
    if (!chunk.row_key().empty() || chunk.has_family_name() || chunk.has_qualifier() || chunk.timestamp_micros() != 0 ||
        chunk.labels_size() > 0 || !chunk.value().empty() || chunk.value_size() != 0 || chunk.commit_row()) {
      return Broken("a reset_row chunk carries data");
    }
    row_ = Row{};
    in_row_ = in_value_ = false;
    return Status::OK();
  }
  if (in_value_) {
    // The next piece of a split value: nothing but bytes.
    if (!chunk.row_key().empty() || chunk.has_family_name() || chunk.has_qualifier()) {
      return Broken("a split value's piece names a new cell");
    }
    row_.cells.back().value += chunk.value();
  } else {
    if (!chunk.row_key().empty()) {
      if (in_row_ && chunk.row_key() != row_.key) return Broken("a new row key arrived before commit_row");
      if (!in_row_ && !last_key_.empty() && chunk.row_key() == last_key_) return Broken("a row key repeated");
      row_.key = chunk.row_key();
      in_row_ = true;
    } else if (!in_row_) {
      return Broken("a cell arrived with no row key");
    }
    if (chunk.has_family_name()) {
      if (!chunk.has_qualifier()) return Broken("a new family arrived without a qualifier");
      family_ = chunk.family_name().value();
    }
    if (chunk.has_qualifier()) qualifier_ = chunk.qualifier().value();
    Cell cell{family_, qualifier_, chunk.timestamp_micros(), chunk.value(), {}};
    for (const std::string& label : chunk.labels()) cell.labels.push_back(label);
    if (chunk.value_size() > 0) cell.value.reserve(chunk.value_size());
    row_.cells.push_back(std::move(cell));
  }
  in_value_ = chunk.value_size() > 0;
  if (chunk.commit_row()) {
    if (in_value_) return Broken("commit_row arrived in the middle of a value");
    last_key_ = row_.key;
    rows->push_back(std::move(row_));
    row_ = Row{};
    in_row_ = false;
  }
  return Status::OK();
}

Status RowAssembler::Finish() const {
  if (in_row_) return Broken("the stream ended inside a row");
  return Status::OK();
}

}  // namespace lbt::proto
