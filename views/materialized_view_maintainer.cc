#include "views/materialized_view_maintainer.h"

#include <fmt/format.h>

#include <set>

#include "api/instance.h"
#include "api/instance_admin.h"
#include "sql/materialized_view.h"
#include "util/file_lock.h"

namespace lbt::views {

using sql::DecodeValues;
using sql::EncodeValues;
using sql::MaterializedViewPlan;
using sql::Value;
using sql::Values;

namespace {

constexpr const char* kMetaRow = "m";
// Source rows read, and changes taken from the stream, per step.
constexpr size_t kBatch = 500;
// How often the instances beside the first are looked for.
constexpr int kInstanceRefreshPasses = 20;

std::string SourceRow(std::string_view key) { return "s" + std::string(key); }
std::string GroupRow(std::string_view view_key) { return "g" + std::string(view_key); }
std::string ContributionColumn(std::string_view source_key, size_t n) {
  return std::string(source_key) + '\0' + std::to_string(n);
}

std::string EncodeKeys(const std::vector<std::string>& keys) {
  Values values;
  for (const std::string& k : keys) values.push_back(Value::Bytes(k));
  return EncodeValues(values);
}

Result<std::vector<std::string>> DecodeKeys(std::string_view bytes) {
  LBT_ASSIGN_OR_RETURN(Values values, DecodeValues(bytes));
  std::vector<std::string> keys;
  for (const Value& v : values) keys.push_back(v.str());
  return keys;
}

const Cell* FindCell(const Row& row, std::string_view family, std::string_view qualifier) {
  for (const Cell& c : row.cells) {
    if (c.family == family && c.qualifier == qualifier) return &c;
  }
  return nullptr;
}

// Writes `rows` in bounded batches; the first row that fails fails it all
// (the pass is redone from its last token).
Status WriteRows(Table& table, std::vector<RowMutation> rows) {
  for (size_t at = 0; at < rows.size(); at += kBatch) {
    std::vector<RowMutation> batch(
        std::make_move_iterator(rows.begin() + static_cast<ptrdiff_t>(at)),
        std::make_move_iterator(rows.begin() + static_cast<ptrdiff_t>(std::min(rows.size(), at + kBatch))));
    LBT_ASSIGN_OR_RETURN(std::vector<Status> statuses, table.MutateRows(batch));
    for (const Status& s : statuses) LBT_RETURN_IF_ERROR(s);
  }
  return Status::OK();
}

Result<std::vector<std::optional<Row>>> Lookup(MaterializedViewStorage* storage, const std::vector<std::string>& keys) {
  std::vector<std::optional<Row>> out;
  for (size_t at = 0; at < keys.size(); at += kBatch) {
    std::vector<std::string> batch(keys.begin() + static_cast<ptrdiff_t>(at),
                                   keys.begin() + static_cast<ptrdiff_t>(std::min(keys.size(), at + kBatch)));
    LBT_ASSIGN_OR_RETURN(auto rows, storage->state().LookupRows(batch, ReadRequest{}));
    for (auto& row : rows) out.push_back(std::move(row));
  }
  return out;
}

}  // namespace

struct MaterializedViewMaintainer::View {
  std::string query;
  std::unique_ptr<MaterializedViewPlan> plan;
  std::unique_ptr<MaterializedViewStorage> storage;
  Bigtable* source = nullptr;

  // Brings source rows `keys` into the view: their old contributions out,
  // their current ones in. The aggregate form's touched groups go to
  // *groups, to be recomputed by the caller; `fresh`: no old ones (a
  // backfill over emptied state).
  Status Apply(const std::vector<std::string>& keys, bool fresh, std::set<std::string>* groups) {
    LBT_ASSIGN_OR_RETURN(auto current, plan->Contributions(source, keys));
    return ApplyContributions(current, fresh, groups);
  }

  Status ApplyContributions(const std::map<std::string, std::vector<MaterializedViewPlan::Contribution>>& current,
                            bool fresh, std::set<std::string>* groups) {
    std::map<std::string, std::vector<std::string>> old;
    if (!fresh) LBT_RETURN_IF_ERROR(ReadOld(current, &old));
    std::vector<RowMutation> sources;
    for (const auto& [key, parts] : current) {
      std::vector<std::string> view_keys;
      for (const auto& p : parts) view_keys.push_back(p.view_key);
      if (view_keys.empty()) {
        if (old.contains(key)) sources.push_back({SourceRow(key), {Mutation::DeleteFromRow()}});
      } else {
        sources.push_back({SourceRow(key), {Mutation::SetCell("c", "", EncodeKeys(view_keys), 0)}});
      }
    }
    if (plan->aggregate()) {
      LBT_RETURN_IF_ERROR(ApplyGroups(current, old, groups));
    } else {
      LBT_RETURN_IF_ERROR(ApplyIndex(current, old));
    }
    // Last: until a source row's record changes, a redo finds its old
    // contributions where they were.
    return WriteRows(storage->state(), std::move(sources));
  }

