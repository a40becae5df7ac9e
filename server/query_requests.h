// What PrepareQuery and ExecuteQuery exchange besides rows: the
// prepared_query bytes, parameters and resume tokens.
//
// A prepared query is the query text and its parameter types, serialized:
// the server keeps no state between PrepareQuery and ExecuteQuery, so a
// prepared query stays valid across restarts and sees schema changes (it
// is bound again on each execution, which costs microseconds).
//
// A resume token counts the result rows delivered before it; resuming
// runs the query again and skips them. The final token says that every row
// was delivered.

#ifndef LBT_SERVER_QUERY_REQUESTS_H_
#define LBT_SERVER_QUERY_REQUESTS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "api/status.h"
#include "google/bigtable/v2/bigtable.pb.h"
#include "sql/query.h"

namespace lbt::server {

namespace v2 = ::google::bigtable::v2;

// WARNING: clients hold these bytes and send them back, possibly to a newer
// server: change the format only with a new prefix, and keep reading the
// old one.
std::string EncodePreparedQuery(const v2::PrepareQueryRequest& request);
// The query and parameter types of bytes EncodePreparedQuery made.
Result<v2::PrepareQueryRequest> DecodePreparedQuery(std::string_view bytes);

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
