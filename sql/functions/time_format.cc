#include "sql/functions/time_format.h"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <optional>

#include "sql/value.h"

namespace lbt::sql {

namespace {

constexpr int64_t kMicrosPerDay = 86400LL * 1000000;
constexpr std::array<std::string_view, 12> kMonths = {"January",   "February", "March",    "April",
                                                      "May",       "June",     "July",     "August",
                                                      "September", "October",  "November", "December"};
constexpr std::array<std::string_view, 7> kWeekdays = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                                       "Thursday", "Friday", "Saturday"};

// A time broken into the fields the elements read.
struct Fields {
  int64_t days = 0;  // since the epoch
  int64_t year = 1970;
  unsigned month = 1, day = 1;
  int64_t hour = 0, minute = 0, second = 0, micros = 0;  // micros within the second
  int weekday = 4;                                       // 0 = Sunday; 1970-01-01 was a Thursday
  int64_t yday = 0;                                      // 0-based day of the year
  int64_t iso_year = 1970, iso_week = 1;
};

Fields Break(int64_t t) {
  Fields f;
  f.days = FloorDiv(t, kMicrosPerDay);
  const int64_t in_day = t - f.days * kMicrosPerDay;
  CivilFromDays(f.days, &f.year, &f.month, &f.day);
  f.hour = in_day / 3600000000LL;
  f.minute = in_day / 60000000LL % 60;
  f.second = in_day / 1000000 % 60;
  f.micros = in_day % 1000000;
  f.weekday = static_cast<int>(((f.days % 7) + 7 + 4) % 7);
  f.yday = f.days - DaysFromCivil(f.year, 1, 1);
  // ISO 8601: weeks start on Monday, and a week belongs to the year its
  // Thursday is in.
  const int iso_weekday = (f.weekday + 6) % 7;  // 0 = Monday
  const int64_t thursday = f.days - iso_weekday + 3;
  int64_t year;
  unsigned month, day;
  CivilFromDays(thursday, &year, &month, &day);
  f.iso_year = year;
  f.iso_week = (thursday - DaysFromCivil(year, 1, 1)) / 7 + 1;
  return f;
}

std::string Seconds(const Fields& f, int digits) {
  std::string out = fmt::format("{:02d}", f.second);
  if (digits > 0) out += "." + fmt::format("{:06d}", f.micros).substr(0, static_cast<size_t>(std::min(digits, 6)));
  if (digits > 6) out += std::string(static_cast<size_t>(digits - 6), '0');
  return out;
}

// One element's text; false if `c` is no element.
// "+0530", "+05:30" (`colon`), or "+5:30" and "+5" (`short_form`, %Z's).
std::string OffsetText(int64_t offset_micros, bool colon, bool short_form = false) {
  const int64_t minutes = (offset_micros < 0 ? -offset_micros : offset_micros) / 60000000;
  const char sign = offset_micros < 0 ? '-' : '+';
  if (short_form) {
    return minutes % 60 == 0 ? fmt::format("{}{}", sign, minutes / 60)
                             : fmt::format("{}{}:{:02d}", sign, minutes / 60, minutes % 60);
  }
  return fmt::format("{}{:02d}{}{:02d}", sign, minutes / 60, colon ? ":" : "", minutes % 60);
}

// The first day of the ISO year `f` is in (the Monday of its week 1).
int64_t IsoYearFirstDay(const Fields& f) {
  const int64_t jan4 = DaysFromCivil(f.iso_year, 1, 4);
  return jan4 - ((((jan4 % 7) + 7 + 4) % 7 + 6) % 7);
}

bool FormatElement(char c, const Fields& f, int64_t t, int64_t offset, std::string* out) {
  const int64_t hour12 = f.hour % 12 == 0 ? 12 : f.hour % 12;
  switch (c) {
    case 'Y': *out += fmt::format("{:04d}", f.year); return true;
    case 'C': *out += fmt::format("{:02d}", f.year / 100); return true;
    case 'y': *out += fmt::format("{:02d}", f.year % 100); return true;
    case 'G': *out += fmt::format("{:04d}", f.iso_year); return true;
    case 'g': *out += fmt::format("{:02d}", f.iso_year % 100); return true;
    case 'm': *out += fmt::format("{:02d}", f.month); return true;
    case 'd': *out += fmt::format("{:02d}", f.day); return true;
    case 'e': *out += fmt::format("{:2d}", f.day); return true;
    case 'j': *out += fmt::format("{:03d}", f.yday + 1); return true;
    case 'U': *out += fmt::format("{:02d}", (f.yday + 7 - f.weekday) / 7); return true;
    case 'W': *out += fmt::format("{:02d}", (f.yday + 7 - (f.weekday + 6) % 7) / 7); return true;
    case 'V': *out += fmt::format("{:02d}", f.iso_week); return true;
    case 'u': *out += std::to_string(f.weekday == 0 ? 7 : f.weekday); return true;
    case 'w': *out += std::to_string(f.weekday); return true;
    case 'a': *out += kWeekdays[f.weekday].substr(0, 3); return true;
    case 'A': *out += kWeekdays[f.weekday]; return true;
    case 'b':
    case 'h': *out += kMonths[f.month - 1].substr(0, 3); return true;
    case 'B': *out += kMonths[f.month - 1]; return true;
    case 'Q': *out += std::to_string((f.month - 1) / 3 + 1); return true;
    case 'H': *out += fmt::format("{:02d}", f.hour); return true;
    case 'I': *out += fmt::format("{:02d}", hour12); return true;
    case 'k': *out += fmt::format("{:2d}", f.hour); return true;
    case 'l': *out += fmt::format("{:2d}", hour12); return true;
    case 'M': *out += fmt::format("{:02d}", f.minute); return true;
    case 'S': *out += Seconds(f, 0); return true;
    case 'p': *out += f.hour < 12 ? "AM" : "PM"; return true;
    case 'P': *out += f.hour < 12 ? "am" : "pm"; return true;
    case 'F': *out += fmt::format("{:04d}-{:02d}-{:02d}", f.year, f.month, f.day); return true;
    case 'D':
    case 'x': *out += fmt::format("{:02d}/{:02d}/{:02d}", f.month, f.day, f.year % 100); return true;
    case 'T':
    case 'X': *out += fmt::format("{:02d}:{:02d}:{}", f.hour, f.minute, Seconds(f, 0)); return true;
    case 'R': *out += fmt::format("{:02d}:{:02d}", f.hour, f.minute); return true;
    case 'c':
      *out += fmt::format("{} {} {:2d} {:02d}:{:02d}:{:02d} {:04d}", kWeekdays[f.weekday].substr(0, 3),
                          kMonths[f.month - 1].substr(0, 3), f.day, f.hour, f.minute, f.second, f.year);
      return true;
    case 's': *out += std::to_string(FloorDiv(t, 1000000)); return true;
    case 'z': *out += OffsetText(offset, false); return true;
    case 'Z': *out += offset == 0 ? "UTC" : "UTC" + OffsetText(offset, true, true); return true;
    case 'J': *out += fmt::format("{:03d}", f.days - IsoYearFirstDay(f) + 1); return true;
    case 'n': *out += '\n'; return true;
    case 't': *out += '\t'; return true;
    case '%': *out += '%'; return true;
    default: return false;
  }
}

}  // namespace

