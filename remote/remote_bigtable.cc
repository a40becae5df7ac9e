#include "remote/remote_bigtable.h"

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "api/deferred_bigtable.h"
#include "api/instance_admin.h"
#include "api/version.h"
#include "remote/remote_admin.h"
#include "remote/remote_authorized_views.h"
#include "remote/remote_backups.h"
#include "remote/remote_calls.h"
#include "remote/remote_change_streams.h"
#include "remote/remote_faults.h"
#include "remote/remote_instance_admin.h"
#include "remote/remote_mutations.h"
#include "remote/remote_query.h"
#include "remote/remote_read_write.h"
#include "remote/remote_reads.h"
#include "remote/remote_sample_keys.h"
#include "remote/remote_schema_bundles.h"
#include "remote/remote_table.h"

namespace lbt {

namespace {

std::string DataEndpoint(const RemoteOptions& options) {
  if (!options.emulator_host.empty()) return options.emulator_host;
  return options.data_endpoint.empty() ? kProductionDataEndpoint : options.data_endpoint;
}

std::string AdminEndpoint(const RemoteOptions& options) {
  if (!options.emulator_host.empty()) return options.emulator_host;
  return options.admin_endpoint.empty() ? kProductionAdminEndpoint : options.admin_endpoint;
}

std::string DescribeInstance(const RemoteOptions& options) {
  return fmt::format("instance {}/{} at {}", options.project, options.instance, DataEndpoint(options));
}

std::string InstancePromptName(const RemoteOptions& options) { return options.project + "/" + options.instance; }

Result<std::shared_ptr<grpc::ChannelCredentials>> ServiceAccountCredentials(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Status::NotFound(fmt::format("cannot read the credentials file '{}'", file));
  std::stringstream key;
  key << in.rdbuf();
  std::shared_ptr<grpc::CallCredentials> call = grpc::ServiceAccountJWTAccessCredentials(key.str());
  if (call == nullptr) {
    return Status::InvalidArgument(
        fmt::format("'{}' is not a service account key (a JSON file with a private key)", file));
  }
  return grpc::CompositeChannelCredentials(grpc::SslCredentials({}), call);
}

Result<std::shared_ptr<grpc::ChannelCredentials>> Credentials(const RemoteOptions& options) {
  if (!options.emulator_host.empty()) return grpc::InsecureChannelCredentials();
  if (!options.creds.empty()) return ServiceAccountCredentials(options.creds);
  std::shared_ptr<grpc::ChannelCredentials> adc = grpc::GoogleDefaultCredentials();
  if (adc == nullptr) {
    return Status::FromCode(Status::Code::kUnauthenticated,
                            "no Google credentials found: run 'gcloud auth application-default login', set "
                            "GOOGLE_APPLICATION_CREDENTIALS, or pass -creds <service-account.json>");
  }
  return adc;
}

std::shared_ptr<grpc::Channel> NewChannel(const std::string& endpoint,
                                          const std::shared_ptr<grpc::ChannelCredentials>& credentials) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(256 << 20);  // Bigtable's largest row
  args.SetMaxSendMessageSize(256 << 20);
  // Reconnect quickly after a lost connection. GRPC_ARG_MIN_RECONNECT_BACKOFF_MS
  // is left alone: gRPC also uses it as the connect timeout, and a small one
  // made every server more than ~50 ms away unreachable.
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  args.SetUserAgentPrefix("lbt/" + std::string(kVersion));
  return grpc::CreateCustomChannel(endpoint, credentials, args);
}

// The Bigtable interface over the RPC families in remote/, each in its own
// file; this class only routes.
class RemoteBigtable final : public Bigtable {
 public:
  RemoteBigtable(const RemoteOptions& options, const std::shared_ptr<grpc::Channel>& data,
                 const std::shared_ptr<grpc::Channel>& admin)
      : options_(options), calls_(options, data, admin), queries_(NewRemoteQueryService(&calls_)) {}

