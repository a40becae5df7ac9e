// The keyviz heatmap as a file: a self-contained SVG image, or an HTML
// page around it. No network, no external scripts or styles: the page
// opens anywhere. Each cell's tooltip (its SVG <title>) gives its key
// range, its time window and the cells written there; the HTML page also
// shows them in a line above the map as the pointer moves.

#ifndef LBT_COMMANDS_LAB_KEYVIZ_PAGE_H_
#define LBT_COMMANDS_LAB_KEYVIZ_PAGE_H_

#include <string>

#include "lab/hotspots.h"

namespace lbt {

std::string KeyvizSvg(const std::string& table, const lab::WriteGrid& grid);
std::string KeyvizHtml(const std::string& table, const lab::WriteGrid& grid);

}  // namespace lbt

#endif  // LBT_COMMANDS_LAB_KEYVIZ_PAGE_H_
