// Battery readings from a fleet of phones, written three ways with the
// same readings:
//
//   battery_timestamp_first.jsonl  <yyyymmddHHMMSSmmm>#<device>   (the anti-pattern)
//   battery_field_promoted.jsonl   device#<device>#<yyyymmddHHMMSSmmm>
//   battery_salted.jsonl           <bucket>#<yyyymmddHHMMSSmmm>#<device>
//
//   node generate.mjs [ROWS] [OUT_DIR]
//
// ROWS readings in all (rounded down to whole devices): about sqrt(2 x ROWS)
// devices, each reporting about once a minute from 2015-03-01 12:00 UTC.
// The device id ends the timestamp-first and salted keys only to keep two
// readings of the same millisecond apart. The salt is a hash of the
// timestamp modulo 3, one bucket per node of a three-node cluster.

import {
  JsonlRowWriter,
  Random,
  distinctHexIds,
  fnv1a,
  micros,
  millisStamp,
  parseArgs,
  report,
} from '../lib/generator.mjs';

const SALT_BUCKETS = 3;
const START_MS = Date.UTC(2015, 2, 1, 12, 0, 0);

const { rows, outDir } = parseArgs(30000, 'ROWS battery readings from about sqrt(2 x ROWS) devices, once a minute.');
const random = new Random(20150301);
const deviceCount = Math.max(2, Math.round(Math.sqrt(2 * rows)));
const readingsPerDevice = Math.max(1, Math.floor(rows / deviceCount));

// 4c410523 is the seeds' example device; the lesson reads it by name.
const devices = distinctHexIds(random, deviceCount, 8, ['4c410523']).map((id) => ({
  id,
  // Phones do not report in step: each starts at its own second.
  offsetMs: random.int(60_000),
  percentage: random.between(35, 100),
  charging: false,
  // Percentage points used per minute while unplugged.
  drainPerMinute: 0.08 + random.next() * 0.25,
}));

// All readings, then sorted by time: the order in which they reach the
// server, which is what makes the timestamp-first key write to one place.
const readings = [];
for (const device of devices) {
  for (let n = 0; n < readingsPerDevice; n++) {
    const ms = START_MS + device.offsetMs + n * 60_000 + random.int(2_000);
    if (device.charging) {
      device.percentage = Math.min(100, device.percentage + 1.2 + random.next());
      if (device.percentage >= 100 || random.chance(0.01)) device.charging = false;
    } else {
      device.percentage = Math.max(1, device.percentage - device.drainPerMinute * (0.5 + random.next()));
      if (device.percentage < 20 ? random.chance(0.15) : random.chance(0.002)) device.charging = true;
    }
    const percentage = Math.round(device.percentage);
    // Cell voltage follows the charge, roughly 3.5 V empty to 4.35 V full.
    const voltageMv = Math.round(3500 + 8.5 * percentage + random.normal(0, 6));
    readings.push({ ms, device: device.id, percentage, charging: device.charging, voltageMv });
  }
}
readings.sort((a, b) => a.ms - b.ms || (a.device < b.device ? -1 : 1));

const timestampFirst = new JsonlRowWriter(outDir, 'battery_timestamp_first.jsonl');
const fieldPromoted = new JsonlRowWriter(outDir, 'battery_field_promoted.jsonl');
const salted = new JsonlRowWriter(outDir, 'battery_salted.jsonl');
for (const r of readings) {
  const time = millisStamp(r.ms);
  const ts = micros(r.ms);
  const cells = [
    ['metric', 'charging', ts, r.charging ? 1 : 0],
    ['metric', 'percentage', ts, r.percentage],
    ['metric', 'voltage_mv', ts, r.voltageMv],
  ];
  timestampFirst.row(`${time}#${r.device}`, cells);
  fieldPromoted.row(`device#${r.device}#${time}`, cells);
  salted.row(`${fnv1a(time) % SALT_BUCKETS}#${time}#${r.device}`, cells);
}
report([timestampFirst.close(), fieldPromoted.close(), salted.close()]);
