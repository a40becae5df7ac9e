// lbt serve's own service beside Bigtable's (proto/lbt/v1/faults.proto):
// the fault rules in force (fault_rules.h), listed with how often each
// fired, added to and cleared while the server runs, which is how the
// shell's `faults` command reaches them. A rule file (fault_file.h) that
// changes afterwards replaces them all.

#ifndef LBT_SERVER_FAULT_SERVICE_H_
#define LBT_SERVER_FAULT_SERVICE_H_

#include "lbt/v1/faults.grpc.pb.h"
#include "server/call_runtime.h"

namespace lbt::server {

class FaultService final : public lbt::v1::Faults::CallbackService {
 public:
  // REQUIRES: `runtime` outlives the service.
  explicit FaultService(CallRuntime* runtime) : runtime_(runtime) {}

  grpc::ServerUnaryReactor* ListFaultRules(grpc::CallbackServerContext* context,
                                           const lbt::v1::ListFaultRulesRequest* request,
                                           lbt::v1::FaultRules* response) override;
  grpc::ServerUnaryReactor* AddFaultRules(grpc::CallbackServerContext* context,
                                          const lbt::v1::AddFaultRulesRequest* request,
                                          lbt::v1::FaultRules* response) override;
  grpc::ServerUnaryReactor* ClearFaultRules(grpc::CallbackServerContext* context,
                                            const lbt::v1::ClearFaultRulesRequest* request,
                                            lbt::v1::FaultRules* response) override;

 private:
  CallRuntime* const runtime_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_FAULT_SERVICE_H_
