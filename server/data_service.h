// google.bigtable.v2.Bigtable over the Bigtable interface (api/bigtable.h):
// thin handlers (server/handler.h) that convert requests with
// proto/convert.h, call the interface, and convert the results back. The
// GoogleSQL RPCs are in data_service_query.cc. What a request names (its
// table, authorized view or materialized view, its app profile) resolves
// through server/request_target.h into the tables of its instance.
//
// Threading: gRPC calls the handlers from many threads at once; the
// Bigtable served must allow that (the local engine serializes writes and
// gives each read its own snapshot).

#ifndef LBT_SERVER_DATA_SERVICE_H_
#define LBT_SERVER_DATA_SERVICE_H_

#include "api/bigtable.h"
#include "google/bigtable/v2/bigtable.grpc.pb.h"
#include "server/instance_router.h"
#include "server/request_limits.h"
#include "server/rpc_gate.h"
#include "server/stall_watch.h"
#include "server/stream_limit.h"

namespace lbt::server {

namespace v2 = ::google::bigtable::v2;

class DataService final : public v2::Bigtable::Service {
 public:
  // `router`, `gate` and `stalls` are not owned and must outlive the
  // service. Every RPC passes through `gate`; every response a stream
  // sends, through `stalls` (nullptr: a client may take as long as it
  // likes to read).
  DataService(const InstanceRouter* router, RpcGate* gate, StallWatch* stalls = nullptr)
      : router_(router), gate_(gate), stalls_(stalls) {}

  grpc::Status ReadRows(grpc::ServerContext* context, const v2::ReadRowsRequest* request,
                        grpc::ServerWriter<v2::ReadRowsResponse>* writer) override;
  grpc::Status SampleRowKeys(grpc::ServerContext* context, const v2::SampleRowKeysRequest* request,
                             grpc::ServerWriter<v2::SampleRowKeysResponse>* writer) override;
  grpc::Status MutateRow(grpc::ServerContext* context, const v2::MutateRowRequest* request,
                         v2::MutateRowResponse* response) override;
  grpc::Status MutateRows(grpc::ServerContext* context, const v2::MutateRowsRequest* request,
                          grpc::ServerWriter<v2::MutateRowsResponse>* writer) override;
  grpc::Status CheckAndMutateRow(grpc::ServerContext* context, const v2::CheckAndMutateRowRequest* request,
                                 v2::CheckAndMutateRowResponse* response) override;
  grpc::Status PingAndWarm(grpc::ServerContext* context, const v2::PingAndWarmRequest* request,
                           v2::PingAndWarmResponse* response) override;
  grpc::Status ReadModifyWriteRow(grpc::ServerContext* context, const v2::ReadModifyWriteRowRequest* request,
                                  v2::ReadModifyWriteRowResponse* response) override;
  // GoogleSQL (sql/), run over the interface.
  grpc::Status PrepareQuery(grpc::ServerContext* context, const v2::PrepareQueryRequest* request,
                            v2::PrepareQueryResponse* response) override;
  grpc::Status ExecuteQuery(grpc::ServerContext* context, const v2::ExecuteQueryRequest* request,
                            grpc::ServerWriter<v2::ExecuteQueryResponse>* writer) override;

  // Change streams (data_change_stream.cc).
  grpc::Status GenerateInitialChangeStreamPartitions(
      grpc::ServerContext* context, const v2::GenerateInitialChangeStreamPartitionsRequest* request,
      grpc::ServerWriter<v2::GenerateInitialChangeStreamPartitionsResponse>* writer) override;
  grpc::Status ReadChangeStream(grpc::ServerContext* context, const v2::ReadChangeStreamRequest* request,
                                grpc::ServerWriter<v2::ReadChangeStreamResponse>* writer) override;
  // Not served: each answers UNIMPLEMENTED naming itself.
  grpc::Status GetClientConfiguration(grpc::ServerContext* context, const v2::GetClientConfigurationRequest* request,
                                      v2::ClientConfiguration* response) override;
  grpc::Status OpenTable(grpc::ServerContext* context,
                         grpc::ServerReaderWriter<v2::SessionResponse, v2::SessionRequest>* stream) override;
  grpc::Status OpenAuthorizedView(grpc::ServerContext* context,
                                  grpc::ServerReaderWriter<v2::SessionResponse, v2::SessionRequest>* stream) override;
  grpc::Status OpenMaterializedView(grpc::ServerContext* context,
                                    grpc::ServerReaderWriter<v2::SessionResponse, v2::SessionRequest>* stream) override;

 private:
  const InstanceRouter* router_;
  RpcGate* gate_;
  StallWatch* stalls_;
  // Long-lived calls, bounded so that they never take every thread.
  StreamLimit change_streams_{kMaxChangeStreams, "change streams (ReadChangeStream)"};
  StreamLimit read_streams_{kMaxReadStreams, "reads (ReadRows and ExecuteQuery)"};
};

}  // namespace lbt::server

#endif  // LBT_SERVER_DATA_SERVICE_H_
