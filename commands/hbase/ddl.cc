// The HBase shell's table commands: create, alter, describe, list, exists,
// disable, enable, drop, truncate, and its informational ones (status,
// whoami, list_namespace, show_filters, get_splits).

#include <fmt/format.h>

#include <pwd.h>
#include <re2/re2.h>
#include <unistd.h>

#include "commands/command_sets.h"
#include "commands/hbase/args.h"
#include "commands/hbase/filter.h"
#include "commands/hbase/schema.h"

namespace lbt::hbase {

namespace {

Status Create(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  std::vector<FamilySpec> families;
  for (size_t i = 1; i < args.size(); ++i) {
    const HValue& a = args[i];
    FamilySpec family;
    HBaseFamilyShape shape;
    if (a.IsString()) {
      family.name = a.text;
      family.gc_rule = RuleFor(shape);
    } else if (a.IsHash() && a.Find("NAME") != nullptr) {
      LBT_ASSIGN_OR_RETURN(family.name, StringArg(ctx, {*a.Find("NAME")}, 0, "NAME"));
      LBT_RETURN_IF_ERROR(ApplyFamilyOptions(ctx, a, &family, &shape));
    } else if (a.IsHash()) {
      for (const auto& [key, value] : a.entries) {
        ctx.err->Write(
            fmt::format("Argument ignored for table {}: {} (no meaning for a local database)\n", table, key));
      }
      continue;
    } else {
      return Usage(ctx, fmt::format("expected a family name or {{NAME => ...}}, got {}", a.Describe()));
    }
    families.push_back(std::move(family));
  }
  if (families.empty()) return Usage(ctx, "create needs at least one column family");
  Bigtable* bigtable = ctx.bigtable();
  Status s = bigtable->CreateTable(table, families, {}, /*deletion_protection=*/false);
  if (s.IsAlreadyExists()) return Status::AlreadyExists(fmt::format("Table already exists: {}!", table));
  LBT_RETURN_IF_ERROR(s);
  ctx.renderer->TableCreated(table);
  return Status::OK();
}

Status Alter(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  Bigtable* bigtable = ctx.bigtable();
  for (size_t i = 1; i < args.size(); ++i) {
    const HValue& change = args[i];
    if (!change.IsHash()) return Usage(ctx, fmt::format("expected a hash, got {}", change.Describe()));
    LBT_ASSIGN_OR_RETURN(TableSpec spec, RequireTable(ctx, table, false));
    if (const HValue* doomed = change.Find("delete")) {
      LBT_RETURN_IF_ERROR(bigtable->DeleteFamily(table, doomed->text));
      continue;
    }
    const HValue* name = change.Find("NAME");
    if (name == nullptr || !name->IsString()) return Usage(ctx, "alter needs NAME => 'family'");
    const HValue* method = change.Find("METHOD");
    if (method != nullptr && method->text == "delete") {
      LBT_RETURN_IF_ERROR(bigtable->DeleteFamily(table, name->text));
      continue;
    }
    FamilySpec family;
    family.name = name->text;
    HBaseFamilyShape shape;
    if (const FamilySpec* existing = spec.FindFamily(name->text)) {
      family = *existing;
      shape = ShapeOf(existing->gc_rule).value_or(HBaseFamilyShape{});
    }
    LBT_RETURN_IF_ERROR(ApplyFamilyOptions(ctx, change, &family, &shape));
    if (spec.FindFamily(name->text) != nullptr) {
      LBT_RETURN_IF_ERROR(bigtable->SetGcRule(table, family.name, family.gc_rule));
    } else {
      LBT_RETURN_IF_ERROR(bigtable->CreateFamily(table, family));
    }
  }
  ctx.renderer->SchemaAltered();
  return Status::OK();
}

Status Describe(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  LBT_ASSIGN_OR_RETURN(TableSpec spec, RequireTable(ctx, table, false));
  ctx.renderer->TableInfo(spec);
  return Status::OK();
}

Status List(CommandContext& ctx, const std::vector<HValue>& args) {
  std::string pattern = ".*";
  if (!args.empty()) {
    LBT_ASSIGN_OR_RETURN(pattern, StringArg(ctx, args, 0, "a regular expression"));
  }
  RE2 re(pattern);
  if (!re.ok()) return Usage(ctx, fmt::format("invalid regular expression '{}': {}", pattern, re.error()));
  std::vector<std::string> tables;
  if (ctx.session->ExistsOrNote(ctx.err)) {
    LBT_ASSIGN_OR_RETURN(std::vector<std::string> all, ctx.bigtable()->ListTables());
    for (const std::string& t : all) {
      if (RE2::FullMatch(t, re)) tables.push_back(t);
    }
  }
  ctx.renderer->Tables(tables);
  return Status::OK();
}

Status Exists(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  Result<TableSpec> spec = ctx.bigtable()->GetTable(table);
  if (!spec.ok() && !spec.status().IsNotFound()) return spec.status();
  const bool exists = spec.ok();
  ctx.renderer->TableExists(table, exists);
  return Status::OK();
}

// ---- informational commands of the HBase shell ----

Status ShowFilters(CommandContext& ctx, const std::vector<HValue>&) {
  ctx.renderer->Names("filters", HBaseFilterNames());
  return Status::OK();
}

// One namespace: HBase's default, where every table lives.
Status ListNamespace(CommandContext& ctx, const std::vector<HValue>&) {
  ctx.renderer->Names("namespaces", {"default"});
  return Status::OK();
}

Status Whoami(CommandContext& ctx, const std::vector<HValue>&) {
  const passwd* pw = getpwuid(geteuid());
  ctx.renderer->User(pw != nullptr ? pw->pw_name : std::to_string(geteuid()));
  return Status::OK();
}

// A local database is one server holding one region per table.
Status ClusterStatus(CommandContext& ctx, const std::vector<HValue>&) {
  size_t tables = 0;
  if (ctx.session->ExistsOrNote(ctx.err)) {
    LBT_ASSIGN_OR_RETURN(std::vector<std::string> names, ctx.bigtable()->ListTables());
    tables = names.size();
  }
  ctx.renderer->ServerStatus(static_cast<int64_t>(tables));
  return Status::OK();
}

// The table's split keys, as the service samples them (SampleRowKeys, as
// Google's HBase adapter answers getRegionLocations): locally a key about
// every 4 MiB of data.
Status GetSplits(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  LBT_RETURN_IF_ERROR(RequireTable(ctx, table, false).status());
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> data, ctx.OpenTable(table));
  LBT_ASSIGN_OR_RETURN(std::vector<KeySample> samples, data->SampleRowKeys(RowRange::All()));
  std::vector<std::string> keys;
  for (KeySample& s : samples) {
    if (!s.row_key.empty()) keys.push_back(std::move(s.row_key));  // the last sample ends the table
  }
  ctx.renderer->Splits(keys);
  return Status::OK();
}

Status SetEnabled(CommandContext& ctx, const std::vector<HValue>& args, bool enabled) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  LBT_RETURN_IF_ERROR(RequireTable(ctx, table, false).status());
  LBT_ASSIGN_OR_RETURN(LocalMaintenance * local, LocalOnly(ctx, enabled ? "enable" : "disable"));
  return local->SetTableEnabled(table, enabled);
}