  Status ReadOld(const std::map<std::string, std::vector<MaterializedViewPlan::Contribution>>& current,
                 std::map<std::string, std::vector<std::string>>* old) {
    std::vector<std::string> rows;
    for (const auto& entry : current) rows.push_back(SourceRow(entry.first));
    LBT_ASSIGN_OR_RETURN(auto found, Lookup(storage.get(), rows));
    for (auto& row : found) {
      if (!row) continue;
      const Cell* cell = FindCell(*row, "c", "");
      if (cell == nullptr) continue;
      LBT_ASSIGN_OR_RETURN((*old)[row->key.substr(1)], DecodeKeys(cell->value));
    }
    return Status::OK();
  }

  // Contribution cells out of the old groups and into the new ones; the
  // groups are noted as pending first, so that a redo recomputes them.
  Status ApplyGroups(const std::map<std::string, std::vector<MaterializedViewPlan::Contribution>>& current,
                     const std::map<std::string, std::vector<std::string>>& old, std::set<std::string>* groups) {
    std::map<std::string, std::vector<Mutation>> changes;
    for (const auto& [key, view_keys] : old) {
      for (size_t i = 0; i < view_keys.size(); ++i) {
        changes[view_keys[i]].push_back(Mutation::DeleteFromColumn("c", ContributionColumn(key, i)));
      }
    }
    for (const auto& [key, parts] : current) {
      for (size_t i = 0; i < parts.size(); ++i) {
        std::vector<Mutation>& row = changes[parts[i].view_key];
        row.push_back(Mutation::SetCell("c", ContributionColumn(key, i), EncodeValues(parts[i].payload), 0));
        row.push_back(Mutation::SetCell("k", "", EncodeValues(parts[i].key_values), 0));
      }
    }
    if (changes.empty()) return Status::OK();
    std::vector<std::string> touched;
    for (const auto& entry : changes) touched.push_back(entry.first);
    if (groups == nullptr) LBT_RETURN_IF_ERROR(SetPending(touched));
    std::vector<RowMutation> rows;
    for (auto& [view_key, mutations] : changes) rows.push_back({GroupRow(view_key), std::move(mutations)});
    LBT_RETURN_IF_ERROR(WriteRows(storage->state(), std::move(rows)));
    if (groups != nullptr) {
      groups->insert(touched.begin(), touched.end());
      return Status::OK();
    }
    return Recompute(touched);
  }

  // Index rows written whole, then the ones no longer made removed.
  Status ApplyIndex(const std::map<std::string, std::vector<MaterializedViewPlan::Contribution>>& current,
                    const std::map<std::string, std::vector<std::string>>& old) {
    std::vector<RowMutation> rows;
    std::set<std::string> made;
    for (const auto& [key, parts] : current) {
      for (const auto& p : parts) {
        made.insert(p.view_key);
        rows.push_back({p.view_key, plan->RowMutations(p.payload)});
      }
    }
    for (const auto& [key, view_keys] : old) {
      for (const std::string& k : view_keys) {
        if (!made.contains(k)) rows.push_back({k, {Mutation::DeleteFromRow()}});
      }
    }
    return WriteRows(storage->rows(), std::move(rows));
  }

  // Each group's view row from its contributions, or none.
  Status Recompute(const std::vector<std::string>& view_keys) {
    std::vector<std::string> keys;
    for (const std::string& k : view_keys) keys.push_back(GroupRow(k));
    LBT_ASSIGN_OR_RETURN(auto found, Lookup(storage.get(), keys));
    std::vector<RowMutation> rows, emptied;
    for (size_t i = 0; i < view_keys.size(); ++i) {
      std::vector<Values> payloads;
      Values key_values;
      if (found[i]) {
        for (const Cell& c : found[i]->cells) {
          if (c.family == "c") {
            LBT_ASSIGN_OR_RETURN(payloads.emplace_back(), DecodeValues(c.value));
          } else if (c.family == "k") {
            LBT_ASSIGN_OR_RETURN(key_values, DecodeValues(c.value));
          }
        }
      }
      std::optional<Values> output;
      if (!payloads.empty()) {
        // A group its rows cannot make (a SUM past INT64's range) is left
        // out until they change, as production leaves out what it cannot
        // compute.
        Result<std::optional<Values>> finished = plan->FinishGroup(key_values, payloads);
        if (finished.ok()) output = std::move(finished).value();
      } else {
        emptied.push_back({keys[i], {Mutation::DeleteFromRow()}});
      }
      rows.push_back({view_keys[i], output ? plan->RowMutations(*output) : std::vector{Mutation::DeleteFromRow()}});
    }
    LBT_RETURN_IF_ERROR(WriteRows(storage->rows(), std::move(rows)));
    return WriteRows(storage->state(), std::move(emptied));
  }

