// The bounds `lbt serve` puts on what one request may make it do or hold.
// Where Bigtable documents a limit, it is Bigtable's, with its status code;
// the others are lbt's, set where no legitimate request reaches them. The
// README's limits table lists them all.

#ifndef LBT_SERVER_REQUEST_LIMITS_H_
#define LBT_SERVER_REQUEST_LIMITS_H_

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace lbt::server {

// Bigtable: "the total serialized size of a RowFilter message must not
// exceed 20480 bytes" (data.proto); more is INVALID_ARGUMENT.
inline constexpr size_t kMaxFilterBytes = 20480;
// Bigtable: at most 100,000 mutations in one request, its entries or its
// true and false lists added up (bigtable.proto).
inline constexpr int64_t kMaxMutationsPerRequest = 100000;
// Bigtable: at most 100,000 rules in one ReadModifyWriteRow (bigtable.proto).
inline constexpr int kMaxReadModifyWriteRules = 100000;
// The largest request message, after decompression: what Bigtable's client
// libraries send at most (256 MiB; a row holds at most 256 MiB).
inline constexpr int kMaxReceiveMessageBytes = 256 << 20;
// The largest response message. Responses are cut at about 1 MiB between
// rows; a row of up to 256 MiB goes whole, with room for its framing.
inline constexpr int kMaxSendMessageBytes = 320 << 20;
// A streamed response is sent once its rows hold about this many bytes
// (ReadRows' and ExecuteQuery's), and a longer value is split over chunks.
inline constexpr size_t kResponseBytes = 1 << 20;
// lbt: a GoogleSQL result row larger than this is FAILED_PRECONDITION, as a
// row read larger than Bigtable's 256 MiB is.
inline constexpr size_t kMaxResultRowBytes = 256 << 20;
// lbt: a read takes a new snapshot, going on after the last row it sent,
// at least this often and before each response it sends, so that no
// client, however slow, holds back the reuse of the database's pages.
inline constexpr std::chrono::milliseconds kReadSnapshotAge{1000};
// lbt: a stream whose client has not taken a response for this long is
// ended with ABORTED (lbt serve --stall-timeout).
inline constexpr std::chrono::seconds kDefaultStallTimeout{60};
// lbt: the calls in flight at once, of every kind (server/rpc_gate.h);
// past it a new call is answered RESOURCE_EXHAUSTED at once. No call holds
// a thread while it waits (for its client, for a change, for a sync), so
// the bound is on memory: gRPC's state of an open call is a few KiB.
inline constexpr int kMaxCallsInFlight = 8192;
// lbt: the threads that run the work of a call that may block (a durable
// batch write, a scan's next response, SQL, DDL, backups:
// server/worker_pool.h). Lookups, single-row writes and PingAndWarm run on
// gRPC's own threads. Below LMDB's 1,024 reader slots with room to spare.
inline constexpr int kWorkerThreads = 16;
// lbt: the long-lived calls that may be open at once
// (server/stream_limit.h); past its bound a new call is answered
// RESOURCE_EXHAUSTED at once, and the others go on.
//   ReadChangeStream: idles until its end time, for hours or for ever,
//   holding a few KiB and no thread; it looks for changes every
//   kChangePollInterval.
inline constexpr int kMaxChangeStreams = 4096;
//   ReadRows and ExecuteQuery: each holds up to one response of
//   kResponseBytes while its client takes it (a stalled one is ended
//   after the stall timeout), so together at most 256 MiB.
inline constexpr int kMaxReadStreams = 256;
static_assert(kMaxChangeStreams + kMaxReadStreams < kMaxCallsInFlight, "streams must leave room for other calls");
// How often an idle change stream looks for new changes, and whether its
// client left or the server is stopping.
inline constexpr std::chrono::milliseconds kChangePollInterval{200};

}  // namespace lbt::server

#endif  // LBT_SERVER_REQUEST_LIMITS_H_
