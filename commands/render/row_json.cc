#include "commands/render/row_json.h"

#include <array>
#include <charconv>
#include <cstring>

#include "util/bytes.h"

namespace lbt {

namespace {

// Appends `s` as a JSON string, escaped as nlohmann::json escapes it (so
// every JSON document lbt prints looks alike). REQUIRES: valid UTF-8.
// Runs of bytes that need no escape are appended whole: a full scan
// writes millions of strings.
void AppendJsonString(std::string* out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t pending = 0;  // the first byte not appended yet
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(s.data() + pending, i - pending);
    pending = i + 1;
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        out->append("\\u00");
        out->push_back(kHex[c >> 4]);
        out->push_back(kHex[c & 0xf]);
    }
  }
  out->append(s.data() + pending, s.size() - pending);
  out->push_back('"');
}

// ---- the row object of --format json and jsonl ----
//
// A full scan writes millions of cells, so a row's JSON is written in one
// go: its exact size is worked out first (one pass over each string, which
// also tells whether it is ASCII), then every piece is copied in through a
// raw pointer, with no per-piece call or capacity check.

// The bytes each byte takes in a JSON string: 1, or its escape's length.
constexpr std::array<uint8_t, 256> kEscapedSize = [] {
  std::array<uint8_t, 256> size{};
  for (int c = 0; c < 256; ++c) size[c] = c < 0x20 ? 6 : 1;
  for (char c : {'\b', '\f', '\n', '\r', '\t', '"', '\\'}) size[static_cast<unsigned char>(c)] = 2;
  return size;
}();

// A string as JSON: its quoted, escaped size, and whether it is ASCII.
struct JsonText {
  explicit JsonText(std::string_view s) : text(s) {
    unsigned high = 0;
    for (char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      size += kEscapedSize[c];
      high |= c;
    }
    ascii = high < 0x80;
  }
  // Writes it into room for `size` bytes.
  char* Write(char* p) const {
    if (size != text.size() + 2) {  // something to escape: the slow way
      std::string escaped;
      AppendJsonString(&escaped, text);
      std::memcpy(p, escaped.data(), escaped.size());
      return p + escaped.size();
    }
    *p++ = '"';
    std::memcpy(p, text.data(), text.size());
    p += text.size();
    *p++ = '"';
    return p;
  }
  std::string_view text;
  size_t size = 2;
  bool ascii = true;
};

char* Put(char* p, std::string_view s) {
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

// One bytes field (key, qualifier, value): "name":"text" when it is UTF-8
// (and the mode allows), else "name_b64":"base64".
struct BytesField {
  BytesField(std::string_view name, const std::string& bytes, BytesMode mode) : name(name), json(bytes) {
    text = mode == BytesMode::kAuto && (json.ascii || IsValidUtf8(bytes));
    if (!text) b64 = Base64Encode(bytes);
  }
  size_t Size() const { return name.size() + (text ? 3 + json.size : 9 + b64.size()); }
  char* Write(char* p) const {
    *p++ = '"';
    p = Put(p, name);
    if (text) return json.Write(Put(p, "\":"));
    p = Put(Put(p, "_b64\":\""), b64);
    *p++ = '"';
    return p;
  }
  std::string_view name;
  JsonText json;
  bool text;
  std::string b64;
};

// The ,"value_int":N of a cell of an aggregate family, whose value is an
// 8-byte big-endian integer that base64 would hide; "" for other cells.
std::string AggregateValue(const Cell& c, const TableSpec* table) {
  const FamilySpec* family = table == nullptr ? nullptr : table->FindFamily(c.family);
  int64_t n = 0;
  if (family == nullptr || !IsIntAggregate(family->value_type) || !DecodeInt64(c.value, &n)) return "";
  return ",\"value_int\":" + std::to_string(n);
}

bool HasAggregates(const TableSpec* table) {
  if (table == nullptr) return false;
  for (const auto& [name, family] : table->families) {
    if (IsIntAggregate(family.value_type)) return true;
  }
  return false;
}

// One cell's object, sized before it is written.
struct CellJson {
  CellJson(const Cell& c, BytesMode mode)
      : cell(&c), family(c.family), qualifier("qualifier", c.qualifier, mode), value("value", c.value, mode) {
    // Cells of a row, and rows of a load, mostly share their timestamps:
    // the digits of the last one are kept.
    thread_local int64_t last = -1;
    thread_local char digits[24];
    thread_local size_t digits_size = 0;
    if (c.timestamp != last) {
      digits_size = static_cast<size_t>(std::to_chars(digits, digits + sizeof digits, c.timestamp).ptr - digits);
      last = c.timestamp;
    }
    std::memcpy(timestamp_digits, digits, digits_size);
    timestamp_size = digits_size;
  }
  std::string_view timestamp() const { return std::string_view(timestamp_digits, timestamp_size); }
  size_t Size() const {
    size_t n = 26 + family.size + qualifier.Size() + timestamp_size + value.Size() + extra.size();
    if (!cell->labels.empty()) n += 12 + cell->labels.size();
    for (const std::string& l : cell->labels) n += JsonText(l).size;
    return n;
  }
  char* Write(char* p) const {
    p = family.Write(Put(p, "{\"family\":"));
    p = qualifier.Write(Put(p, ","));
    p = Put(Put(p, ",\"timestamp\":"), timestamp());
    p = Put(value.Write(Put(p, ",")), extra);
    if (!cell->labels.empty()) {
      p = Put(p, ",\"labels\":[");
      for (size_t l = 0; l < cell->labels.size(); ++l) p = JsonText(cell->labels[l]).Write(l > 0 ? Put(p, ",") : p);
      p = Put(p, "]");
    }
    return Put(p, "}");
  }
  const Cell* cell;
  JsonText family;
  BytesField qualifier, value;
  std::string extra;
  char timestamp_digits[24];
  size_t timestamp_size;
};

}  // namespace

// The row object, written directly: building a JSON DOM per row would
// cost several times the read itself.
void AppendRowJson(std::string* out, const Row& row, BytesMode mode, const TableSpec* table) {
  const bool aggregates = HasAggregates(table);
  const BytesField key("key", row.key, mode);
  thread_local std::vector<CellJson> cells;  // kept: no allocation per row
  cells.clear();
  size_t size = 13 + key.Size();
  for (const Cell& c : row.cells) {
    cells.emplace_back(c, mode);
    if (aggregates) cells.back().extra = AggregateValue(c, table);
    size += 1 + cells.back().Size();
  }
  const size_t start = out->size();
  out->resize(start + size);
  char* p = key.Write(Put(out->data() + start, "{"));
  p = Put(p, ",\"cells\":[");
  for (size_t i = 0; i < cells.size(); ++i) p = cells[i].Write(i > 0 ? Put(p, ",") : p);
  p = Put(p, "]}");
  out->resize(static_cast<size_t>(p - out->data()));
}

std::string RowToJson(const Row& row, BytesMode bytes, const TableSpec* table) {
  std::string out;
  AppendRowJson(&out, row, bytes, table);
  return out;
}

}  // namespace lbt
