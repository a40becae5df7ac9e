// The row-key rules of `advise`. Each reads the sampled keys' segments
// (KeyProfile) and, when it fires, builds its fix from one of the keys.

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lab/advise_internal.h"

namespace lbt::lab::internal {

namespace {

using json = nlohmann::ordered_json;

// Fewer keys than this say nothing about a design.
constexpr size_t kMinKeys = 5;
// A position "is" a kind when this share of keys has it there.
constexpr double kDominant = 0.8;

// Spearman's rank correlation of two equally long series.
double RankCorrelation(const std::vector<double>& a, const std::vector<double>& b) {
  auto ranks = [](const std::vector<double>& v) {
    std::vector<size_t> order(v.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return v[x] < v[y]; });
    std::vector<double> r(v.size());
    for (size_t i = 0; i < order.size();) {
      size_t j = i;
      while (j < order.size() && v[order[j]] == v[order[i]]) ++j;
      for (size_t k = i; k < j; ++k) r[order[k]] = (i + j - 1) / 2.0;  // ties share their mean rank
      i = j;
    }
    return r;
  };
  const std::vector<double> ra = ranks(a), rb = ranks(b);
  const double n = static_cast<double>(a.size());
  const double mean = (n - 1) / 2;
  double cov = 0, va = 0, vb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    cov += (ra[i] - mean) * (rb[i] - mean);
    va += (ra[i] - mean) * (ra[i] - mean);
    vb += (rb[i] - mean) * (rb[i] - mean);
  }
  return va == 0 || vb == 0 ? 0 : cov / std::sqrt(va * vb);
}

std::vector<std::string> Owned(const std::vector<std::string_view>& segments) {
  return std::vector<std::string>(segments.begin(), segments.end());
}

// The first position after the time that holds an identifier (several
// distinct values, not a time): what field promotion moves to the front.
int PromotablePosition(const KeyProfile& keys) {
  for (size_t p = 1; p < keys.positions(); ++p) {
    if (keys.Share(p, SegmentKind::kTimestamp) + keys.Share(p, SegmentKind::kReversedTimestamp) >= 0.5) continue;
    if (keys.Share(p, SegmentKind::kEmpty) >= 0.5 || keys.Distinct(p) < 2) continue;
    return static_cast<int>(p);
  }
  return -1;
}

void StartsWithTimestamp(const KeyProfile& keys, std::vector<Finding>* out) {
  const double forward = keys.Share(0, SegmentKind::kTimestamp);
  const double reversed = keys.Share(0, SegmentKind::kReversedTimestamp);
  if (forward + reversed < kDominant) return;
  const SegmentKind kind = forward >= reversed ? SegmentKind::kTimestamp : SegmentKind::kReversedTimestamp;
  const std::vector<std::string> examples = keys.Examples(0, kind);
  Finding f = MakeFinding("key-starts-with-timestamp", "warning",
                          fmt::format("{} of the sampled row keys start with a {}, e.g. \"{}\"",
                                      Percent(forward + reversed), SegmentKindName(kind), examples.front()));
  f.evidence = {{"share", forward + reversed},
                {"sampled_keys", keys.keys()},
                {"segment", SegmentKindName(kind)},
                {"examples", examples}};
  const int first = keys.FirstWith(0, kind);
  const int promote = PromotablePosition(keys);
  if (promote > 0 && static_cast<size_t>(promote) < keys.segments(first).size()) {
    std::vector<std::string> s = Owned(keys.segments(first));
    std::string field = s[promote];
    s.erase(s.begin() + promote);
    s.insert(s.begin(), field);
    f.fix = fmt::format("promote the field after the time to the front: \"{}\" becomes \"{}\"",
                        PrintableKey(keys.sample().sample[first].key), PrintableKey(keys.Join(s)));
  } else {
    f.fix =
        fmt::format("start the key with a high-cardinality identifier, then the time: \"<device-id>{}{}\"",
                    keys.delimiter() ? std::string(1, keys.delimiter()) : "#", PrintableKey(keys.segments(first)[0]));
  }
  out->push_back(std::move(f));
}

