#include "commands/render/text_format.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <ctime>

namespace lbt {

namespace {

constexpr char kHex[] = "0123456789abcdef";

// Decodes one rune as Go's utf8.DecodeRune does: returns its length, or 0
// for an invalid or truncated sequence (Go's RuneError of width 1).
size_t DecodeRune(std::string_view s, size_t i, uint32_t* rune) {
  const auto b = [&](size_t k) { return static_cast<uint8_t>(s[i + k]); };
  uint8_t c = b(0);
  if (c < 0x80) {
    *rune = c;
    return 1;
  }
  size_t len;
  uint32_t r, min;
  if (c >= 0xc2 && c <= 0xdf) {
    len = 2, r = c & 0x1f, min = 0x80;
  } else if (c >= 0xe0 && c <= 0xef) {
    len = 3, r = c & 0x0f, min = 0x800;
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4, r = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((b(k) & 0xc0) != 0x80) return 0;
    r = (r << 6) | (b(k) & 0x3f);
  }
  if (r < min || r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff)) return 0;
  *rune = r;
  return len;
}

// Go's unicode.IsPrint for runes beyond ASCII: letters, marks, numbers,
// punctuation and symbols. RE2 carries the Unicode category tables.
bool IsPrintableRune(std::string_view encoded) {
  static const RE2 printable("[\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}]");
  return RE2::FullMatch(re2::StringPiece(encoded.data(), encoded.size()), printable);
}

void AppendHexByte(std::string* out, uint8_t b) {
  out->append("\\x");
  out->push_back(kHex[b >> 4]);
  out->push_back(kHex[b & 0xf]);
}

}  // namespace

std::string GoQuote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('"');
  size_t i = 0;
  while (i < s.size()) {
    uint32_t r;
    size_t len = DecodeRune(s, i, &r);
    if (len == 0) {
      AppendHexByte(&out, static_cast<uint8_t>(s[i]));
      ++i;
      continue;
    }
    std::string_view encoded = s.substr(i, len);
    i += len;
    if (r == '"' || r == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(r));
    } else if (r < 0x80) {
      switch (r) {
        case '\a': out.append("\\a"); break;
        case '\b': out.append("\\b"); break;
        case '\f': out.append("\\f"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        case '\v': out.append("\\v"); break;
        default:
          if (r < 0x20 || r == 0x7f) {
            AppendHexByte(&out, static_cast<uint8_t>(r));
          } else {
            out.push_back(static_cast<char>(r));
          }
      }
    } else if (IsPrintableRune(encoded)) {
      out.append(encoded);
    } else {
      int digits = r < 0x10000 ? 4 : 8;
      out.append(r < 0x10000 ? "\\u" : "\\U");
      for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out.push_back(kHex[(r >> shift) & 0xf]);
    }
  }
  out.push_back('"');
  return out;
}

size_t RuneCount(std::string_view s) {
  size_t count = 0;
  for (size_t i = 0; i < s.size(); ++count) {
    uint32_t r;
    size_t len = DecodeRune(s, i, &r);
    i += len == 0 ? 1 : len;
  }
  return count;
}

std::string PadRight(std::string_view s, size_t width) {
  std::string out(s);
  size_t runes = RuneCount(s);
  if (runes < width) out.append(width - runes, ' ');
  return out;
}

std::string FormatCbtTimestamp(int64_t micros) {
  int64_t seconds = micros / 1'000'000;
  int64_t fraction = micros % 1'000'000;
  if (fraction < 0) {
    fraction += 1'000'000;
    --seconds;
  }
  // Cells of a row usually share their second; local time conversion is
  // the costly part, so remember the last one.
  thread_local int64_t cached_seconds = INT64_MIN;
  thread_local char date[32];
  if (seconds != cached_seconds) {
    time_t t = static_cast<time_t>(seconds);
    struct tm local;
    localtime_r(&t, &local);
    strftime(date, sizeof date, "%Y/%m/%d-%H:%M:%S", &local);
    cached_seconds = seconds;
  }
  std::string out(date);
  out.push_back('.');
  char digits[6];
  for (int i = 5; i >= 0; --i, fraction /= 10) digits[i] = static_cast<char>('0' + fraction % 10);
  out.append(digits, 6);
  return out;
}

void TabWriter::AddLine(std::string_view line) {
  std::vector<std::string> cells;
  size_t start = 0;
  while (true) {
    size_t tab = line.find('\t', start);
    if (tab == std::string_view::npos) {
      cells.emplace_back(line.substr(start));
      break;
    }
    cells.emplace_back(line.substr(start, tab - start));
    start = tab + 1;
  }
  lines_.push_back(std::move(cells));
}

// Columns form blocks of consecutive lines that have a terminated cell in
// that column; each block gets its own width, as in Go's tabwriter.
void TabWriter::AssignWidths(size_t column, size_t begin, size_t end, std::vector<std::vector<size_t>>* widths) const {
  size_t i = begin;
  while (i < end) {
    if (lines_[i].size() <= column + 1) {
      ++i;
      continue;
    }
    size_t j = i, width = min_width_;
    for (; j < end && lines_[j].size() > column + 1; ++j) {
      width = std::max(width, RuneCount(lines_[j][column]) + padding_);
    }
    for (size_t k = i; k < j; ++k) (*widths)[k][column] = width;
    AssignWidths(column + 1, i, j, widths);
    i = j;
  }
}

std::string TabWriter::Render() const {
  std::vector<std::vector<size_t>> widths(lines_.size());
  for (size_t i = 0; i < lines_.size(); ++i) widths[i].resize(lines_[i].size());
  AssignWidths(0, 0, lines_.size(), &widths);
  std::string out;
  for (size_t i = 0; i < lines_.size(); ++i) {
    const auto& cells = lines_[i];
    for (size_t c = 0; c + 1 < cells.size(); ++c) {
      out.append(cells[c]);
      size_t text = RuneCount(cells[c]);
      size_t cell = (widths[i][c] + tab_width_ - 1) / tab_width_ * tab_width_;
      size_t tabs = (cell - text + tab_width_ - 1) / tab_width_;
      out.append(tabs, '\t');
    }
    out.append(cells.back());
    out.push_back('\n');
  }
  return out;
}

std::string FormatSpan(int64_t micros) {
  constexpr int64_t kSecond = 1000000, kMinute = 60 * kSecond, kHour = 60 * kMinute, kDay = 24 * kHour;
  for (auto [unit, name] : {std::pair{kDay, "d"}, {kHour, "h"}, {kMinute, "m"}}) {
    if (micros % unit == 0) return fmt::format("{}{}", micros / unit, name);
  }
  return fmt::format("{}s", micros / kSecond);
}

}  // namespace lbt