std::string FormatTime(std::string_view format, int64_t micros, int64_t offset_micros) {
  const Fields f = Break(micros + offset_micros);
  std::string out;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%' || i + 1 == format.size()) {
      out += format[i];
      continue;
    }
    const char c = format[++i];
    if (c == 'E' && i + 1 < format.size()) {
      // %Ez, %E*S, %E<n>S.
      if (format[i + 1] == 'z') {
        out += OffsetText(offset_micros, true);
        ++i;
        continue;
      }
      if (format.substr(i + 1, 2) == "4Y") {
        out += fmt::format("{:04d}", f.year);
        i += 2;
        continue;
      }
      if (format[i + 1] == '*' && i + 2 < format.size() && format[i + 2] == 'S') {
        out += Seconds(f, 6);
        i += 2;
        continue;
      }
      if (std::isdigit(static_cast<unsigned char>(format[i + 1])) && i + 2 < format.size() && format[i + 2] == 'S') {
        out += Seconds(f, format[i + 1] - '0');
        i += 2;
        continue;
      }
    }
    if (!FormatElement(c, f, micros, offset_micros, &out)) {
      out += '%';
      out += c;
    }
  }
  return out;
}

namespace {

// The parse of one text: a cursor and the fields found so far.
class TimeParser {
 public:
  explicit TimeParser(std::string_view text) : text_(text) {}

  Status Run(std::string_view format) {
    LBT_RETURN_IF_ERROR(Fields(format));
    SkipSpace();
    if (at_ != text_.size()) {
      return Status::OutOfRange(fmt::format("Illegal non-space trailing data '{}'", text_.substr(at_)));
    }
    return Status::OK();
  }

  // Reads the text `format` describes, leaving what follows.
  Status Fields(std::string_view format) {
    for (size_t i = 0; i < format.size(); ++i) {
      const char c = format[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        SkipSpace();
        continue;
      }
      if (c != '%' || i + 1 == format.size()) {
        LBT_RETURN_IF_ERROR(Literal(c));
        continue;
      }
      char e = format[++i];
      if (e == 'E' && i + 1 < format.size()) {
        if (format[i + 1] == 'z') {
          ++i;
          e = 'z';
        } else if (format[i + 1] == '*' || std::isdigit(static_cast<unsigned char>(format[i + 1]))) {
          if (i + 2 >= format.size() || format[i + 2] != 'S') return Status::OutOfRange("Invalid format element %E");
          i += 2;
          LBT_RETURN_IF_ERROR(SecondsWithFraction());
          continue;
        }
      }
      LBT_RETURN_IF_ERROR(Element(e));
    }
    return Status::OK();
  }

