// The one shape of every RPC handler in server/: the generated service
// method admits the call through the gate and runs a body written in lbt's
// terms, whose Status becomes the call's gRPC status here and nowhere else
// (the mapping itself is proto/grpc_status.h's):
//
//   grpc::Status DataService::MutateRow(grpc::ServerContext*, const v2::MutateRowRequest* request,
//                                       v2::MutateRowResponse*) {
//     return Handle(gate_, [&]() -> Status {
//       LBT_ASSIGN_OR_RETURN(RequestTarget target, ResolveTarget(*router_, *request));
//       ...
//       return target.table->MutateRow(request->row_key(), mutations);
//     });
//   }
//
// A body fills the response (or writes the stream) itself and returns OK,
// or returns the error the client sees, its message naming the request's
// field.

#ifndef LBT_SERVER_HANDLER_H_
#define LBT_SERVER_HANDLER_H_

#include <fmt/format.h>
#include <grpcpp/support/status.h>

#include <string_view>
#include <type_traits>

#include "api/status.h"
#include "proto/grpc_status.h"
#include "server/rpc_gate.h"

namespace lbt::server {

// Runs `body` as one RPC, unless `gate` is closed (the server is stopping),
// which answers UNAVAILABLE without running it.
template <typename Body>
grpc::Status Handle(RpcGate* gate, Body&& body) {
  static_assert(std::is_same_v<std::invoke_result_t<Body&>, Status>, "a handler's body returns lbt's Status");
  RpcGate::Pass pass(gate);
  if (!pass.admitted()) return RpcGate::Pass::Refusal();
  return proto::ToGrpcStatus(body());
}

// The answer to an RPC lbt does not serve: UNIMPLEMENTED, naming the RPC
// and saying why.
inline Status NotServed(std::string_view rpc, std::string_view why) {
  return Status::FromCode(Status::Code::kUnimplemented, fmt::format("{} is not implemented by lbt: {}", rpc, why));
}

}  // namespace lbt::server

// Declares, in a service class with an RpcGate* gate_, a unary RPC that
// answers UNIMPLEMENTED naming itself and saying why.
#define LBT_NOT_SERVED(Rpc, Request, Response, why)                            \
  grpc::Status Rpc(grpc::ServerContext*, const Request*, Response*) override { \
    return Handle(gate_, [] { return NotServed(#Rpc, why); });                 \
  }

#endif  // LBT_SERVER_HANDLER_H_
