// Page views of a documentation site over three days, counted two ways
// from the same views:
//
//   page_views.addtocell.cbt  one `addtocell` per view into aggregate
//                             families: the view adds 1 to the page's
//                             hourly cell (timestamp = the start of its
//                             hour) and to its all-time cell (timestamp 0).
//   page_views_versions.jsonl what a client that reads the count, adds one
//                             and writes the result back leaves behind when
//                             its family keeps every version: one cell per
//                             view, holding the running total, at the view's
//                             time.
//
//   node generate.mjs [ROWS] [OUT_DIR]
//
// ROWS page views in all, from 2024-04-01 00:00 UTC for 3 days, busier in
// working hours, over about 250 pages whose popularity is very skewed.
// Row keys are the pages' paths (/docs/quickstart).

import { DAY_MS, HOUR_MS, JsonlRowWriter, LineWriter, Random, ZipfPicker, micros, parseArgs, report } from '../lib/generator.mjs';

const START_MS = Date.UTC(2024, 3, 1);
const DAYS = 3;

const { rows, outDir } = parseArgs(20000, 'ROWS page views over about 250 pages during three days.');
const random = new Random(20240401);

// The site's pages, most visited first.
const pages = ['/', '/pricing', '/docs/quickstart', '/docs', '/blog', '/download', '/docs/install', '/about'];
const TOPICS = ['tables', 'row-keys', 'families', 'gc-policies', 'filters', 'backups', 'replication', 'monitoring', 'sql', 'clients'];
for (const topic of TOPICS) {
  pages.push(`/docs/${topic}`);
  for (let i = 1; i <= 12; i++) pages.push(`/docs/${topic}/${['overview', 'howto', 'reference', 'faq'][i % 4]}-${i}`);
}
for (let i = 1; pages.length < 250; i++) pages.push(`/blog/2024/${String(1 + (i % 3)).padStart(2, '0')}/post-${i}`);
const popularity = new ZipfPicker(pages.length, 1.1);

// Weekday traffic by hour (UTC), low at night.
const HOURLY_WEIGHT = [2, 1, 1, 1, 2, 3, 6, 10, 13, 14, 14, 13, 11, 12, 14, 14, 13, 11, 8, 6, 5, 4, 3, 2];
const weightTotal = HOURLY_WEIGHT.reduce((a, b) => a + b, 0);
function pickHour() {
  let target = random.next() * weightTotal;
  for (let h = 0; h < 24; h++) {
    target -= HOURLY_WEIGHT[h];
    if (target < 0) return h;
  }
  return 23;
}

const views = [];
for (let i = 0; i < rows; i++) {
  const page = pages[popularity.pick(random)];
  const ms = START_MS + random.int(DAYS) * DAY_MS + pickHour() * HOUR_MS + random.int(HOUR_MS);
  views.push({ page, ms });
}
views.sort((a, b) => a.ms - b.ms || (a.page < b.page ? -1 : 1));

// Quotes keep each path one word whatever it holds.
const quoted = (text) => `'${text.replace(/'/g, "'\\''")}'`;

const increments = new LineWriter(outDir, 'page_views.addtocell.cbt');
increments.line('# Generated: one addtocell per page view, in the order the views happened.');
const versions = new JsonlRowWriter(outDir, 'page_views_versions.jsonl');
const totals = new Map();
const lastMs = new Map();
for (const v of views) {
  const hourStart = v.ms - (v.ms % HOUR_MS);
  increments.line(`addtocell page_views ${quoted(v.page)} hourly:views=1@${micros(hourStart)} total:views=1@0`);
  // Two views of a page in the same millisecond would write one cell.
  const ms = Math.max(v.ms, (lastMs.get(v.page) ?? -1) + 1);
  lastMs.set(v.page, ms);
  const total = (totals.get(v.page) ?? 0) + 1;
  totals.set(v.page, total);
  versions.row(v.page, [['count', 'views', micros(ms), total]]);
}
increments.close();
const versionsReport = versions.close();
report([
  { file: increments.name, rows: totals.size, commands: views.length },
  versionsReport,
]);
