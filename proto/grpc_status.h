// Engine statuses as the gRPC statuses Bigtable's clients see: the one
// place where lbt's status codes meet gRPC's.

#ifndef LBT_PROTO_GRPC_STATUS_H_
#define LBT_PROTO_GRPC_STATUS_H_

#include <grpcpp/support/status.h>

#include "engine/status.h"

namespace lbt::proto {

// The gRPC status for an engine status. Limits exceeded are
// INVALID_ARGUMENT, as Bigtable reports them.
grpc::Status ToGrpcStatus(const Status& status);

}  // namespace lbt::proto

#endif  // LBT_PROTO_GRPC_STATUS_H_
