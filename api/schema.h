// Tables, column families, garbage-collection rules and value types.

#ifndef LBT_API_SCHEMA_H_
#define LBT_API_SCHEMA_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/authorized_view.h"
#include "api/change_stream.h"
#include "api/ids.h"
#include "api/row_key_schema.h"
#include "api/schema_bundle.h"
#include "api/status.h"

namespace lbt {

// A table's number in the engine's keys (see storage/format/key_codec.h).
using TableId = uint32_t;
// A family's place in its table's creation order (see FamilySpec::id).
using FamilyId = uint32_t;

// A family's garbage-collection rule, as Bigtable's GcRule message.
struct GcRule {
  enum class Kind { kNever, kMaxVersions, kMaxAge, kIntersection, kUnion };

  Kind kind = Kind::kNever;
  int64_t max_versions = 0;    // kMaxVersions: keep the newest N cells
  int64_t max_age_micros = 0;  // kMaxAge: collect cells older than this
  std::vector<GcRule> rules;   // kIntersection, kUnion

  static GcRule Never() { return {}; }
  static GcRule MaxVersions(int64_t n);
  static GcRule MaxAge(int64_t micros);
  static GcRule Intersection(std::vector<GcRule> rules);
  static GcRule Union(std::vector<GcRule> rules);

  // True if a cell is eligible for collection: `index` is its position in
  // its column (0 = newest), `timestamp` its timestamp, `now` the current
  // time, all in microseconds. An intersection collects a cell only when all
  // its rules do; a union when any does.
  bool Collects(int64_t index, int64_t timestamp, int64_t now) const;

  // True if this rule can ever collect a cell (false for Never).
  bool CanCollect() const;

  // OK if versions and ages are positive and unions/intersections non-empty.
  Status Validate() const;

  bool operator==(const GcRule& other) const;
};

// A family's value type, as Bigtable's Type message.
//
// kString is a string type with UTF-8 bytes encoding. kStringUtf8Raw is the
// same type under the deprecated `utf8_raw` encoding, which cbt's
// `setvaluetype` still sends: Bigtable stores it as kString (see
// StoredValueType), but a service that echoes it back, as the emulator does,
// is shown as it answered.
//
// kHllInt64 and kHllBytes are HyperLogLog++ distinct counts
// (`hllpp_unique_count`) of INT64 inputs (cbt's "inthll") or of raw bytes;
// their cells hold sketches (api/hll_sketch.h).
//
// kProto and kEnum name a type of one of the table's schema bundles
// (FamilySpec::schema_bundle_id, type_name): cells hold that protobuf
// message's encoding, or an enum's number as an 8-byte big-endian int64.
enum class ValueType {
  kBytes,
  kIntSum,
  kIntMin,
  kIntMax,
  kString,
  kStringUtf8Raw,
  kHllInt64,
  kHllBytes,
  kProto,
  kEnum
};

// "bytes", "intsum", "intmin", "intmax", "string", "inthll", "rawhll",
// "proto", "enum"; kStringUtf8Raw is "string" too.
// WARNING: these names are stored in the catalog (storage/catalog.cc).
std::string_view ValueTypeName(ValueType type);
// Parses a name produced by ValueTypeName. Returns InvalidArgument otherwise.
Result<ValueType> ParseValueType(std::string_view name);
// An int64 aggregate: its cells hold 8-byte big-endian integers.
inline bool IsIntAggregate(ValueType type) {
  return type == ValueType::kIntSum || type == ValueType::kIntMin || type == ValueType::kIntMax;
}
// An HLL++ aggregate: its cells hold sketches.
inline bool IsHll(ValueType type) { return type == ValueType::kHllInt64 || type == ValueType::kHllBytes; }
// A family written by AddToCell and MergeToCell, not by append or increment.
inline bool IsAggregate(ValueType type) { return IsIntAggregate(type) || IsHll(type); }
// The type Bigtable keeps when asked for `type`: the deprecated string
// encoding becomes UTF-8 bytes.
inline ValueType StoredValueType(ValueType type) {
  return type == ValueType::kStringUtf8Raw ? ValueType::kString : type;
}
// OK if a family of type `from` may become `to`. Bigtable refuses a change
// to or from an aggregate type: InvalidArgument, naming the family.
Status CheckValueTypeChange(std::string_view family, ValueType from, ValueType to);

struct FamilySpec {
  std::string name;
  GcRule gc_rule;
  ValueType value_type = ValueType::kBytes;
  // kProto and kEnum: the schema bundle and the type's full name in it
  // ("pkg.Message", "pkg.Enum").
  std::string schema_bundle_id;
  std::string type_name;
  // The family's creation order in its table, as production keeps it: a
  // row's cells come family by family in increasing id. Ids only grow, so
  // a family dropped and created again sorts last. 0 until the table
  // stores the family (then 1 or more).
  FamilyId id = 0;
};

// One change to a table's column families, as ModifyColumnFamilies carries
// it; several apply together, all or none.
struct FamilyChange {
  enum class Kind { kCreate, kUpdate, kDrop };
  Kind kind = Kind::kCreate;
  // kCreate: the new family. kUpdate, kDrop: only its name counts.
  FamilySpec family;
  // kUpdate: what changes; what is unset stays.
  std::optional<GcRule> gc_rule;
  std::optional<ValueType> value_type;

