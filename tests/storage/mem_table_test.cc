#include "storage/kv/mem_table.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>
#include <thread>

#include "storage/kv/merging_iterator.h"
#include "tests/test_util.h"

namespace lbt {
namespace {

// A model of one layer: key -> (seq -> value, nullopt for a deletion).
using Versions = std::map<uint64_t, std::optional<std::string>>;
using Model = std::map<std::string, Versions>;

// What a reader at `seq` sees through `layers` (newest first).
std::map<std::string, std::string> Visible(const std::vector<const Model*>& layers, uint64_t seq) {
  std::map<std::string, std::string> out;
  std::set<std::string> keys;
  for (const Model* m : layers) {
    for (const auto& [k, v] : *m) keys.insert(k);
  }
  for (const std::string& k : keys) {
    for (const Model* m : layers) {
      auto it = m->find(k);
      if (it == m->end()) continue;
      auto v = it->second.upper_bound(seq);
      if (v == it->second.begin()) continue;  // nothing this old in this layer
      --v;
      if (v->second) out[k] = *v->second;
      break;
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> Forward(KeyIterator* it) {
  std::vector<std::pair<std::string, std::string>> out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) out.emplace_back(it->key(), it->value());
  return out;
}

std::vector<std::pair<std::string, std::string>> Backward(KeyIterator* it) {
  std::vector<std::pair<std::string, std::string>> out;
  for (it->SeekToLast(); it->Valid(); it->Prev()) out.emplace_back(it->key(), it->value());
  return {out.rbegin(), out.rend()};
}

TEST(MemTableTest, AReaderSeesEachKeysNewestEntryAtItsSequence) {
  MemTable t;
  t.Add(StoreTag::kCells, "a", 1, false, "a1");
  t.Add(StoreTag::kCells, "a", 3, false, "a3");
  t.Add(StoreTag::kCells, "b", 2, false, "b2");
  t.Add(StoreTag::kCells, "b", 4, true, "");
  t.Add(StoreTag::kRows, "a", 5, false, "row a");
  std::string_view v;
  EXPECT_EQ(t.Get(StoreTag::kCells, "a", 2, &v), MemTable::Found::kValue);
  EXPECT_EQ(v, "a1");
  EXPECT_EQ(t.Get(StoreTag::kCells, "a", 9, &v), MemTable::Found::kValue);
  EXPECT_EQ(v, "a3");
  EXPECT_EQ(t.Get(StoreTag::kCells, "b", 3, &v), MemTable::Found::kValue);
  EXPECT_EQ(t.Get(StoreTag::kCells, "b", 4, &v), MemTable::Found::kDeleted);
  EXPECT_EQ(t.Get(StoreTag::kCells, "b", 1, &v), MemTable::Found::kAbsent);
  EXPECT_EQ(t.Get(StoreTag::kCells, "c", 9, &v), MemTable::Found::kAbsent);
  EXPECT_EQ(t.Get(StoreTag::kRows, "a", 9, &v), MemTable::Found::kValue);
  EXPECT_EQ(v, "row a");
  EXPECT_EQ(t.max_seq(), 5u);

  auto it = t.NewIterator(StoreTag::kCells, 9);
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "a");
  EXPECT_EQ(it->value(), "a3");
  it->Next();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "b");
  EXPECT_TRUE(it->deleted());
  it->Next();
  EXPECT_FALSE(it->Valid());  // the rows store's keys are another store's

  MemTable::Walker walker(&t);
  MemEntry e;
  std::vector<std::string> walked;
  while (walker.Next(&e)) {
    std::string w = e.store == StoreTag::kCells ? "c" : "r";
    w.append(e.key);
    w.append("@");
    w.append(std::to_string(e.seq));
    walked.push_back(w);
  }
  EXPECT_EQ(walked, (std::vector<std::string>{"ca@3", "cb@4", "ra@5"}));
}

// Random layers of entries and deletions over a base without deletions,
// read through the merging iterator at random sequences, both ways and by
// seeks, against a model.
TEST(MemTableTest, MergedLayersReadLikeTheModelBothWaysAndBySeeks) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 40; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const int layers = 1 + static_cast<int>(rng() % 3);
    std::vector<std::unique_ptr<MemTable>> tables;
    std::vector<Model> models(layers);
    uint64_t seq = 0;
    // Oldest layer first, so that newer layers hold higher sequences.
    for (int l = layers - 1; l >= 0; --l) {
      tables.push_back(std::make_unique<MemTable>());
    }
    for (int l = layers - 1; l >= 0; --l) {
      const int n = static_cast<int>(rng() % 60);
      for (int i = 0; i < n; ++i) {
        const std::string key = testing::RandomBytes(rng, 3, 1);
        const bool deleted = l != layers - 1 && rng() % 3 == 0;  // the base layer has no deletions
        const std::string value = deleted ? "" : testing::RandomBytes(rng, 8);
        ++seq;
        tables[l]->Add(StoreTag::kCells, key, seq, deleted, value);
        models[l][key][seq] = deleted ? std::nullopt : std::optional<std::string>(value);
        if (rng() % 5 == 0) tables[l]->Add(StoreTag::kRows, key, seq, false, "other store");
      }
    }
    std::vector<const Model*> model_layers;
    for (const Model& m : models) model_layers.push_back(&m);
    for (int probe = 0; probe < 5; ++probe) {
      const uint64_t at = seq == 0 ? 0 : rng() % (seq + 1);
      const auto want = Visible(model_layers, at);
      const std::vector<std::pair<std::string, std::string>> want_list(want.begin(), want.end());
      auto open = [&] {
        std::vector<std::unique_ptr<KeyIterator>> its;
        for (auto& t : tables) its.push_back(t->NewIterator(StoreTag::kCells, at));
        return NewMergingIterator(std::move(its));
      };
      auto it = open();
      EXPECT_EQ(Forward(it.get()), want_list);
      EXPECT_EQ(Backward(it.get()), want_list);
      for (int s = 0; s < 10; ++s) {
        const std::string target = testing::RandomBytes(rng, 3);
        it->Seek(target);
        auto lb = want.lower_bound(target);
        ASSERT_EQ(it->Valid(), lb != want.end());
        if (it->Valid()) {
          EXPECT_EQ(it->key(), lb->first);
          // Turning around: Prev from a seek lands on the key before.
          it->Prev();
          ASSERT_EQ(it->Valid(), lb != want.begin());
          if (it->Valid()) {
            EXPECT_EQ(it->key(), std::prev(lb)->first);
          }
        }
        it->SeekForPrev(target);
        auto ub = want.upper_bound(target);
        ASSERT_EQ(it->Valid(), ub != want.begin());
        if (it->Valid()) {
          EXPECT_EQ(it->key(), std::prev(ub)->first);
          it->Next();
          ASSERT_EQ(it->Valid(), ub != want.end());
          if (it->Valid()) {
            EXPECT_EQ(it->key(), ub->first);
          }
        }
      }
    }
  }
}