  Status SetPending(const std::vector<std::string>& view_keys) {
    return storage->state().MutateRow(kMetaRow, {Mutation::SetCell("m", "pending", EncodeKeys(view_keys), 0)});
  }
};

MaterializedViewMaintainer::MaterializedViewMaintainer(Bigtable* bigtable, InstanceName instance)
    : bigtable_(bigtable), instance_(std::move(instance)) {}

MaterializedViewMaintainer::~MaterializedViewMaintainer() = default;

void MaterializedViewMaintainer::RefreshInstances() {
  InstanceAdmin* admin = bigtable_->instance_admin();
  if (admin == nullptr || passes_.load() % kInstanceRefreshPasses != 0) return;
  Result<std::vector<InstanceSpec>> listed = admin->ListInstances("");
  if (!listed.ok()) return;
  for (const InstanceSpec& spec : *listed) {
    if (spec.name == instance_ || instances_.contains(spec.name)) continue;
    Result<std::unique_ptr<Bigtable>> opened = admin->OpenTables(spec.name);
    if (opened.ok()) instances_[spec.name] = std::move(opened).value();
  }
}

MaterializedViewMaintainer::Work MaterializedViewMaintainer::ListViews(Status* first) {
  Work work;
  // Views are the instance admin's to keep: none where there is none.
  InstanceAdmin* admin = bigtable_->instance_admin();
  if (admin == nullptr) return work;
  std::vector<Instance> instances = {{instance_, bigtable_}};
  for (auto& [name, tables] : instances_) instances.push_back({name, tables.get()});
  for (const Instance& instance : instances) {
    Result<std::vector<MaterializedViewSpec>> views = admin->ListMaterializedViews(instance.name);
    if (!views.ok()) {
      if (first->ok()) *first = views.status();
      continue;
    }
    if (!views->empty()) work.emplace_back(instance, std::move(views).value());
  }
  return work;
}

Status MaterializedViewMaintainer::CatchUp(WhenBusy when_busy) {
  // A pass begun after this call, and run whole, saw every change
  // committed before it: callers queued behind one pass (a server's
  // concurrent view reads) share it rather than each run their own.
  const int64_t begun_before = begun_.load();
  std::lock_guard<std::mutex> pass(pass_mu_);
  if (last_whole_pass_ > begun_before) return Status::OK();
  const int64_t number = begun_.fetch_add(1) + 1;
  bool whole = false;
  Status s = CatchUpLocked(when_busy, &whole);
  if (whole) last_whole_pass_ = number;
  return s;
}

Status MaterializedViewMaintainer::CatchUpLocked(WhenBusy when_busy, bool* whole) {
  LocalMaintenance* local = bigtable_->local();
  // Nothing on disk changes (not even the lock file) where no view is.
  if (local == nullptr || local->read_only() || !bigtable_->Exists()) return Status::OK();
  RefreshInstances();
  passes_.fetch_add(1);
  Status first;
  if (ListViews(&first).empty()) {
    *whole = first.ok();
    return first;
  }
  // Held for this pass only, so that the lock means "a pass is running",
  // never "someone has the database open".
  FileLock lock(local->dir() + "/materialized-views.lock",
                when_busy == WhenBusy::kWait ? FileLock::Mode::kWait : FileLock::Mode::kTry);
  if (!lock.held()) return first;
  // Listed again under the lock: a pass that ran meanwhile may have built
  // a view (its backfilled flag) or dropped one.
  first = Status::OK();
  for (const auto& [instance, views] : ListViews(&first)) {
    for (const MaterializedViewSpec& spec : views) {
      Status s = Maintain(instance, spec);
      if (!s.ok() && first.ok()) {
        first = Status::FromCode(s.code(), fmt::format("materialized view {}: {}", spec.id, s.message()));
      }
    }
  }
  *whole = first.ok();
  return first;
}

namespace {

struct Meta {
  std::string token;
  int64_t start = 0;  // where to read from when there is no token yet
  std::vector<std::string> pending;
};

Result<Meta> ReadMeta(MaterializedViewStorage* storage) {
  Meta meta;
  LBT_ASSIGN_OR_RETURN(auto found, Lookup(storage, {kMetaRow}));
  if (!found[0]) return meta;
  if (const Cell* c = FindCell(*found[0], "m", "token")) meta.token = c->value;
  if (const Cell* c = FindCell(*found[0], "m", "start")) DecodeInt64(c->value, &meta.start);
  if (const Cell* c = FindCell(*found[0], "m", "pending")) {
    LBT_ASSIGN_OR_RETURN(meta.pending, DecodeKeys(c->value));
  }
  return meta;
}

}  // namespace

Status MaterializedViewMaintainer::Maintain(const Instance& named, const MaterializedViewSpec& spec) {
  Bigtable* const instance = named.tables;
  std::unique_ptr<View>& view = views_[{named.name, spec.id}];
  if (view == nullptr || view->query != spec.query) {
    auto made = std::make_unique<View>();
    made->query = spec.query;
    LBT_ASSIGN_OR_RETURN(made->plan, MaterializedViewPlan::Make(instance, spec.query));
    LocalMaintenance* local = instance->local();
    if (local == nullptr) return Status::FailedPrecondition("materialized views are kept only in a local database");
    LBT_ASSIGN_OR_RETURN(made->storage, local->OpenMaterializedViewStorage(spec.id));
    made->source = instance;
    view = std::move(made);
  }
  MaterializedViewStorage* storage = view->storage.get();
  LBT_ASSIGN_OR_RETURN(Meta meta, ReadMeta(storage));

  auto backfill = [&]() -> Status {
    // Changes from a little before the scan on: those the scan already
    // saw are applied again, which changes nothing.
    const int64_t start = instance->NowMicros() - 1'000'000;
    LBT_RETURN_IF_ERROR(storage->Clear());
    std::set<std::string> groups;
    std::map<std::string, std::vector<MaterializedViewPlan::Contribution>> batch;
    LBT_RETURN_IF_ERROR(view->plan->ScanContributions(
        instance, [&](const std::string& key, std::vector<MaterializedViewPlan::Contribution> parts) -> Status {
          batch[key] = std::move(parts);
          if (batch.size() < kBatch) return Status::OK();
          Status s = view->ApplyContributions(batch, /*fresh=*/true, &groups);
          batch.clear();
          return s;
        }));
    LBT_RETURN_IF_ERROR(view->ApplyContributions(batch, /*fresh=*/true, &groups));
    if (view->plan->aggregate()) LBT_RETURN_IF_ERROR(view->Recompute({groups.begin(), groups.end()}));
    LBT_RETURN_IF_ERROR(storage->state().MutateRow(
        kMetaRow, {Mutation::DeleteFromRow(), Mutation::SetCell("m", "start", EncodeInt64(start), 0)}));
    meta = Meta{.start = start};
    return instance->local()->SetMaterializedViewBackfilled(spec.id);
  };

  if (!spec.backfilled || (meta.token.empty() && meta.start == 0)) LBT_RETURN_IF_ERROR(backfill());
  if (!meta.pending.empty()) {
    LBT_RETURN_IF_ERROR(view->Recompute(meta.pending));
    LBT_RETURN_IF_ERROR(storage->state().MutateRow(kMetaRow, {Mutation::DeleteFromColumn("m", "pending")}));
  }

  // Follow the source's changes to the last one committed. (Not to the
  // clock: commit times run ahead of it when many changes commit in one
  // microsecond, a drop's for one.)
  ChangeStreamRequest request;
  request.partition = RowRange::All();
  if (!meta.token.empty()) {
    request.resume.push_back(ChangeStreamPosition{RowRange::All(), meta.token});
  } else {
    request.start_micros = meta.start;
  }
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> source, instance->OpenTable(::lbt::TableRef::Table(spec.source_table)));
  Result<std::unique_ptr<ChangeStream>> opened = source->ReadChangeStream(request);
  if (!opened.ok() && opened.status().code() == Status::Code::kInvalidArgument) {
    // Its position is gone (kept past the stream's retention, or the
    // stream was turned off and on): build the view afresh.
    return backfill();
  }
  LBT_RETURN_IF_ERROR(opened.status());
  ChangeStream* stream = opened->get();
  for (bool more = true; more;) {
    std::set<std::string> keys;
    while (keys.size() < kBatch) {
      LBT_ASSIGN_OR_RETURN(std::optional<DataChange> change, stream->Next(std::chrono::milliseconds(0)));
      if (!change) {
        more = false;
        break;
      }
      keys.insert(change->row_key);
    }
    if (keys.empty()) break;
    LBT_RETURN_IF_ERROR(view->Apply({keys.begin(), keys.end()}, /*fresh=*/false, nullptr));
    LBT_RETURN_IF_ERROR(storage->state().MutateRow(
        kMetaRow, {Mutation::SetCell("m", "token", stream->token(), 0), Mutation::DeleteFromColumn("m", "pending")}));
  }
  return Status::OK();
}

}  // namespace lbt::views
