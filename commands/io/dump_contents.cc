#include "commands/io/dump_contents.h"
#include "api/backup.h"
#include "api/instance_admin.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <utility>

namespace lbt {

std::string Word(std::string_view bytes) {
  auto plain = [](unsigned char c) {
    return std::isalnum(c) != 0 || std::string_view("_-.,:/@+=%#").find(static_cast<char>(c)) != std::string_view::npos;
  };
  bool bare = !bytes.empty() && bytes.front() != '#';
  for (unsigned char c : bytes) bare = bare && plain(c);
  if (bare) return std::string(bytes);
  std::string word = "$'";
  for (unsigned char c : bytes) {
    if (c == '\\' || c == '\'') {
      word += '\\';
      word += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {
      word += fmt::format("\\x{:02x}", c);
    } else {
      word += static_cast<char>(c);
    }
  }
  return word + "'";
}

std::string QueryLine(std::string_view query) {
  std::string line(query);
  std::replace_if(
      line.begin(), line.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return line;
}

bool QueryFitsOneLine(std::string_view query) {
  // Without quotes no line break can lie inside a literal.
  return query.find_first_of("\n\r") == std::string_view::npos || query.find_first_of("'\"`") == std::string_view::npos;
}

namespace {

bool Unserved(const Status& s) { return s.code() == Status::Code::kUnimplemented; }

// A list a service without the feature answers Unimplemented for: empty.
template <typename T>
Result<std::vector<T>> NoneIfUnserved(Result<std::vector<T>> listed) {
  if (!listed.ok() && Unserved(listed.status())) return std::vector<T>();
  return listed;
}

// ---- logical views: each after the views it reads ----

bool IsIdChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-'; }

// True when `query` has `id` as a whole word.
bool Mentions(std::string_view query, std::string_view id) {
  for (size_t at = query.find(id); at != std::string_view::npos; at = query.find(id, at + 1)) {
    const size_t end = at + id.size();
    if ((at == 0 || !IsIdChar(query[at - 1])) && (end == query.size() || !IsIdChar(query[end]))) return true;
  }
  return false;
}

std::vector<LogicalViewSpec> InCreationOrder(std::vector<LogicalViewSpec> views) {
  std::vector<LogicalViewSpec> ordered;
  while (!views.empty()) {
    auto ready = std::find_if(views.begin(), views.end(), [&](const LogicalViewSpec& v) {
      return std::none_of(views.begin(), views.end(),
                          [&](const LogicalViewSpec& w) { return w.id != v.id && Mentions(v.query, w.id); });
    });
    // Mentions that go round (names in string literals, say): by id.
    if (ready == views.end()) ready = views.begin();
    ordered.push_back(std::move(*ready));
    views.erase(ready);
  }
  return ordered;
}

// ---- what the commands cannot say ----

std::string Zone(const ClusterSpec& cluster) { return cluster.location.substr(cluster.location.rfind('/') + 1); }

void NoteClusterGaps(const InstanceSpec& instance, const ClusterSpec& c, std::vector<std::string>* left_out) {
  const std::string name = fmt::format("{}/clusters/{}", instance.name.Full(), c.id);
  if (c.autoscaling) {
    left_out->push_back(fmt::format("{}: its autoscaling (the copy has {} nodes, fixed)", name, c.serve_nodes));
  }
  if (c.node_scaling_factor != 1) left_out->push_back(name + ": its node scaling factor");
  if (!c.kms_key_name.empty()) left_out->push_back(name + ": its encryption key");
  if (c.storage_type == StorageType::kUnspecified) left_out->push_back(name + ": its unspecified storage (made SSD)");
  if (c.location != fmt::format("projects/{}/locations/{}", instance.name.project, Zone(c))) {
    left_out->push_back(fmt::format("{}: its location '{}' (made in zone {})", name, c.location, Zone(c)));
  }
}

void NoteRecordGaps(const InstanceSpec& instance, std::vector<std::string>* left_out) {
  const std::string name = instance.name.Full();
  if (!instance.labels.empty()) left_out->push_back(name + ": its labels");
  if (instance.type == InstanceType::kDevelopment) left_out->push_back(name + ": its type, DEVELOPMENT");
  for (const ClusterSpec& c : instance.clusters) NoteClusterGaps(instance, c, left_out);
  for (const AppProfileSpec& p : instance.app_profiles) {
    const std::string profile = fmt::format("{}/appProfiles/{}", name, p.id);
    if (p.isolation != AppProfileSpec::Isolation::kNone) {
      left_out->push_back(profile + ": its isolation (priority or Data Boost)");
    }
    if (p.routing == AppProfileSpec::Routing::kMultiCluster && (!p.cluster_ids.empty() || p.row_affinity)) {
      left_out->push_back(profile + ": its multi-cluster routing's clusters and row affinity (made to route to any)");
    }
  }
}

// The retention as setchangestream reads it.
std::string RetentionText(int64_t micros) {
  constexpr int64_t kSecond = 1000000;
  const std::pair<char, int64_t> units[] = {{'d', 86400 * kSecond}, {'h', 3600 * kSecond}, {'m', 60 * kSecond}};
  for (const auto& [unit, size] : units) {
    if (micros % size == 0) return fmt::format("{}{}", micros / size, unit);
  }
  return fmt::format("{}s", micros / kSecond);
}

void NoteTableGaps(const std::string& name, const TableSpec& t, std::vector<std::string>* left_out) {
  if (t.deletion_protection) left_out->push_back(name + ": its deletion protection");
  if (t.automated_backup_policy) left_out->push_back(name + ": its automated backup policy");
  if (t.restored_from) left_out->push_back(name + ": where it was restored from (" + t.restored_from->backup + ")");
  if (t.change_stream) {
    left_out->push_back(name + ": the changes its change stream has kept (the copy's stream starts empty)");
    if (t.change_stream->retention_micros % 1000000 != 0) {
      left_out->push_back(name + ": its change stream retention's fraction of a second");
    }
  }
}

}  // namespace

std::optional<std::string> AuthorizedViewStatement(const std::string& table, const AuthorizedViewSpec& view) {
  const SubsetView& subset = view.subset;
  std::string statement = fmt::format("createauthorizedview {} {}", Word(table), Word(view.id));
  auto listable = [](const std::string& item) { return item.find(',') == std::string::npos; };
  if (subset.row_prefixes == std::vector<std::string>{""}) {
    statement += " row-prefixes=";
  } else if (!subset.row_prefixes.empty()) {
    std::string prefixes;
    for (const std::string& p : subset.row_prefixes) {
      if (p.empty() || !listable(p)) return std::nullopt;
      prefixes += (prefixes.empty() ? "" : ",") + p;
    }
    statement += " " + Word("row-prefixes=" + prefixes);
  }
  std::string columns;
  for (const auto& [family, covered] : subset.family_subsets) {
    for (const std::string& q : covered.qualifiers) {
      if (!listable(q) || (!q.empty() && q.back() == '*')) return std::nullopt;
      columns += (columns.empty() ? "" : ",") + family + ":" + q;
    }
    for (const std::string& p : covered.qualifier_prefixes) {
      if (!listable(p)) return std::nullopt;
      columns += (columns.empty() ? "" : ",") + family + ":" + p + "*";
    }
  }
  if (!columns.empty()) statement += " " + Word("columns=" + columns);
  if (subset.row_prefixes.empty() && columns.empty()) return std::nullopt;
  if (view.deletion_protection) statement += " deletion-protection=true";
  return statement;
}

std::string ChangeStreamStatement(const TableSpec& table) {
  return fmt::format("setchangestream {} {}", Word(table.name), RetentionText(table.change_stream->retention_micros));
}

namespace {

Result<TableContents> GatherTable(Bigtable* bigtable, const InstanceName& instance, const std::string& table,
                                  std::vector<std::string>* left_out) {
  TableContents out;
  LBT_ASSIGN_OR_RETURN(out.spec, bigtable->GetTable(table));
  LBT_ASSIGN_OR_RETURN(out.authorized_views, NoneIfUnserved(bigtable->ListAuthorizedViews(table)));
  // A service's GetTable does not carry the bundles; a local one's does.
  if (out.spec.schema_bundles.empty()) {
    LBT_ASSIGN_OR_RETURN(out.spec.schema_bundles, NoneIfUnserved(bigtable->ListSchemaBundles(table)));
  }
  const std::string name = fmt::format("{}/tables/{}", instance.Full(), table);
  NoteTableGaps(name, out.spec, left_out);
  for (const AuthorizedViewSpec& view : out.authorized_views) {
    if (!AuthorizedViewStatement(table, view)) {
      left_out->push_back(
          fmt::format("{}/authorizedViews/{}: its subset, which createauthorizedview cannot write "
                      "(a ',' in a prefix or qualifier, or a qualifier ending in '*')",
                      name, view.id));
    }
  }
  return out;
}

// What an instance of the database keeps apart from its tables and views:
// backups and IAM policies, which no command recreates.
void NoteKeptApart(InstanceAdmin* admin, const InstanceContents& in, std::vector<std::string>* left_out) {
  Result<std::vector<BackupSpec>> backups = in.bigtable->ListBackups("-");
  if (backups.ok() && !backups->empty()) {
    left_out->push_back(
        fmt::format("{}: its {} backup{}", in.name.Full(), backups->size(), backups->size() == 1 ? "" : "s"));
  }
  auto note_policy = [&](const std::string& resource, const Result<IamPolicy>& policy) {
    if (policy.ok() && !policy->bindings.empty()) left_out->push_back(resource + ": its IAM policy");
  };
  note_policy(in.name.Full(), admin->GetIamPolicy(in.name.Full()));
  for (const TableContents& t : in.tables) {
    const std::string table = FullTableName(in.name, t.spec.name);
    note_policy(table, in.bigtable->GetIamPolicy(table));
  }
}

Status GatherInstance(InstanceContents* in, std::vector<std::string>* left_out) {
  LBT_ASSIGN_OR_RETURN(std::vector<std::string> tables, in->bigtable->ListTables());
  for (const std::string& table : tables) {
    LBT_ASSIGN_OR_RETURN(TableContents t, GatherTable(in->bigtable, in->name, table, left_out));
    in->tables.push_back(std::move(t));
  }
  // The instance's views, where its service keeps them.
  if (InstanceAdmin* admin = in->bigtable->instance_admin(); admin != nullptr) {
    LBT_ASSIGN_OR_RETURN(in->materialized_views, NoneIfUnserved(admin->ListMaterializedViews(in->name)));
    LBT_ASSIGN_OR_RETURN(in->logical_views, NoneIfUnserved(admin->ListLogicalViews(in->name)));
  }
  in->logical_views = InCreationOrder(std::move(in->logical_views));
  for (const LogicalViewSpec& v : in->logical_views) {
    if (!QueryFitsOneLine(v.query)) {
      left_out->push_back(
          fmt::format("{}/logicalViews/{}: the line breaks of its query (written as blanks)", in->name.Full(), v.id));
    }
  }
  for (const MaterializedViewSpec& v : in->materialized_views) {
    if (!QueryFitsOneLine(v.query)) {
      left_out->push_back(fmt::format("{}/materializedViews/{}: the line breaks of its query (written as blanks)",
                                      in->name.Full(), v.id));
    }
  }
  if (in->record) NoteRecordGaps(*in->record, left_out);
  return Status::OK();
}

bool HasContents(const InstanceContents& in) {
  return in.record.has_value() || !in.tables.empty() || !in.materialized_views.empty() || !in.logical_views.empty();
}

// The other instances of a local database, each gathered.
Status GatherOthers(CommandContext& ctx, InstanceAdmin* admin, DatabaseContents* out) {
  const InstanceName& here = ctx.session->options().instance;
  LBT_ASSIGN_OR_RETURN(std::vector<InstanceSpec> listed, admin->ListInstances("-"));
  for (InstanceSpec& spec : listed) {
    if (spec.name == here) continue;
    InstanceContents in;
    in.name = spec.name;
    if (spec.create_time_micros != 0) in.record = std::move(spec);  // implied instances have no creation time
    LBT_ASSIGN_OR_RETURN(in.owned, admin->OpenTables(in.name));
    in.bigtable = in.owned.get();
    LBT_RETURN_IF_ERROR(GatherInstance(&in, &out->left_out));
    if (HasContents(in)) out->instances.push_back(std::move(in));
  }
  return Status::OK();
}

}  // namespace

Result<DatabaseContents> GatherContents(CommandContext& ctx, const std::vector<std::string>& tables) {
  DatabaseContents out;
  InstanceContents here;
  here.name = ctx.session->options().instance;
  here.bigtable = ctx.bigtable();
  if (!tables.empty()) {
    for (const std::string& table : tables) {
      LBT_ASSIGN_OR_RETURN(TableContents t, GatherTable(here.bigtable, here.name, table, &out.left_out));
      here.tables.push_back(std::move(t));
    }
    out.instances.push_back(std::move(here));
    return out;
  }
  InstanceAdmin* admin = ctx.session->bigtable()->instance_admin();
  if (admin != nullptr) {
    Result<InstanceSpec> spec = admin->GetInstance(here.name);
    if (spec.ok() && spec->create_time_micros != 0) here.record = std::move(*spec);
  }
  LBT_RETURN_IF_ERROR(GatherInstance(&here, &out.left_out));
  out.instances.push_back(std::move(here));
  if (admin == nullptr) return out;
  // A local database's instances are all of it; a service's instance is
  // what a remote session dumps.
  if (ctx.session->bigtable()->local() != nullptr) LBT_RETURN_IF_ERROR(GatherOthers(ctx, admin, &out));
  for (const InstanceContents& in : out.instances) NoteKeptApart(admin, in, &out.left_out);
  return out;
}

std::vector<std::string> InstanceStatements(const InstanceSpec& instance) {
  auto cluster_words = [](const ClusterSpec& c) {
    return fmt::format("{} {} {} {}", Word(c.id), Word(Zone(c)), c.serve_nodes,
                       c.storage_type == StorageType::kHdd ? "HDD" : "SSD");
  };
  const std::string id = Word(instance.name.instance);
  std::vector<std::string> statements;
  statements.push_back(fmt::format("createinstance {} {} {}", id, Word(instance.display_name),
                                   cluster_words(instance.clusters.front())));
  for (size_t i = 1; i < instance.clusters.size(); ++i) {
    statements.push_back("createcluster " + cluster_words(instance.clusters[i]));
  }
  for (const AppProfileSpec& p : instance.app_profiles) {
    const bool single = p.routing == AppProfileSpec::Routing::kSingleCluster;
    std::string routing = single ? Word("route-to=" + p.cluster_id) : "route-any";
    if (single && p.allow_transactional_writes) routing += " transactional-writes=true";
    // createinstance made the default profile: single-cluster with
    // transactional writes, without a description.
    const bool as_made = p.id == kDefaultAppProfile && single && p.allow_transactional_writes &&
                         p.cluster_id == instance.clusters.front().id && p.description.empty();
    if (as_made) continue;
    statements.push_back(fmt::format("{} {} {} {} {} force=true",
                                     p.id == kDefaultAppProfile ? "updateappprofile" : "createappprofile", id,
                                     Word(p.id), Word(p.description), routing));
  }
  return statements;
}

}  // namespace lbt
