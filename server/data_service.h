// google.bigtable.v2.Bigtable over the Bigtable interface (api/bigtable.h):
// thin handlers (server/handler.h) that convert requests with
// proto/convert.h, call the interface, and convert the results back. The
// GoogleSQL RPCs are in data_service_query.cc. What a request names (its
// table, authorized view or materialized view, its app profile) resolves
// through server/request_target.h into the tables of its instance.
//
// Threading: gRPC calls the handlers from many threads at once, on its
// callback API (server/handler.h, server/stream_reactor.h); the Bigtable
// served must allow that (the local engine serializes writes and gives
// each read its own snapshot).

#ifndef LBT_SERVER_DATA_SERVICE_H_
#define LBT_SERVER_DATA_SERVICE_H_

#include "api/bigtable.h"
#include "google/bigtable/v2/bigtable.grpc.pb.h"
#include "server/call_runtime.h"
#include "server/instance_router.h"
#include "server/request_limits.h"
#include "server/stream_limit.h"

namespace lbt::server {

namespace v2 = ::google::bigtable::v2;

// How many long-lived calls of each kind may be open at once.
struct StreamBounds {
  int change_streams = kMaxChangeStreams;
  int reads = kMaxReadStreams;
};

// MutateRows is served raw (its request as bytes), so that the handler
// parses a request of many small messages onto an arena of its own
// (data_service.cc).
using DataServiceBase = v2::Bigtable::WithRawCallbackMethod_MutateRows<v2::Bigtable::CallbackService>;

class DataService final : public DataServiceBase {
 public:
  // `router` and `runtime` are not owned and must outlive the service.
  // Every RPC passes through `runtime`'s gate; every response a stream
  // sends, through its stall watch.
  DataService(const InstanceRouter* router, CallRuntime* runtime, StreamBounds bounds = {})
      : router_(router),
        runtime_(runtime),
        change_streams_(bounds.change_streams, "change streams (ReadChangeStream)"),
        read_streams_(bounds.reads, "reads (ReadRows and ExecuteQuery)") {}

  grpc::ServerWriteReactor<v2::ReadRowsResponse>* ReadRows(grpc::CallbackServerContext* context,
                                                           const v2::ReadRowsRequest* request) override;
  grpc::ServerWriteReactor<v2::SampleRowKeysResponse>* SampleRowKeys(grpc::CallbackServerContext* context,
                                                                     const v2::SampleRowKeysRequest* request) override;
  grpc::ServerUnaryReactor* MutateRow(grpc::CallbackServerContext* context, const v2::MutateRowRequest* request,
                                      v2::MutateRowResponse* response) override;
  // A MutateRowsRequest's bytes; answers with MutateRowsResponses'.
  grpc::ServerWriteReactor<grpc::ByteBuffer>* MutateRows(grpc::CallbackServerContext* context,
                                                         const grpc::ByteBuffer* request) override;
  grpc::ServerUnaryReactor* CheckAndMutateRow(grpc::CallbackServerContext* context,
                                              const v2::CheckAndMutateRowRequest* request,
                                              v2::CheckAndMutateRowResponse* response) override;
  grpc::ServerUnaryReactor* PingAndWarm(grpc::CallbackServerContext* context, const v2::PingAndWarmRequest* request,
                                        v2::PingAndWarmResponse* response) override;
  grpc::ServerUnaryReactor* ReadModifyWriteRow(grpc::CallbackServerContext* context,
                                               const v2::ReadModifyWriteRowRequest* request,
                                               v2::ReadModifyWriteRowResponse* response) override;
  // GoogleSQL (sql/), run over the interface (data_service_query.cc).
  grpc::ServerUnaryReactor* PrepareQuery(grpc::CallbackServerContext* context, const v2::PrepareQueryRequest* request,
                                         v2::PrepareQueryResponse* response) override;
  grpc::ServerWriteReactor<v2::ExecuteQueryResponse>* ExecuteQuery(grpc::CallbackServerContext* context,
                                                                   const v2::ExecuteQueryRequest* request) override;

  // Change streams (data_change_stream.cc).
  grpc::ServerWriteReactor<v2::GenerateInitialChangeStreamPartitionsResponse>* GenerateInitialChangeStreamPartitions(
      grpc::CallbackServerContext* context, const v2::GenerateInitialChangeStreamPartitionsRequest* request) override;
  grpc::ServerWriteReactor<v2::ReadChangeStreamResponse>* ReadChangeStream(
      grpc::CallbackServerContext* context, const v2::ReadChangeStreamRequest* request) override;
  // The session protocol's configuration: no sessions (session_load 0),
  // and no need to ask again (stop_polling), for an instance and app
  // profile as PingAndWarm checks them.
  grpc::ServerUnaryReactor* GetClientConfiguration(grpc::CallbackServerContext* context,
                                                   const v2::GetClientConfigurationRequest* request,
                                                   v2::ClientConfiguration* response) override;
  // Not served (lbt has no sessions): each answers UNIMPLEMENTED naming
  // itself.
  grpc::ServerBidiReactor<v2::SessionRequest, v2::SessionResponse>* OpenTable(
      grpc::CallbackServerContext* context) override;
  grpc::ServerBidiReactor<v2::SessionRequest, v2::SessionResponse>* OpenAuthorizedView(
      grpc::CallbackServerContext* context) override;
  grpc::ServerBidiReactor<v2::SessionRequest, v2::SessionResponse>* OpenMaterializedView(
      grpc::CallbackServerContext* context) override;

 private:
  const InstanceRouter* router_;
  CallRuntime* runtime_;
  // Long-lived calls, bounded so that they never take every place.
  StreamLimit change_streams_;
  StreamLimit read_streams_;
};

}  // namespace lbt::server

#endif  // LBT_SERVER_DATA_SERVICE_H_
