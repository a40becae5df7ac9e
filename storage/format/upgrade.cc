#include "storage/format/upgrade.h"
#include "util/bytes.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <lmdb.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>

#include "storage/catalog.h"
#include "storage/format/format_version.h"
#include "storage/format/key_codec.h"
#include "storage/format/stores.h"
#include "storage/kv/lmdb_env.h"
#include "storage/kv/ordered_store.h"

namespace lbt {

namespace fs = std::filesystem;

namespace {

constexpr int kFormatOneTableIdBytes = 4;
// Below this many cells an upgrade is quick: no progress lines.
constexpr uint64_t kProgressFromCells = 1000000;

Status Malformed(std::string_view what) {
  return Status::Corruption(fmt::format("a format-1 {} key is malformed; the database was not upgraded", what));
}

// Format 1 began keys with the table id in 4 big-endian bytes.
bool ConsumeFormatOneTableId(std::string_view* in, TableId* id) {
  if (in->size() < kFormatOneTableIdBytes) return false;
  *id = static_cast<TableId>(DecodeBigEndian(in->substr(0, kFormatOneTableIdBytes)));
  in->remove_prefix(kFormatOneTableIdBytes);
  return true;
}

// The escaped component at the front of *in, terminator included, and
// *in advanced past it.
bool TakeEscaped(std::string_view* in, std::string_view* escaped) {
  std::string_view rest = *in;
  if (!SkipEscaped(&rest)) return false;
  *escaped = in->substr(0, in->size() - rest.size());
  *in = rest;
  return true;
}

// The tables as the upgraded catalog has them, by id.
using TablesById = std::map<TableId, TableSpec>;

// Copies one write transaction's worth of entries at a time into the new
// file, committing between batches so that memory stays bounded.
class BatchedWriter {
 public:
  BatchedWriter(LmdbEnv* env, const Stores* stores, const UpgradeOptions& options)
      : env_(env), stores_(stores), options_(options) {}

  Status Begin() {
    LBT_ASSIGN_OR_RETURN(txn_, Txn::Begin(env_, /*write=*/true));
    LBT_ASSIGN_OR_RETURN(cells_, stores_->cells.NewAppender(txn_.get()));
    LBT_ASSIGN_OR_RETURN(rows_, stores_->rows.NewAppender(txn_.get()));
    return Status::OK();
  }
  Txn* txn() { return txn_.get(); }

  // Keys arrive in increasing order within each store.
  Status PutCell(std::string_view key, std::string_view value) { return Put(cells_.get(), key, value); }
  Status PutRow(std::string_view key, std::string_view value) { return Put(rows_.get(), key, value); }

  Status Commit() {
    cells_.reset();
    rows_.reset();
    LBT_RETURN_IF_ERROR(txn_->Commit());
    txn_.reset();
    ++batches_;
    if (options_.after_batch) options_.after_batch(batches_);
    return Status::OK();
  }

 private:
  Status Put(OrderedStore::Appender* appender, std::string_view key, std::string_view value) {
    LBT_RETURN_IF_ERROR(appender->PutNew(key, value));
    if (++in_batch_ < options_.batch_entries) return Status::OK();
    in_batch_ = 0;
    LBT_RETURN_IF_ERROR(Commit());
    return Begin();
  }

