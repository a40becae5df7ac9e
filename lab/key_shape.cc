#include "lab/key_shape.h"

#include <algorithm>
#include <array>
#include <cctype>

#include <fmt/format.h>

namespace lbt::lab {

namespace {

// Times a key may plausibly hold: 2000-01-01 to 2100-01-01, in seconds.
constexpr int64_t kEarliestSeconds = 946684800;
constexpr int64_t kLatestSeconds = 4102444800;
constexpr int64_t kLongMax = 9223372036854775807;

bool IsHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int64_t ParseDigits(std::string_view s) {
  int64_t v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  return v;
}

// Days since 1970-01-01 of a civil date (proleptic Gregorian).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// An epoch number in seconds, ms, µs or ns, by its digit count, if it
// lands in the plausible range; the time in µs, else 0.
int64_t EpochMicros(std::string_view digits) {
  if (digits.size() > 19) return 0;
  const int64_t v = ParseDigits(digits);
  int64_t micros = 0;
  switch (digits.size()) {
    case 10: micros = v * 1000000; break;
    case 13: micros = v * 1000; break;
    case 16: micros = v; break;
    case 19: micros = v / 1000; break;
    default: return 0;
  }
  return micros >= kEarliestSeconds * 1000000 && micros < kLatestSeconds * 1000000 ? micros : 0;
}

// Long.MAX_VALUE minus an epoch time in ms, µs or ns (19 digits).
int64_t ReversedEpochMicros(std::string_view digits) {
  if (digits.size() != 19 || digits > std::string_view("9223372036854775807")) return 0;
  const int64_t forward = kLongMax - ParseDigits(digits);
  auto plausible = [](int64_t micros) {
    return micros >= kEarliestSeconds * 1000000 && micros < kLatestSeconds * 1000000;
  };
  // The forward time in ns, µs or ms, tried from the finest unit down.
  if (plausible(forward / 1000)) return forward / 1000;
  if (plausible(forward)) return forward;
  if (forward < kLatestSeconds * 1000 && plausible(forward * 1000)) return forward * 1000;
  return 0;
}

// A calendar time written as digits with optional separators:
// YYYYMMDD, YYYYMMDDhh[mm[ss[fff...]]], YYYY-MM-DD, 2021-03-05-1200,
// 2021-03-05T12:00:00Z. The time in µs, else 0.
int64_t CalendarMicros(std::string_view s) {
  std::string digits;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (IsDigit(c)) {
      digits += c;
    } else if (c == '-' || c == ':' || c == '.' || c == ' ' || c == '_' || (c == 'T' && i == 10)) {
      continue;
    } else if (c == 'Z' && i + 1 == s.size()) {
      continue;
    } else {
      return 0;
    }
  }
  if (digits.size() < 8 || digits.size() > 20) return 0;
  const int64_t year = ParseDigits(std::string_view(digits).substr(0, 4));
  const int64_t month = ParseDigits(std::string_view(digits).substr(4, 2));
  const int64_t day = ParseDigits(std::string_view(digits).substr(6, 2));
  if (year < 1970 || year > 2100 || month < 1 || month > 12 || day < 1 || day > 31) return 0;
  auto part = [&](size_t at, int64_t max) -> int64_t {
    if (digits.size() < at + 2) return 0;
    const int64_t v = ParseDigits(std::string_view(digits).substr(at, 2));
    return v <= max ? v : -1;
  };
  const int64_t hour = part(8, 23), minute = part(10, 59), second = part(12, 60);
  if (hour < 0 || minute < 0 || second < 0) return 0;
  // Odd lengths between the parts (a lone digit) are no calendar time.
  if (digits.size() > 8 && digits.size() < 14 && digits.size() % 2 == 1) return 0;
  const int64_t seconds = DaysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
  return seconds * 1000000;
}

bool IsEmail(std::string_view s) {
  const size_t at = s.find('@');
  if (at == std::string_view::npos || at == 0 || s.find('@', at + 1) != std::string_view::npos) return false;
  const std::string_view domain = s.substr(at + 1);
  const size_t dot = domain.rfind('.');
  return dot != std::string_view::npos && dot > 0 && dot + 1 < domain.size();
}

// Digits with a phone number's punctuation: a leading '+', or dashes,
// spaces, dots or parentheses between groups. Plain digits are a number.
bool IsPhone(std::string_view s) {
  int digits = 0;
  bool punctuated = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (IsDigit(c)) {
      ++digits;
    } else if (c == '+' && i == 0) {
      punctuated = true;
    } else if (c == '-' || c == ' ' || c == '(' || c == ')' || c == '.') {
      punctuated = true;
    } else {
      return false;
    }
  }
  return punctuated && digits >= 10 && digits <= 15 && IsDigit(s.back());
}

constexpr std::array<std::string_view, 16> kTopLevelDomains = {"com", "org", "net", "edu", "gov",  "io",  "co",  "uk",
                                                               "de",  "fr",  "jp",  "in",  "info", "dev", "app", "us"};