  std::string Describe() const override { return DescribeInstance(options_); }
  std::string PromptName() const override { return InstancePromptName(options_); }
  InstanceName instance() override { return calls_.instance(); }
  bool Exists() override { return true; }
  void CancelCalls() override { calls_.CancelAll(); }
  int64_t NowMicros() const override {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  sql::QueryService* query_service() override { return queries_.get(); }

  // ---- data ----
  Result<std::unique_ptr<Table>> OpenTable(const TableRef& ref) override {
    return remote::OpenRemoteTable(&calls_, ref);
  }

  // ---- table admin ----
  using TableAdmin::CreateTable;
  Status CreateTable(std::string_view table, const NewTable& spec) override {
    return remote::CreateTable(&calls_, table, spec);
  }
  Status DeleteTable(std::string_view table) override { return remote::DeleteTable(&calls_, table); }
  Status UndeleteTable(std::string_view table) override { return remote::UndeleteTable(&calls_, table); }
  Result<SchemaBundleSpec> CreateSchemaBundle(std::string_view table, const SchemaBundleSpec& bundle) override {
    return remote::CreateSchemaBundle(&calls_, table, bundle);
  }
  Result<SchemaBundleSpec> GetSchemaBundle(std::string_view table, std::string_view bundle_id) override {
    return remote::GetSchemaBundle(&calls_, table, bundle_id);
  }
  Result<std::vector<SchemaBundleSpec>> ListSchemaBundles(std::string_view table) override {
    return remote::ListSchemaBundles(&calls_, table);
  }
  Result<SchemaBundleSpec> UpdateSchemaBundle(std::string_view table, const SchemaBundleSpec& bundle,
                                              bool ignore_warnings) override {
    return remote::UpdateSchemaBundle(&calls_, table, bundle, ignore_warnings);
  }
  Status DeleteSchemaBundle(std::string_view table, std::string_view bundle_id, std::string_view etag) override {
    return remote::DeleteSchemaBundle(&calls_, table, bundle_id, etag);
  }
  Result<AuthorizedViewSpec> CreateAuthorizedView(std::string_view table, const AuthorizedViewSpec& view) override {
    return remote::CreateAuthorizedView(&calls_, table, view);
  }
  Result<AuthorizedViewSpec> GetAuthorizedView(std::string_view table, std::string_view view_id) override {
    return remote::GetAuthorizedView(&calls_, table, view_id);
  }
  Result<std::vector<AuthorizedViewSpec>> ListAuthorizedViews(std::string_view table) override {
    return remote::ListAuthorizedViews(&calls_, table);
  }
  Result<AuthorizedViewSpec> UpdateAuthorizedView(std::string_view table, const AuthorizedViewSpec& view,
                                                  const AuthorizedViewUpdate& update) override {
    return remote::UpdateAuthorizedView(&calls_, table, view, update);
  }
  Status DeleteAuthorizedView(std::string_view table, std::string_view view_id, std::string_view etag) override {
    return remote::DeleteAuthorizedView(&calls_, table, view_id, etag);
  }
  Result<BackupSpec> CreateBackup(std::string_view cluster, std::string_view backup_id, std::string_view table,
                                  int64_t expire_time_micros) override {
    return remote::CreateBackup(&calls_, calls_.instance(), cluster, backup_id, table, expire_time_micros);
  }
  Result<BackupSpec> GetBackup(std::string_view cluster, std::string_view backup_id) override {
    return remote::GetBackup(&calls_, calls_.instance(), cluster, backup_id);
  }
  Result<std::vector<BackupSpec>> ListBackups(std::string_view cluster) override {
    return remote::ListBackups(&calls_, calls_.instance(), cluster);
  }
  Result<BackupSpec> UpdateBackupExpireTime(std::string_view cluster, std::string_view backup_id,
                                            int64_t expire_time_micros) override {
    return remote::UpdateBackupExpireTime(&calls_, calls_.instance(), cluster, backup_id, expire_time_micros);
  }
  Status DeleteBackup(std::string_view cluster, std::string_view backup_id) override {
    return remote::DeleteBackup(&calls_, calls_.instance(), cluster, backup_id);
  }
  Result<BackupSpec> CopyBackup(const BackupSpec& source, std::string_view cluster, std::string_view backup_id,
                                int64_t expire_time_micros) override {
    return remote::CopyBackup(&calls_, source, calls_.instance(), cluster, backup_id, expire_time_micros);
  }
  Status RestoreTable(const BackupSpec& backup, std::string_view table_id) override {
    return remote::RestoreTable(&calls_, backup, calls_.instance(), table_id);
  }
  Result<IamPolicy> GetIamPolicy(std::string_view resource) override { return remote::GetIamPolicy(&calls_, resource); }
  Result<IamPolicy> SetIamPolicy(std::string_view resource, const IamPolicy& policy) override {
    return remote::SetIamPolicy(&calls_, resource, policy);
  }
  Result<std::vector<std::string>> ListTables() override { return remote::ListTables(&calls_); }
  Result<TableSpec> GetTable(std::string_view table) override { return remote::GetTable(&calls_, table); }
  Status ModifyFamilies(std::string_view table, const std::vector<FamilyChange>& changes) override {
    return remote::ModifyFamilies(&calls_, table, changes);
  }
  Status SetRowKeySchema(std::string_view table, const std::optional<RowKeySchema>& schema,
                         bool ignore_warnings) override {
    return remote::SetRowKeySchema(&calls_, table, schema, ignore_warnings);
  }
  Status SetTieredStorage(std::string_view table, const std::optional<TieredStorage>& tiers) override {
    return remote::SetTieredStorage(&calls_, table, tiers);
  }
  Status SetAutomatedBackupPolicy(std::string_view table, const std::optional<AutomatedBackupPolicy>& policy) override {
    return remote::SetAutomatedBackupPolicy(&calls_, table, policy);
  }
  Status SetChangeStream(std::string_view table, const std::optional<ChangeStreamConfig>& config) override {
    return remote::SetChangeStream(&calls_, table, config);
  }
  Status SetDeletionProtection(std::string_view table, bool enabled) override {
    return remote::SetDeletionProtection(&calls_, table, enabled);
  }
  Status DropRowRange(std::string_view table, std::string_view prefix) override {
    return remote::DropRowRange(&calls_, table, prefix);
  }
  Status WaitForReplication(std::string_view table) override { return remote::WaitForReplication(&calls_, table); }

  InstanceAdmin* instance_admin() override { return &instances_; }
  ServerFaults* server_faults() override { return &faults_; }

 private:
  const RemoteOptions options_;
  RemoteCalls calls_;
  // Another instance's tables: a connection of their own, with these options.
  remote::RemoteInstanceAdmin instances_{&calls_, [options = options_](const InstanceName& name) {
                                           RemoteOptions other = options;
                                           other.project = name.project;
                                           other.instance = name.instance;
                                           return ConnectRemote(other);
                                         }};
  std::unique_ptr<sql::QueryService> queries_;
  remote::RemoteServerFaults faults_{&calls_};
};

}  // namespace

Result<std::unique_ptr<Bigtable>> ConnectRemote(const RemoteOptions& options) {
  if (options.project.empty()) return Status::InvalidArgument("missing -project (or project= in ~/.cbtrc)");
  if (options.instance.empty()) return Status::InvalidArgument("missing -instance (or instance= in ~/.cbtrc)");
  LBT_ASSIGN_OR_RETURN(std::shared_ptr<grpc::ChannelCredentials> credentials, Credentials(options));
  const std::string data = DataEndpoint(options);
  const std::string admin = AdminEndpoint(options);
  std::shared_ptr<grpc::Channel> data_channel = NewChannel(data, credentials);
  std::shared_ptr<grpc::Channel> admin_channel = admin == data ? data_channel : NewChannel(admin, credentials);
  return std::unique_ptr<Bigtable>(std::make_unique<RemoteBigtable>(options, data_channel, admin_channel));
}

std::unique_ptr<Bigtable> ConnectRemoteOnFirstUse(const RemoteOptions& options) {
  return std::make_unique<DeferredBigtable>(InstanceName{options.project, options.instance}, DescribeInstance(options),
                                            InstancePromptName(options), [options] { return ConnectRemote(options); });
}

}  // namespace lbt
