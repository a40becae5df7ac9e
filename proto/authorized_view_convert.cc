#include "proto/authorized_view_convert.h"

#include <fmt/format.h>

#include "util/bytes.h"

namespace lbt::proto {

Result<AuthorizedViewName> ParseAuthorizedViewName(std::string_view name, std::string_view field) {
  LBT_RETURN_IF_ERROR(CheckResourceNameLength(name, field));
  const size_t at = name.rfind("/authorizedViews/");
  if (at != std::string_view::npos) {
    const std::string_view view = name.substr(at + std::string_view("/authorizedViews/").size());
    Result<TableName> table = ParseTableName(name.substr(0, at), field);
    if (table.ok() && !view.empty() && view.find('/') == std::string_view::npos) {
      return AuthorizedViewName{std::move(table).value(), std::string(view)};
    }
  }
  return Status::InvalidArgument(
      fmt::format("{}: '{}' is not an authorized view name of the form "
                  "projects/<project>/instances/<instance>/tables/<table>/authorizedViews/<view>",
                  field, Abbreviated(name)));
}

admin::AuthorizedView ToProto(const AuthorizedViewSpec& view, std::string_view table_name,
                              admin::AuthorizedView::ResponseView response_view) {
  admin::AuthorizedView out;
  out.set_name(fmt::format("{}/authorizedViews/{}", table_name, view.id));
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