bool IsTopLevelDomain(std::string_view label) {
  return std::find(kTopLevelDomains.begin(), kTopLevelDomains.end(), label) != kTopLevelDomains.end();
}

// `maps.google.com` (kDomain) or `com.google.maps` (kReversedDomain), else kText.
SegmentKind DomainKind(std::string_view s) {
  const size_t first_dot = s.find('.');
  const size_t last_dot = s.rfind('.');
  if (first_dot == std::string_view::npos || first_dot == 0 || last_dot + 1 == s.size()) return SegmentKind::kText;
  for (char c : s) {
    if (!(std::islower(static_cast<unsigned char>(c)) || IsDigit(c) || c == '-' || c == '.')) return SegmentKind::kText;
  }
  if (s.find("..") != std::string_view::npos) return SegmentKind::kText;
  if (IsTopLevelDomain(s.substr(0, first_dot))) return SegmentKind::kReversedDomain;
  if (IsTopLevelDomain(s.substr(last_dot + 1))) return SegmentKind::kDomain;
  return SegmentKind::kText;
}

// A run that only a hash function writes: 16 or more hex digits with
// both letters and digits, or 20+ characters of base64 mixing cases and
// digits.
bool IsHash(std::string_view s) {
  bool letters = false, digits = false;
  if (s.size() >= 16 && std::all_of(s.begin(), s.end(), IsHex)) {
    for (char c : s) (IsDigit(c) ? digits : letters) = true;
    return letters && digits;
  }
  if (s.size() < 20) return false;
  bool lower = false, upper = false;
  for (char c : s) {
    if (std::islower(static_cast<unsigned char>(c)))
      lower = true;
    else if (std::isupper(static_cast<unsigned char>(c)))
      upper = true;
    else if (IsDigit(c))
      digits = true;
    else if (c != '+' && c != '/' && c != '=' && c != '-' && c != '_')
      return false;
  }
  return lower && upper && digits;
}

bool IsPrintable(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f; }) ||
         // UTF-8 text beyond ASCII counts as text too.
         std::none_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
}

}  // namespace

std::string_view SegmentKindName(SegmentKind kind) {
  switch (kind) {
    case SegmentKind::kEmpty: return "empty";
    case SegmentKind::kTimestamp: return "timestamp";
    case SegmentKind::kReversedTimestamp: return "reversed timestamp";
    case SegmentKind::kNumber: return "number";
    case SegmentKind::kHash: return "hash";
    case SegmentKind::kEmail: return "email address";
    case SegmentKind::kPhone: return "phone number";
    case SegmentKind::kDomain: return "domain name";
    case SegmentKind::kReversedDomain: return "reversed domain name";
    case SegmentKind::kBinary: return "binary";
    case SegmentKind::kText: return "text";
  }
  return "text";
}

char DetectDelimiter(const std::vector<std::string_view>& keys) {
  for (char d : kKeyDelimiters) {
    size_t with = 0;
    for (std::string_view key : keys) with += key.find(d) != std::string_view::npos ? 1 : 0;
    if (!keys.empty() && with * 2 >= keys.size()) return d;
  }
  return '\0';
}

std::vector<std::string_view> SplitKey(std::string_view key, char delimiter) {
  std::vector<std::string_view> out;
  if (delimiter == '\0') return {key};
  size_t start = 0;
  for (size_t at = key.find(delimiter); at != std::string_view::npos; at = key.find(delimiter, start)) {
    out.push_back(key.substr(start, at - start));
    start = at + 1;
  }
  out.push_back(key.substr(start));
  return out;
}

bool IsDigits(std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), IsDigit); }

int64_t SegmentTimeMicros(std::string_view s) {
  if (IsDigits(s)) {
    if (int64_t micros = ReversedEpochMicros(s)) return micros;
    if (int64_t micros = EpochMicros(s)) return micros;
  }
  return CalendarMicros(s);
}

SegmentKind ClassifySegment(std::string_view s) {
  if (s.empty()) return SegmentKind::kEmpty;
  if (!IsPrintable(s)) return SegmentKind::kBinary;
  if (IsDigits(s)) {
    if (ReversedEpochMicros(s) != 0) return SegmentKind::kReversedTimestamp;
    if (EpochMicros(s) != 0 || CalendarMicros(s) != 0) return SegmentKind::kTimestamp;
    return SegmentKind::kNumber;
  }
  if (CalendarMicros(s) != 0) return SegmentKind::kTimestamp;
  if (IsEmail(s)) return SegmentKind::kEmail;
  if (IsPhone(s)) return SegmentKind::kPhone;
  if (IsHash(s)) return SegmentKind::kHash;
  return DomainKind(s);
}

std::string PrintableKey(std::string_view key) {
  std::string out;
  for (char c : key) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f && c != '\\') {
      out += c;
    } else {
      out += fmt::format("\\x{:02x}", byte);
    }
  }
  return out;
}

}  // namespace lbt::lab
