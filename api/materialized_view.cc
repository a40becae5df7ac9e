#include "api/materialized_view.h"

namespace lbt {

TableSpec MaterializedViewSchema(std::string_view view_id) {
  TableSpec spec;
  spec.name = std::string(view_id);
  FamilySpec family{.name = "default", .id = 1};
  spec.families.emplace(family.name, family);
  return spec;
}

}  // namespace lbt