  static FamilyChange Create(FamilySpec family) { return {Kind::kCreate, std::move(family), {}, {}}; }
  static FamilyChange Update(std::string family) {
    return {Kind::kUpdate, FamilySpec{std::move(family), {}, ValueType::kBytes}, {}, {}};
  }
  static FamilyChange SetGcRule(std::string family, GcRule rule) {
    return {Kind::kUpdate, FamilySpec{std::move(family), {}, ValueType::kBytes}, std::move(rule), {}};
  }
  static FamilyChange SetValueType(std::string family, ValueType type) {
    return {Kind::kUpdate, FamilySpec{std::move(family), {}, ValueType::kBytes}, {}, type};
  }
  static FamilyChange Drop(std::string family) {
    return {Kind::kDrop, FamilySpec{std::move(family), {}, ValueType::kBytes}, {}, {}};
  }
};

// Where a restored table came from (Bigtable's RestoreInfo).
struct RestoreInfo {
  std::string backup;        // "projects/P/instances/I/clusters/C/backups/B"
  std::string source_table;  // "projects/P/instances/I/tables/T"
  int64_t start_time_micros = 0;
  int64_t end_time_micros = 0;
};

// Bigtable's automated backup policy: a backup of the table every
// `frequency`, each kept for `retention`.
struct AutomatedBackupPolicy {
  int64_t retention_micros = 0;  // 3 to 90 days
  int64_t frequency_micros = 0;  // 24 hours, the only value production takes
  friend bool operator==(const AutomatedBackupPolicy& a, const AutomatedBackupPolicy& b) {
    return a.retention_micros == b.retention_micros && a.frequency_micros == b.frequency_micros;
  }
};

// Production's rules: a retention of 3 to 90 days, a frequency of 24 hours
// (0, unset, means 24 hours; *policy gets it). InvalidArgument naming `field`.
Status ValidateAutomatedBackupPolicy(AutomatedBackupPolicy* policy, std::string_view field);

// The unit a table keeps timestamps in (Table.granularity). Fixed when the
// table is created.
enum class TimestampGranularity { kMillis, kMicros };

// "millis", "micros".
// WARNING: these names are stored in the catalog (storage/catalog.cc).
std::string_view GranularityName(TimestampGranularity granularity);
// Parses a name produced by GranularityName, in any case. InvalidArgument
// naming the choices otherwise.
Result<TimestampGranularity> ParseGranularity(std::string_view name);
// The microseconds a timestamp of the table is a multiple of: 1000 or 1.
inline int64_t GranularityMicros(TimestampGranularity granularity) {
  return granularity == TimestampGranularity::kMicros ? 1 : 1000;
}

// Table.tiered_storage_config: cells older than this go to the infrequent
// access tier, which production requires be at least 30 days. A local
// table keeps and shows it; it has one tier.
struct TieredStorage {
  int64_t infrequent_access_older_than_micros = 0;
  friend bool operator==(const TieredStorage&, const TieredStorage&) = default;
};
inline constexpr int64_t kMinInfrequentAccessAgeMicros = int64_t{30} * 24 * 3600 * 1000000;
// InvalidArgument naming `field` for an age under 30 days.
Status ValidateTieredStorage(const TieredStorage& tiers, std::string_view field);

// What CreateTable makes: a table's families and the settings it starts
// with.
struct NewTable {
  // Created in this order: their cells come in this order.
  std::vector<FamilySpec> families;
  // Row keys to split the new table's tablets at, for a service that has
  // tablets (a local database has none, and ignores them).
  std::vector<std::string> splits;
  bool deletion_protection = false;
  TimestampGranularity granularity = TimestampGranularity::kMillis;
  std::optional<AutomatedBackupPolicy> automated_backup_policy;
  std::optional<TieredStorage> tiered_storage;
  std::optional<RowKeySchema> row_key_schema;
};

struct TableSpec {
  std::string name;
  TableId id = 0;
  std::map<std::string, FamilySpec, std::less<>> families;  // by name
  // The id the next family created gets (FamilySpec::id).
  FamilyId next_family_id = 1;
  // HBase's disable/enable: a disabled table refuses reads and writes.
  bool enabled = true;
  // Bigtable's deletion protection: the table and its families cannot be
  // deleted while it is on.
  bool deletion_protection = false;
  // Timestamps are multiples of GranularityMicros(granularity).
  TimestampGranularity granularity = TimestampGranularity::kMillis;
  // Set on a table kept after its deletion, for an undelete: when it was
  // deleted (Database::DeleteTableKeeping).
  std::optional<int64_t> deleted_micros;
  // Set on a table RestoreTable made.
  std::optional<RestoreInfo> restored_from;
  // Its authorized views, by id (a local table's; GetTable of a remote one
  // leaves them out), and the etags handed out to them so far.
  std::vector<AuthorizedViewSpec> authorized_views;
  // Its schema bundles, by id.
  std::vector<SchemaBundleSpec> schema_bundles;
  int64_t view_etags_issued = 0;
  // Set while the row key is declared a struct of fields.
  std::optional<RowKeySchema> row_key_schema;
  // Set while a tiered storage rule is.
  std::optional<TieredStorage> tiered_storage;
  // Set while automated backups are on (lbt serve takes them).
  std::optional<AutomatedBackupPolicy> automated_backup_policy;
  // Set while its change stream is on (api/change_stream.h).
  std::optional<ChangeStreamConfig> change_stream;

