#include "commands/render/renderers.h"

namespace lbt {

std::unique_ptr<Renderer> Renderer::Create(OutputFormat format, BytesMode bytes, Output* out, TextStyle style,
                                           bool query_columns) {
  switch (format) {
    case OutputFormat::kJson: return NewJsonRenderer(out, bytes);
    case OutputFormat::kJsonl: return NewJsonlRenderer(out, bytes, query_columns);
    case OutputFormat::kText: break;
  }
  return style == TextStyle::kHBase ? NewHBaseTextRenderer(out) : NewCbtTextRenderer(out);
}

}  // namespace lbt
