// Statuses as the gRPC statuses Bigtable's clients see, and back: the one
// place where lbt's status codes meet gRPC's.

#ifndef LBT_PROTO_GRPC_STATUS_H_
#define LBT_PROTO_GRPC_STATUS_H_

#include <grpcpp/support/status.h>

#include "api/status.h"
#include "google/rpc/status.pb.h"

namespace lbt::proto {

// A status message goes back in a header (grpc-message, percent-encoded),
// and clients refuse headers past 8 KiB by default, some by failing the
// connection: a longer message is cut to this many bytes.
inline constexpr size_t kMaxStatusMessageBytes = 2048;

// The gRPC status for an engine status, its message cut to
// kMaxStatusMessageBytes. Limits exceeded are INVALID_ARGUMENT, as
// Bigtable reports them.
grpc::Status ToGrpcStatus(const Status& status);

// The other way, for a client: a service's answer as a Status with the
// service's message.
Status FromGrpcStatus(const grpc::Status& status);

// The same mappings for a status carried in a message (google.rpc.Status):
// a MutateRows entry's, a long-running operation's error.
google::rpc::Status ToRpcStatus(const Status& status);
Status FromRpcStatus(const google::rpc::Status& status);

}  // namespace lbt::proto

#endif  // LBT_PROTO_GRPC_STATUS_H_