  LmdbEnv* env_;
  const Stores* stores_;
  const UpgradeOptions& options_;
  std::unique_ptr<Txn> txn_;
  std::unique_ptr<OrderedStore::Appender> cells_, rows_;
  size_t in_batch_ = 0;
  int batches_ = 0;
};

// Copies the meta entries with the new format version, and the catalog
// with family ids in name order; fills *tables.
Status CopySchema(Txn* from, const Stores& old_stores, Txn* to, const Stores& new_stores, TablesById* tables) {
  const std::string version = std::to_string(kCellFormatVersion);
  LBT_ASSIGN_OR_RETURN(auto meta, Cursor::Open(from, old_stores.meta));
  LBT_ASSIGN_OR_RETURN(bool more, meta->First());
  for (; more;) {
    const bool is_version = meta->key() == kMetaFormatVersion;
    LBT_RETURN_IF_ERROR(to->Put(new_stores.meta, meta->key(), is_version ? version : meta->value()));
    LBT_ASSIGN_OR_RETURN(more, meta->Next());
  }
  LBT_ASSIGN_OR_RETURN(MDB_dbi old_catalog, from->OpenDbi(kCatalogDb, /*create=*/false));
  LBT_ASSIGN_OR_RETURN(MDB_dbi new_catalog, to->OpenDbi(kCatalogDb, /*create=*/false));
  LBT_ASSIGN_OR_RETURN(auto cursor, Cursor::Open(from, old_catalog));
  LBT_ASSIGN_OR_RETURN(more, cursor->First());
  for (; more;) {
    std::string_view key = cursor->key();
    if (key.substr(0, kTableKeyPrefix.size()) != kTableKeyPrefix) {
      LBT_RETURN_IF_ERROR(to->Put(new_catalog, key, cursor->value()));
    } else {
      TableSpec spec;
      LBT_RETURN_IF_ERROR(DecodeTableSpec(key.substr(kTableKeyPrefix.size()), cursor->value(), &spec));
      LBT_RETURN_IF_ERROR(to->Put(new_catalog, key, EncodeTableSpec(spec)));
      tables->emplace(spec.id, std::move(spec));
    }
    LBT_ASSIGN_OR_RETURN(more, cursor->Next());
  }
  return Status::OK();
}

// Re-encodes the format-1 cell key `key` for `table`. Returns false for a
// cell of a table or family that no longer exists.
Result<bool> ReencodeCell(std::string_view key, const TablesById& tables, std::string* out) {
  TableId table_id;
  std::string_view row, family_escaped, family;
  if (!ConsumeFormatOneTableId(&key, &table_id) || !TakeEscaped(&key, &row) || !TakeEscaped(&key, &family_escaped)) {
    return Malformed("cell");
  }
  auto table = tables.find(table_id);
  if (table == tables.end()) return false;
  std::string family_name;
  if (!ConsumeEscaped(&family_escaped, &family_name)) return Malformed("cell");
  const FamilySpec* spec = table->second.FindFamily(family_name);
  if (spec == nullptr) return false;
  // The row, the qualifier and the timestamp keep their bytes.
  out->clear();
  AppendId(out, table_id);
  out->append(row);
  AppendId(out, spec->id);
  out->append(key);
  return true;
}

Status CopyCells(Txn* from, const Stores& old_stores, const TablesById& tables, BatchedWriter* writer, uint64_t total,
                 const UpgradeOptions& options, uint64_t* copied) {
  LBT_ASSIGN_OR_RETURN(auto it, old_stores.cells.NewIterator(from));
  std::string key;
  uint64_t seen = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    LBT_ASSIGN_OR_RETURN(bool kept, ReencodeCell(it->key(), tables, &key));
    if (kept) {
      LBT_RETURN_IF_ERROR(writer->PutCell(key, it->value()));
      ++*copied;
    }
    if (++seen % kProgressFromCells == 0 && total >= kProgressFromCells && options.progress) {
      options.progress(fmt::format("upgrading: {} of {} cells ({}%)", seen, total, seen * 100 / total));
    }
  }
  return it->status();
}

Status CopyRows(Txn* from, const Stores& old_stores, const TablesById& tables, BatchedWriter* writer) {
  LBT_ASSIGN_OR_RETURN(auto it, old_stores.rows.NewIterator(from));
  std::string key;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string_view rest = it->key();
    TableId table_id;
    if (!ConsumeFormatOneTableId(&rest, &table_id)) return Malformed("row index");
    if (tables.count(table_id) == 0) continue;
    key.clear();
    AppendId(&key, table_id);
    key.append(rest);
    LBT_RETURN_IF_ERROR(writer->PutRow(key, it->value()));
  }
  return it->status();
}

uint64_t EntriesOf(Txn* txn, const char* name) {
  Result<MDB_dbi> dbi = txn->OpenDbi(name, /*create=*/false);
  MDB_stat stat;
  if (!dbi.ok() || mdb_stat(txn->raw(), *dbi, &stat) != MDB_SUCCESS) return 0;
  return stat.ms_entries;
}

