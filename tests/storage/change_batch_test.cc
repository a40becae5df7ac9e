#include "storage/kv/change_batch.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>
#include <string>

#include "util/bytes.h"

namespace lbt {
namespace {

using Model = std::map<std::string, std::optional<std::string>>;

// Decodes a sealed record's changes (the layout of change_batch.h) into
// one model per store, failing on a key that appears twice.
std::map<char, Model> DecodeRecord(std::string_view record, std::string_view header) {
  EXPECT_EQ(record.substr(0, ChangeBatch::kRecordHeaderRoom), header);
  record.remove_prefix(ChangeBatch::kRecordHeaderRoom);
  std::map<char, Model> out;
  while (!record.empty()) {
    EXPECT_GE(record.size(), 6u);
    const char tag = record[0];
    const bool put = record[1] == 0;
    const size_t key_size = DecodeBigEndian(record.substr(2, 4));
    std::string key(record.substr(6, key_size));
    record.remove_prefix(6 + key_size);
    std::optional<std::string> value;
    if (put) {
      const size_t value_size = DecodeBigEndian(record.substr(0, 4));
      value = std::string(record.substr(4, value_size));
      record.remove_prefix(4 + value_size);
    }
    EXPECT_FALSE(out[tag].contains(key)) << "key " << key << " is twice in the record";
    out[tag][key] = value;
  }
  return out;
}

Model ModelOf(const ChangeBatch& batch, StoreTag tag) {
  Model out;
  batch.ForEach(tag, [&](const ChangeBatch::Change& c) {
    out[std::string(c.key)] = c.value ? std::optional<std::string>(*c.value) : std::nullopt;
  });
  return out;
}

const std::string kHeader = std::string("\x01", 1) + std::string("\0\0\0\0\0\0\0\x07", 8);

TEST(ChangeBatchTest, FindsEachKeysChangeInEffect) {
  ChangeBatch batch;
  EXPECT_TRUE(batch.empty());
  batch.Put(StoreTag::kCells, "b", "1");
  batch.Put(StoreTag::kRows, "b", "row");
  batch.Delete(StoreTag::kCells, "a");
  batch.Put(StoreTag::kCells, "b", "2");
  EXPECT_FALSE(batch.empty());

  auto b = batch.Find(StoreTag::kCells, "b");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->value, std::optional<std::string_view>("2"));
  auto a = batch.Find(StoreTag::kCells, "a");
  ASSERT_TRUE(a.has_value());
  EXPECT_FALSE(a->value.has_value()) << "a deletion";
  EXPECT_FALSE(batch.Find(StoreTag::kCells, "c").has_value());
  EXPECT_FALSE(batch.Find(StoreTag::kChanges, "b").has_value()) << "stores are apart";
  EXPECT_EQ(batch.Find(StoreTag::kRows, "b")->value, std::optional<std::string_view>("row"));
}

TEST(ChangeBatchTest, SealedRecordHoldsEachKeyOnceWithItsLastChange) {
  ChangeBatch batch;
  batch.Put(StoreTag::kCells, "k2", "first");
  batch.Put(StoreTag::kCells, "k1", "v1");
  batch.Put(StoreTag::kCells, "k2", "second, longer");
  batch.Delete(StoreTag::kRows, "r");
  batch.Put(StoreTag::kChanges, "h", "change");
  std::map<char, Model> decoded = DecodeRecord(batch.SealRecord(kHeader), kHeader);
  EXPECT_EQ(decoded['c'], (Model{{"k1", "v1"}, {"k2", "second, longer"}}));
  EXPECT_EQ(decoded['r'], (Model{{"r", std::nullopt}}));
  EXPECT_EQ(decoded['h'], (Model{{"h", "change"}}));
  // Sealing rewrote the batch; it still answers the same.
  EXPECT_EQ(batch.Find(StoreTag::kCells, "k2")->value, std::optional<std::string_view>("second, longer"));
}

TEST(ChangeBatchTest, RollBackRestoresTheBatchAtItsSavepoint) {
  ChangeBatch batch;
  batch.Put(StoreTag::kCells, "kept", "1");
  batch.Put(StoreTag::kRows, "size", "8");
  batch.SetSavepoint();
  batch.Put(StoreTag::kCells, "kept", "2");
  batch.Put(StoreTag::kCells, "new", "x");
  batch.Delete(StoreTag::kRows, "size");
  batch.Put(StoreTag::kRows, "size", "16");
  batch.RollBack();
  EXPECT_EQ(ModelOf(batch, StoreTag::kCells), (Model{{"kept", "1"}}));
  EXPECT_EQ(ModelOf(batch, StoreTag::kRows), (Model{{"size", "8"}}));
  std::map<char, Model> decoded = DecodeRecord(batch.SealRecord(kHeader), kHeader);
  EXPECT_EQ(decoded['c'], (Model{{"kept", "1"}}));
  EXPECT_EQ(decoded['r'], (Model{{"size", "8"}}));
}

// Random changes, savepoints and rollbacks against a model; the iterator,
// ForEach and the sealed record all agree with it.
TEST(ChangeBatchTest, AgreesWithAModelUnderRandomChanges) {
  std::mt19937 rng(7);
  for (int round = 0; round < 50; ++round) {
    ChangeBatch batch;
    Model model, saved;
    for (int step = 0; step < 200; ++step) {
      const std::string key = "key" + std::to_string(rng() % 40);
      switch (rng() % 10) {
        case 0:
          batch.SetSavepoint();
          saved = model;
          break;
        case 1:
          if (step > 0 && !saved.empty()) {
            batch.RollBack();
            model = saved;
          }
          break;
        case 2:
          batch.Delete(StoreTag::kCells, key);
          model[key] = std::nullopt;
          break;
        default: {
          const std::string value(rng() % 30, static_cast<char>('a' + rng() % 26));
          batch.Put(StoreTag::kCells, key, value);
          model[key] = value;
        }
      }
      // A rollback restores the savepoint; later changes need a new one.
      if (rng() % 10 == 0) {
        batch.SetSavepoint();
        saved = model;
      }
    }
    ASSERT_EQ(ModelOf(batch, StoreTag::kCells), model) << "round " << round;
    auto it = batch.NewIterator(StoreTag::kCells);
    Model walked;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      walked[std::string(it->key())] =
          it->deleted() ? std::nullopt : std::optional<std::string>(std::string(it->value()));
    }
    EXPECT_EQ(walked, model);
    if (!model.empty()) {
      it->SeekForPrev("key25");
      auto expected = model.upper_bound("key25");
      if (expected == model.begin()) {
        EXPECT_FALSE(it->Valid());
      } else {
        ASSERT_TRUE(it->Valid());
        EXPECT_EQ(it->key(), std::prev(expected)->first);
      }
    }
    EXPECT_EQ(DecodeRecord(batch.SealRecord(kHeader), kHeader)['c'], model);
  }
}

}  // namespace
}  // namespace lbt
