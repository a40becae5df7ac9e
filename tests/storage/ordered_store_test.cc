#include "storage/kv/ordered_store.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "storage/kv/lmdb_env.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::RandomBytes;
using testing::TempDir;

class OrderedStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto env = LmdbEnv::Open(dir_.path(), LmdbOptions{});
    ASSERT_TRUE(env.ok()) << env.status().ToString();
    env_ = std::move(env).value();
    auto txn = Txn::Begin(env_.get(), true);
    ASSERT_TRUE(txn.ok());
    auto main = (*txn)->OpenDbi("main", true);
    auto overflow = (*txn)->OpenDbi("overflow", true);
    ASSERT_TRUE(main.ok() && overflow.ok());
    store_ = OrderedStore(*main, *overflow);
    ASSERT_OK((*txn)->Commit());
  }

  std::unique_ptr<Txn> Begin(bool write) {
    auto txn = Txn::Begin(env_.get(), write);
    EXPECT_TRUE(txn.ok()) << txn.status().ToString();
    return std::move(txn).value();
  }

  // Every key and value in order, as the iterator walks forward.
  std::vector<std::pair<std::string, std::string>> Scan(Txn* txn, bool reverse = false) {
    std::vector<std::pair<std::string, std::string>> out;
    auto it = store_.NewIterator(txn);
    EXPECT_TRUE(it.ok());
    if (reverse) {
      for ((*it)->SeekToLast(); (*it)->Valid(); (*it)->Prev()) {
        out.emplace_back((*it)->key(), (*it)->value());
      }
    } else {
      for ((*it)->SeekToFirst(); (*it)->Valid(); (*it)->Next()) {
        out.emplace_back((*it)->key(), (*it)->value());
      }
    }
    EXPECT_OK((*it)->status());
    return out;
  }

  TempDir dir_;
  std::unique_ptr<LmdbEnv> env_;
  OrderedStore store_;
};

// Keys of every length class: short, around the direct limit, and several
// chunks long, many sharing long prefixes so that groups nest.
std::string RandomKey(std::mt19937_64& rng, const std::vector<std::string>& prefixes) {
  std::uniform_int_distribution<int> kind(0, 5);
  std::uniform_int_distribution<size_t> pick(0, prefixes.size() - 1);
  switch (kind(rng)) {
    case 0: return RandomBytes(rng, 8, 1);
    case 1: return prefixes[pick(rng)] + RandomBytes(rng, 4);
    case 2: return prefixes[pick(rng)].substr(0, kMaxDirectKeyBytes - 2) + RandomBytes(rng, 5);
    case 3: return prefixes[pick(rng)] + RandomBytes(rng, 600);
    default: return prefixes[pick(rng)].substr(0, 1000 + pick(rng)) + RandomBytes(rng, 3);
  }
}

TEST_F(OrderedStoreTest, MatchesAnOrderedMapOnLongKeys) {
  std::mt19937_64 rng(1234);
  std::vector<std::string> prefixes;
  for (int i = 0; i < 6; ++i) prefixes.push_back(RandomBytes(rng, 2500, 1500));
  prefixes.push_back(std::string(3000, '\0'));
  prefixes.push_back(std::string(3000, '\xff'));
  std::map<std::string, std::string> model;

  for (int round = 0; round < 4; ++round) {
    auto txn = Begin(true);
    for (int i = 0; i < 400; ++i) {
      std::string key = RandomKey(rng, prefixes);
      std::string value = RandomBytes(rng, 20);
      ASSERT_OK(store_.Put(txn.get(), key, value));
      model[key] = value;
    }
    // Delete a third of the keys, so groups empty out and disappear.
    std::uniform_int_distribution<int> coin(0, 2);
    for (auto it = model.begin(); it != model.end();) {
      if (coin(rng) == 0) {
        auto deleted = store_.Delete(txn.get(), it->first);
        ASSERT_TRUE(deleted.ok() && *deleted);
        it = model.erase(it);
      } else {
        ++it;
      }
    }
    ASSERT_OK(txn->Commit());
  }

  auto txn = Begin(false);
  std::vector<std::pair<std::string, std::string>> expected(model.begin(), model.end());
  ASSERT_EQ(Scan(txn.get()), expected);
  std::reverse(expected.begin(), expected.end());
  ASSERT_EQ(Scan(txn.get(), /*reverse=*/true), expected);

  for (const auto& [key, value] : model) {
    std::string_view got;
    auto found = store_.Get(txn.get(), key, &got);
    ASSERT_TRUE(found.ok() && *found);
    EXPECT_EQ(got, value);
  }

  // Seek and SeekForPrev land where std::map says, for random targets.
  auto it = store_.NewIterator(txn.get());
  ASSERT_TRUE(it.ok());
  for (int i = 0; i < 2000; ++i) {
    std::string target = RandomKey(rng, prefixes);
    (*it)->Seek(target);
    auto lower = model.lower_bound(target);
    ASSERT_EQ((*it)->Valid(), lower != model.end()) << "i=" << i;
    if (lower != model.end()) {
      ASSERT_EQ((*it)->key(), lower->first) << "i=" << i;
    }

    (*it)->SeekForPrev(target);
    auto upper = model.upper_bound(target);
    bool has_prev = upper != model.begin();
    ASSERT_EQ((*it)->Valid(), has_prev) << "i=" << i;
    if (has_prev) {
      ASSERT_EQ((*it)->key(), std::prev(upper)->first) << "i=" << i;
    }
  }
  ASSERT_OK((*it)->status());
}

TEST_F(OrderedStoreTest, MissingKeysAreAbsentNotErrors) {
  auto txn = Begin(true);
  std::string long_key(5000, 'k');
  std::string_view value;
  auto found = store_.Get(txn.get(), long_key, &value);
  ASSERT_TRUE(found.ok());
  EXPECT_FALSE(*found);
  auto deleted = store_.Delete(txn.get(), long_key);
  ASSERT_TRUE(deleted.ok());
  EXPECT_FALSE(*deleted);
  ASSERT_OK(store_.Put(txn.get(), long_key, "v"));
  found = store_.Get(txn.get(), long_key + "x", &value);
  ASSERT_TRUE(found.ok());
  EXPECT_FALSE(*found);
}

TEST_F(OrderedStoreTest, KeysAtTheDirectLimitBoundary) {
  auto txn = Begin(true);
  std::map<std::string, std::string> model;
  for (size_t len = kMaxDirectKeyBytes - 2; len <= kMaxDirectKeyBytes + kMaxChunkBytes + 2; ++len) {
    if (len > kMaxDirectKeyBytes + 3 && len < kMaxDirectKeyBytes + kMaxChunkBytes - 3) continue;
    for (char fill : {'\0', '\x01', 'a', '\xff'}) {
      std::string key(len, fill);
      model[key] = std::to_string(len);
      ASSERT_OK(store_.Put(txn.get(), key, model[key]));
    }
  }
  std::vector<std::pair<std::string, std::string>> expected(model.begin(), model.end());
  EXPECT_EQ(Scan(txn.get()), expected);
}

}  // namespace
}  // namespace lbt
