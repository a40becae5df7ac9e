// GoogleSQL over the wire: the one module converting between sql/'s types,
// values and result columns and Bigtable's protos (Type, Value,
// ResultSetMetadata), and framing result rows as ExecuteQuery streams
// them. The server encodes with ResultBatcher; a client decodes with
// ResultAssembler.
//
// The wire form of a value follows its type, which travels once, in the
// metadata: BYTES bytes_value, STRING string_value, INT64 int_value, BOOL
// bool_value, FLOAT32/FLOAT64 float_value, TIMESTAMP timestamp_value, DATE
// date_value; an ARRAY is array_value of its elements, a STRUCT array_value
// of its fields in order, a MAP array_value of entries that are each an
// array_value [key, value]. NULL is a Value with no kind.

#ifndef LBT_PROTO_QUERY_CONVERT_H_
#define LBT_PROTO_QUERY_CONVERT_H_

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"
#include "google/bigtable/v2/bigtable.pb.h"
#include "google/bigtable/v2/data.pb.h"
#include "google/bigtable/v2/types.pb.h"
#include "sql/query.h"
#include "sql/value.h"

namespace lbt::proto {

namespace v2 = ::google::bigtable::v2;

// The CRC32C (Castagnoli) of `data`, as PartialResultSet.batch_checksum
// carries it.
uint32_t Crc32c(std::string_view data);

// ---- types and values ----

v2::Type ToProto(const sql::Type& type);
// `field` names the request field in errors ("param_types[k].map_type...").
Result<sql::TypePtr> SqlTypeFromProto(const v2::Type& type, std::string_view field);

// A value as it appears in ProtoRows or in params, without its type.
v2::Value ToProto(const sql::Value& value);
// Reads `value` as a value of `type`; a kind that does not fit the type is
// InvalidArgument naming `field`.
Result<sql::Value> SqlValueFromProto(const v2::Value& value, const sql::TypePtr& type, std::string_view field);

v2::ResultSetMetadata ToProto(const std::vector<sql::ResultColumn>& columns);
Result<std::vector<sql::ResultColumn>> ColumnsFromProto(const v2::ResultSetMetadata& metadata, std::string_view field);

// ---- the result stream ----

// Gathers result rows into serialized ProtoRows batches.
class ResultBatcher {
 public:
  // A batch is ready once it holds about `batch_bytes`.
  explicit ResultBatcher(size_t batch_bytes) : batch_bytes_(batch_bytes) {}

  // Adds one row; returns true when the batch is ready to send.
  bool Add(const sql::Values& row);
  bool empty() const { return batch_.empty(); }
  // The encoded size of the row Add took last.
  size_t last_row_bytes() const { return last_row_bytes_; }
  // The pending rows as one PartialResultSet (batch_data and its checksum)
  // that ends at `resume_token`; the batch is emptied.
  // With no rows pending it carries only the token.
  v2::PartialResultSet Take(std::string resume_token);

 private:
  const size_t batch_bytes_;
  std::string batch_;
  size_t last_row_bytes_ = 0;
};

// Rebuilds result rows from PartialResultSets, as Bigtable's clients must:
// bytes are buffered until a checksum closes a batch, which is checked and
// parsed, and rows are released only once a resume token follows them.
class ResultAssembler {
 public:
  // REQUIRES: `columns` as the query's metadata gives them.
  explicit ResultAssembler(std::vector<sql::ResultColumn> columns) : columns_(std::move(columns)) {}

  // Handles one message, appending the rows it releases to *ready. An error
  // means the stream broke the protocol or its data is corrupt.
  Status Add(const v2::PartialResultSet& results, std::deque<sql::Values>* ready);
  // OK if nothing is left unreleased (the stream may end here).
  Status Finish() const;
  // The last resume token received: what a retry sends to resume.
  const std::string& resume_token() const { return resume_token_; }
  // Drops what came after the last resume token, before a retry resumes
  // from it.
  void DiscardUnconfirmed() {
    buffer_.clear();
    queued_.clear();
  }

 private:
  Status ParseBatch(uint32_t checksum);

  const std::vector<sql::ResultColumn> columns_;
  std::string buffer_;               // batch bytes awaiting their checksum
  std::vector<sql::Values> queued_;  // parsed rows awaiting a resume token
  std::string resume_token_;
};

}  // namespace lbt::proto

#endif  // LBT_PROTO_QUERY_CONVERT_H_
