# Writes OUTPUT, a C++ file defining lbt::studio::StudioPage() as the bytes
# of INPUT, so that the page is in the binary: no file to find at run time.
# Each line "@include FILE" of INPUT becomes FILE (beside INPUT) first, so
# that the page's styles and script parts live in files of their own.
cmake_minimum_required(VERSION 3.20)  # this script's own policies (run with -P)
get_filename_component(dir "${INPUT}" DIRECTORY)
file(READ "${INPUT}" page)
# One at a time: include lines next to each other share a newline, which
# a single pass over every match would not see twice. (At most 64.)
foreach(attempt RANGE 64)
  string(REGEX MATCH "\n@include [A-Za-z0-9_.-]+\n" include "${page}")
  if(NOT include)
    break()
  endif()
  string(STRIP "${include}" line)
  string(REPLACE "@include " "" name "${line}")
  file(READ "${dir}/${name}" part)
  string(REPLACE "${include}" "\n${part}" page "${page}")
endforeach()
file(WRITE "${OUTPUT}.html" "${page}")
file(READ "${OUTPUT}.html" bytes HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${bytes}")
string(REGEX REPLACE "((0x..,){24})" "\\1\n    " bytes "${bytes}")
file(WRITE "${OUTPUT}" "// Generated from studio/web/ by studio/embed_page.cmake.
#include \"studio/studio_page.h\"

namespace lbt::studio {
namespace {
const unsigned char kPage[] = {
    ${bytes}};
}  // namespace

std::string_view StudioPage() { return std::string_view(reinterpret_cast<const char*>(kPage), sizeof(kPage)); }

}  // namespace lbt::studio
")