// Numbers at the front that rise with the time rows were written, or that
// fill a compact range from the start when the times say nothing.
void SequentialId(const KeyProfile& keys, std::vector<Finding>* out) {
  if (keys.Share(0, SegmentKind::kNumber) < 0.9 || keys.Distinct(0) < 20) return;
  std::vector<double> ids, times;
  double max_id = 0;
  for (size_t i = 0; i < keys.keys(); ++i) {
    const std::string_view s = keys.segments(i)[0];
    const RowSample& row = keys.sample().sample[i];
    if (!IsDigits(s) || s.size() > 18 || row.timestamps.empty()) continue;
    ids.push_back(std::stod(std::string(s)));
    times.push_back(static_cast<double>(*std::max_element(row.timestamps.begin(), row.timestamps.end())));
    max_id = std::max(max_id, ids.back());
  }
  if (ids.size() < kMinKeys) return;
  const bool times_vary = std::set<double>(times.begin(), times.end()).size() * 10 >= times.size();
  const double correlation = RankCorrelation(ids, times);
  const bool compact = max_id <= 2.0 * static_cast<double>(keys.sample().rows) + 10;
  if (times_vary ? correlation < 0.8 : !compact) return;
  // The example: a key whose id reads differently reversed ("1" or "44"
  // would show no change).
  int first = keys.FirstWith(0, SegmentKind::kNumber);
  for (size_t i = 0; i < keys.keys(); ++i) {
    const std::string_view id = keys.segments(i)[0];
    if (IsDigits(id) && !std::equal(id.begin(), id.end(), id.rbegin())) {
      first = static_cast<int>(i);
      break;
    }
  }
  std::vector<std::string> s = Owned(keys.segments(first));
  std::string reversed(s[0].rbegin(), s[0].rend());
  const std::string before = keys.Join(s);
  s[0] = reversed;
  Finding f = MakeFinding(
      "key-sequential-id", "warning",
      times_vary ? fmt::format("row keys start with a numeric id that grows with the time rows are written "
                               "(rank correlation {:.2f}), e.g. \"{}\"",
                               correlation, before)
                 : fmt::format("row keys start with numeric ids allocated in sequence (1 to about {:.0f} for {} rows), "
                               "e.g. \"{}\"",
                               max_id, keys.sample().rows, before));
  f.evidence = {
      {"sampled_keys", keys.keys()}, {"largest_id", max_id}, {"examples", keys.Examples(0, SegmentKind::kNumber)}};
  if (times_vary) f.evidence["correlation_with_write_time"] = std::round(correlation * 100) / 100;
  f.fix = fmt::format("reverse the id's digits so that new ids spread over the key space: \"{}\" becomes \"{}\"",
                      before, keys.Join(s));
  out->push_back(std::move(f));
}

void Hashed(const KeyProfile& keys, std::vector<Finding>* out) {
  const double share = keys.Share(0, SegmentKind::kHash);
  if (share < 0.9) return;
  const std::vector<std::string> examples = keys.Examples(0, SegmentKind::kHash);
  Finding f = MakeFinding(
      "key-hashed", "warning",
      fmt::format("{} of the sampled row keys start with a hash, e.g. \"{}\"", Percent(share), examples.front()));
  f.evidence = {{"share", share}, {"sampled_keys", keys.keys()}, {"examples", examples}};
  f.fix =
      "key by the readable values the hash was made from, most general first (e.g. \"<tenant>#<device-id>#<time>\"), "
      "so that related rows sort together and prefix reads find them";
  out->push_back(std::move(f));
}

// A numeric position whose numbers differ in length: a smaller number that
// sorts after a larger one, as bytes, in two keys alike before it, shows
// the problem.
// Whether two keys' first `n` segments are equal.
template <typename Segments>
bool SamePrefix(const Segments& a, const Segments& b, size_t n) {
  for (size_t q = 0; q < n; ++q) {
    if (a[q] != b[q]) return false;
  }
  return true;
}

