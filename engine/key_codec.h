// The byte layout of cell keys in LMDB.
//
// A cell is addressed by (table id, row key, family, qualifier, timestamp).
// Its key is encoded so that LMDB's default byte comparison yields Bigtable's
// order: tables by id, rows by unsigned byte order of the row key, then
// families by name, qualifiers in byte order, and timestamps newest first.
//
//   key := table_id (4 bytes, big-endian)
//          escape(row) escape(family) escape(qualifier)
//          timestamp (8 bytes, big-endian, order-inverted)
//   escape(s) := s with every 0x00 written as 0x00 0xFF, then 0x00 0x01
//
// The terminator 0x00 0x01 sorts below every escaped byte (0x00 0xFF or a
// byte >= 0x01), so a string sorts before all its extensions, as it must.
//
// WARNING: this layout is part of the on-disk format. Changing it requires a
// new format version (see database.cc) and a migration.

#ifndef LBT_ENGINE_KEY_CODEC_H_
#define LBT_ENGINE_KEY_CODEC_H_

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

void AppendTableId(std::string* out, TableId id);
void AppendTimestamp(std::string* out, int64_t timestamp_micros);
bool ConsumeTableId(std::string_view* in, TableId* id);
bool ConsumeTimestamp(std::string_view* in, int64_t* timestamp_micros);

// The decoded form of a cell key. The views point into the decoder's buffers.
struct CellKey {
  TableId table = 0;
  std::string row;
  std::string family;
  std::string qualifier;
  int64_t timestamp = 0;
};

std::string EncodeCellKey(TableId table, std::string_view row, std::string_view family,
                          std::string_view qualifier, int64_t timestamp);
bool DecodeCellKey(std::string_view key, CellKey* out);

// Prefixes of a cell key; every cell of the table / row / family / column
// starts with the matching prefix, and nothing else does.
std::string TablePrefix(TableId table);
std::string RowPrefix(TableId table, std::string_view row);
std::string FamilyPrefix(TableId table, std::string_view row, std::string_view family);
std::string ColumnPrefix(TableId table, std::string_view row, std::string_view family,
                         std::string_view qualifier);

// The prefix that every cell key of every row whose key starts with
// `row_key_prefix` begins with (and no other cell key does).
std::string RowKeyPrefix(TableId table, std::string_view row_key_prefix);

}  // namespace lbt

#endif  // LBT_ENGINE_KEY_CODEC_H_
