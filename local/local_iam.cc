// LocalInstanceAdmin's IAM policies: one catalog record each, under
// IamKey (storage/format/record_keys.h), holding the policy as JSON; the
// storage core drops a table's and its views' with the table.
//
// WARNING: the record's fields are part of the on-disk format.

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>

#include "api/bigtable.h"
#include "local/instance_records.h"
#include "local/lazy_database.h"
#include "local/local_instance_admin.h"
#include "storage/format/record_keys.h"

namespace lbt {

namespace {

using nlohmann::json;

std::string EncodePolicy(const IamPolicy& policy) {
  json bindings = json::array();
  for (const IamBinding& b : policy.bindings) {
    bindings.push_back(json{{"role", b.role},
                            {"members", b.members},
                            {"condition_expression", b.condition_expression},
                            {"condition_title", b.condition_title},
                            {"condition_description", b.condition_description}});
  }
  return json{{"version", policy.version}, {"bindings", bindings}, {"etag", policy.etag}}.dump();
}

Status DecodePolicy(std::string_view key, std::string_view bytes, IamPolicy* policy) {
  json j = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  try {
    policy->version = j.at("version").get<int32_t>();
    policy->etag = j.at("etag").get<std::string>();
    policy->bindings.clear();
    for (const json& b : j.at("bindings")) {
      policy->bindings.push_back(
          IamBinding{b.at("role").get<std::string>(), b.at("members").get<std::vector<std::string>>(),
                     b.value("condition_expression", std::string()), b.value("condition_title", std::string()),
                     b.value("condition_description", std::string())});
    }
  } catch (const json::exception&) {
    return Status::Corruption(fmt::format("the catalog entry '{}' is malformed", key));
  }
  return Status::OK();
}

}  // namespace

Status LocalInstanceAdmin::RequireResource(std::string_view resource) {
  const std::vector<std::string> p = SplitOnSlash(resource);
  if (p.size() < 4 || p[0] != "projects" || p[2] != "instances") {
    return Status::InvalidArgument(
        fmt::format("resource: '{}' is not an instance, table, authorized view or backup name", resource));
  }
  const InstanceName instance{p[1], p[3]};
  if (p.size() == 4) return GetInstance(instance).status();
  if (p.size() == 6 && p[4] == "tables") {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Bigtable> tables, OpenTables(instance));
    return tables->GetTable(p[5]).status();
  }
  if (p.size() == 8 && p[4] == "clusters" && p[6] == "backups") return GetBackup(instance, p[5], p[7]).status();
  if (p.size() == 8 && p[4] == "tables" && p[6] == "authorizedViews") {
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Bigtable> tables, OpenTables(instance));
    return tables->GetAuthorizedView(p[5], p[7]).status();
  }
  return Status::InvalidArgument(
      fmt::format("resource: '{}' is not an instance, table, authorized view or backup name", resource));
}

Result<IamPolicy> LocalInstanceAdmin::GetIamPolicy(std::string_view resource) {
  LBT_RETURN_IF_ERROR(RequireResource(resource));
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(false));
  IamPolicy policy;
  policy.etag = "0";  // no policy set yet
  if (db == nullptr) return policy;
  LBT_ASSIGN_OR_RETURN(std::optional<std::string> record, db->ReadRecord(IamKey(resource)));
  if (record.has_value()) LBT_RETURN_IF_ERROR(DecodePolicy(IamKey(resource), *record, &policy));
  return policy;
}

Result<IamPolicy> LocalInstanceAdmin::SetIamPolicy(std::string_view resource, const IamPolicy& policy) {
  LBT_RETURN_IF_ERROR(RequireResource(resource));
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(true));
  IamPolicy stored = policy;
  LBT_RETURN_IF_ERROR(db->ChangeRecord(IamKey(resource), [&](std::optional<std::string>* record) -> Status {
    IamPolicy current;
    current.etag = "0";
    if (record->has_value()) LBT_RETURN_IF_ERROR(DecodePolicy(IamKey(resource), **record, &current));
    if (!policy.etag.empty() && policy.etag != current.etag) {
      return Status::Aborted(fmt::format(
          "etag: the policy of {} changed since it was read; read it again and make the change on it", resource));
    }
    stored.etag = std::to_string(std::stoll(current.etag) + 1);
    *record = EncodePolicy(stored);
    return Status::OK();
  }));
  return stored;
}

}  // namespace lbt