void UnpaddedNumbers(const KeyProfile& keys, std::vector<Finding>* out) {
  for (size_t p = 0; p < keys.positions(); ++p) {
    if (keys.Share(p, SegmentKind::kNumber) < kDominant) continue;
    int shorter = -1, longer = -1;
    size_t width = 0;
    for (size_t i = 0; i < keys.keys(); ++i) {
      if (keys.segments(i).size() > p && IsDigits(keys.segments(i)[p]))
        width = std::max(width, keys.segments(i)[p].size());
    }
    for (size_t i = 0; i < keys.keys() && shorter < 0; ++i) {
      if (keys.segments(i).size() <= p) continue;
      const std::string_view a = keys.segments(i)[p];
      if (!IsDigits(a) || a.size() == width || a[0] == '0') continue;
      for (size_t j = 0; j < keys.keys(); ++j) {
        if (keys.segments(j).size() <= p || !SamePrefix(keys.segments(i), keys.segments(j), p)) continue;
        const std::string_view b = keys.segments(j)[p];
        if (IsDigits(b) && b.size() == width && b[0] != '0' && a > b) {
          shorter = static_cast<int>(i), longer = static_cast<int>(j);
          break;
        }
      }
    }
    if (shorter < 0) continue;
    const std::string small = PrintableKey(keys.sample().sample[shorter].key);
    const std::string big = PrintableKey(keys.sample().sample[longer].key);
    std::vector<std::string> s = Owned(keys.segments(shorter));
    s[p] = std::string(width - s[p].size(), '0') + s[p];
    Finding f =
        MakeFinding("key-unpadded-number", "warning",
                    fmt::format("numbers in segment {} of the row keys are not padded, so \"{}\" sorts after \"{}\"",
                                p + 1, small, big));
    f.evidence = {{"segment", p + 1}, {"width", width}, {"sorts_after", {small, big}}};
    f.fix = fmt::format("pad the numbers with zeros to {} digits: \"{}\" becomes \"{}\"", width, small,
                        PrintableKey(keys.Join(s)));
    out->push_back(std::move(f));
  }
}

void DomainNotReversed(const KeyProfile& keys, std::vector<Finding>* out) {
  for (size_t p = 0; p < keys.positions(); ++p) {
    const double share = keys.Share(p, SegmentKind::kDomain);
    if (share < 0.5) continue;
    const int first = keys.FirstWith(p, SegmentKind::kDomain);
    std::vector<std::string> s = Owned(keys.segments(first));
    const std::string domain = s[p];
    std::vector<std::string_view> labels = SplitKey(domain, '.');
    std::string reversed;
    for (auto it = labels.rbegin(); it != labels.rend(); ++it)
      reversed += (reversed.empty() ? "" : ".") + std::string(*it);
    const std::string before = keys.Join(s);
    s[p] = reversed;
    Finding f = MakeFinding("key-domain-not-reversed", "warning",
                            fmt::format("{} of the sampled row keys hold a domain name in its usual order, e.g. \"{}\"",
                                        Percent(share), before));
    f.evidence = {{"segment", p + 1}, {"share", share}, {"examples", keys.Examples(p, SegmentKind::kDomain)}};
    f.fix = fmt::format("reverse the domain so that a site's pages sort together: \"{}\" becomes \"{}\"", before,
                        keys.Join(s));
    out->push_back(std::move(f));
  }
}

std::string_view PersonalDataName(SegmentKind kind) {
  return kind == SegmentKind::kEmail ? "email addresses" : "phone numbers";
}

void PersonalData(const KeyProfile& keys, std::vector<Finding>* out) {
  std::vector<std::string> examples;
  std::set<std::string> kinds;
  for (size_t p = 0; p < keys.positions(); ++p) {
    for (SegmentKind kind : {SegmentKind::kEmail, SegmentKind::kPhone}) {
      if (keys.Share(p, kind) == 0) continue;
      kinds.insert(std::string(PersonalDataName(kind)) + " in row keys");
      for (const std::string& e : keys.Examples(p, kind, 2)) examples.push_back(e);
    }
  }
  for (const auto& [name, family] : keys.sample().spec.families) {
    const SegmentKind kind = ClassifySegment(name);
    if (kind != SegmentKind::kEmail && kind != SegmentKind::kPhone) continue;
    kinds.insert(std::string(PersonalDataName(kind)) + " as column family names");
    examples.push_back(name);
  }
  if (examples.empty()) return;
  std::string what;
  for (const std::string& k : kinds) what += (what.empty() ? "" : " and ") + k;
  Finding f = MakeFinding("key-pii", "warning", fmt::format("personal data: {}, e.g. \"{}\"", what, examples.front()));
  f.evidence = {{"examples", examples}};
  f.fix =
      "key rows by an opaque id (a user number or a random id) and keep the personal data in a cell, "
      "where it can be encrypted or deleted with the row";
  out->push_back(std::move(f));
}

