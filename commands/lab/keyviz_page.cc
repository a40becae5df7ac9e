#include "commands/lab/keyviz_page.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "lab/key_shape.h"
#include "sql/value.h"

namespace lbt {

namespace {

// Key labels: at most this many characters, in a 12px monospace font of
// about this many pixels a character.
constexpr size_t kLabelChars = 30;
constexpr double kLabelCharPixels = 7.3;
// The page fits a 1200px-wide window: the SVG and the body's margins.
constexpr int kMaxSvgWidth = 1200 - 2 * 16;
constexpr int kTop = 40;
constexpr int kBottom = 50;

// Escapes text for XML content and attributes.
std::string Xml(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string KeyLabel(const std::string& key, std::string_view empty) {
  return key.empty() ? std::string(empty) : lab::PrintableKey(key);
}

// Dark for few writes, bright for many, through purple and orange.
std::string Color(double level) {
  struct Stop {
    double at;
    int r, g, b;
  };
  static constexpr Stop kStops[] = {{0.0, 12, 8, 38},    {0.25, 70, 16, 110},  {0.5, 150, 40, 120},
                                    {0.75, 225, 80, 90}, {0.9, 252, 165, 100}, {1.0, 252, 250, 190}};
  level = std::clamp(level, 0.0, 1.0);
  size_t i = 1;
  while (i + 1 < std::size(kStops) && kStops[i].at < level) ++i;
  const Stop& a = kStops[i - 1];
  const Stop& b = kStops[i];
  const double t = (level - a.at) / (b.at - a.at);
  auto mix = [t](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * t)); };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b));
}

// A key range's label: its start key, cut to kLabelChars.
std::string RangeLabel(const lab::KeyRange& range) {
  std::string label = KeyLabel(range.start_key, "(start)");
  if (label.size() > kLabelChars) label = label.substr(0, kLabelChars - 1) + "~";
  return label;
}

struct Layout {
  int label_width;  // the column of key labels, left of the grid
  int cell_width;
  int cell_height;
  int width;
  int height;
};

Layout LayoutFor(const lab::WriteGrid& grid) {
  Layout l;
  const int windows = std::max(1, grid.windows.count);
  const int ranges = std::max<int>(1, static_cast<int>(grid.ranges.size()));
  size_t longest = 0;
  for (const lab::KeyRange& range : grid.ranges) longest = std::max(longest, RangeLabel(range).size());
  // Wide enough for the longest label and the title's start.
  l.label_width = std::max(120, static_cast<int>(std::ceil(static_cast<double>(longest) * kLabelCharPixels)) + 12);
  l.cell_width = std::clamp((kMaxSvgWidth - l.label_width - 20) / windows, 3, 24);
  l.cell_height = std::clamp(640 / ranges, 4, 24);
  l.width = l.label_width + windows * l.cell_width + 20;
  l.height = kTop + ranges * l.cell_height + kBottom;
  return l;
}

void Cells(const lab::WriteGrid& grid, const Layout& l, std::string* svg) {
  double most = 0;
  for (const auto& row : grid.writes) {
    for (double v : row) most = std::max(most, v);
  }
  for (size_t r = 0; r < grid.ranges.size(); ++r) {
    const std::string range = fmt::format("[{}, {})", KeyLabel(grid.ranges[r].start_key, "(start)"),
                                          KeyLabel(grid.ranges[r].end_key, "(end)"));
    for (int w = 0; w < grid.windows.count; ++w) {
      const double v = grid.writes[r][w];
      // A square root scale keeps light traffic visible beside a hotspot.
      const double level = most == 0 ? 0 : std::sqrt(v / most);
      *svg += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>keys {}\n{} to {}\n{} cells "
          "written</title></rect>\n",
          l.label_width + w * l.cell_width, kTop + static_cast<int>(r) * l.cell_height, l.cell_width, l.cell_height,
          Color(level), Xml(range), sql::FormatTimestampRfc3339(grid.windows.Start(w)),
          sql::FormatTimestampRfc3339(grid.windows.Start(w + 1)), std::llround(v));
    }
  }
}

void Axes(const std::string& table, const lab::WriteGrid& grid, const Layout& l, std::string* svg) {
  *svg += fmt::format(
      "<text x=\"{}\" y=\"24\" class=\"title\">keyviz: {}: cells written by key range (down) and time "
      "(across)</text>\n",
      l.label_width, Xml(table));
  const int every = std::max(1, (14 + l.cell_height - 1) / l.cell_height);  // labels at least 14px apart
  for (size_t r = 0; r < grid.ranges.size(); r += every) {
    const std::string label = RangeLabel(grid.ranges[r]);
    *svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"key\">{}</text>\n", l.label_width - 6,
                        kTop + static_cast<int>(r) * l.cell_height + std::min(l.cell_height, 12), Xml(label));
  }
  // Times at the start, a third, two thirds and the end of the axis; the
  // last label ends at the grid's right edge rather than past it.
  const int ticks = std::min(grid.windows.count + 1, 4);
  const int bottom = kTop + static_cast<int>(grid.ranges.size()) * l.cell_height;
  for (int i = 0; i < ticks; ++i) {
    const int w = i * grid.windows.count / (ticks - 1);
    const bool last = i + 1 == ticks;
    *svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"time\"{}>{}</text>\n", l.label_width + w * l.cell_width,
                        bottom + 18, last ? " text-anchor=\"end\"" : "",
                        sql::FormatTimestampRfc3339(grid.windows.Start(w)).substr(0, 19));
  }
}

}  // namespace

std::string KeyvizSvg(const std::string& table, const lab::WriteGrid& grid) {
  const Layout l = LayoutFor(grid);
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">\n"
      "<style>text{{font:12px sans-serif;fill:#ccc}} .key{{text-anchor:end;font-family:monospace}} "
      ".title{{font-size:15px}} rect:hover{{stroke:#fff;stroke-width:1}}</style>\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"#15151c\"/>\n",
      l.width, l.height);
  Axes(table, grid, l, &svg);
  Cells(grid, l, &svg);
  svg += "</svg>\n";
  return svg;
}

std::string KeyvizHtml(const std::string& table, const lab::WriteGrid& grid) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>keyviz: {0}</title>\n"
      "<style>body{{background:#15151c;color:#ddd;font:14px sans-serif;margin:16px}} "
      "#info{{min-height:3.6em;white-space:pre;font-family:monospace}}</style>\n</head>\n<body>\n"
      "<div id=\"info\">Point at a cell to see its key range, its time and the cells written there.</div>\n"
      "{1}"
      "<script>\n"
      "const info = document.getElementById('info');\n"
      "document.querySelector('svg').addEventListener('mouseover', (event) => {{\n"
      "  const title = event.target.querySelector && event.target.querySelector('title');\n"
      "  if (title) info.textContent = title.textContent;\n"
      "}});\n"
      "</script>\n</body>\n</html>\n",
      Xml(table), KeyvizSvg(table, grid));
}

}  // namespace lbt
