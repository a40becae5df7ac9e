// Pages of a list RPC whose items are sorted by id, as the admin APIs page
// views: a page token is the last id the page before listed.

#ifndef LBT_SERVER_PAGING_H_
#define LBT_SERVER_PAGING_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "api/status.h"

namespace lbt::server {

// Hands `add` the items after `page_token`, at most `page_size` of them (0:
// all), and returns the next page's token ("" after the last page).
// InvalidArgument for a negative page size. REQUIRES: `items` sorted by
// their `id`.
template <typename Item, typename Add>
Result<std::string> PageById(const std::vector<Item>& items, int32_t page_size, const std::string& page_token,
                             Add add) {
  if (page_size < 0) return Status::InvalidArgument("page_size: must not be negative");
  auto it = page_token.empty() ? items.begin()
                               : std::upper_bound(items.begin(), items.end(), page_token,
                                                  [](const std::string& token, const Item& v) { return token < v.id; });
  const size_t size = page_size > 0 ? static_cast<size_t>(page_size) : items.size();
  for (size_t n = 0; it != items.end() && n < size; ++it, ++n) add(*it);
  return it == items.end() ? std::string() : std::prev(it)->id;
}

}  // namespace lbt::server

#endif  // LBT_SERVER_PAGING_H_
