#include "commands/cbt/args.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace lbt {

bool ParseInt64(std::string_view text, int64_t* out) {
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

Result<CbtArgs> ParseCbtArgs(CommandContext& ctx, const std::vector<std::string>& args, size_t positional) {
  CbtArgs parsed;
  if (args.size() < positional) {
    return ctx.Usage(fmt::format("{} needs {} argument{}", ctx.spec->name, positional, positional == 1 ? "" : "s"));
  }
  parsed.positional.assign(args.begin(), args.begin() + positional);
  for (size_t i = positional; i < args.size(); ++i) {
    const std::string& arg = args[i];
    size_t eq = arg.find('=');
    if (eq == std::string::npos) {
      return ctx.Usage(fmt::format("unexpected argument '{}': expected key=value", arg));
    }
    std::string key = arg.substr(0, eq);
    const std::vector<std::string_view> known = ctx.spec->OptionKeys();
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      std::string hint = SuggestWord(key, known);
      return ctx.Usage(
          fmt::format("unknown option '{}'{}", key, hint.empty() ? "" : fmt::format(" (did you mean '{}='?)", hint)));
    }
    parsed.options[key] = arg.substr(eq + 1);
  }
  return parsed;
}

Result<std::optional<int64_t>> PositiveOption(CommandContext& ctx, const CbtArgs& args, std::string_view key) {
  const std::string* text = args.Find(key);
  if (text == nullptr) return std::optional<int64_t>();
  int64_t n;
  if (!ParseInt64(*text, &n) || n < 1) {
    return ctx.Usage(fmt::format("bad {} '{}': expected a whole number of at least 1", key, *text));
  }
  return std::optional<int64_t>(n);
}

std::string JoinWords(const std::vector<std::string>& words, size_t from) {
  std::string joined;
  for (size_t i = from; i < words.size(); ++i) joined += (joined.empty() ? "" : " ") + words[i];
  return joined;
}

Status UseViewIfNamed(CommandContext& ctx, const CbtArgs& args, const std::string& table) {
  const std::string* view = args.Find("authorized-view");
  if (view == nullptr) {
    // Not a table but a materialized view of a local database: read it as
    // one. (A service is not asked: the official emulator crashes at
    // GetMaterializedView.)
    Bigtable* bigtable = ctx.session->bigtable();
    if (bigtable->local() != nullptr && bigtable->GetTable(table).status().IsNotFound() &&
        GetMaterializedViewOf(bigtable, table).ok()) {
      ctx.table_ref = TableRef::MaterializedView(table);
    }
    return Status::OK();
  }
  if (view->empty()) return ctx.Usage("authorized-view= needs a view id");
  ctx.table_ref = TableRef::AuthorizedView(table, *view);
  return Status::OK();
}

Result<bool> BoolOption(CommandContext& ctx, const CbtArgs& args, std::string_view key) {
  const std::string* text = args.Find(key);
  if (text == nullptr || *text == "false") return false;
  if (*text == "true") return true;
  return ctx.Usage(fmt::format("bad {} '{}': expected true or false", key, *text));
}

ValueAndTimestamp SplitTimestamp(const std::string& text) {
  size_t at = text.rfind('@');
  int64_t ts;
  if (at != std::string::npos && ParseInt64(std::string_view(text).substr(at + 1), &ts)) {
    return {text.substr(0, at), ts};
  }
  return {text, std::nullopt};
}

Result<RowSet> RowsFromOptions(CommandContext& ctx, const CbtArgs& args) {
  const std::string* start = args.Find("start");
  const std::string* end = args.Find("end");
  const std::string* prefix = args.Find("prefix");
  if (prefix != nullptr && (start != nullptr || end != nullptr)) {
    return ctx.Usage("start= and end= cannot be combined with prefix=");
  }
  RowSet rows;
  if (prefix != nullptr) {
    rows.row_ranges = {RowRange::Prefix(*prefix)};
  } else if (start != nullptr || end != nullptr) {
    rows.row_ranges = {RowRange::ClosedOpen(start ? *start : "", end ? *end : "")};
  }
  return rows;
}

std::vector<std::string> SplitList(std::string_view list) {
  std::vector<std::string> items;
  for (size_t start = 0; start <= list.size();) {
    const size_t comma = std::min(list.find(',', start), list.size());
    if (comma > start) items.emplace_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

bool ParseSpanMicros(std::string_view text, int64_t* micros) {
  int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  const std::string_view unit(end, text.data() + text.size() - end);
  const int64_t per = unit == "d" ? 86400 : unit == "h" ? 3600 : unit == "m" ? 60 : unit == "s" ? 1 : 0;
  if (ec != std::errc() || n < 0 || per == 0 || n > INT64_MAX / per / 1000000) return false;
  *micros = n * per * 1000000;
  return true;
}

}  // namespace lbt
