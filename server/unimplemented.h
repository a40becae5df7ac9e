// The answer to an RPC lbt does not serve: UNIMPLEMENTED, naming the RPC.

#ifndef LBT_SERVER_UNIMPLEMENTED_H_
#define LBT_SERVER_UNIMPLEMENTED_H_

#include <fmt/format.h>
#include <grpcpp/support/status.h>

#include <string_view>

namespace lbt::server {

inline grpc::Status Unimplemented(std::string_view rpc, std::string_view why) {
  return grpc::Status(grpc::StatusCode::UNIMPLEMENTED, fmt::format("{} is not implemented by lbt: {}", rpc, why));
}

}  // namespace lbt::server

#endif  // LBT_SERVER_UNIMPLEMENTED_H_
