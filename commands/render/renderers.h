// The renderers behind Renderer::Create, one file a family: text (cbt's
// and the HBase shell's) and JSON (one document, or JSON lines). Internal
// to render/. Renderer::Create is defined beside them (renderers.cc), so
// that the interface depends on none of its implementations.

#ifndef LBT_COMMANDS_RENDER_RENDERERS_H_
#define LBT_COMMANDS_RENDER_RENDERERS_H_

#include <memory>

#include "commands/render/renderer.h"

namespace lbt {

std::unique_ptr<Renderer> NewCbtTextRenderer(Output* out);                // text_renderers.cc
std::unique_ptr<Renderer> NewHBaseTextRenderer(Output* out);              // text_renderers.cc
std::unique_ptr<Renderer> NewJsonRenderer(Output* out, BytesMode bytes);  // json_renderers.cc
std::unique_ptr<Renderer> NewJsonlRenderer(Output* out, BytesMode bytes,
                                           bool query_columns);  // json_renderers.cc

}  // namespace lbt

#endif  // LBT_COMMANDS_RENDER_RENDERERS_H_
