// MergingIterator: several ordered layers read as one (internal to
// storage/). Layers come newest first: where two hold a key, the newer one's
// entry wins, and a key whose winning entry is a deletion is skipped.
//
// Threading: like its layers, one thread at a time.

#ifndef LBT_STORAGE_KV_MERGING_ITERATOR_H_
#define LBT_STORAGE_KV_MERGING_ITERATOR_H_

#include <memory>
#include <vector>

#include "storage/kv/key_iterator.h"

namespace lbt {

// REQUIRES: !layers.empty(). The result owns the layers.
std::unique_ptr<KeyIterator> NewMergingIterator(std::vector<std::unique_ptr<KeyIterator>> layers);

}  // namespace lbt

#endif  // LBT_STORAGE_KV_MERGING_ITERATOR_H_
