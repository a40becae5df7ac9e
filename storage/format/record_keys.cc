#include "storage/format/record_keys.h"

#include <fmt/format.h>

#include <charconv>

namespace lbt {

std::string PendingDropKey(TableId id) { return fmt::format("{}{:08x}", kPendingDropKeyPrefix, id); }

bool ParsePendingDropKey(std::string_view key, TableId* id) {
  if (key.substr(0, kPendingDropKeyPrefix.size()) != kPendingDropKeyPrefix) return false;
  const std::string_view hex = key.substr(kPendingDropKeyPrefix.size());
  auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), *id, 16);
  return ec == std::errc() && end == hex.data() + hex.size() && hex.size() == 8;
}

std::string IamKey(std::string_view resource) { return "iam:" + std::string(resource); }

InstanceName InstanceOfTable(std::string_view catalog_name, std::string_view* table) {
  const size_t first = catalog_name.find('/');
  const size_t second = first == std::string_view::npos ? first : catalog_name.find('/', first + 1);
  if (second == std::string_view::npos) {
    if (table != nullptr) *table = catalog_name;
    return DefaultInstanceName();
  }
  if (table != nullptr) *table = catalog_name.substr(second + 1);
  return {std::string(catalog_name.substr(0, first)), std::string(catalog_name.substr(first + 1, second - first - 1))};
}

std::string TableIamKey(std::string_view catalog_name) {
  std::string_view table;
  const InstanceName instance = InstanceOfTable(catalog_name, &table);
  return IamKey(fmt::format("{}/tables/{}", instance.Full(), table));
}

std::string ViewIamKey(std::string_view catalog_name, std::string_view view_id) {
  return fmt::format("{}/authorizedViews/{}", TableIamKey(catalog_name), view_id);
}

Status StaleViewEtag(std::string_view kind, std::string_view id) {
  return Status::Aborted(
      fmt::format("etag: {} '{}' changed since it was read; read it again and make the change on it", kind, id));
}

std::string NextViewEtag(const std::string& etag) { return std::to_string(std::stoll(etag.empty() ? "0" : etag) + 1); }

}  // namespace lbt
