#include "api/resource.h"

#include <fmt/format.h>

#include <optional>
#include <utility>

#include "util/bytes.h"

namespace lbt {

namespace {

Status Invalid(std::string_view field, std::string_view what) {
  return Status::InvalidArgument(fmt::format("{}: {}", field, what));
}

// Whether `parts` begin "projects/P/instances/I" with P and I not empty.
bool IsInstancePath(const std::vector<std::string_view>& parts) {
  return parts.size() >= 4 && parts[0] == "projects" && !parts[1].empty() && parts[2] == "instances" &&
         !parts[3].empty();
}

bool IsClusterPath(const std::vector<std::string_view>& parts) {
  return parts.size() >= 6 && IsInstancePath(parts) && parts[4] == "clusters" && !parts[5].empty();
}

InstanceName InstanceFromParts(const std::vector<std::string_view>& parts) {
  return InstanceName{std::string(parts[1]), std::string(parts[3])};
}

}  // namespace

Status CheckResourceNameLength(std::string_view name, std::string_view field) {
  if (name.size() <= kMaxResourceNameBytes) return Status::OK();
  return Invalid(field, fmt::format("'{}' is {} bytes long; a resource name has at most {}", Abbreviated(name),
                                    name.size(), kMaxResourceNameBytes));
}

std::vector<std::string_view> SplitResourceName(std::string_view name) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    size_t slash = name.find('/', start);
    out.push_back(name.substr(start, slash == std::string_view::npos ? slash : slash - start));
    if (slash == std::string_view::npos) return out;
    start = slash + 1;
  }
}

std::string_view ResourceId(std::string_view name) {
  const size_t slash = name.rfind('/');
  return slash == std::string_view::npos ? name : name.substr(slash + 1);
}

std::string ProjectName(std::string_view project) { return fmt::format("projects/{}", project); }

Result<std::string> ParseProjectName(std::string_view name, std::string_view field) {
  LBT_RETURN_IF_ERROR(CheckResourceNameLength(name, field));
  std::vector<std::string_view> parts = SplitResourceName(name);
  if (parts.size() != 2 || parts[0] != "projects" || parts[1].empty()) {
    return Invalid(field, fmt::format("'{}' is not a project name of the form projects/<project>", Abbreviated(name)));
  }
  return std::string(parts[1]);
}

Status ValidateInstanceName(std::string_view name, std::string_view field) {
  return ParseInstanceName(name, field).status();
}

Result<InstanceName> ParseInstanceName(std::string_view name, std::string_view field) {
  LBT_RETURN_IF_ERROR(CheckResourceNameLength(name, field));
  std::vector<std::string_view> parts = SplitResourceName(name);
  if (parts.size() != 4 || !IsInstancePath(parts)) {
    return Invalid(field, fmt::format("'{}' is not an instance name of the form "
                                      "projects/<project>/instances/<instance>",
                                      Abbreviated(name)));
  }
  return InstanceFromParts(parts);
}

Result<ChildName> ParseChildName(std::string_view name, std::string_view collection, std::string_view field) {
  LBT_RETURN_IF_ERROR(CheckResourceNameLength(name, field));
  std::vector<std::string_view> parts = SplitResourceName(name);
  if (parts.size() != 6 || !IsInstancePath(parts) || parts[4] != collection || parts[5].empty()) {
    return Invalid(field, fmt::format("'{}' is not a name of the form projects/<project>/instances/<instance>/{}/<id>",
                                      Abbreviated(name), collection));
  }
  return ChildName{InstanceFromParts(parts), std::string(parts[5])};
}

std::string FullTableName(const InstanceName& instance, std::string_view table) {
  return instance.Child("tables", table);
}

Result<TableRef> ParseTableName(std::string_view name, std::string_view field) {
  LBT_RETURN_IF_ERROR(CheckResourceNameLength(name, field));
  std::vector<std::string_view> parts = SplitResourceName(name);
  if (parts.size() != 6 || !IsInstancePath(parts) || parts[4] != "tables" || parts[5].empty()) {
    return Invalid(field, fmt::format("'{}' is not a table name of the form "
                                      "projects/<project>/instances/<instance>/tables/<table>",
                                      Abbreviated(name)));
  }
  TableRef ref = TableRef::Table(std::string(parts[5]));
  ref.instance = InstanceFromParts(parts);
  return ref;
}

