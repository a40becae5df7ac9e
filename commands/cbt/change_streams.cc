// Change streams in the shell: setchangestream turns a table's on, changes
// its retention or turns it off; watch prints a table's changes as they
// commit (api/change_stream.h), locally or through ReadChangeStream.

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <ctime>

#include "commands/cbt/args.h"
#include "commands/cbt/change_streams.h"
#include "commands/command_sets.h"
#include "commands/core/command_table.h"
#include "commands/core/interrupt.h"

namespace lbt {

namespace {

// How often watch looks for Ctrl-C while no change comes.
constexpr std::chrono::milliseconds kWatchTick{200};

// "2026-11-25T10:00:00Z" (with up to 6 digits of fraction) in microseconds.
bool ParseRfc3339(std::string_view text, int64_t* micros) {
  std::tm tm{};
  int64_t fraction = 0, scale = 1000000;
  const std::string s(text);
  const char* rest = strptime(s.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (rest == nullptr) return false;
  if (*rest == '.') {
    for (++rest; *rest >= '0' && *rest <= '9'; ++rest) {
      if (scale == 1) return false;
      scale /= 10;
      fraction += (*rest - '0') * scale;
    }
  }
  if (std::string_view(rest) != "Z") return false;
  *micros = static_cast<int64_t>(timegm(&tm)) * 1000000 + fraction;
  return true;
}

}  // namespace

Result<int64_t> ParseChangeStreamRetention(std::string_view text) {
  int64_t micros = 0;
  if (!ParseSpanMicros(text, &micros)) {
    return Status::InvalidArgument(
        fmt::format("bad change stream retention '{}': expected a span such as 7d or 36h, of 1 to 7 days", text));
  }
  LBT_RETURN_IF_ERROR(ValidateChangeStreamRetention(micros, fmt::format("change stream retention '{}'", text)));
  return micros;
}

Result<int64_t> ParseWatchTime(std::string_view text, int64_t now_micros) {
  int64_t micros = 0;
  if (text == "now") return now_micros;
  if (text.starts_with('-') && ParseSpanMicros(text.substr(1), &micros)) return now_micros - micros;
  if (text.starts_with('+') && ParseSpanMicros(text.substr(1), &micros)) return now_micros + micros;
  if (ParseRfc3339(text, &micros)) return micros;
  return Status::InvalidArgument(
      fmt::format("bad time '{}': expected now, -<span> (ago), +<span> (from now) or a time such as "
                  "2026-11-25T10:00:00Z",
                  text));
}

namespace {

Status SetChangeStream(CommandContext& ctx, const std::vector<std::string>& args) {
  if (args[1] == "off") return ctx.bigtable()->SetChangeStream(args[0], std::nullopt);
  Result<int64_t> retention = ParseChangeStreamRetention(args[1]);
  if (!retention.ok()) return ctx.Usage(retention.status().message());
  return ctx.bigtable()->SetChangeStream(args[0], ChangeStreamConfig{*retention, 0});
}

Result<ChangeStreamRequest> WatchRequestOf(CommandContext& ctx, const CbtArgs& args) {
  ChangeStreamRequest request;
  if (const std::string* prefix = args.Find("prefix")) request.partition = RowRange::Prefix(*prefix);
  const int64_t now = ctx.bigtable()->NowMicros();
  const std::string* start = args.Find("start");
  const std::string* token = args.Find("token");
  if (start != nullptr && token != nullptr) return ctx.Usage("watch takes start= or token=, not both");
  request.start_micros = now;
  if (start != nullptr) {
    Result<int64_t> at = ParseWatchTime(*start, now);
    if (!at.ok()) return ctx.Usage(at.status().message());
    request.start_micros = *at;
  }
  if (token != nullptr) request.resume.push_back({request.partition, *token});
  if (const std::string* end = args.Find("end")) {
    Result<int64_t> at = ParseWatchTime(*end, now);
    if (!at.ok()) return ctx.Usage(at.status().message());
    request.end_micros = *at;
  }
  return request;
}

// A start before what the retention keeps starts at what it keeps, with a
// note: "start=-7d" on a stream that keeps 7 days means "all of it".
// The refusal of a watch of a table whose stream is off, with what turns
// it on: a newcomer's first watch meets it.
Status WithHowToEnable(const Status& refused, const std::string& table) {
  if (refused.code() != Status::Code::kFailedPrecondition) return refused;
  return Status::FailedPrecondition(
      fmt::format("{}; turn it on with `setchangestream {} 1d`, then watch shows the changes made after that",
                  refused.message(), table));
}

// Moves a start before the retention to the earliest change kept, with a
// note. Sets *stream_off when the table says its stream is off (the read
// that follows refuses then).
Status ClampStart(CommandContext& ctx, const std::string& table, ChangeStreamRequest* request, bool* stream_off) {
  if (!request->resume.empty()) return Status::OK();
  LBT_ASSIGN_OR_RETURN(TableSpec spec, ctx.bigtable()->GetTable(table));
  *stream_off = !spec.change_stream.has_value();
  if (*stream_off) return Status::OK();  // the read says so
  // A second of slack: the service's clock reads later than ours did.
  const int64_t kept = ctx.bigtable()->NowMicros() - spec.change_stream->retention_micros + 1'000'000;
  if (request->start_micros >= kept) return Status::OK();
  ctx.err->Write(fmt::format("note: the change stream of '{}' keeps changes from {}; watching from there\n", table,
                             FormatChangeTime(kept)));
  request->start_micros = kept;
  return Status::OK();
}

Status Watch(CommandContext& ctx, const std::vector<std::string>& args) {
  LBT_ASSIGN_OR_RETURN(CbtArgs parsed, ParseCbtArgs(ctx, args, 1));
  LBT_ASSIGN_OR_RETURN(ChangeStreamRequest request, WatchRequestOf(ctx, parsed));
  bool stream_off = false;
  LBT_RETURN_IF_ERROR(ClampStart(ctx, args[0], &request, &stream_off));
  ctx.err->Flush();
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, ctx.OpenTable(args[0]));
  Result<std::unique_ptr<ChangeStream>> opened = table->ReadChangeStream(request);
  if (!opened.ok()) return stream_off ? WithHowToEnable(opened.status(), args[0]) : opened.status();
  std::unique_ptr<ChangeStream> stream = std::move(opened).value();
  // Each change goes out at once: a pipe's reader sees it as it commits.
  std::string last_token;
  while (!InterruptRequested()) {
    Result<std::optional<DataChange>> change = stream->Next(kWatchTick);
    if (!change.ok()) {
      if (stream_off) return WithHowToEnable(change.status(), args[0]);
      if (!last_token.empty()) {
        ctx.err->Write(fmt::format("note: watch again from where it stopped with token={}\n", last_token));
      }
      return change.status();
    }
    if (change->has_value()) {
      last_token = stream->token();
      ctx.renderer->Change(**change, last_token);
      ctx.out->Flush();
    } else if (stream->finished()) {
      return Status::OK();
    }
  }
  // Ctrl-C is how a watch without end= ends; the prompt then starts on a
  // line of its own, after the terminal's "^C".
  ClearInterrupt();
  if (ctx.err->IsTerminal()) ctx.err->Write("\n");
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> ChangeStreamCommands() {
  return {
      {.name = "setchangestream",
       .summary = "Turn a table's change stream on, change its retention, or turn it off",
       .args = {kTableArg, {.text = "<retention>|off", .noun = "a retention"}},
       .details = "  <retention>  How long changes are kept: 1 to 7 days (1d, 36h, 7d).\n"
                  "  off          Stops recording; the changes kept so far are dropped.\n\n"
                  "  Every committed change of the table is recorded with its data: writes of\n"
                  "  the shell, scripts, imports and lbt serve, deletes, drops and collection\n"
                  "  passes. Read them with watch, or with ReadChangeStream through lbt serve.\n\n"
                  "  Examples:\n"
                  "    setchangestream mobile_time_series 7d\n"
                  "    setchangestream mobile_time_series off",
       .cbt = SetChangeStream},
      {.name = "watch",
       .summary = "Print a table's changes as they commit",
       .args = {kTableArg},
       .options = {{.key = "prefix", .value = "<row-prefix>"},
                   {.key = "start", .value = "<time>"},
                   {.key = "token", .value = "<token>"},
                   {.key = "end", .value = "<time>"}},
       .details = "  prefix  Only changes of rows starting with this prefix\n"
                  "  start   From this commit time on (default: now): now, -<span> such as\n"
                  "          -10m (ago), or a UTC time such as 2026-11-25T10:00:00Z; a span is a\n"
                  "          whole number of s, m, h or d\n"
                  "  token   Resume after this token (each --format jsonl line has one: the\n"
                  "          position after that change, which may lie past its commit time)\n"
                  "  end     Stop once this time has passed (+<span> from now, or as start);\n"
                  "          without it, watch runs until Ctrl-C\n\n"
                  "  The table's change stream must be on (setchangestream). Changes of a row\n"
                  "  come in commit order, each once; with --format jsonl (or json), one change a line\n"
                  "  with its token, flushed at once (lbt watch t --format jsonl | jq ...).\n"
                  "  Locally it sees other processes' writes too; in remote mode it reads\n"
                  "  ReadChangeStream.\n\n"
                  "  Examples:\n"
                  "    watch mobile_time_series start=-10m end=now\n"
                  "    watch mobile_time_series prefix=phone# start=-1h end=now",
       .cbt = Watch},
  };
}

}  // namespace lbt
