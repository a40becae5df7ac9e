// The one module that converts between lbt's engine model and Bigtable's
// protos (google.bigtable.v2 and google.bigtable.admin.v2): row sets, filters, mutations, read-modify-write rules, GC
// rules, value types, families and tables. The server uses it to turn requests into engine calls; a client of a remote
// Bigtable uses it the other way round.
//
// Every FromProto validates what it converts the way Bigtable's service
// does, and an error names the offending field by its proto path, e.g.
// "mutations[2].set_cell.timestamp_micros: ...". It needs protobuf only;
// statuses map to gRPC's in proto/grpc_status.h.

#ifndef LBT_PROTO_CONVERT_H_
#define LBT_PROTO_CONVERT_H_

#include <string>
#include <string_view>
#include <vector>

#include "api/filter.h"
#include "api/instance.h"
#include "api/mutation.h"
#include "api/resource.h"
#include "api/row_set.h"
#include "api/schema.h"
#include "api/status.h"
#include "google/bigtable/admin/v2/table.pb.h"
#include "google/bigtable/admin/v2/types.pb.h"
#include "google/bigtable/v2/data.pb.h"

namespace lbt::proto {

namespace v2 = ::google::bigtable::v2;
namespace admin = ::google::bigtable::admin::v2;

// ---- reads ----

// An empty RowSet means every row. A range whose start is not below its end
// is INVALID_ARGUMENT, as production answers it.
Result<RowSet> FromProto(const v2::RowSet& rows, std::string_view field);
v2::RowSet ToProto(const RowSet& rows);

// The whole RowFilter of the pinned proto. Structural problems (no filter
// set) are reported here; the rest (chains of one, bad regexes, negative
// limits) by CompileFilter, under the same path.
Result<Filter> FromProto(const v2::RowFilter& filter, std::string_view field);
// The filters Bigtable's RowFilter can express. HBase-only kinds (union,
// skip, while, compare, pages, ...) are INVALID_ARGUMENT here.
Result<v2::RowFilter> ToProto(const Filter& filter);

// ---- writes ----

Result<Mutation> FromProto(const v2::Mutation& mutation, std::string_view field);

// A write's idempotency (`field` is "idempotency" or "entries[i].idempotency"):
// a token of 8 to 1024 bytes (data.proto asks at least 8), and the first
// attempt's start_time. INVALID_ARGUMENT naming the field otherwise.
Result<Idempotency> FromProto(const v2::Idempotency& idempotency, std::string_view field);
v2::Idempotency ToProto(const Idempotency& idempotency);
// All of a row's mutations; an empty list is INVALID_ARGUMENT. Bigtable's
// limit on their number is per request, not per list: a server checks it
// once, over the whole request.
Result<std::vector<Mutation>> FromProto(const google::protobuf::RepeatedPtrField<v2::Mutation>& mutations,
                                        std::string_view field);
v2::Mutation ToProto(const Mutation& mutation);

Result<ReadModifyWriteRule> FromProto(const v2::ReadModifyWriteRule& rule, std::string_view field);
v2::ReadModifyWriteRule ToProto(const ReadModifyWriteRule& rule);

// A row as Bigtable's Row message (families grouped, columns grouped).
v2::Row ToProto(const Row& row);
// And back, cells in the message's order.
Row FromProto(const v2::Row& row);

// ---- schema ----

// A google.protobuf.Duration in microseconds. INVALID_ARGUMENT naming
// `field` for what the type does not allow (seconds beyond 10,000 years,
// nanos beyond a second or of the other sign), which would overflow.
Result<int64_t> DurationMicros(const google::protobuf::Duration& d, const std::string& field);
// A google.protobuf.Timestamp in microseconds: INVALID_ARGUMENT naming
// `field` for one outside the type's range (the years 1 to 9999, nanos
// within a second), which would overflow.
Result<int64_t> TimestampMicros(const google::protobuf::Timestamp& t, std::string_view field);

Result<GcRule> FromProto(const admin::GcRule& rule, std::string_view field);
admin::GcRule ToProto(const GcRule& rule);

// An unset type is bytes; a string type is kString, or kStringUtf8Raw under
// the deprecated encoding (the caller decides whether to keep it, see
// StoredValueType); int64 aggregates (sum, min, max) map to intsum, intmin
// and intmax; other types are INVALID_ARGUMENT.
Result<ValueType> ValueTypeFromProto(const admin::Type& type, std::string_view field);
admin::Type ToProto(ValueType type);

Result<FamilySpec> FromProto(std::string_view name, const admin::ColumnFamily& family, std::string_view field);
admin::ColumnFamily ToProto(const FamilySpec& family);

// The table as the view asks: NAME_ONLY gives the name only; every other
// view adds the families and deletion protection.
admin::Table ToProto(const TableSpec& table, const InstanceName& instance, admin::Table::View view);
// A table a service describes; `field` names it in errors.
Result<TableSpec> FromProto(const admin::Table& table, std::string_view field);

// Table.granularity: UNSPECIFIED is MILLIS, as CreateTable takes it.
// InvalidArgument naming `field` for a value table.proto does not define.
Result<TimestampGranularity> GranularityFromProto(int granularity, std::string_view field);
admin::Table::TimestampGranularity ToProto(TimestampGranularity granularity);

// What CreateTable's `table` asks for (families in name order: a proto map
// has none), checked as production does; errors name `field`'s parts.
Result<NewTable> NewTableFromProto(const admin::Table& table, std::string_view field);
// Table.row_key_schema (a Type.Struct), checked for what the proto can
// say wrong (a field of no scalar type, or without an encoding);
// ValidateRowKeySchema checks the rest against the table.
Result<RowKeySchema> RowKeySchemaFromProto(const admin::Type::Struct& schema, std::string_view field);
admin::Type::Struct ToProto(const RowKeySchema& schema);

// The `table` of a CreateTable request for `spec` (its splits go beside it).
admin::Table ToProto(const NewTable& spec);

}  // namespace lbt::proto

#endif  // LBT_PROTO_CONVERT_H_
