# Writes OUTPUT, a C++ file defining lbt::studio::StudioPage() as the bytes
# of INPUT, so that the page is in the binary: no file to find at run time.
file(READ "${INPUT}" bytes HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${bytes}")
string(REGEX REPLACE "((0x..,){24})" "\\1\n    " bytes "${bytes}")
file(WRITE "${OUTPUT}" "// Generated from studio/web/index.html by studio/embed_page.cmake.
#include \"studio/studio_page.h\"

namespace lbt::studio {
namespace {
const unsigned char kPage[] = {
    ${bytes}};
}  // namespace

std::string_view StudioPage() { return std::string_view(reinterpret_cast<const char*>(kPage), sizeof(kPage)); }

}  // namespace lbt::studio
")
