#include "storage/kv/ordered_store.h"
#include "util/bytes.h"

namespace lbt {

namespace {

constexpr char kLeafMarker = '\x00';
constexpr char kInternalMarker = '\x01';
constexpr char kGroupMarker = '\x00';
constexpr size_t kNodeBytes = 8;

std::string NodeBytes(uint64_t node) {
  std::string s(kNodeBytes, '\0');
  for (int i = 7; i >= 0; --i, node >>= 8) s[i] = static_cast<char>(node & 0xff);
  return s;
}

bool ParseNode(std::string_view s, uint64_t* node) {
  if (s.size() != kNodeBytes) return false;
  const uint64_t v = DecodeBigEndian(s);
  *node = v;
  return v != 0;
}

std::string GroupKey(std::string_view key) {
  std::string g(key.substr(0, kMaxDirectKeyBytes));
  g.push_back(kGroupMarker);
  return g;
}

std::string NodeEntryKey(uint64_t node, std::string_view chunk, char marker) {
  std::string k = NodeBytes(node);
  k.append(chunk);
  k.push_back(marker);
  return k;
}

Status BadPointer() { return Status::Corruption("a long-key group pointer is malformed"); }

}  // namespace

// ---- point operations ----

Status OrderedStore::PutNew(Txn* txn, std::string_view key, std::string_view value) const {
  if (key.size() <= kMaxDirectKeyBytes) {
    LBT_ASSIGN_OR_RETURN(bool appended, txn->Append(main_, key, value));
    if (appended) return Status::OK();
  }
  return Put(txn, key, value);
}

Result<std::unique_ptr<OrderedStore::Appender>> OrderedStore::NewAppender(Txn* txn) const {
  LBT_ASSIGN_OR_RETURN(auto cursor, Cursor::Open(txn, main_));
  return std::unique_ptr<Appender>(new Appender(txn, this, std::move(cursor)));
}

Status OrderedStore::Appender::PutNew(std::string_view key, std::string_view value) {
  if (key.size() <= kMaxDirectKeyBytes && (!blocked_ || key > blocked_until_)) {
    LBT_ASSIGN_OR_RETURN(bool appended, cursor_->Append(key, value));
    if (appended) return Status::OK();
    // Something sorts after `key` (another table's data, say): remember
    // where, so that the keys before it do not try to append in vain.
    LBT_ASSIGN_OR_RETURN(bool found, cursor_->Last());
    blocked_ = found;
    if (found) blocked_until_.assign(cursor_->key());
  }
  return store_->Put(txn_, key, value);
}

Result<std::unique_ptr<OrderedStore::SortedWriter>> OrderedStore::NewSortedWriter(Txn* txn) const {
  LBT_ASSIGN_OR_RETURN(auto cursor, Cursor::Open(txn, main_));
  return std::unique_ptr<SortedWriter>(new SortedWriter(txn, this, std::move(cursor)));
}

Status OrderedStore::SortedWriter::Put(std::string_view key, std::string_view value) {
  if (key.size() <= kMaxDirectKeyBytes) return cursor_->Put(key, value);
  return store_->Put(txn_, key, value);
}

Result<uint64_t> OrderedStore::AllocateNode(Txn* txn) const {
  const std::string counter_key(kNodeBytes, '\0');
  std::string_view current;
  LBT_ASSIGN_OR_RETURN(bool found, txn->Get(overflow_, counter_key, &current));
  uint64_t last = 0;
  if (found && !ParseNode(current, &last)) return BadPointer();
  uint64_t next = last + 1;
  LBT_RETURN_IF_ERROR(txn->Put(overflow_, counter_key, NodeBytes(next)));
  return next;
}

Result<bool> OrderedStore::Get(Txn* txn, std::string_view key, std::string_view* value) const {
  if (key.size() <= kMaxDirectKeyBytes) return txn->Get(main_, key, value);
  std::string_view pointer;
  LBT_ASSIGN_OR_RETURN(bool found, txn->Get(main_, GroupKey(key), &pointer));
  std::string_view rest = key.substr(kMaxDirectKeyBytes);
  while (found) {
    uint64_t node;
    if (!ParseNode(pointer, &node)) return BadPointer();
    if (rest.size() <= kMaxChunkBytes) {
      return txn->Get(overflow_, NodeEntryKey(node, rest, kLeafMarker), value);
    }
    LBT_ASSIGN_OR_RETURN(
        found, txn->Get(overflow_, NodeEntryKey(node, rest.substr(0, kMaxChunkBytes), kInternalMarker), &pointer));
    rest.remove_prefix(kMaxChunkBytes);
  }
  return false;
}

Status OrderedStore::Put(Txn* txn, std::string_view key, std::string_view value) const {
  if (key.size() <= kMaxDirectKeyBytes) return txn->Put(main_, key, value);
  // Walk (creating as needed) the chain of groups down to the last chunk.
  MDB_dbi dbi = main_;
  std::string pointer_key = GroupKey(key);
  std::string_view rest = key.substr(kMaxDirectKeyBytes);
  while (true) {
    std::string_view pointer;
    LBT_ASSIGN_OR_RETURN(bool found, txn->Get(dbi, pointer_key, &pointer));
    uint64_t node;
    if (found) {
      if (!ParseNode(pointer, &node)) return BadPointer();
    } else {
      LBT_ASSIGN_OR_RETURN(node, AllocateNode(txn));
      LBT_RETURN_IF_ERROR(txn->Put(dbi, pointer_key, NodeBytes(node)));
    }
    dbi = overflow_;
    if (rest.size() <= kMaxChunkBytes) {
      return txn->Put(overflow_, NodeEntryKey(node, rest, kLeafMarker), value);
    }
    pointer_key = NodeEntryKey(node, rest.substr(0, kMaxChunkBytes), kInternalMarker);
    rest.remove_prefix(kMaxChunkBytes);
  }
}

Result<bool> OrderedStore::NodeIsEmpty(Txn* txn, uint64_t node) const {
  LBT_ASSIGN_OR_RETURN(auto cursor, Cursor::Open(txn, overflow_));
  std::string prefix = NodeBytes(node);
  LBT_ASSIGN_OR_RETURN(bool found, cursor->Seek(prefix));
  return !found || cursor->key().substr(0, kNodeBytes) != prefix;
}

Result<bool> OrderedStore::Delete(Txn* txn, std::string_view key) const {
  if (key.size() <= kMaxDirectKeyBytes) return txn->Del(main_, key);
  struct Step {
    MDB_dbi dbi;
    std::string pointer_key;
    uint64_t node;
  };
  std::vector<Step> path;
  MDB_dbi dbi = main_;
  std::string pointer_key = GroupKey(key);
  std::string_view rest = key.substr(kMaxDirectKeyBytes);
  while (true) {
    std::string_view pointer;
    LBT_ASSIGN_OR_RETURN(bool found, txn->Get(dbi, pointer_key, &pointer));
    if (!found) return false;
    uint64_t node;
    if (!ParseNode(pointer, &node)) return BadPointer();
    path.push_back({dbi, pointer_key, node});
    dbi = overflow_;
    if (rest.size() <= kMaxChunkBytes) break;
    pointer_key = NodeEntryKey(node, rest.substr(0, kMaxChunkBytes), kInternalMarker);
    rest.remove_prefix(kMaxChunkBytes);
  }
  LBT_ASSIGN_OR_RETURN(bool deleted, txn->Del(overflow_, NodeEntryKey(path.back().node, rest, kLeafMarker)));
  if (!deleted) return false;
  // Remove groups left empty, from the deepest up, so iteration never meets one.
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    LBT_ASSIGN_OR_RETURN(bool empty, NodeIsEmpty(txn, it->node));
    if (!empty) break;
    LBT_RETURN_IF_ERROR(txn->Del(it->dbi, it->pointer_key).status());
  }
  return true;
}

