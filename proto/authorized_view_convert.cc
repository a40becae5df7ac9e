#include "proto/authorized_view_convert.h"

#include <fmt/format.h>

namespace lbt::proto {

admin::AuthorizedView ToProto(const AuthorizedViewSpec& view, const TableRef& table,
                              admin::AuthorizedView::ResponseView response_view) {
  admin::AuthorizedView out;
  TableRef name = TableRef::AuthorizedView(table.table, view.id);
  name.instance = table.instance;
  out.set_name(name.FullName());
  if (response_view == admin::AuthorizedView::NAME_ONLY) return out;
  out.set_etag(view.etag);
  out.set_deletion_protection(view.deletion_protection);
  if (response_view != admin::AuthorizedView::FULL) return out;
  auto* subset = out.mutable_subset_view();
  for (const std::string& prefix : view.subset.row_prefixes) subset->add_row_prefixes(prefix);
  for (const auto& [family, columns] : view.subset.family_subsets) {
    auto& shown = (*subset->mutable_family_subsets())[family];
    for (const std::string& q : columns.qualifiers) shown.add_qualifiers(q);
    for (const std::string& p : columns.qualifier_prefixes) shown.add_qualifier_prefixes(p);
  }
  return out;
}

Result<AuthorizedViewSpec> FromProto(const admin::AuthorizedView& view, std::string_view field) {
  if (!view.has_subset_view()) {
    return Status::InvalidArgument(fmt::format("{}.subset_view: must be set: it says what the view covers", field));
  }
  AuthorizedViewSpec spec;
  spec.etag = view.etag();
  spec.deletion_protection = view.deletion_protection();
  const auto& subset = view.subset_view();
  spec.subset.row_prefixes.assign(subset.row_prefixes().begin(), subset.row_prefixes().end());
  for (const auto& [family, columns] : subset.family_subsets()) {
    FamilySubset& kept = spec.subset.family_subsets[family];
    kept.qualifiers.assign(columns.qualifiers().begin(), columns.qualifiers().end());
    kept.qualifier_prefixes.assign(columns.qualifier_prefixes().begin(), columns.qualifier_prefixes().end());
  }
  return spec;
}

}  // namespace lbt::proto