  Result<int64_t> Micros() const {
    int64_t hour = hour_;
    if (pm_) hour = hour % 12 + (*pm_ ? 12 : 0);
    if (month_ < 1 || month_ > 12 || day_ < 1 || day_ > 31 || hour > 23 || minute_ > 59 || second_ > 60 || year_ < 1 ||
        year_ > 9999) {
      return Status::OutOfRange("Out-of-range datetime field in parsing function");
    }
    int64_t days = DaysFromCivil(year_, static_cast<unsigned>(month_), static_cast<unsigned>(day_));
    int64_t y;
    unsigned m, d;
    CivilFromDays(days, &y, &m, &d);
    if (static_cast<int64_t>(d) != day_) return Status::OutOfRange("Out-of-range datetime field in parsing function");
    if (yday_ > 0) days = DaysFromCivil(year_, 1, 1) + yday_ - 1;
    if (epoch_seconds_) return *epoch_seconds_ * 1000000 + micros_;
    return days * kMicrosPerDay + ((hour * 60 + minute_) * 60 + second_) * 1000000 + micros_ -
           offset_minutes_ * 60000000LL;
  }

 private:
  Status Mismatch(const std::string& wanted) const {
    return Status::OutOfRange(
        fmt::format("Mismatch between format character {} and string character at '{}'", wanted, text_.substr(at_)));
  }
  void SkipSpace() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  // Up to `max` digits (a leading sign when `sign`), at least one.
  Result<int64_t> Number(int max, const char* element, bool sign = false) {
    bool negative = false;
    if (sign && at_ < text_.size() && (text_[at_] == '-' || text_[at_] == '+')) negative = text_[at_++] == '-';
    int64_t value = 0;
    int digits = 0;
    while (digits < max && at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) {
      value = value * 10 + (text_[at_++] - '0');
      ++digits;
    }
    if (digits == 0) return Mismatch(element);
    return negative ? -value : value;
  }
  // A name of `names` or its first three letters, any case: its index.
  template <size_t N>
  Result<int> Name(const std::array<std::string_view, N>& names, const char* element) {
    for (size_t i = 0; i < N; ++i) {
      for (size_t length : {names[i].size(), size_t{3}}) {
        if (at_ + length > text_.size()) continue;
        bool same = true;
        for (size_t k = 0; k < length && same; ++k) {
          same = std::tolower(static_cast<unsigned char>(text_[at_ + k])) ==
                 std::tolower(static_cast<unsigned char>(names[i][k]));
        }
        if (same) {
          at_ += length;
          return static_cast<int>(i);
        }
      }
    }
    return Mismatch(element);
  }
  Status SecondsWithFraction() {
    LBT_ASSIGN_OR_RETURN(second_, Number(2, "%S"));
    if (at_ < text_.size() && text_[at_] == '.') {
      ++at_;
      int64_t scale = 100000;
      while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) {
        micros_ += (text_[at_++] - '0') * scale;
        scale /= 10;
      }
    }
    return Status::OK();
  }
  Status Offset() {
    if (at_ < text_.size() && (text_[at_] == 'Z' || text_[at_] == 'z')) {
      ++at_;
      return Status::OK();
    }
    if (at_ >= text_.size() || (text_[at_] != '+' && text_[at_] != '-')) return Mismatch("%z");
    const bool negative = text_[at_++] == '-';
    LBT_ASSIGN_OR_RETURN(int64_t hours, Number(2, "%z"));
    if (at_ < text_.size() && text_[at_] == ':') ++at_;
    int64_t minutes = 0;
    if (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) {
      LBT_ASSIGN_OR_RETURN(minutes, Number(2, "%z"));
    }
    offset_minutes_ = (negative ? -1 : 1) * (hours * 60 + minutes);
    return Status::OK();
  }
  Status Element(char e);
  Status Composite(char e);
  Status Literal(char c) {
    if (at_ >= text_.size() || text_[at_] != c) return Mismatch(fmt::format("'{}'", c));
    ++at_;
    return Status::OK();
  }

  std::string_view text_;
  size_t at_ = 0;
  int64_t year_ = 1970, month_ = 1, day_ = 1, hour_ = 0, minute_ = 0, second_ = 0, micros_ = 0, yday_ = 0;
  int64_t offset_minutes_ = 0;
  std::optional<bool> pm_;
  std::optional<int64_t> epoch_seconds_;
};