// ---- iteration ----

Result<std::unique_ptr<OrderedStore::Iterator>> OrderedStore::NewIterator(Txn* txn) const {
  std::unique_ptr<Iterator> it(new Iterator(txn, this));
  LBT_RETURN_IF_ERROR(it->CursorAt(0).status());
  return it;
}

OrderedStore::Iterator::~Iterator() = default;

Result<Cursor*> OrderedStore::Iterator::CursorAt(size_t level) {
  while (levels_.size() <= level) {
    MDB_dbi dbi = levels_.empty() ? store_->main_ : store_->overflow_;
    LBT_ASSIGN_OR_RETURN(auto cursor, Cursor::Open(txn_, dbi));
    levels_.push_back(Level{std::move(cursor), 0});
  }
  return levels_[level].cursor.get();
}

bool OrderedStore::Iterator::InNode(size_t level, std::string_view key) const {
  if (level == 0) return true;
  return key.size() > kNodeBytes && key.substr(0, kNodeBytes) == NodeBytes(levels_[level].node);
}

bool OrderedStore::Iterator::IsPointer(size_t level, std::string_view key) const {
  if (level == 0) return key.size() == kMaxDirectKeyBytes + 1;
  return key.back() == kInternalMarker;
}

// Moves level's cursor to the first (or last) entry of `node`.
Result<bool> OrderedStore::Iterator::PositionInNode(size_t level, uint64_t node, bool forward) {
  LBT_ASSIGN_OR_RETURN(Cursor * cursor, CursorAt(level));
  levels_[level].node = node;
  bool found;
  if (forward) {
    LBT_ASSIGN_OR_RETURN(found, cursor->Seek(NodeBytes(node)));
  } else {
    LBT_ASSIGN_OR_RETURN(found, cursor->Seek(NodeBytes(node + 1)));
    if (found) {
      LBT_ASSIGN_OR_RETURN(found, cursor->Prev());
    } else {
      LBT_ASSIGN_OR_RETURN(found, cursor->Last());
    }
  }
  return found && InNode(level, cursor->key());
}