void TooLong(const KeyProfile& keys, const AdviceLimits& limits, std::vector<Finding>* out) {
  std::vector<size_t> lengths;
  for (const RowSample& row : keys.sample().sample) lengths.push_back(row.key.size());
  std::sort(lengths.begin(), lengths.end());
  const size_t median = lengths[lengths.size() / 2];
  if (static_cast<int64_t>(median) <= limits.key_bytes) return;
  size_t longest = 0;
  double longest_mean = 0;
  for (size_t p = 0; p < keys.positions(); ++p) {
    double sum = 0;
    for (size_t i = 0; i < keys.keys(); ++i) sum += keys.segments(i).size() > p ? keys.segments(i)[p].size() : 0;
    if (sum / keys.keys() > longest_mean) longest = p, longest_mean = sum / keys.keys();
  }
  Finding f = MakeFinding("key-too-long", "warning",
                          fmt::format("row keys are long: {} bytes at the median, {} at most", median, lengths.back()));
  f.evidence = {{"median_bytes", median},
                {"max_bytes", lengths.back()},
                {"longest_segment", longest + 1},
                {"longest_segment_mean_bytes", std::round(longest_mean)}};
  f.fix = fmt::format("shorten segment {} (about {:.0f} bytes a key): a short code or id in place of the full text",
                      longest + 1, longest_mean);
  out->push_back(std::move(f));
}

void RawBytes(const KeyProfile& keys, std::vector<Finding>* out) {
  size_t binary = 0;
  std::string example;
  for (size_t i = 0; i < keys.keys(); ++i) {
    for (std::string_view s : keys.segments(i)) {
      if (ClassifySegment(s) != SegmentKind::kBinary) continue;
      if (binary++ == 0) example = PrintableKey(keys.sample().sample[i].key);
      break;
    }
  }
  const double share = static_cast<double>(binary) / keys.keys();
  if (share < 0.1) return;
  Finding f =
      MakeFinding("key-raw-bytes", "info",
                  fmt::format("{} of the sampled row keys hold raw bytes, e.g. \"{}\"", Percent(share), example));
  f.evidence = {{"share", share}, {"example", example}};
  f.fix = "write the values as text (decimal or hex digits, padded) so that keys read in tools and sort as they read";
  out->push_back(std::move(f));
}

}  // namespace

KeyProfile::KeyProfile(const TableSample& sample) : sample_(sample) {
  std::vector<std::string_view> keys;
  for (const RowSample& row : sample.sample) keys.push_back(row.key);
  delimiter_ = DetectDelimiter(keys);
  for (std::string_view key : keys) {
    segments_.push_back(SplitKey(key, delimiter_));
    const std::vector<std::string_view>& s = segments_.back();
    if (kinds_.size() < s.size()) kinds_.resize(s.size());
    for (size_t p = 0; p < s.size(); ++p) ++kinds_[p][ClassifySegment(s[p])];
  }
}

double KeyProfile::Share(size_t position, SegmentKind kind) const {
  if (position >= kinds_.size() || segments_.empty()) return 0;
  auto it = kinds_[position].find(kind);
  return it == kinds_[position].end() ? 0 : static_cast<double>(it->second) / segments_.size();
}

std::vector<std::string> KeyProfile::Examples(size_t position, SegmentKind kind, size_t n) const {
  std::vector<size_t> matching;
  for (size_t i = 0; i < segments_.size(); ++i) {
    if (segments_[i].size() > position && ClassifySegment(segments_[i][position]) == kind) matching.push_back(i);
  }
  std::vector<std::string> out;
  for (size_t k = 0; k < n && k < matching.size(); ++k) {
    out.push_back(PrintableKey(sample_.sample[matching[k * matching.size() / std::min(n, matching.size())]].key));
  }
  return out;
}

