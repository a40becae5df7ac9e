// Reassembles the rows of a ReadRows stream from its cell chunks, as a
// client does: a row key starts a row, family and qualifier carry over until
// changed, a value may arrive in pieces (value_size announces the whole),
// commit_row ends the row and reset_row discards it.

#ifndef LBT_PROTO_ROW_ASSEMBLER_H_
#define LBT_PROTO_ROW_ASSEMBLER_H_

#include <vector>

#include "api/cell.h"
#include "api/status.h"
#include "google/bigtable/v2/bigtable.pb.h"

namespace lbt::proto {

class RowAssembler {
 public:
  // Adds a response's chunks, appending each row they complete to *rows.
  // An error means the stream broke Bigtable's chunk rules.
  Status Add(const google::bigtable::v2::ReadRowsResponse& response, std::vector<Row>* rows);
  // OK if the stream ended between rows.
  Status Finish() const;

 private:
  Status AddChunk(const google::bigtable::v2::ReadRowsResponse::CellChunk& chunk, std::vector<Row>* rows);

  Row row_;
  bool in_row_ = false;
  bool in_value_ = false;  // a split value's remaining pieces are due
  std::string family_;
  std::string qualifier_;
  std::string last_key_;
};

}  // namespace lbt::proto

#endif  // LBT_PROTO_ROW_ASSEMBLER_H_
