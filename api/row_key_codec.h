// A row key as its row-key schema's fields (api/row_key_schema.h): decoding
// a stored key into field values for SQL, and encoding field values back
// into keys and key prefixes for the key ranges a query reads.
//
// The encodings are types.proto's: Bytes raw, String UTF-8, Int64 and
// Timestamp (microseconds) as 8 bytes big-endian two's complement or in
// ordered code (1 to 10 bytes; n bytes hold [-2^(7n-1), 2^(7n-1))); the
// struct as one field alone (singleton), the fields joined by a delimiter,
// or the fields escaped (0x00 as 0x00 0xFF) and joined by 0x00 0x01, an
// empty field as 0x00 0x00 and trailing empty fields left out.

#ifndef LBT_API_ROW_KEY_CODEC_H_
#define LBT_API_ROW_KEY_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/row_key_schema.h"
#include "api/status.h"

namespace lbt {

// One field's value: BYTES and STRING fields in `bytes`, INT64 and
// TIMESTAMP (microseconds) fields in `number`.
struct RowKeyFieldValue {
  std::string bytes;
  int64_t number = 0;

  friend bool operator==(const RowKeyFieldValue&, const RowKeyFieldValue&) = default;
};

// The fields of `key`, one value per field of `schema`. InvalidArgument
// naming the key (printable) and the field when the key does not decode:
// a delimited key with more or fewer parts than fields, an integer of the
// wrong size, a STRING field that is not UTF-8.
Result<std::vector<RowKeyFieldValue>> DecodeRowKey(const RowKeySchema& schema, std::string_view key);

// The key that holds `values`, one per field of `schema`.
std::string EncodeRowKey(const RowKeySchema& schema, const std::vector<RowKeyFieldValue>& values);

// Bytes that every key whose first `leading.size()` fields hold `leading`
// begins with ("" when the encoding gives no such bytes). Keys that begin
// with them may hold other values too: the prefix bounds a read, and the
// query still checks each row. REQUIRES: leading.size() < fields.
std::string RowKeyPrefix(const RowKeySchema& schema, const std::vector<RowKeyFieldValue>& leading);

// Int64 in ordered code (types.proto's Int64 OrderedCodeBytes), appended.
void AppendOrderedCodeInt64(int64_t value, std::string* out);
// The ordered-code Int64 at the start of `bytes`: its value and length;
// false when `bytes` does not begin with one.
bool ReadOrderedCodeInt64(std::string_view bytes, int64_t* value, size_t* length);

}  // namespace lbt

#endif  // LBT_API_ROW_KEY_CODEC_H_
