// A week of shoppers' activity on a web shop (views, searches, carts,
// purchases), written two ways with the same events:
//
//   activity_oldest_first.jsonl  <user>#<epoch millis>                  u204718#1715162462310
//   activity_newest_first.jsonl  <user>#<Long.MAX_VALUE - epoch millis> u204718#9223370321692313497
//
//   node generate.mjs [ROWS] [OUT_DIR]
//
// ROWS events in all, from about ROWS / 25 users, in sessions of a few
// events each, more by day than by night, from Monday 2024-05-06 00:00 UTC
// for 7 days. Both timestamp forms are fixed width (13 and 19 digits), so
// text order is numeric order. User u204718 is a regular whose history the
// lesson reads.

import {
  DAY_MS,
  HOUR_MS,
  JsonlRowWriter,
  Random,
  ZipfPicker,
  micros,
  parseArgs,
  report,
  reversedMillis,
} from '../lib/generator.mjs';

const START_MS = Date.UTC(2024, 4, 6);
const DAYS = 7;
const FEATURED_USER = 'u204718';

const { rows, outDir } = parseArgs(25000, 'ROWS shop events from about ROWS / 25 users over one week.');
const random = new Random(204718);
const userCount = Math.max(2, Math.round(rows / 25));

const users = [FEATURED_USER];
const taken = new Set(users);
while (users.length < userCount) {
  const id = `u${random.between(100000, 999999)}`;
  if (!taken.has(id)) {
    taken.add(id);
    users.push(id);
  }
}
// Some shoppers come back far more often than others, but none dominates.
const popularity = new ZipfPicker(userCount, 0.6);

// Traffic by hour of the day (UTC): quiet at night, a peak in the evening.
const HOURLY_WEIGHT = [2, 1, 1, 1, 1, 2, 3, 5, 6, 7, 7, 8, 9, 8, 7, 7, 8, 9, 11, 13, 14, 12, 8, 4];
const hourPicker = {
  total: HOURLY_WEIGHT.reduce((a, b) => a + b, 0),
  pick(r) {
    let target = r.next() * this.total;
    for (let h = 0; h < 24; h++) {
      target -= HOURLY_WEIGHT[h];
      if (target < 0) return h;
    }
    return 23;
  },
};

const SEARCHES = ['running shoes', 'rain jacket', 'usb-c cable', 'coffee grinder', 'desk lamp', 'yoga mat', 'headphones'];
const skus = Array.from({ length: 400 }, () => `sku-${random.between(10000, 99999)}`);
const prices = new Map(skus.map((sku) => [sku, (random.between(299, 24999) / 100).toFixed(2)]));

// Sessions: a start time, then events 10 s to 2 min apart.
const events = [];
const usedKeys = new Set();
while (events.length < rows) {
  const user = users[popularity.pick(random)];
  let ms = START_MS + random.int(DAYS) * DAY_MS + hourPicker.pick(random) * HOUR_MS + random.int(HOUR_MS);
  const length = Math.min(rows - events.length, random.between(1, 9));
  let cart = null;
  for (let i = 0; i < length; i++) {
    // Two events of one user in the same millisecond would share a key.
    while (usedKeys.has(`${user}#${ms}`)) ms++;
    usedKeys.add(`${user}#${ms}`);
    let event;
    if (i === 0 && random.chance(0.4)) {
      event = { type: 'search', query: random.pick(SEARCHES) };
    } else if (cart && i === length - 1 && random.chance(0.5)) {
      event = { type: 'purchase', sku: cart, price: prices.get(cart) };
    } else if (!cart && i > 0 && random.chance(0.25)) {
      cart = random.pick(skus);
      event = { type: 'cart', sku: cart, price: prices.get(cart) };
    } else {
      event = { type: 'view', sku: random.pick(skus) };
    }
    events.push({ user, ms, ...event });
    ms += random.between(10_000, 120_000);
  }
}
events.sort((a, b) => a.ms - b.ms || (a.user < b.user ? -1 : 1));

const oldestFirst = new JsonlRowWriter(outDir, 'activity_oldest_first.jsonl');
const newestFirst = new JsonlRowWriter(outDir, 'activity_newest_first.jsonl');
for (const e of events) {
  const ts = micros(e.ms);
  const cells = [['event', 'type', ts, e.type]];
  if (e.sku) cells.push(['event', 'sku', ts, e.sku]);
  if (e.price) cells.push(['event', 'price', ts, e.price]);
  if (e.query) cells.push(['event', 'query', ts, e.query]);
  oldestFirst.row(`${e.user}#${e.ms}`, cells);
  newestFirst.row(`${e.user}#${reversedMillis(e.ms)}`, cells);
}
report([oldestFirst.close(), newestFirst.close()]);
