// lbt studio's page (studio/web/index.html), built into the binary by
// studio/embed_page.cmake: the studio needs no file and no network beyond
// itself at run time.

#ifndef LBT_STUDIO_STUDIO_PAGE_H_
#define LBT_STUDIO_STUDIO_PAGE_H_

#include <string_view>

namespace lbt::studio {

// The page's HTML, its styles and script inline.
std::string_view StudioPage();

}  // namespace lbt::studio

#endif  // LBT_STUDIO_STUDIO_PAGE_H_
