#include "api/schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "api/limits.h"

namespace lbt {

GcRule GcRule::MaxVersions(int64_t n) {
  GcRule r;
  r.kind = Kind::kMaxVersions;
  r.max_versions = n;
  return r;
}

GcRule GcRule::MaxAge(int64_t micros) {
  GcRule r;
  r.kind = Kind::kMaxAge;
  r.max_age_micros = micros;
  return r;
}

GcRule GcRule::Intersection(std::vector<GcRule> rules) {
  GcRule r;
  r.kind = Kind::kIntersection;
  r.rules = std::move(rules);
  return r;
}

GcRule GcRule::Union(std::vector<GcRule> rules) {
  GcRule r;
  r.kind = Kind::kUnion;
  r.rules = std::move(rules);
  return r;
}

bool GcRule::Collects(int64_t index, int64_t timestamp, int64_t now) const {
  switch (kind) {
    case Kind::kNever: return false;
    case Kind::kMaxVersions: return index >= max_versions;
    case Kind::kMaxAge: return now - timestamp > max_age_micros;
    case Kind::kIntersection:
      for (const GcRule& r : rules) {
        if (!r.Collects(index, timestamp, now)) return false;
      }
      return !rules.empty();
    case Kind::kUnion:
      for (const GcRule& r : rules) {
        if (r.Collects(index, timestamp, now)) return true;
      }
      return false;
  }
  return false;
}

bool GcRule::CanCollect() const {
  switch (kind) {
    case Kind::kNever: return false;
    case Kind::kMaxVersions:
    case Kind::kMaxAge: return true;
    case Kind::kIntersection:
      for (const GcRule& r : rules) {
        if (!r.CanCollect()) return false;
      }
      return !rules.empty();
    case Kind::kUnion:
      for (const GcRule& r : rules) {
        if (r.CanCollect()) return true;
      }
      return false;
  }
  return false;
}

Status GcRule::Validate() const {
  switch (kind) {
    case Kind::kNever: return Status::OK();
    case Kind::kMaxVersions:
      if (max_versions < 1) {
        return Status::InvalidArgument(fmt::format("maxversions must be at least 1, got {}", max_versions));
      }
      if (max_versions > kMaxGcVersions) {
        return Status::InvalidArgument(
            fmt::format("maxversions must be at most {} (Bigtable keeps the count in 32 bits), got {}", kMaxGcVersions,
                        max_versions));
      }
      return Status::OK();
    case Kind::kMaxAge:
      if (max_age_micros < kTimestampGranularityMicros) {
        return Status::InvalidArgument("maxage must be at least 1ms");
      }
      if (max_age_micros > kMaxGcAgeMicros) {
        return Status::InvalidArgument(
            fmt::format("maxage must be at most {}d (10,000 years, the longest Duration Bigtable's API carries)",
                        kMaxGcAgeMicros / 86'400'000'000LL));
      }
      return Status::OK();
    case Kind::kIntersection:
    case Kind::kUnion:
      if (rules.empty()) {
        return Status::InvalidArgument("a union or intersection GC rule needs at least one rule");
      }
      for (const GcRule& r : rules) LBT_RETURN_IF_ERROR(r.Validate());
      return Status::OK();
  }
  return Status::InvalidArgument("unknown GC rule");
}

bool GcRule::operator==(const GcRule& o) const {
  return kind == o.kind && max_versions == o.max_versions && max_age_micros == o.max_age_micros && rules == o.rules;
}

std::string_view ValueTypeName(ValueType type) {
  switch (type) {
    case ValueType::kBytes: return "bytes";
    case ValueType::kIntSum: return "intsum";
    case ValueType::kIntMin: return "intmin";
    case ValueType::kIntMax: return "intmax";
    case ValueType::kString:
    case ValueType::kStringUtf8Raw: return "string";
    case ValueType::kHllInt64: return "inthll";
    case ValueType::kHllBytes: return "rawhll";
    case ValueType::kProto: return "proto";
    case ValueType::kEnum: return "enum";
  }
  return "bytes";
}

Result<ValueType> ParseValueType(std::string_view name) {
  for (ValueType t : {ValueType::kBytes, ValueType::kIntSum, ValueType::kIntMin, ValueType::kIntMax, ValueType::kString,
                      ValueType::kHllInt64, ValueType::kHllBytes, ValueType::kProto, ValueType::kEnum}) {
    if (name == ValueTypeName(t)) return t;
  }
  return Status::InvalidArgument(
      fmt::format("unknown value type '{}'; expected intsum, intmin, intmax, inthll or rawhll", name));
}

Status ValidateTieredStorage(const TieredStorage& tiers, std::string_view field) {
  if (tiers.infrequent_access_older_than_micros >= kMinInfrequentAccessAgeMicros) return Status::OK();
  return Status::InvalidArgument(
      fmt::format("{}.infrequent_access.include_if_older_than: must be at least 30 days, got {} s", field,
                  tiers.infrequent_access_older_than_micros / 1000000));
}

Status ValidateRowKeySchema(const RowKeySchema& schema, const TableSpec& table, std::string_view field) {
  if (schema.fields.empty()) {
    return Status::InvalidArgument(fmt::format("{}.fields: a row key schema needs at least one field", field));
  }
  std::set<std::string_view> seen;
  for (size_t i = 0; i < schema.fields.size(); ++i) {
    const std::string& name = schema.fields[i].name;
    const std::string at = fmt::format("{}.fields[{}].field_name", field, i);
    if (name.empty()) return Status::InvalidArgument(at + ": a field needs a name");
    if (name == "_key" || name == "_timestamp") {
      return Status::InvalidArgument(fmt::format("{}: '{}' is reserved", at, name));
    }
    if (!seen.insert(name).second) {
      return Status::InvalidArgument(fmt::format("{}: '{}' names two fields", at, name));
    }
    if (table.FindFamily(name) != nullptr) {
      return Status::InvalidArgument(fmt::format("{}: '{}' is a column family of the table", at, name));
    }
  }
  if (schema.encoding == RowKeySchema::Encoding::kSingleton && schema.fields.size() != 1) {
    return Status::InvalidArgument(
        fmt::format("{}.encoding.singleton: only a schema of one field can be a singleton, not of {}", field,
                    schema.fields.size()));
  }
  if (schema.encoding == RowKeySchema::Encoding::kDelimitedBytes &&
      (schema.delimiter.empty() || schema.delimiter.size() > 50)) {
    return Status::InvalidArgument(fmt::format("{}.encoding.delimited_bytes.delimiter: must be 1 to 50 bytes, not {}",
                                               field, schema.delimiter.size()));
  }
  return Status::OK();
}

std::string_view GranularityName(TimestampGranularity granularity) {
  return granularity == TimestampGranularity::kMicros ? "micros" : "millis";
}

Result<TimestampGranularity> ParseGranularity(std::string_view name) {
  for (TimestampGranularity g : {TimestampGranularity::kMillis, TimestampGranularity::kMicros}) {
    const std::string_view known = GranularityName(g);
    if (std::equal(name.begin(), name.end(), known.begin(), known.end(),
                   [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; })) {
      return g;
    }
  }
  return Status::InvalidArgument(fmt::format("unknown timestamp granularity '{}'; expected millis or micros", name));
}

Status CheckValueTypeChange(std::string_view family, ValueType from, ValueType to) {
  from = StoredValueType(from);
  to = StoredValueType(to);
  if (from == to || (!IsAggregate(from) && !IsAggregate(to))) return Status::OK();
  return Status::InvalidArgument(
      fmt::format("column family '{}' cannot change from {} to {}: a value type cannot change to or from an "
                  "aggregate type",
                  family, ValueTypeName(from), ValueTypeName(to)));
}

const FamilySpec* TableSpec::FindFamily(std::string_view family) const {
  auto it = families.find(family);
  return it == families.end() ? nullptr : &it->second;
}

const FamilySpec* TableSpec::FindFamilyById(FamilyId id) const {
  for (const auto& [name, spec] : families) {
    if (spec.id == id) return &spec;
  }
  return nullptr;
}

std::vector<const FamilySpec*> TableSpec::FamiliesInCreationOrder() const {
  std::vector<const FamilySpec*> out;
  out.reserve(families.size());
  for (const auto& [name, spec] : families) out.push_back(&spec);
  // Stable: families without ids (a remote table's: a proto map has no
  // order) stay in name order.
  std::stable_sort(out.begin(), out.end(), [](const FamilySpec* a, const FamilySpec* b) { return a->id < b->id; });
  return out;
}

void TableSpec::AddFamily(FamilySpec family) {
  family.id = next_family_id++;
  std::string name = family.name;
  families.emplace(std::move(name), std::move(family));
}

Result<const FamilySpec*> TableSpec::RequireFamily(std::string_view family) const {
  const FamilySpec* spec = FindFamily(family);
  if (spec == nullptr) {
    return Status::NotFound(fmt::format("column family '{}' does not exist in table '{}'; its families are: {}", family,
                                        TableIdOf(name), FamilyList()));
  }
  return spec;
}

std::string TableSpec::FamilyList() const {
  std::string out;
  for (const auto& [name, spec] : families) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out.empty() ? "(none)" : out;
}

Status ValidateAutomatedBackupPolicy(AutomatedBackupPolicy* policy, std::string_view field) {
  constexpr int64_t kDay = int64_t{24} * 3600 * 1000000;
  if (policy->retention_micros < 3 * kDay || policy->retention_micros > 90 * kDay) {
    return Status::InvalidArgument(
        fmt::format("{}.retention_period: must be at least 3 days and at most 90 days", field));
  }
  if (policy->frequency_micros == 0) policy->frequency_micros = kDay;
  if (policy->frequency_micros != kDay) {
    return Status::InvalidArgument(fmt::format("{}.frequency: the only frequency Bigtable takes is 24 hours", field));
  }
  return Status::OK();
}

}  // namespace lbt
