// Byte-string routines shared by every layer: base64, UTF-8 checks,
// big-endian integers and sizes for people. No dependencies, so that api/
// and everything above can use them.

#ifndef LBT_UTIL_BYTES_H_
#define LBT_UTIL_BYTES_H_

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace lbt {

// Standard base64 (RFC 4648, section 4), padded with '='.
std::string Base64Encode(std::string_view bytes);

// Decodes standard or URL-safe base64 ('-' and '_' for '+' and '/'), with
// or without padding. Returns false for any other character, data after
// padding, or a length no encoding produces.
bool Base64Decode(std::string_view text, std::string* out);

// Whether `bytes` is well-formed UTF-8: shortest forms only, no surrogates,
// nothing past U+10FFFF.
bool IsValidUtf8(std::string_view bytes);

// Whether JSON text nests its arrays and objects at most `max_depth` deep
// (brackets inside strings do not count). Checked before parsing text from
// outside: a parser recursing through 100,000 brackets exhausts the stack.
bool JsonNestsAtMost(std::string_view text, int max_depth);

// The unsigned big-endian integer `bytes` holds. REQUIRES: bytes.size() <= 8.
// Inline: the storage key codec runs it for every cell.
inline uint64_t DecodeBigEndian(std::string_view bytes) {
  uint64_t v = 0;
  for (char c : bytes) v = v << 8 | static_cast<uint8_t>(c);
  return v;
}

// FNV-1a, 64 bits: a hash stable across builds and processes, for bytes a
// client or the disk keeps (prepared queries' fingerprints, token keys).
inline uint64_t Fnv1a64(std::string_view bytes) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

// Appends the low `width` bytes of `v`, most significant first.
// REQUIRES: 1 <= width <= 8.
inline void AppendBigEndian(std::string* out, uint64_t v, int width) {
  for (int shift = 8 * (width - 1); shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
}

// Compares two byte strings as memcmp and then length would (<0, 0, >0),
// a word at a time. Inline: the memtable and a write's batch compare keys
// that share long prefixes (table, row key) millions of times a second,
// and a call to memcmp per comparison cost more than the comparing.
inline int CompareBytes(std::string_view a, std::string_view b) {
  const size_t n = a.size() < b.size() ? a.size() : b.size();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x == y) continue;
    if constexpr (std::endian::native == std::endian::little) {
      x = __builtin_bswap64(x);
      y = __builtin_bswap64(y);
    }
    return x < y ? -1 : 1;
  }
  for (; i < n; ++i) {
    if (a[i] != b[i]) return static_cast<uint8_t>(a[i]) < static_cast<uint8_t>(b[i]) ? -1 : 1;
  }
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

// Appends code point `cp` encoded as UTF-8. REQUIRES: cp <= 0x10FFFF (a
// surrogate is encoded as given).
inline void AppendUtf8(std::string* out, uint32_t cp) {
  const auto byte = [out](uint32_t b) { out->push_back(static_cast<char>(b)); };
  if (cp < 0x80) {
    byte(cp);
  } else if (cp < 0x800) {
    byte(0xC0 | cp >> 6);
    byte(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    byte(0xE0 | cp >> 12);
    byte(0x80 | (cp >> 6 & 0x3F));
    byte(0x80 | (cp & 0x3F));
  } else {
    byte(0xF0 | cp >> 18);
    byte(0x80 | (cp >> 12 & 0x3F));
    byte(0x80 | (cp >> 6 & 0x3F));
    byte(0x80 | (cp & 0x3F));
  }
}

// A size for people: "512 B", "1.5 KiB", "3.2 MiB", "1.1 GiB".
std::string HumanBytes(int64_t bytes);

// Bytes for a message: printable ASCII as is, anything else (and '\\')
// as \xNN.
std::string PrintableBytes(std::string_view bytes);

// A value a client sent, for a message that echoes it: as it is up to
// `max_bytes`, or else its first bytes (never half a UTF-8 character)
// followed by "... (N bytes)". A status message carries it back in a
// header, which clients bound (8 KiB by default).
std::string Abbreviated(std::string_view value, size_t max_bytes = 64);

}  // namespace lbt

#endif  // LBT_UTIL_BYTES_H_
