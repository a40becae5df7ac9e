// Internal to remote/: ServerFaults (api/server_faults.h) as a client of
// lbt serve's own Faults service. A service without it (Bigtable, its
// emulator) answers UNIMPLEMENTED, said as a FailedPrecondition naming
// what only lbt serve has.
//
// Threading: as RemoteCalls.

#ifndef LBT_REMOTE_REMOTE_FAULTS_H_
#define LBT_REMOTE_REMOTE_FAULTS_H_

#include "api/server_faults.h"
#include "remote/remote_calls.h"

namespace lbt::remote {

class RemoteServerFaults final : public ServerFaults {
 public:
  // REQUIRES: `calls` outlives this object.
  explicit RemoteServerFaults(RemoteCalls* calls) : calls_(calls) {}

  Result<std::vector<FaultRuleState>> List() override;
  Result<std::vector<FaultRuleState>> Add(std::string_view rules_json) override;
  Status Clear() override;

 private:
  RemoteCalls* const calls_;
};

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_FAULTS_H_