// The elements that stand for several: %F %D %x %T %X %R %c.
Status TimeParser::Composite(char e) {
  switch (e) {
    case 'F': return Fields("%Y-%m-%d");
    case 'D':
    case 'x': return Fields("%m/%d/%y");
    case 'T':
    case 'X': return Fields("%H:%M:%S");
    case 'R': return Fields("%H:%M");
    case 'c': return Fields(" %a %b %e %T %Y");  // spaces, however many, before each part
    default: return Status::OutOfRange(fmt::format("Unsupported format element %{}", e));
  }
}

Status TimeParser::Element(char e) {
  auto set = [&](int64_t* field, int max, const char* name) -> Status {
    LBT_ASSIGN_OR_RETURN(*field, Number(max, name));
    return Status::OK();
  };
  switch (e) {
    case 'Y': return set(&year_, 4, "%Y");
    case 'C': {
      LBT_ASSIGN_OR_RETURN(int64_t century, Number(2, "%C"));
      year_ = century * 100 + year_ % 100;
      return Status::OK();
    }
    case 'y': {
      LBT_ASSIGN_OR_RETURN(int64_t y, Number(2, "%y"));
      year_ = y < 69 ? 2000 + y : 1900 + y;  // 00-68: 20xx, 69-99: 19xx
      return Status::OK();
    }
    case 'm': return set(&month_, 2, "%m");
    case 'd': return set(&day_, 2, "%d");
    case 'e': SkipSpace(); return set(&day_, 2, "%e");
    case 'j': return set(&yday_, 3, "%j");
    case 'H': return set(&hour_, 2, "%H");
    case 'k': SkipSpace(); return set(&hour_, 2, "%k");
    case 'I': return set(&hour_, 2, "%I");
    case 'l': SkipSpace(); return set(&hour_, 2, "%l");
    case 'M': return set(&minute_, 2, "%M");
    case 'S': return set(&second_, 2, "%S");
    case 'p':
    case 'P': {
      static constexpr std::array<std::string_view, 2> kHalves = {"AM", "PM"};
      LBT_ASSIGN_OR_RETURN(int half, Name(kHalves, "%p"));
      pm_ = half == 1;
      return Status::OK();
    }
    case 'b':
    case 'h':
    case 'B': {
      LBT_ASSIGN_OR_RETURN(int month, Name(kMonths, "%B"));
      month_ = month + 1;
      return Status::OK();
    }
    case 'a':
    case 'A': return Name(kWeekdays, "%A").status();  // read, and implied by the date
    case 'F':
    case 'D':
    case 'x':
    case 'T':
    case 'X':
    case 'R':
    case 'c': return Composite(e);
    case 's': {
      LBT_ASSIGN_OR_RETURN(int64_t seconds, Number(12, "%s", true));
      epoch_seconds_ = seconds;
      return Status::OK();
    }
    case 'z': return Offset();
    case 'Z': {
      if (text_.substr(at_, 3) != "UTC") return Mismatch("%Z (lbt reads UTC only)");
      at_ += 3;
      return Status::OK();
    }
    case 'n':
    case 't': SkipSpace(); return Status::OK();
    case '%': return Literal('%');
    default: return Status::OutOfRange(fmt::format("Unsupported format element %{}", e));
  }
}

}  // namespace

Result<int64_t> TimeZoneOffsetMicros(std::string_view zone) {
  if (zone == "UTC" || zone == "Etc/UTC" || zone == "Z" || zone == "GMT") return 0;
  std::string_view rest = zone;
  if (rest.starts_with("UTC")) rest.remove_prefix(3);
  if (!rest.empty() && (rest[0] == '+' || rest[0] == '-')) {
    const bool negative = rest[0] == '-';
    rest.remove_prefix(1);
    int hours = 0, minutes = 0;
    size_t i = 0;
    while (i < rest.size() && i < 2 && std::isdigit(static_cast<unsigned char>(rest[i])))
      hours = hours * 10 + (rest[i++] - '0');
    if (i < rest.size() && rest[i] == ':') ++i;
    const size_t minute_start = i;
    while (i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i])))
      minutes = minutes * 10 + (rest[i++] - '0');
    if (i == rest.size() && i > 0 && hours <= 14 && minutes < 60 && (i - minute_start == 0 || i - minute_start == 2)) {
      return (negative ? -1 : 1) * (hours * 60LL + minutes) * 60000000LL;
    }
  }
  return Status::InvalidArgument(fmt::format(
      "Time zone '{}': lbt computes in UTC and takes 'UTC' or a fixed offset such as '+05:30' (no named zones)", zone));
}

Result<int64_t> ParseTime(std::string_view format, std::string_view text) {
  TimeParser parser(text);
  LBT_RETURN_IF_ERROR(parser.Run(format));
  return parser.Micros();
}

}  // namespace lbt::sql
