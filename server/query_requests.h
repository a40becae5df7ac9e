// What PrepareQuery and ExecuteQuery exchange besides rows: the
// prepared_query bytes, parameters and resume tokens.
//
// A prepared query is the query text and its parameter types, serialized
// with a fingerprint of what it was planned against (the result's columns
// and the schemas of the tables it reads) and its expiry: the server keeps
// no state between PrepareQuery and ExecuteQuery, so a prepared query stays
// valid across restarts. It is bound again on each execution (which costs
// microseconds); when the fingerprint no longer matches, or the expiry has
// passed, the execution fails as production's does (FAILED_PRECONDITION,
// PREPARED_QUERY_EXPIRED), and the client prepares the query again.
//
// A resume token counts the result rows delivered before it; resuming
// runs the query again and skips them. The final token says that every row
// was delivered.

#ifndef LBT_SERVER_QUERY_REQUESTS_H_
#define LBT_SERVER_QUERY_REQUESTS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "api/forwarding_bigtable.h"
#include "api/status.h"
#include "google/bigtable/v2/bigtable.pb.h"
#include "sql/query.h"

namespace lbt::server {

namespace v2 = ::google::bigtable::v2;

// What a prepared query's bytes hold.
struct PreparedQueryToken {
  v2::PrepareQueryRequest request;  // its query and param_types
  uint64_t fingerprint = 0;         // SchemaWitness::Fingerprint when prepared
  int64_t valid_until_micros = 0;
};

// WARNING: clients hold these bytes and send them back, possibly to a newer
// server: change the format only with a new prefix, and keep recognizing
// the old ones (an older format's bytes are answered as expired, so that
// the client prepares the query again).
std::string EncodePreparedQuery(const PreparedQueryToken& token);
// The token EncodePreparedQuery made. InvalidArgument for bytes that are
// no prepared query; PreparedQueryExpired for an older format's.
Result<PreparedQueryToken> DecodePreparedQuery(std::string_view bytes);

// A Bigtable that notes what a query is planned against: the schema of
// every table it looks up (their families and value types, and row-key
// schema; not GC rules, which change no result), for a prepared query's
// fingerprint.
class SchemaWitness : public ForwardingBigtable {
 public:
  explicit SchemaWitness(Bigtable* target) : ForwardingBigtable(target) {}
  Result<TableSpec> GetTable(std::string_view table) override;
  // A fingerprint of the schemas looked up so far and of `metadata`, the
  // query's result columns.
  uint64_t Fingerprint(const v2::ResultSetMetadata& metadata) const;

 private:
  std::string seen_;  // the schemas looked up, in a canonical text
};

Result<sql::ParamTypes> ParamTypesFromProto(const google::protobuf::Map<std::string, v2::Type>& types);
// The values of ExecuteQuery's params. With `declared` (a prepared query),
// a value's type may be left out and otherwise must match; without, every
// value carries its type.
Result<sql::Params> ParamsFromProto(const google::protobuf::Map<std::string, v2::Value>& params,
                                    const sql::ParamTypes* declared);

std::string ResumeToken(int64_t rows_delivered);
inline constexpr std::string_view kFinalResumeToken = "lbt-rows:end";
// The rows delivered before `token`, or -1 for the final token.
Result<int64_t> RowsBeforeResumeToken(std::string_view token);

}  // namespace lbt::server

#endif  // LBT_SERVER_QUERY_REQUESTS_H_
