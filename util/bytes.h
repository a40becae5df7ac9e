// Byte-string routines shared by every layer: base64, UTF-8 checks,
// big-endian integers and sizes for people. No dependencies, so that api/
// and everything above can use them.

#ifndef LBT_UTIL_BYTES_H_
#define LBT_UTIL_BYTES_H_

#include <cstdint>
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

// The unsigned big-endian integer `bytes` holds. REQUIRES: bytes.size() <= 8.
// Inline: the storage key codec runs it for every cell.
inline uint64_t DecodeBigEndian(std::string_view bytes) {
  uint64_t v = 0;
  for (char c : bytes) v = v << 8 | static_cast<uint8_t>(c);
  return v;
}

// Appends the low `width` bytes of `v`, most significant first.
// REQUIRES: 1 <= width <= 8.
inline void AppendBigEndian(std::string* out, uint64_t v, int width) {
  for (int shift = 8 * (width - 1); shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
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
