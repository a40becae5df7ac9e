// Daily summaries of a fleet of phones and tablets for May 2019: one row per
// device per day, keyed <type>#<device id>#<yyyymmdd>.
//
//   node generate.mjs [ROWS] [OUT_DIR]
//
// ROWS is rounded to whole devices: devices = ROWS / 31 (at least 2), and
// every device reports on each of the 31 days. Writes
// mobile_time_series.jsonl.
//
// Each day's summaries arrive in the evening, device after device, so the
// file is in arrival order. About 2% of the summaries are sent again an
// hour later with corrected connectivity, which is why stats_summary keeps
// two versions.

import {
  DAY_MS,
  HOUR_MS,
  JsonlRowWriter,
  Random,
  dayStamp,
  distinctHexIds,
  micros,
  parseArgs,
  report,
} from '../lib/generator.mjs';

const DAYS = 31;
const FIRST_DAY_MS = Date.UTC(2019, 4, 1);

const { rows, outDir } = parseArgs(12400, 'ROWS / 31 devices, each reporting daily for May 2019.');
const random = new Random(20190501);
const deviceCount = Math.max(2, Math.round(rows / DAYS));

// The seeds' own example devices come first, so the lesson can read them.
const ids = distinctHexIds(random, deviceCount, 8, ['4c410523', 'a0b81f74']);
const PHONE_BUILDS = ['PQ2A.190305.002', 'PQ2A.190405.003'];
const TABLET_BUILDS = ['PPR1.180610.009', 'PPR2.181005.003'];
const PLANS = ['data_plan_01gb', 'data_plan_05gb', 'data_plan_10gb'];

const devices = ids.map((id, index) => {
  // The second device is the seeds' tablet; otherwise about 3 in 10 are tablets.
  const type = index === 1 ? 'tablet' : index === 0 ? 'phone' : random.chance(0.3) ? 'tablet' : 'phone';
  // Phones all have a plan; a third of the tablets are cellular.
  const cellular = type === 'phone' || random.chance(0.33);
  return {
    id,
    type,
    cellular,
    plan: cellular ? random.pick(PLANS) : null,
    builds: type === 'phone' ? PHONE_BUILDS : TABLET_BUILDS,
    // The day this device installs the newer build (past May: never).
    upgradeDay: random.between(5, 45),
    // Minutes after 20:00 at which this device uploads its summary.
    uploadMinute: random.int(180),
    wifiHabit: random.next(),
  };
});

const out = new JsonlRowWriter(outDir, 'mobile_time_series.jsonl');
for (let day = 0; day < DAYS; day++) {
  const dayMs = FIRST_DAY_MS + day * DAY_MS;
  const uploads = [];
  for (const device of devices) {
    const key = `${device.type}#${device.id}#${dayStamp(dayMs)}`;
    const uploadedMs = dayMs + 20 * HOUR_MS + device.uploadMinute * 60_000 + random.int(60_000);
    const build = device.builds[day + 1 >= device.upgradeDay ? 1 : 0];
    const wifi = random.next() < 0.35 + 0.6 * device.wifiHabit;
    const cell = device.cellular && (!wifi || random.chance(0.6));
    const ts = micros(uploadedMs);
    const cells = [
      ['stats_summary', 'connected_cell', ts, cell ? 1 : 0],
      ['stats_summary', 'connected_wifi', ts, wifi ? 1 : 0],
      ['stats_summary', 'os_build', ts, build],
    ];
    // Sparse: a wifi-only tablet has no cell_plan column at all.
    if (device.plan) cells.push(['cell_plan', device.plan, ts, 'true']);
    uploads.push({ ms: uploadedMs, key, cells });
    // A resent summary an hour later flips the wifi flag: a second
    // version of two cells in the same row.
    if (random.chance(0.02)) {
      const resentTs = micros(uploadedMs + HOUR_MS);
      uploads.push({
        ms: uploadedMs + HOUR_MS,
        key,
        cells: [
          ['stats_summary', 'connected_cell', resentTs, cell ? 1 : 0],
          ['stats_summary', 'connected_wifi', resentTs, wifi ? 0 : 1],
        ],
      });
    }
  }
  uploads.sort((a, b) => a.ms - b.ms);
  for (const upload of uploads) out.row(upload.key, upload.cells);
}
report([out.close()]);