namespace {

// `<table name><kind><id>` (kind "/authorizedViews/" and kin): the table and
// the id, or nullopt when `name` is no such name.
std::optional<std::pair<TableRef, std::string>> TableChild(std::string_view name, std::string_view kind,
                                                           std::string_view field) {
  const size_t at = name.rfind(kind);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view id = name.substr(at + kind.size());
  Result<TableRef> table = ParseTableName(name.substr(0, at), field);
  if (!table.ok() || id.empty() || id.find('/') != std::string_view::npos) return std::nullopt;
  return std::make_pair(std::move(*table), std::string(id));
}

}  // namespace

Result<TableRef> ParseAuthorizedViewName(std::string_view name, std::string_view field) {
  LBT_RETURN_IF_ERROR(CheckResourceNameLength(name, field));
  if (auto child = TableChild(name, "/authorizedViews/", field)) {
    child->first.authorized_view = std::move(child->second);
    return std::move(child->first);
  }
  return Invalid(field, fmt::format("'{}' is not an authorized view name of the form "
                                    "projects/<project>/instances/<instance>/tables/<table>/authorizedViews/<view>",
                                    Abbreviated(name)));
}

Result<SchemaBundleName> ParseSchemaBundleName(std::string_view name, std::string_view field) {
  LBT_RETURN_IF_ERROR(CheckResourceNameLength(name, field));
  if (auto child = TableChild(name, "/schemaBundles/", field)) {
    return SchemaBundleName{std::move(child->first), std::move(child->second)};
  }
  return Invalid(field, fmt::format("'{}' is not a schema bundle name of the form "
                                    "projects/<project>/instances/<instance>/tables/<table>/schemaBundles/<bundle>",
                                    Abbreviated(name)));
}

Result<TableRef> ParseMaterializedViewName(std::string_view name, std::string_view field) {
  LBT_ASSIGN_OR_RETURN(ChildName child, ParseChildName(name, "materializedViews", field));
  TableRef ref = TableRef::MaterializedView(std::move(child.id));
  ref.instance = std::move(child.instance);
  return ref;
}

Result<ClusterName> ParseClusterName(std::string_view name, std::string_view field) {
  LBT_RETURN_IF_ERROR(CheckResourceNameLength(name, field));
  std::vector<std::string_view> parts = SplitResourceName(name);
  if (parts.size() != 6 || !IsClusterPath(parts)) {
    return Invalid(field, fmt::format("'{}' is not a cluster name of the form "
                                      "projects/<project>/instances/<instance>/clusters/<cluster>",
                                      Abbreviated(name)));
  }
  return ClusterName{InstanceFromParts(parts), std::string(parts[5])};
}

Result<BackupName> ParseBackupName(std::string_view name, std::string_view field) {
  LBT_RETURN_IF_ERROR(CheckResourceNameLength(name, field));
  std::vector<std::string_view> parts = SplitResourceName(name);
  if (parts.size() != 8 || !IsClusterPath(parts) || parts[6] != "backups" || parts[7].empty()) {
    return Invalid(field, fmt::format("'{}' is not a backup name of the form "
                                      "projects/<project>/instances/<instance>/clusters/<cluster>/backups/<backup>",
                                      Abbreviated(name)));
  }
  return BackupName{InstanceFromParts(parts), std::string(parts[5]), std::string(parts[7])};
}

bool NamesTableAdminResource(std::string_view resource) {
  // By position, not by substring: a project or instance may be named
  // "tables" or "backups".
  const std::vector<std::string_view> parts = SplitResourceName(resource);
  if (parts.size() < 6 || parts[0] != "projects" || parts[2] != "instances") return false;
  return parts[4] == "tables" || (parts.size() >= 8 && parts[4] == "clusters" && parts[6] == "backups");
}

}  // namespace lbt