Status Disable(CommandContext& ctx, const std::vector<HValue>& args) { return SetEnabled(ctx, args, false); }
Status Enable(CommandContext& ctx, const std::vector<HValue>& args) { return SetEnabled(ctx, args, true); }

Status IsEnabledOrDisabled(CommandContext& ctx, const std::vector<HValue>& args, bool ask_enabled) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  LBT_ASSIGN_OR_RETURN(TableSpec spec, RequireTable(ctx, table, false));
  bool answer = ask_enabled ? spec.enabled : !spec.enabled;
  ctx.renderer->TableState(ask_enabled ? "enabled" : "disabled", answer);
  return Status::OK();
}

Status IsEnabled(CommandContext& ctx, const std::vector<HValue>& args) { return IsEnabledOrDisabled(ctx, args, true); }
Status IsDisabled(CommandContext& ctx, const std::vector<HValue>& args) {
  return IsEnabledOrDisabled(ctx, args, false);
}

Status Drop(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  Bigtable* bigtable = ctx.bigtable();
  LBT_ASSIGN_OR_RETURN(TableSpec spec, RequireTable(ctx, table, false));
  // A remote table cannot be disabled (Bigtable has no such state), so
  // HBase's rule applies to local tables only.
  if (spec.enabled && bigtable->local() != nullptr) {
    return Status::FailedPrecondition(fmt::format("Table {} is enabled. Disable it first.", table));
  }
  return bigtable->DeleteTable(table);
}

