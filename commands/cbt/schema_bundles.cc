// lbt's schema-bundle commands, named like the authorized-view ones:
// createschemabundle, listschemabundles, getschemabundle,
// updateschemabundle and deleteschemabundle, over the Bigtable
// interface's bundles (api/schema_bundle.h). A bundle is read from a
// descriptor-set file, as `protoc --include_imports --descriptor_set_out`
// writes it (gcloud's --proto-descriptors-file).

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "commands/cbt/args.h"
#include "commands/command_sets.h"
#include "commands/core/command_table.h"
#include "protoschema/descriptor_set.h"

namespace lbt {

namespace {

Result<std::string> ReadDescriptors(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::NotFound(fmt::format("cannot open descriptor set file '{}'", path));
  std::ostringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

Status CreateSchemaBundle(CommandContext& ctx, const std::vector<std::string>& args) {
  SchemaBundleSpec bundle;
  bundle.id = args[1];
  LBT_ASSIGN_OR_RETURN(bundle.descriptors, ReadDescriptors(args[2]));
  LBT_ASSIGN_OR_RETURN(SchemaBundleSpec made, ctx.bigtable()->CreateSchemaBundle(args[0], bundle));
  ctx.renderer->SchemaBundle(made, protoschema::TypeNames(made.descriptors));
  return Status::OK();
}

Status ListSchemaBundles(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(std::vector<SchemaBundleSpec> bundles, ctx.bigtable()->ListSchemaBundles(args[0]));
  ctx.renderer->SchemaBundles(bundles);
  return Status::OK();
}

Status GetSchemaBundle(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(SchemaBundleSpec bundle, ctx.bigtable()->GetSchemaBundle(args[0], args[1]));
  ctx.renderer->SchemaBundle(bundle, protoschema::TypeNames(bundle.descriptors));
  return Status::OK();
}

// The update names the etag it read, so that it fails rather than undo a
// change made meanwhile.
Status UpdateSchemaBundle(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(SchemaBundleSpec bundle, ctx.bigtable()->GetSchemaBundle(args[0], args[1]));
  LBT_ASSIGN_OR_RETURN(bundle.descriptors, ReadDescriptors(args[2]));
  LBT_ASSIGN_OR_RETURN(SchemaBundleSpec updated,
                       ctx.bigtable()->UpdateSchemaBundle(args[0], bundle, /*ignore_warnings=*/true));
  ctx.renderer->SchemaBundle(updated, protoschema::TypeNames(updated.descriptors));
  return Status::OK();
}

Status DeleteSchemaBundle(CommandContext& ctx, const std::vector<std::string>& args) {
  return ctx.bigtable()->DeleteSchemaBundle(args[0], args[1], {});
}

constexpr Arg kBundleArg{.text = "<bundle-id>", .noun = "a schema bundle id"};
constexpr Arg kFileArg{.text = "<descriptor-set-file>", .noun = "a descriptor set file", .kind = ArgKind::kFile};

}  // namespace

std::vector<CommandSpec> SchemaBundleCommands() {
  return {
      {.name = "createschemabundle",
       .summary = "Keep a table's protobuf schema (a schema bundle) for SQL",
       .args = {kTableArg, kBundleArg, kFileArg},
       .details = "  <descriptor-set-file>  A FileDescriptorSet with every import, as\n"
                  "                         protoc --include_imports --descriptor_set_out=FILE writes it.\n\n"
                  "  SQL then reads a cell holding one of its messages as a STRUCT of its\n"
                  "  fields: CAST(cf['q'] AS <bundle-id>.<package>.<Message>).field.",
       .cbt = CreateSchemaBundle},
      {.name = "listschemabundles",
       .summary = "List the schema bundles of a table",
       .args = {kTableArg},
       .details = "  Example: listschemabundles mobile_time_series",
       .cbt = ListSchemaBundles},
      {.name = "getschemabundle",
       .summary = "Show a schema bundle and the types it defines",
       .args = {kTableArg, kBundleArg},
       .cbt = GetSchemaBundle},
      {.name = "updateschemabundle",
       .summary = "Replace a schema bundle's descriptors",
       .args = {kTableArg, kBundleArg, kFileArg},
       .cbt = UpdateSchemaBundle},
      {.name = "deleteschemabundle",
       .summary = "Delete a schema bundle",
       .args = {kTableArg, kBundleArg},
       .cbt = DeleteSchemaBundle},
  };
}

}  // namespace lbt