// Writes add their keys in ascending runs (a batch's keys are sorted), which
// the table follows from where the last key went: runs that start
// anywhere, repeat keys, or step back all land in order.
TEST(MemTableTest, KeysAddedInAscendingRunsLandInOrder) {
  MemTable t;
  std::mt19937_64 rng(11);
  std::map<std::string, std::string> model;
  uint64_t seq = 0;
  for (int run = 0; run < 300; ++run) {
    std::vector<std::string> keys;
    for (int i = 0; i < 1 + static_cast<int>(rng() % 12); ++i) keys.push_back(testing::RandomBytes(rng, 4, 1));
    std::sort(keys.begin(), keys.end());
    for (const std::string& k : keys) {
      const std::string value = std::to_string(++seq);
      t.Add(StoreTag::kCells, k, seq, false, value);
      model[k] = value;
    }
  }
  auto it = t.NewIterator(StoreTag::kCells, UINT64_MAX);
  EXPECT_EQ(Forward(it.get()), (std::vector<std::pair<std::string, std::string>>(model.begin(), model.end())));
  std::string_view v;
  for (const auto& [k, value] : model) {
    ASSERT_EQ(t.Get(StoreTag::kCells, k, UINT64_MAX, &v), MemTable::Found::kValue);
    EXPECT_EQ(v, value);
  }
}

// One writer adding while readers walk: a reader at a fixed sequence sees
// the same keys however much is added meanwhile, and never a torn entry.
TEST(MemTableTest, ReadersAtASequenceAreUndisturbedByAConcurrentWriter) {
  MemTable t;
  // Keys k<even> before the readers start, k<odd> while they read.
  auto key = [](int n) { return fmt::format("k{:05}", n); };
  for (int i = 0; i < 1000; ++i) t.Add(StoreTag::kCells, key(i * 2), i + 1, false, "v");
  std::thread writer([&] {
    for (int i = 0; i < 20000; ++i) {
      t.Add(StoreTag::kCells, key((i % 1000) * 2 + 1), 1001 + i, false, std::string(i % 40, 'w'));
    }
  });
  for (int pass = 0; pass < 50; ++pass) {
    auto it = t.NewIterator(StoreTag::kCells, 1000);
    int n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      ASSERT_EQ(it->value(), "v");
      ++n;
    }
    ASSERT_EQ(n, 1000);
  }
  writer.join();
  auto it = t.NewIterator(StoreTag::kCells, UINT64_MAX);
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
  EXPECT_EQ(n, 2000);
}

}  // namespace
}  // namespace lbt
