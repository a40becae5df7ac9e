// LocalBigtable's schema bundles: kept in their table's catalog entry
// (Database::ChangeTableResources) beside its authorized views, so that
// they go with the table, and checked with protobuf's own builder
// (protoschema/) before they are kept.

#include <fmt/format.h>

#include <algorithm>

#include "api/ids.h"
#include "local/lazy_database.h"
#include "local/local_bigtable.h"
#include "protoschema/descriptor_set.h"
#include "storage/format/record_keys.h"

namespace lbt {

namespace {

std::vector<SchemaBundleSpec>::iterator FindBundle(std::vector<SchemaBundleSpec>* bundles, std::string_view id) {
  return std::find_if(bundles->begin(), bundles->end(), [&](const SchemaBundleSpec& b) { return b.id == id; });
}

Status NoSuchBundle(std::string_view table, std::string_view id) {
  return Status::NotFound(fmt::format("schema bundle '{}' of table '{}' does not exist", id, table));
}

// The families of `families` whose type `descriptors` (bundle `id`'s)
// lacks, as "family (pkg.Type)" phrases.
std::string MissingTypes(const std::vector<FamilySpec>& families, std::string_view id, std::string_view descriptors) {
  std::shared_ptr<const protoschema::ProtoTypes> types;
  if (auto built = protoschema::ProtoTypes::Build(descriptors, "descriptors"); built.ok()) types = *built;
  std::string missing;
  for (const FamilySpec& f : families) {
    if (f.schema_bundle_id != id) continue;
    const bool found =
        types != nullptr && (f.value_type == ValueType::kProto ? types->FindMessage(f.type_name) != nullptr
                                                               : types->FindEnum(f.type_name) != nullptr);
    if (!found) missing += fmt::format("{}{} ({})", missing.empty() ? "" : ", ", f.name, f.type_name);
  }
  return missing;
}

std::vector<FamilySpec> FamiliesOf(const TableSpec& spec) {
  std::vector<FamilySpec> out;
  for (const auto& [name, family] : spec.families) out.push_back(family);
  return out;
}

}  // namespace

Status LocalBigtable::CheckBundleTypes(const TableSpec& table, const std::vector<FamilySpec>& families) {
  for (const FamilySpec& f : families) {
    if (f.value_type != ValueType::kProto && f.value_type != ValueType::kEnum) continue;
    auto bundle = std::find_if(table.schema_bundles.begin(), table.schema_bundles.end(),
                               [&](const SchemaBundleSpec& b) { return b.id == f.schema_bundle_id; });
    if (bundle == table.schema_bundles.end()) {
      return Status::InvalidArgument(fmt::format(
          "column family '{}' names schema bundle '{}', which the table does not have (create the bundle, then the "
          "family)",
          f.name, f.schema_bundle_id));
    }
    const std::string missing = MissingTypes({f}, bundle->id, bundle->descriptors);
    if (!missing.empty()) {
      return Status::InvalidArgument(fmt::format("column family '{}': schema bundle '{}' defines no {} type {}", f.name,
                                                 bundle->id, f.value_type == ValueType::kProto ? "message" : "enum",
                                                 f.type_name));
    }
  }
  return Status::OK();
}

Result<SchemaBundleSpec> LocalBigtable::CreateSchemaBundle(std::string_view table, const SchemaBundleSpec& bundle) {
  LBT_RETURN_IF_ERROR(ValidateSchemaBundleId(bundle.id, "schema_bundle_id"));
  LBT_RETURN_IF_ERROR(
      protoschema::CheckDescriptorSet(bundle.descriptors, "schema_bundle.proto_schema.proto_descriptors"));
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  SchemaBundleSpec stored = bundle;
  LBT_RETURN_IF_ERROR(db->ChangeTableResources(Qualified(table), [&](TableSpec* spec) -> Status {
    auto& bundles = spec->schema_bundles;
    if (FindBundle(&bundles, bundle.id) != bundles.end()) {
      return Status::AlreadyExists(fmt::format("schema bundle '{}' of table '{}' already exists", bundle.id, table));
    }
    stored.etag = std::to_string(++spec->view_etags_issued);
    bundles.insert(std::upper_bound(bundles.begin(), bundles.end(), stored,
                                    [](const SchemaBundleSpec& a, const SchemaBundleSpec& b) { return a.id < b.id; }),
                   stored);
    return Status::OK();
  }));
  return stored;
}

Result<SchemaBundleSpec> LocalBigtable::GetSchemaBundle(std::string_view table, std::string_view bundle_id) {
  LBT_ASSIGN_OR_RETURN(std::vector<SchemaBundleSpec> bundles, ListSchemaBundles(table));
  auto it = FindBundle(&bundles, bundle_id);
  if (it == bundles.end()) return NoSuchBundle(table, bundle_id);
  return std::move(*it);
}

Result<std::vector<SchemaBundleSpec>> LocalBigtable::ListSchemaBundles(std::string_view table) {
  LBT_ASSIGN_OR_RETURN(TableSpec spec, GetTable(table));
  return std::move(spec.schema_bundles);
}

// `ignore_warnings` waives families whose type the new descriptors lack.
Result<SchemaBundleSpec> LocalBigtable::UpdateSchemaBundle(std::string_view table, const SchemaBundleSpec& bundle,
                                                           bool ignore_warnings) {
  LBT_RETURN_IF_ERROR(
      protoschema::CheckDescriptorSet(bundle.descriptors, "schema_bundle.proto_schema.proto_descriptors"));
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  SchemaBundleSpec stored;
  LBT_RETURN_IF_ERROR(db->ChangeTableResources(Qualified(table), [&](TableSpec* spec) -> Status {
    auto it = FindBundle(&spec->schema_bundles, bundle.id);
    if (it == spec->schema_bundles.end()) return NoSuchBundle(table, bundle.id);
    if (!bundle.etag.empty() && bundle.etag != it->etag) return StaleViewEtag("schema bundle", bundle.id);
    const std::string missing = MissingTypes(FamiliesOf(*spec), bundle.id, bundle.descriptors);
    if (!missing.empty() && !ignore_warnings) {
      return Status::FailedPrecondition(fmt::format(
          "schema bundle '{}' would no longer define the types of column families {}; set ignore_warnings to "
          "update it anyway (they then read as bytes)",
          bundle.id, missing));
    }
    it->descriptors = bundle.descriptors;
    it->etag = std::to_string(++spec->view_etags_issued);
    stored = *it;
    return Status::OK();
  }));
  return stored;
}

Status LocalBigtable::DeleteSchemaBundle(std::string_view table, std::string_view bundle_id, std::string_view etag) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->ChangeTableResources(Qualified(table), [&](TableSpec* spec) -> Status {
    auto it = FindBundle(&spec->schema_bundles, bundle_id);
    if (it == spec->schema_bundles.end()) return NoSuchBundle(table, bundle_id);
    if (!etag.empty() && etag != it->etag) return StaleViewEtag("schema bundle", bundle_id);
    for (const auto& [name, family] : spec->families) {
      if (family.schema_bundle_id == bundle_id) {
        return Status::FailedPrecondition(fmt::format(
            "schema bundle '{}' is the type of column family '{}'; drop the family first", bundle_id, name));
      }
    }
    spec->schema_bundles.erase(it);
    return Status::OK();
  });
}

}  // namespace lbt
