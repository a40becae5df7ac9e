// Weather balloons reporting pressure, temperature, humidity and altitude
// once a minute, written two ways with the same readings:
//
//   balloons_tall.jsonl  one row per reading:   us-west2#3698#2021-03-05-1204
//                        columns m:pressure, m:temperature, m:humidity, m:altitude
//   balloons_wide.jsonl  one row per balloon:   us-west2#3698
//                        a family per measurement and a column per minute:
//                        pressure:2021-03-05-1204, temperature:2021-03-05-1204, ...
//
//   node generate.mjs [ROWS] [OUT_DIR]
//
// ROWS is the number of readings (the tall table's rows), shared by 24
// balloons (3 per region) and rounded down to whole minutes per balloon.
// Units: pressure in pascals, temperature in degrees Celsius, humidity in
// percent, altitude in metres. Each balloon climbs from its launch site to
// a float level between 18 and 21 km and drifts up and down there.

import { DAY_MS, JsonlRowWriter, Random, micros, parseArgs, report } from '../lib/generator.mjs';

const REGIONS = [
  'us-west2',
  'us-central1',
  'us-east1',
  'europe-west1',
  'europe-north1',
  'asia-southeast1',
  'asia-northeast1',
  'australia-southeast1',
];
const BALLOONS_PER_REGION = 3;
const START_MS = Date.UTC(2021, 2, 5, 12, 0);

const { rows, outDir } = parseArgs(24000, 'ROWS readings shared by 24 balloons, one a minute each.');
const random = new Random(3698);
const balloonCount = REGIONS.length * BALLOONS_PER_REGION;
const minutes = Math.max(1, Math.floor(rows / balloonCount));

// 2021-03-05-1204: the minute, readable and sortable as text.
function minuteText(ms) {
  const iso = new Date(ms).toISOString(); // 2021-03-05T12:04:00.000Z
  return `${iso.slice(0, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}`;
}

// The standard atmosphere: pressure (Pa) and temperature (C) at h metres.
function standardPressure(h) {
  if (h < 11000) return 101325 * Math.pow(1 - 2.25577e-5 * h, 5.25588);
  return 22632 * Math.exp(-(h - 11000) / 6341.6);
}
const standardTemperature = (h) => (h < 11000 ? 15 - 0.0065 * h : -56.5);

const usedIds = new Set();
const balloons = [];
for (const region of REGIONS) {
  for (let i = 0; i < BALLOONS_PER_REGION; i++) {
    // 3698 is the balloon of the public time-series example.
    let id = balloons.length === 0 ? 3698 : random.between(1000, 9999);
    while (usedIds.has(id)) id = random.between(1000, 9999);
    usedIds.add(id);
    balloons.push({
      region,
      id,
      // Launches are staggered over the first few minutes (3698 first).
      launchOffsetMs: id === 3698 ? 0 : random.between(1, 4) * 60_000,
      siteAltitude: random.between(20, 1400),
      floatAltitude: random.between(18000, 21000),
      ascentPerMinute: random.between(270, 330),
      surfaceHumidity: random.between(45, 90),
      temperatureOffset: random.normal(0, 4),
      phase: random.next() * 2 * Math.PI,
    });
  }
}

const readings = [];
for (const b of balloons) {
  for (let minute = 0; minute < minutes; minute++) {
    const ms = START_MS + b.launchOffsetMs + minute * 60_000;
    // Climb, then float with a daily rise and fall and some turbulence.
    const climbed = b.siteAltitude + minute * b.ascentPerMinute;
    const floating = b.floatAltitude + 300 * Math.sin((2 * Math.PI * (ms - START_MS)) / DAY_MS + b.phase);
    const altitude = Math.max(0, Math.round(Math.min(climbed, floating) + random.normal(0, 15)));
    const pressure = Math.round(standardPressure(altitude) * (1 + random.normal(0, 0.002)));
    const temperature = standardTemperature(altitude) + b.temperatureOffset + random.normal(0, 0.3);
    const humidity = Math.max(0, Math.min(100, Math.round(b.surfaceHumidity * Math.exp(-altitude / 2500) + random.normal(0, 1))));
    readings.push({ ms, b, altitude, pressure, temperature: temperature.toFixed(1), humidity });
  }
}
// Readings reach the ground station in time order, balloons interleaved.
readings.sort((x, y) => x.ms - y.ms || x.b.id - y.b.id);

const tall = new JsonlRowWriter(outDir, 'balloons_tall.jsonl');
const wide = new JsonlRowWriter(outDir, 'balloons_wide.jsonl');
for (const r of readings) {
  const minute = minuteText(r.ms);
  const ts = micros(r.ms);
  const values = [
    ['pressure', r.pressure],
    ['temperature', r.temperature],
    ['humidity', r.humidity],
    ['altitude', r.altitude],
  ];
  tall.row(`${r.b.region}#${r.b.id}#${minute}`, values.map(([name, value]) => ['m', name, ts, value]));
  // The wide table gets the same cells, appended to the balloon's one row.
  wide.row(`${r.b.region}#${r.b.id}`, values.map(([name, value]) => [name, minute, ts, value]));
}
report([tall.close(), wide.close()]);