  // Returns the family or nullptr.
  const FamilySpec* FindFamily(std::string_view family) const;
  // Returns the family with this id, or nullptr.
  const FamilySpec* FindFamilyById(FamilyId id) const;
  // The families in creation order: the order of a row's cells. Families
  // without ids (a remote table's) come by name.
  std::vector<const FamilySpec*> FamiliesInCreationOrder() const;
  // Adds `family` with the next id. REQUIRES: no family of its name.
  void AddFamily(FamilySpec family);
  // Like FindFamily, but a missing family is a NotFound error that lists
  // the families the table has. Writes use it too: production answers a
  // write to a family the table lacks with NOT_FOUND ("Requested column
  // family not found"; googleapis/java-bigtable#32 records the same code
  // for a read).
  Result<const FamilySpec*> RequireFamily(std::string_view family) const;
  // The family names joined with ", ", for error messages.
  std::string FamilyList() const;
};

// table.proto's rules for a row-key schema of `table`, InvalidArgument
// naming `field` (".fields[i]" and so on): at least one field, each named
// (not "_key" or "_timestamp", no name twice, none a family of the table);
// a singleton has exactly one field; a delimiter is not empty.
Status ValidateRowKeySchema(const RowKeySchema& schema, const TableSpec& table, std::string_view field);

// The table's own id in a name a local database catalogues: an instance's
// tables other than the default's are "<project>/<instance>/<table>" there
// (a table id never holds a '/'), and messages name the table alone.
inline std::string_view TableIdOf(std::string_view catalog_name) {
  return catalog_name.substr(catalog_name.rfind('/') + 1);
}

}  // namespace lbt

#endif  // LBT_API_SCHEMA_H_
