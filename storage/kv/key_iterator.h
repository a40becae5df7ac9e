// KeyIterator: a position in an ordered map of byte strings, the one shape
// the engine's readers walk, whether the map is a store in LMDB
// (OrderedStore::Iterator), the writes held in memory (MemTable), or both
// merged (MergingIterator) (internal to storage/).
//
// Moves follow LevelDB's contract: an error makes the iterator invalid and
// is reported by status(), so check it after a loop. Keys and values die
// with the next move.

#ifndef LBT_STORAGE_KV_KEY_ITERATOR_H_
#define LBT_STORAGE_KV_KEY_ITERATOR_H_

#include <string_view>

#include "api/status.h"

namespace lbt {

class KeyIterator {
 public:
  virtual ~KeyIterator() = default;

  // Positions at the first key >= target.
  virtual void Seek(std::string_view target) = 0;
  // Positions at the last key <= target.
  virtual void SeekForPrev(std::string_view target) = 0;
  virtual void SeekToFirst() = 0;
  virtual void SeekToLast() = 0;
  // REQUIRES: Valid()
  virtual void Next() = 0;
  virtual void Prev() = 0;

  virtual bool Valid() const = 0;
  virtual const Status& status() const = 0;
  // REQUIRES: Valid()
  virtual std::string_view key() const = 0;
  virtual std::string_view value() const = 0;
  // True when the entry records that the key was deleted: a layer above
  // LMDB hides the key's older entries below it this way. A merged
  // iterator never stops on one. REQUIRES: Valid()
  virtual bool deleted() const { return false; }
  // True when value() points into LMDB's memory map (and not into memory
  // of the process's own). REQUIRES: Valid()
  virtual bool value_in_map() const { return true; }
};

}  // namespace lbt

#endif  // LBT_STORAGE_KV_KEY_ITERATOR_H_