int KeyProfile::FirstWith(size_t position, SegmentKind kind) const {
  for (size_t i = 0; i < segments_.size(); ++i) {
    if (segments_[i].size() > position && ClassifySegment(segments_[i][position]) == kind) return static_cast<int>(i);
  }
  return -1;
}

size_t KeyProfile::Distinct(size_t position) const {
  std::set<std::string_view> values;
  for (const auto& s : segments_) {
    if (s.size() > position) values.insert(s[position]);
    if (values.size() >= 1000) break;
  }
  return values.size();
}

std::string KeyProfile::Join(const std::vector<std::string>& segments) const {
  std::string out;
  for (size_t i = 0; i < segments.size(); ++i) {
    if (i > 0) out += delimiter_;
    out += segments[i];
  }
  return PrintableKey(out);
}

// A field name for the key segment at `position`, from what it holds.
std::string FieldName(const KeyProfile& keys, size_t position, const TableSpec& table) {
  std::string name;
  if (keys.Share(position, SegmentKind::kReversedTimestamp) >= kDominant) {
    name = "reverse_ts";
  } else if (keys.Share(position, SegmentKind::kTimestamp) >= kDominant) {
    name = "ts";
  } else if (keys.Share(position, SegmentKind::kReversedDomain) >= kDominant) {
    name = "reversed_domain";
  } else if (keys.Share(position, SegmentKind::kDomain) >= kDominant) {
    name = "domain";
  } else {
    name = fmt::format("part{}", position + 1);
  }
  if (table.FindFamily(name) != nullptr) name += "_key";
  return name;
}

// Keys that every sampled row splits the same way, on a table that does
// not declare them: a row-key schema would let SQL read their fields.
void UndeclaredKeyFields(const KeyProfile& keys, std::vector<Finding>* out) {
  const TableSpec& table = keys.sample().spec;
  if (table.row_key_schema || keys.delimiter() == '\0') return;
  const size_t parts = keys.segments(0).size();
  if (parts < 2 || keys.Share(0, SegmentKind::kBinary) > 0) return;
  for (size_t i = 0; i < keys.keys(); ++i) {
    if (keys.segments(i).size() != parts) return;
  }
  std::vector<std::string> fields;
  std::set<std::string> names;
  for (size_t p = 0; p < parts; ++p) {
    std::string name = FieldName(keys, p, table);
    while (!names.insert(name).second) name += fmt::format("_{}", p + 1);
    fields.push_back(name + ":string");
  }
  const std::string list = fmt::format("{}", fmt::join(fields, ","));
  const std::string delimiter(1, keys.delimiter());
  Finding f = MakeFinding("undeclared-key-fields", "info",
                          fmt::format("every sampled row key has {} fields joined by '{}', e.g. \"{}\", but the table "
                                      "declares no row-key schema",
                                      parts, delimiter, PrintableKey(keys.sample().sample[0].key)));
  f.evidence = {{"fields", parts}, {"delimiter", delimiter}, {"sampled_keys", keys.keys()}};
  f.fix = fmt::format(
      "declare them (names are yours to choose): setrowkeyschema {} {}{}; SQL then reads each as a "
      "column, and a WHERE on the first reads one key range",
      table.name, list, delimiter == "#" ? "" : " encoding=delimited:" + delimiter);
  out->push_back(std::move(f));
}

void AdviseKeys(const KeyProfile& keys, const AdviceLimits& limits, std::vector<Finding>* out) {
  if (keys.keys() < kMinKeys) return;
  UndeclaredKeyFields(keys, out);
  StartsWithTimestamp(keys, out);
  SequentialId(keys, out);
  Hashed(keys, out);
  UnpaddedNumbers(keys, out);
  DomainNotReversed(keys, out);
  PersonalData(keys, out);
  TooLong(keys, limits, out);
  RawBytes(keys, out);
}

}  // namespace lbt::lab::internal
