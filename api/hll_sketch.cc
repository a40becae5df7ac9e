#include "api/hll_sketch.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "util/bytes.h"

namespace lbt {

namespace {

constexpr char kMagic[2] = {'L', 'H'};
constexpr uint8_t kVersion = 1;
constexpr size_t kHeader = 5;  // magic, version, precision, mode

// MurmurHash3's 64-bit finalizer: spreads FNV-1a's bits over the word.
uint64_t Mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

uint32_t IndexOf(uint32_t entry) { return entry >> 6; }
uint8_t ValueOf(uint32_t entry) { return static_cast<uint8_t>(entry & 63); }

// Ertl's sigma and tau (2017), the series his improved estimator needs.
double Sigma(double x) {
  if (x == 1) return std::numeric_limits<double>::infinity();
  double y = 1, z = x, previous;
  do {
    x *= x;
    previous = z;
    z += x * y;
    y += y;
  } while (z != previous);
  return z;
}

double Tau(double x) {
  if (x == 0 || x == 1) return 0;
  double y = 1, z = 1 - x, previous;
  do {
    x = std::sqrt(x);
    previous = z;
    y *= 0.5;
    z -= (1 - x) * (1 - x) * y;
  } while (z != previous);
  return z / 3;
}

}  // namespace

HllSketch::HllSketch(int precision) : precision_(precision) {}

void HllSketch::AddBytes(std::string_view bytes) { AddHash(Mix(Fnv1a64(bytes))); }

void HllSketch::AddInt64(int64_t value) {
  std::string bytes;
  AppendBigEndian(&bytes, static_cast<uint64_t>(value), 8);
  AddBytes(bytes);
}

void HllSketch::AddHash(uint64_t hash) {
  const auto index = static_cast<uint32_t>(hash >> (64 - precision_));
  const uint64_t rest = hash << precision_;
  const int width = 64 - precision_;
  const auto value = static_cast<uint8_t>(rest == 0 ? width + 1 : std::countl_zero(rest) + 1);
  Set(index, value);
}

void HllSketch::Set(uint32_t index, uint8_t value) {
  if (dense_) {
    registers_[index] = std::max(registers_[index], value);
    return;
  }
  auto it = std::lower_bound(sparse_.begin(), sparse_.end(), index << 6,
                             [](uint32_t entry, uint32_t key) { return IndexOf(entry) < IndexOf(key); });
  if (it != sparse_.end() && IndexOf(*it) == index) {
    if (ValueOf(*it) < value) *it = index << 6 | value;
    return;
  }
  sparse_.insert(it, index << 6 | value);
  if (sparse_.size() * 4 > (size_t{1} << precision_)) Densify();
}

void HllSketch::Densify() {
  if (dense_) return;
  registers_.assign(size_t{1} << precision_, 0);
  for (uint32_t entry : sparse_) registers_[IndexOf(entry)] = ValueOf(entry);
  sparse_.clear();
  sparse_.shrink_to_fit();
  dense_ = true;
}

HllSketch HllSketch::Reduced(int precision) const {
  HllSketch out(precision);
  const int drop = precision_ - precision;
  const int width = 64 - precision_;
  auto fold = [&](uint32_t index, uint8_t value) {
    if (value == 0) return;
    // The index bits dropped become the top of the rest of the hash.
    const uint32_t low = index & ((1u << drop) - 1);
    const auto folded = static_cast<uint8_t>(low != 0 ? std::countl_zero(low) - (32 - drop) + 1
                                                      : std::min(value + drop, width + drop + 1));
    out.Set(index >> drop, folded);
  };
  if (dense_) {
    for (uint32_t i = 0; i < registers_.size(); ++i) fold(i, registers_[i]);
  } else {
    for (uint32_t entry : sparse_) fold(IndexOf(entry), ValueOf(entry));
  }
  return out;
}

void HllSketch::Merge(const HllSketch& other) {
  if (other.precision_ < precision_) *this = Reduced(other.precision_);
  if (other.precision_ > precision_) return Merge(other.Reduced(precision_));
  if (other.dense_) {
    Densify();
    for (size_t i = 0; i < registers_.size(); ++i) registers_[i] = std::max(registers_[i], other.registers_[i]);
    return;
  }
  for (uint32_t entry : other.sparse_) Set(IndexOf(entry), ValueOf(entry));
}

int64_t HllSketch::Estimate() const {
  const double m = static_cast<double>(size_t{1} << precision_);
  const int q = 64 - precision_;
  std::vector<double> counts(static_cast<size_t>(q) + 2, 0);
  if (dense_) {
    for (uint8_t r : registers_) counts[r] += 1;
  } else {
    counts[0] = m - static_cast<double>(sparse_.size());
    for (uint32_t entry : sparse_) counts[ValueOf(entry)] += 1;
  }
  if (counts[0] == m) return 0;
  double z = m * Tau(1 - counts[q + 1] / m);
  for (int k = q; k >= 1; --k) z = 0.5 * (z + counts[k]);
  z += m * Sigma(counts[0] / m);
  const double alpha = 1 / (2 * std::log(2.0));
  return std::llround(alpha * m * m / z);
}

std::string HllSketch::Serialize() const {
  std::string out(kMagic, 2);
  out.push_back(static_cast<char>(kVersion));
  out.push_back(static_cast<char>(precision_));
  out.push_back(dense_ ? 1 : 0);
  if (dense_) {
    out.append(registers_.begin(), registers_.end());
  } else {
    for (uint32_t entry : sparse_) AppendBigEndian(&out, entry, 4);
  }
  return out;
}

Result<HllSketch> HllSketch::Parse(std::string_view bytes) {
  auto bad = [&](std::string_view why) {
    return Status::InvalidArgument(fmt::format("not an HLL++ sketch of lbt's ({}): {} bytes", why, bytes.size()));
  };
  if (bytes.size() < kHeader || bytes[0] != kMagic[0] || bytes[1] != kMagic[1]) return bad("no header");
  if (static_cast<uint8_t>(bytes[2]) != kVersion) return bad("unknown version");
  const int precision = static_cast<uint8_t>(bytes[3]);
  if (precision < kMinPrecision || precision > kMaxPrecision) return bad("precision out of range");
  HllSketch sketch(precision);
  const std::string_view body = bytes.substr(kHeader);
  const size_t m = size_t{1} << precision;
  const auto max_value = static_cast<uint8_t>(64 - precision + 1);
  if (bytes[4] == 1) {
    if (body.size() != m) return bad("dense registers of the wrong size");
    sketch.registers_.assign(body.begin(), body.end());
    if (std::any_of(sketch.registers_.begin(), sketch.registers_.end(), [&](uint8_t r) { return r > max_value; })) {
      return bad("a register out of range");
    }
    sketch.dense_ = true;
    return sketch;
  }
  if (bytes[4] != 0 || body.size() % 4 != 0 || body.size() / 4 * 4 > m) return bad("sparse registers malformed");
  for (size_t i = 0; i < body.size(); i += 4) {
    const auto entry = static_cast<uint32_t>(DecodeBigEndian(body.substr(i, 4)));
    if (IndexOf(entry) >= m || ValueOf(entry) == 0 || ValueOf(entry) > max_value ||
        (!sketch.sparse_.empty() && IndexOf(entry) <= IndexOf(sketch.sparse_.back()))) {
      return bad("sparse registers out of order or range");
    }
    sketch.sparse_.push_back(entry);
  }
  return sketch;
}

}  // namespace lbt
