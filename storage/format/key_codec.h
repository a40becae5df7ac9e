// The byte layout of cell keys in LMDB.
//
// A cell is addressed by (table id, row key, family id, qualifier,
// timestamp). Its key is encoded so that LMDB's default byte comparison
// yields Bigtable's order: tables by id, rows by unsigned byte order of the
// row key, then families in creation order (their id), qualifiers in byte
// order, and timestamps newest first.
//
//   key := id(table) escape(row) id(family) escape(qualifier)
//          timestamp (8 bytes, big-endian, order-inverted)
//   escape(s) := s with every 0x00 written as 0x00 0xFF, then 0x00 0x01
//   id(n) := n as one byte when n < 0xF0; otherwise the byte 0xEF + k and
//            n in k big-endian bytes (k = 1..4, the fewest that hold it)
//
// The terminator 0x00 0x01 sorts below every escaped byte (0x00 0xFF or a
// byte >= 0x01), so a string sorts before all its extensions, as it must.
// id(n) is self-delimiting and sorts as n does: a longer form starts with a
// larger byte. Most ids take one byte.
//
// This is format 2. Format 1 carried the table id in 4
// bytes and the family's escaped name, so families sorted by name.
//
// WARNING: this layout is part of the on-disk format. Changing it requires a
// new format version (format/format_version.h) and an upgrade (storage/format/upgrade.h).

#ifndef LBT_STORAGE_FORMAT_KEY_CODEC_H_
#define LBT_STORAGE_FORMAT_KEY_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "api/row_set.h"
#include "api/schema.h"

namespace lbt {

// Appends escape(s) to *out.
void AppendEscaped(std::string* out, std::string_view s);

// Parses one escaped component from the front of *in, stores the raw bytes in
// *out and advances *in past the terminator. Returns false on malformed input.
bool ConsumeEscaped(std::string_view* in, std::string* out);

// Advances *in past one escaped component without decoding it.
bool SkipEscaped(std::string_view* in);

// id(n) above, for table and family ids.
void AppendId(std::string* out, uint32_t id);
bool ConsumeId(std::string_view* in, uint32_t* id);

void AppendTimestamp(std::string* out, int64_t timestamp_micros);
bool ConsumeTimestamp(std::string_view* in, int64_t* timestamp_micros);

// The decoded form of a cell key.
struct CellKey {
  TableId table = 0;
  std::string row;
  FamilyId family = 0;
  std::string qualifier;
  int64_t timestamp = 0;
};

std::string EncodeCellKey(TableId table, std::string_view row, FamilyId family, std::string_view qualifier,
                          int64_t timestamp);
bool DecodeCellKey(std::string_view key, CellKey* out);

// Prefixes of a cell key; every cell of the table / row / family / column
// starts with the matching prefix, and nothing else does. RowPrefix is
// also the key of the row's entry in the row index.
std::string TablePrefix(TableId table);
std::string RowPrefix(TableId table, std::string_view row);
std::string FamilyPrefix(TableId table, std::string_view row, FamilyId family);
std::string ColumnPrefix(TableId table, std::string_view row, FamilyId family, std::string_view qualifier);

// The prefix that every cell key of every row whose key starts with
// `row_key_prefix` begins with (and no other cell key does).
std::string RowKeyPrefix(TableId table, std::string_view row_key_prefix);

}  // namespace lbt

#endif  // LBT_STORAGE_FORMAT_KEY_CODEC_H_
