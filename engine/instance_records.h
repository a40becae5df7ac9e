// How a database keeps its instances: one JSON document per instance
// created through InstanceAdmin, under "instance:<project>/<instance>" in
// the catalog database, beside the tables' "table:" entries. An instance's
// tables are catalogued as "<project>/<instance>/<table>"; those of the
// default instance (api/instance.h) keep their bare names, as every
// release before instances stored them.
//
// WARNING: the key shapes and the JSON field names are part of the on-disk
// format.

#ifndef LBT_ENGINE_INSTANCE_RECORDS_H_
#define LBT_ENGINE_INSTANCE_RECORDS_H_

#include <optional>
#include <string>
#include <string_view>

#include "api/instance.h"
#include "api/status.h"

namespace lbt {

inline constexpr std::string_view kInstanceKeyPrefix = "instance:";

// "P/I/" for an instance's tables, "" for the default instance's.
std::string TablePrefixOf(const InstanceName& name);
// The instance a catalogued table name belongs to, and the table's own
// name in it.
InstanceName InstanceOfTable(std::string_view catalog_name, std::string_view* table = nullptr);

std::string InstanceKey(const InstanceName& name);
std::string EncodeInstanceSpec(const InstanceSpec& spec);
// `key_name` is the key's "P/I".
Status DecodeInstanceSpec(std::string_view key_name, std::string_view bytes, InstanceSpec* spec);

}  // namespace lbt

#endif  // LBT_ENGINE_INSTANCE_RECORDS_H_
