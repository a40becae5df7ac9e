// Where a remote Bigtable is and how to reach it: cbt's global flags and
// ~/.cbtrc settings. A plain struct, free of gRPC, so that the shell can
// parse options without loading it.

#ifndef LBT_REMOTE_REMOTE_OPTIONS_H_
#define LBT_REMOTE_REMOTE_OPTIONS_H_

#include <cstdint>
#include <string>

namespace lbt {

struct RemoteOptions {
  std::string project;
  std::string instance;
  // A service account's JSON key file; empty: application-default credentials.
  std::string creds;
  // host:port of the Data and Admin APIs; empty: Bigtable's production ones.
  std::string data_endpoint;
  std::string admin_endpoint;
  std::string app_profile;
  // The deadline of each command's calls, streams and retries included, in
  // milliseconds (0: none).
  int64_t timeout_ms = 0;
  // BIGTABLE_EMULATOR_HOST: plaintext, no credentials, both APIs there.
  std::string emulator_host;
};

inline constexpr const char* kProductionDataEndpoint = "bigtable.googleapis.com:443";
inline constexpr const char* kProductionAdminEndpoint = "bigtableadmin.googleapis.com:443";

}  // namespace lbt

#endif  // LBT_REMOTE_REMOTE_OPTIONS_H_
