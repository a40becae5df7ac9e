// lbt's schema-bundle commands, named like the authorized-view ones:
// createschemabundle, listschemabundles, getschemabundle,
// updateschemabundle and deleteschemabundle, over the Bigtable
// interface's bundles (api/schema_bundle.h). A bundle is read from a
// descriptor-set file, as `protoc --include_imports --descriptor_set_out`
// writes it (gcloud's --proto-descriptors-file), or from a .proto file,
// which protoc (Debian's protobuf-compiler) turns into one.

#include <fmt/format.h>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
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

// A .proto file's descriptor set, with its imports (found beside it), as
// protoc writes it: the schema bundle proto's own instructions.
Result<std::string> CompileProto(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path file(path);
  if (!fs::exists(file)) return Status::NotFound(fmt::format("cannot open .proto file '{}'", path));
  const fs::path out = fs::temp_directory_path() / fmt::format("lbt-bundle-{}.pb", getpid());
  const std::string include = "-I" + (file.has_parent_path() ? file.parent_path().string() : std::string("."));
  const std::string output = "--descriptor_set_out=" + out.string();
  std::vector<std::string> words = {"protoc", "--include_imports", output, include, path};
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, "protoc", nullptr, nullptr, argv.data(), environ) != 0) {
    return Status::FailedPrecondition(
        "reading a .proto file needs protoc (Debian's protobuf-compiler); or give a descriptor set file, from "
        "protoc --include_imports --descriptor_set_out=FILE");
  }
  int status = 0;
  waitpid(pid, &status, 0);
  Result<std::string> bytes = ReadDescriptors(out.string());
  std::error_code ignored;
  fs::remove(out, ignored);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return Status::InvalidArgument(fmt::format("protoc could not compile '{}' (its message is above)", path));
  }
  return bytes;
}

// The bundle's descriptors from `path`: a .proto file, or a descriptor set.
Result<std::string> DescriptorsFrom(const std::string& path) {
  if (path.ends_with(".proto")) return CompileProto(path);
  return ReadDescriptors(path);
}

Status CreateSchemaBundle(CommandContext& ctx, const std::vector<std::string>& args) {
  SchemaBundleSpec bundle;
  bundle.id = args[1];
  LBT_ASSIGN_OR_RETURN(bundle.descriptors, DescriptorsFrom(args[2]));
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
  LBT_ASSIGN_OR_RETURN(bundle.descriptors, DescriptorsFrom(args[2]));
  LBT_ASSIGN_OR_RETURN(SchemaBundleSpec updated,
                       ctx.bigtable()->UpdateSchemaBundle(args[0], bundle, /*ignore_warnings=*/true));
  ctx.renderer->SchemaBundle(updated, protoschema::TypeNames(updated.descriptors));
  return Status::OK();
}

Status DeleteSchemaBundle(CommandContext& ctx, const std::vector<std::string>& args) {
  return ctx.bigtable()->DeleteSchemaBundle(args[0], args[1], {});
}

constexpr Arg kBundleArg{.text = "<bundle-id>", .noun = "a schema bundle id"};
constexpr Arg kFileArg{
    .text = "<file.proto|descriptor-set-file>", .noun = "a .proto or descriptor set file", .kind = ArgKind::kFile};

}  // namespace

std::vector<CommandSpec> SchemaBundleCommands() {
  return {
      {.name = "createschemabundle",
       .summary = "Keep a table's protobuf schema (a schema bundle) for SQL",
       .args = {kTableArg, kBundleArg, kFileArg},
       .details = "  <file.proto>           A .proto file (its imports beside it), compiled with protoc\n"
                  "                         (Debian's protobuf-compiler).\n"
                  "  <descriptor-set-file>  A FileDescriptorSet with every import, as\n"
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