Status Truncate(CommandContext& ctx, const std::vector<HValue>& args) {
  LBT_ASSIGN_OR_RETURN(std::string table, StringArg(ctx, args, 0, "a table name"));
  Bigtable* bigtable = ctx.bigtable();
  LBT_RETURN_IF_ERROR(RequireTable(ctx, table, false).status());
  ctx.renderer->Truncating(table);
  LBT_RETURN_IF_ERROR(bigtable->DropRowRange(table, ""));
  // HBase leaves a truncated table enabled.
  if (LocalMaintenance* local = bigtable->local()) return local->SetTableEnabled(table, true);
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> DdlCommands() {
  const Arg regex{.text = "'regex'", .noun = "a regular expression", .arity = Arity::kOptional};
  auto table_command = [](std::string_view name, std::string_view summary, HBaseHandler handler) {
    return CommandSpec{
        .name = name, .dialect = Dialect::kHBase, .summary = summary, .args = {kHBaseTableArg}, .hbase = handler};
  };
  auto no_args = [](std::string_view name, std::string_view summary, HBaseHandler handler) {
    return CommandSpec{.name = name, .dialect = Dialect::kHBase, .summary = summary, .hbase = handler};
  };
  return {
      {.name = "alter",
       .dialect = Dialect::kHBase,
       .summary = "Change, add or delete a column family",
       .args = {kHBaseTableArg,
                {.text = "NAME => 'f', VERSIONS => 5 | NAME => 'f', METHOD => 'delete'",
                 .noun = "a family change such as NAME => 'f1', VERSIONS => 5",
                 .arity = Arity::kRest}},
       .options = {{.key = "NAME", .use = OptionUse::kQuiet},
                   {.key = "VERSIONS", .use = OptionUse::kQuiet},
                   {.key = "TTL", .use = OptionUse::kQuiet},
                   {.key = "METHOD", .use = OptionUse::kQuiet}},
       .details = "  Example: alter 'mobile_time_series', NAME => 'cell_plan', VERSIONS => 5",
       .hbase = Alter},
      {.name = "create",
       .dialect = Dialect::kHBase,
       .summary = "Create a table (HBase form)",
       .args = {kHBaseTableArg,
                {.text = "'f1', 'f2' | {NAME => 'f1', VERSIONS => 3, TTL => 86400}",
                 .noun = "at least one column family",
                 .arity = Arity::kRest}},
       .options = {{.key = "NAME", .use = OptionUse::kQuiet},
                   {.key = "VERSIONS", .use = OptionUse::kQuiet},
                   {.key = "TTL", .use = OptionUse::kQuiet}},
       .details = "  VERSIONS becomes maxversions and TTL (seconds) maxage; with both, either\n"
                  "  collects a cell. Without VERSIONS a family keeps 1 version, as in HBase.\n"
                  "  Options with no local meaning (BLOOMFILTER, COMPRESSION, ...) are ignored.",
       .hbase = Create},
      table_command("desc", "Describe a table (HBase form)", Describe),
      table_command("describe", "Describe a table (HBase form)", Describe),
      table_command("disable", "Disable a table: it keeps its data but refuses reads and writes", Disable),
      table_command("drop", "Drop a disabled table", Drop),
      table_command("enable", "Enable a table", Enable),
      table_command("exists", "Tell whether a table exists", Exists),
      table_command("get_splits", "Print a table's split keys (sampled about every 4 MiB locally)", GetSplits),
      table_command("is_disabled", "Tell whether a table is disabled", IsDisabled),
      table_command("is_enabled", "Tell whether a table is enabled", IsEnabled),
      {.name = "list",
       .dialect = Dialect::kHBase,
       .summary = "List tables (HBase form)",
       .args = {regex},
       .hbase = List},
      {.name = "list_namespace",
       .dialect = Dialect::kHBase,
       .summary = "List namespaces (only default, locally)",
       .args = {regex},
       .hbase = ListNamespace},
      no_args("show_filters", "List the filters FILTER => \"...\" knows", ShowFilters),
      {.name = "status",
       .dialect = Dialect::kHBase,
       .summary = "Show the cluster's status (one local server)",
       .args = {{.text = "'simple'", .noun = "one of 'simple', 'summary' or 'detailed'", .arity = Arity::kOptional}},
       .hbase = ClusterStatus},
      table_command("truncate", "Delete every row of a table, keeping its schema", Truncate),
      no_args("whoami", "Show the current user", Whoami),
  };
}

}  // namespace lbt::hbase