// Writes the upgraded database into `scratch` from the one in `dir`.
Status WriteUpgraded(const std::string& dir, const fs::path& scratch, const UpgradeOptions& options, uint64_t* copied) {
  std::error_code ec;
  LmdbOptions old_lmdb;
  old_lmdb.read_only = true;
  LBT_ASSIGN_OR_RETURN(auto old_env, LmdbEnv::Open(dir, old_lmdb));
  LBT_ASSIGN_OR_RETURN(auto from, Txn::Begin(old_env.get(), /*write=*/false));
  Stores old_stores;
  LBT_RETURN_IF_ERROR(OpenStores(from.get(), /*create=*/false, &old_stores));
  const uint64_t total = EntriesOf(from.get(), kCellsDb);

  // Format 2 is never larger than format 1 (ids take fewer bytes than
  // names), so twice the old file is room enough without growing the map.
  LmdbOptions new_lmdb;
  new_lmdb.sync = false;  // one flush at the end, before the rename
  new_lmdb.initial_map_bytes = 2 * fs::file_size(fs::path(dir) / "data.mdb", ec) + (64ull << 20);
  LBT_ASSIGN_OR_RETURN(auto new_env, LmdbEnv::Open(scratch.string(), new_lmdb));
  Stores new_stores;
  TablesById tables;
  {
    LBT_ASSIGN_OR_RETURN(auto to, Txn::Begin(new_env.get(), /*write=*/true));
    LBT_RETURN_IF_ERROR(OpenStores(to.get(), /*create=*/true, &new_stores));
    LBT_RETURN_IF_ERROR(CopySchema(from.get(), old_stores, to.get(), new_stores, &tables));
    LBT_RETURN_IF_ERROR(to->Commit());
  }
  BatchedWriter writer(new_env.get(), &new_stores, options);
  LBT_RETURN_IF_ERROR(writer.Begin());
  LBT_RETURN_IF_ERROR(CopyCells(from.get(), old_stores, tables, &writer, total, options, copied));
  LBT_RETURN_IF_ERROR(CopyRows(from.get(), old_stores, tables, &writer));
  LBT_RETURN_IF_ERROR(writer.Commit());
  return LmdbStatus(mdb_env_sync(new_env->raw(), 1), "flushing the upgraded database");
}

Status SyncDirectory(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Status::IOError(fmt::format("cannot open {} to flush it", dir.string()));
  const int rc = ::fsync(fd);
  ::close(fd);
  return rc == 0 ? Status::OK() : Status::IOError(fmt::format("cannot flush {}", dir.string()));
}

}  // namespace

Status UpgradeDatabase(const std::string& dir, int from, const UpgradeOptions& options) {
  if (from != 1) {
    return Status::FailedPrecondition(
        fmt::format("the database in '{}' has format version {}, which this lbt cannot upgrade", dir, from));
  }
  const auto start = std::chrono::steady_clock::now();
  const fs::path data = fs::path(dir) / "data.mdb";
  const fs::path scratch = fs::path(dir) / "upgrade.tmp";
  std::error_code ec;
  fs::remove_all(scratch, ec);  // what a killed upgrade left
  if (!fs::create_directory(scratch, ec)) {
    return Status::IOError(fmt::format("cannot create {}: {}", scratch.string(), ec.message()));
  }
  if (options.note) {
    options.note(
        fmt::format("upgrading the database in '{}' from format {} to {}: rows keep their cells, and "
                    "existing column families take their name order as their creation order",
                    dir, from, kCellFormatVersion));
  }
  uint64_t copied = 0;
  Status s = WriteUpgraded(dir, scratch, options, &copied);
  if (s.ok()) {
    fs::permissions(scratch / "data.mdb", fs::status(data, ec).permissions(), ec);  // stay private
    fs::rename(scratch / "data.mdb", data, ec);
    if (ec) s = Status::IOError(fmt::format("cannot replace {}: {}", data.string(), ec.message()));
  }
  if (s.ok()) s = SyncDirectory(dir);
  fs::remove_all(scratch, ec);
  LBT_RETURN_IF_ERROR(s);
  if (options.note) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    options.note(fmt::format("upgraded to format {}: {} cells in {:.1f} s", kCellFormatVersion, copied, seconds));
  }
  return Status::OK();
}

}  // namespace lbt
