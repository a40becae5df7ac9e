#include "proto/chunk_writer.h"

#include <algorithm>

namespace lbt::proto {

namespace v2 = ::google::bigtable::v2;

namespace {

// What a chunk costs on the wire beyond its bytes, roughly: tags, lengths,
// the timestamp.
constexpr size_t kChunkOverhead = 16;

}  // namespace

bool ChunkWriter::AddRow(const Row& row) {
  for (size_t i = 0; i < row.cells.size(); ++i) {
    const Cell& cell = row.cells[i];
    const bool new_family = i == 0 || row.cells[i - 1].family != cell.family;
    const bool new_column = new_family || row.cells[i - 1].qualifier != cell.qualifier;
    AddCell(i == 0 ? &row.key : nullptr, new_family, new_column, cell, i + 1 == row.cells.size());
  }
  return pending_bytes_ < response_bytes_ || Flush(/*last=*/false);
}

bool ChunkWriter::Finish(const v2::RequestStats* stats, const std::string& last_scanned) {
  if (stats != nullptr) *response_.mutable_request_stats() = *stats;
  if (!last_scanned.empty()) response_.set_last_scanned_row_key(last_scanned);
  if (response_.chunks_size() == 0 && stats == nullptr && last_scanned.empty()) return true;
  return Flush(/*last=*/true);
}

void ChunkWriter::AddCell(const std::string* row_key, bool new_family, bool new_column, const Cell& cell, bool last) {
  size_t offset = 0;
  do {
    const size_t piece = std::min(response_bytes_, cell.value.size() - offset);
    v2::ReadRowsResponse::CellChunk* chunk = response_.add_chunks();
    if (offset == 0) {
      if (row_key != nullptr) chunk->set_row_key(*row_key);
      if (new_family) chunk->mutable_family_name()->set_value(cell.family);
      if (new_column) chunk->mutable_qualifier()->set_value(cell.qualifier);
      chunk->set_timestamp_micros(cell.timestamp);
      for (const std::string& label : cell.labels) chunk->add_labels(label);
      pending_bytes_ += cell.family.size() + cell.qualifier.size() + (row_key ? row_key->size() : 0);
    }
    chunk->set_value(cell.value.data() + offset, piece);  // no temporary copy per cell
    offset += piece;
    const bool more = offset < cell.value.size();
    if (more) chunk->set_value_size(static_cast<int32_t>(cell.value.size()));
    if (!more && last) chunk->set_commit_row(true);
    pending_bytes_ += piece + kChunkOverhead;
  } while (offset < cell.value.size());
}

bool ChunkWriter::Flush(bool last) {
  const bool sent = send_(response_, last);
  response_.Clear();
  pending_bytes_ = 0;
  return sent;
}

}  // namespace lbt::proto
