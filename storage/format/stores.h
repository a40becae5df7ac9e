// The named LMDB databases behind a Database (internal to storage/).
//
//   meta      format version and counters
//   catalog   table specs (catalog.h)
//   cells     cell key (key_codec.h) -> value
//   rows      RowPrefix(table, row) -> 8-byte big-endian byte size of the
//             row, present exactly when the row has cells; it enforces the
//             row size limit and makes row counts cheap
//   overflow  the long-key groups of `cells` and `rows` (ordered_store.h)
//   changes   the change log of tables with a change stream
//             (change_log.h); created by the first writable open of a
//             database made before it
//
// WARNING: these names are part of the on-disk format.

#ifndef LBT_STORAGE_FORMAT_STORES_H_
#define LBT_STORAGE_FORMAT_STORES_H_

#include <lmdb.h>

#include "storage/catalog.h"
#include "storage/kv/ordered_store.h"

namespace lbt {

inline constexpr const char* kMetaDb = "meta";
inline constexpr const char* kCatalogDb = "catalog";
inline constexpr const char* kCellsDb = "cells";
inline constexpr const char* kRowsDb = "rows";
inline constexpr const char* kOverflowDb = "overflow";
inline constexpr const char* kChangesDb = "changes";

struct Stores {
  MDB_dbi meta = 0;
  Catalog catalog;
  OrderedStore cells;
  OrderedStore rows;
  OrderedStore changes;
  // False for a database made before the change log, opened read-only:
  // it has no `changes` store (and no table with a change stream).
  bool has_changes = true;
  // How garbage collection shows (DatabaseOptions::gc): false, eligible
  // cells are hidden from reads and removed when their column is written;
  // true (lazy), they stay until a collection pass removes them.
  bool lazy_gc = false;
};

// Opens every named database of `stores`. Returns NotFound if one is
// missing and `create` is false, except `changes` (has_changes tells).
Status OpenStores(Txn* txn, bool create, Stores* stores);

}  // namespace lbt

#endif  // LBT_STORAGE_FORMAT_STORES_H_