// The cursor at `level` sits on an entry of its node: descend through group
// pointers to the first (or last) leaf below it.
Status OrderedStore::Iterator::Settle(size_t level, bool forward) {
  while (true) {
    Cursor* cursor = levels_[level].cursor.get();
    if (!IsPointer(level, cursor->key())) {
      valid_ = true;
      value_ = cursor->value();
      BuildKey(level);
      return Status::OK();
    }
    uint64_t child;
    if (!ParseNode(cursor->value(), &child)) return BadPointer();
    LBT_ASSIGN_OR_RETURN(bool found, PositionInNode(level + 1, child, forward));
    if (!found) return StepAt(level, forward);  // an empty group: skip it
    ++level;
  }
}

// Moves one entry at `level`, climbing to the parent when the node ends.
Status OrderedStore::Iterator::StepAt(size_t level, bool forward) {
  while (true) {
    Cursor* cursor = levels_[level].cursor.get();
    LBT_ASSIGN_OR_RETURN(bool found, forward ? cursor->Next() : cursor->Prev());
    if (found && InNode(level, cursor->key())) return Settle(level, forward);
    if (level == 0) {
      valid_ = false;
      return Status::OK();
    }
    --level;
  }
}

// Positions at the first key >= target within level's node. Returns false if
// the node holds no such key (the caller then steps the parent).
Result<bool> OrderedStore::Iterator::SeekIn(size_t level, std::string_view target) {
  LBT_ASSIGN_OR_RETURN(Cursor * cursor, CursorAt(level));
  const size_t limit = level == 0 ? kMaxDirectKeyBytes : kMaxChunkBytes;
  // A direct key is its own probe (the common case: no copy).
  std::string probe;
  if (level == 0) {
    if (target.size() > limit) probe = GroupKey(target);
  } else {
    probe = NodeEntryKey(levels_[level].node, target.substr(0, limit),
                         target.size() <= limit ? kLeafMarker : kInternalMarker);
  }
  LBT_ASSIGN_OR_RETURN(bool found, cursor->Seek(level == 0 && target.size() <= limit ? target : probe));
  if (!found || !InNode(level, cursor->key())) return false;
  if (target.size() > limit && cursor->key() == probe) {
    // The target lies inside this group: continue the seek one level down.
    uint64_t child;
    if (!ParseNode(cursor->value(), &child)) return BadPointer();
    LBT_RETURN_IF_ERROR(CursorAt(level + 1).status());
    levels_[level + 1].node = child;
    LBT_ASSIGN_OR_RETURN(bool inside, SeekIn(level + 1, target.substr(limit)));
    if (!inside) LBT_RETURN_IF_ERROR(StepAt(level, /*forward=*/true));
    return true;
  }
  LBT_RETURN_IF_ERROR(Settle(level, /*forward=*/true));
  return true;
}

void OrderedStore::Iterator::BuildKey(size_t leaf_level) {
  leaf_level_ = leaf_level;
  std::string_view leaf = levels_[leaf_level].cursor->key();
  if (leaf_level == 0) {
    key_ = leaf;
    return;
  }
  key_buffer_.assign(levels_[0].cursor->key().substr(0, kMaxDirectKeyBytes));
  for (size_t level = 1; level <= leaf_level; ++level) {
    std::string_view k = levels_[level].cursor->key();
    key_buffer_.append(k.substr(kNodeBytes, k.size() - kNodeBytes - 1));
  }
  key_ = key_buffer_;
}

void OrderedStore::Iterator::Finish(Status s) {
  status_ = std::move(s);
  if (!status_.ok()) valid_ = false;
}

void OrderedStore::Iterator::Seek(std::string_view target) {
  valid_ = false;
  if (target.empty()) return SeekToFirst();
  Result<bool> positioned = SeekIn(0, target);
  if (positioned.ok() && !*positioned) valid_ = false;
  Finish(positioned.status());
}

void OrderedStore::Iterator::SeekForPrev(std::string_view target) {
  Seek(target);
  if (!status_.ok()) return;
  if (!Valid()) return SeekToLast();
  if (key() == target) return;
  Prev();
}

void OrderedStore::Iterator::SeekToEdge(bool first) {
  valid_ = false;
  Result<Cursor*> cursor = CursorAt(0);
  if (!cursor.ok()) return Finish(cursor.status());
  Result<bool> found = first ? (*cursor)->First() : (*cursor)->Last();
  if (!found.ok() || !*found) return Finish(found.status());
  Finish(Settle(0, /*forward=*/first));
}

void OrderedStore::Iterator::SeekToFirst() { SeekToEdge(/*first=*/true); }

void OrderedStore::Iterator::SeekToLast() { SeekToEdge(/*first=*/false); }

void OrderedStore::Iterator::Next() { Finish(StepAt(leaf_level_, /*forward=*/true)); }

void OrderedStore::Iterator::Prev() { Finish(StepAt(leaf_level_, /*forward=*/false)); }

}  // namespace lbt
