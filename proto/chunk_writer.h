// Turns rows into ReadRowsResponse messages, as a server streams them: the
// reverse of RowAssembler (proto/row_assembler.h), and held to the same
// chunk rules (data.proto's CellChunk comments):
//
//   - a row's first chunk carries its key; the others leave it out;
//   - family_name is set when the family changes, and then qualifier too;
//     qualifier is set when the column changes; each is left out otherwise;
//   - a value longer than the split size goes in pieces: the first piece
//     carries the cell's timestamp and labels, and every piece but the last
//     announces the whole value's length in value_size;
//   - the row's last chunk sets commit_row.
//
// Rows are batched into responses of about a set size, and a row never
// spans two responses: clients (Go's, for one) check that each response
// ends on a row boundary, as production's responses do.

#ifndef LBT_PROTO_CHUNK_WRITER_H_
#define LBT_PROTO_CHUNK_WRITER_H_

#include <cstddef>
#include <functional>
#include <string>

#include "api/cell.h"
#include "google/bigtable/v2/bigtable.pb.h"

namespace lbt::proto {

class ChunkWriter {
 public:
  // Sends one response; `last` is true for the stream's last. Returns false
  // if it could not be sent (the client went away).
  using Send = std::function<bool(const google::bigtable::v2::ReadRowsResponse& response, bool last)>;

  // A response goes out once its rows hold about `response_bytes`; a value
  // longer than `response_bytes` is split into pieces of that size.
  // REQUIRES: response_bytes > 0.
  ChunkWriter(Send send, size_t response_bytes) : send_(std::move(send)), response_bytes_(response_bytes) {}

  // Adds the row's cells (a row without cells adds nothing), and sends them
  // if enough are pending. Returns false if a send failed.
  bool AddRow(const Row& row);

  // Sends what is pending as the last response. `stats`, if set, rides on
  // it, and so does `last_scanned`, if not empty: the key of the last row
  // the read looked at, past every row returned. Sends nothing if there is
  // nothing to say. Returns false if the send failed.
  bool Finish(const google::bigtable::v2::RequestStats* stats, const std::string& last_scanned);

 private:
  void AddCell(const std::string* row_key, bool new_family, bool new_column, const Cell& cell, bool last);
  bool Flush(bool last);

  Send send_;
  const size_t response_bytes_;
  google::bigtable::v2::ReadRowsResponse response_;
  size_t pending_bytes_ = 0;
};

}  // namespace lbt::proto

#endif  // LBT_PROTO_CHUNK_WRITER_H_
