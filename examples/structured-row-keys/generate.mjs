// Two days of readings from a fleet of phones, tablets and watches, keyed
// the way the schema guidance designs a time series:
//
//   readings.jsonl  <type>#<device id>#<Long.MAX_VALUE - epoch millis>
//                   phone#4c410523#9223370487093975807
//
//   node generate.mjs [ROWS] [OUT_DIR]
//
// ROWS readings in all, one every 5 minutes from each device, from Monday
// 2024-05-06 00:00 UTC; devices as many as the readings need (576 a
// device over two days). The device type is promoted into the key (field
// promotion) and the time is reversed, so a device's newest reading comes
// first. Device 4c410523, a phone, is the one the lesson reads.

import {
  JsonlRowWriter,
  Random,
  distinctHexIds,
  micros,
  parseArgs,
  report,
  reversedMillis,
} from '../lib/generator.mjs';

const START_MS = Date.UTC(2024, 4, 6);
const EVERY_MS = 5 * 60_000;
const PER_DEVICE = 576;  // two days at one reading every 5 minutes
const FEATURED = '4c410523';
const TYPES = ['phone', 'tablet', 'watch'];

const { rows, outDir } = parseArgs(20000, 'ROWS readings from a fleet of devices, one every 5 minutes.');
const random = new Random(410523);
const deviceCount = Math.max(1, Math.ceil(rows / PER_DEVICE));
const ids = distinctHexIds(random, deviceCount, 8, [FEATURED]);
// Types in turn, so that every size has each (4c410523 the first phone).
const devices = ids.map((id, i) => ({ id, type: TYPES[i % TYPES.length] }));

const out = new JsonlRowWriter(outDir, 'readings.jsonl');
let written = 0;
for (const device of devices) {
  let battery = random.between(60, 100);
  const n = Math.min(PER_DEVICE, rows - written);
  for (let i = 0; i < n; i++) {
    const ms = START_MS + i * EVERY_MS + random.int(30_000);
    // Batteries run down, and charge overnight.
    const charging = new Date(ms).getUTCHours() < 6;
    battery = charging ? Math.min(100, battery + 1) : Math.max(1, battery - (random.chance(0.35) ? 1 : 0));
    const ts = micros(ms);
    out.row(`${device.type}#${device.id}#${reversedMillis(ms)}`, [
      ['stats', 'battery', ts, battery],
      ['stats', 'signal', ts, random.between(-110, -50)],
    ]);
  }
  written += n;
}
report([out.close()]);
