// lbt studio's page in headless Chromium (Debian's, driven by
// playwright-core): the explorer lists the tables and shows a table's
// families; a deep link opens the rows under a prefix; the SQL editor runs
// a query into its grid; a cell set and a row deleted from the page show
// in the shell; the schema lab shows advise's findings for a
// timestamp-first table and draws its heatmap; no console errors. And the
// server's guards: a
// request without the token, or naming another host, is refused.
//
// Usage (from the directory where playwright-core is installed):
//   node studio_browser.mjs URL SCREENSHOT_DIR LBT_BINARY DB
// One line per check; exit 1 if one failed.

import {execFileSync} from 'node:child_process';
import {request} from 'node:http';
import {createRequire} from 'node:module';
import {join} from 'node:path';

const require = createRequire(join(process.cwd(), 'package.json'));
const {chromium} = require('playwright-core');

const [url, shots, lbt, db] = process.argv.slice(2);
// What the shell reads of `table` under `prefix`, beside the studio.
const shellRead = (table, prefix) => execFileSync(lbt, ['--db', db, 'read', table, `prefix=${prefix}`]).toString();
const studio = new URL(url);
let failures = 0;

async function check(name, body) {
  try {
    await body();
    console.log(`ok   ${name}`);
  } catch (error) {
    failures++;
    console.log(`FAIL ${name}: ${error.message}`);
  }
}
function expect(what, got, want) {
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    throw new Error(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
}

// The status of a raw request to the studio, with the headers given.
function status(path, {method = 'GET', headers = {}, body} = {}) {
  return new Promise((resolve, reject) => {
    const req = request({host: '127.0.0.1', port: studio.port, path, method, headers}, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const browser = await chromium.launch({
  executablePath: process.env.LBT_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage({viewport: {width: 1200, height: 800}});
const problems = [];
page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
page.on('pageerror', (e) => problems.push(e.message));
const grid = (selector) => page.$$eval(`${selector} tr`, (rows) =>
    rows.slice(1).map((r) => [...r.cells].map((c) => c.textContent)));

await check('the explorer lists the tables and shows a table\'s families', async () => {
  await page.goto(url);
  await page.waitForSelector('#tables li[data-table="readings"]');
  expect('tables', await page.$$eval('#tables li', (l) => l.map((e) => e.textContent)), ['events', 'readings', 'users']);
  await page.click('#tables li[data-table="readings"]');
  await page.waitForSelector('#families tr:nth-child(2)');
  expect('families', await grid('#families'), [['cf', 'versions() > 2', 'bytes'], ['stats', 'never', 'bytes']]);
  await page.screenshot({path: join(shots, 'explorer.png')});
});

await check('a deep link opens the rows under a prefix', async () => {
  await page.goto(`${url}&table=readings&prefix=${encodeURIComponent('phone#')}`);
  await page.waitForFunction(() => document.querySelector('#rows-summary').textContent !== '');
  const rows = await grid('#rows-grid');
  expect('rows', rows.length, 20);
  if (!rows.every(([key]) => key.startsWith('phone#'))) throw new Error(`a row outside the prefix: ${rows}`);
  expect('first cell', [rows[0][1], rows[0][3]], ['cf:os', 'android']);
  await page.screenshot({path: join(shots, 'rows.png')});
});

await check('the SQL editor runs a query into its grid', async () => {
  await page.goto(url);
  await page.click('nav button[data-tab="sql"]');
  await page.fill('#sql-input',
                  "SELECT CAST(cf['os'] AS STRING) AS os, COUNT(*) AS n FROM readings GROUP BY os ORDER BY os");
  await page.click('#sql-run');
  await page.waitForSelector('#sql-grid tr:nth-child(2)');
  expect('header', await page.$$eval('#sql-grid th', (h) => h.map((e) => e.textContent)), ['os', 'n']);
  expect('rows', await grid('#sql-grid'), [['android', '20'], ['ios', '10']]);
  await page.screenshot({path: join(shots, 'sql.png')});
});

await check('a cell set from the page shows in the shell', async () => {
  await page.goto(`${url}&table=readings&prefix=${encodeURIComponent('phone#10')}`);
  await page.waitForSelector('#rows-grid tr:nth-child(2)');
  await page.fill('#edit-key', 'phone#10');
  await page.fill('#edit-column', 'stats:note');
  await page.fill('#edit-value', 'set from the studio');
  await page.click('#edit-go');
  await page.waitForFunction(() => document.querySelector('#rows-grid').textContent.includes('set from the studio'));
  const read = shellRead('readings', 'phone#10');
  if (!read.includes('stats:note') || !read.includes('"set from the studio"')) throw new Error(`the shell reads: ${read}`);
});

await check('a row deleted from the page, once confirmed, is gone in the shell', async () => {
  await page.goto(`${url}&table=readings&prefix=${encodeURIComponent('phone#11')}`);
  await page.waitForSelector('button[data-row="phone#11"]');
  page.once('dialog', (dialog) => dialog.dismiss());  // asked, and declined: nothing happens
  await page.click('button[data-row="phone#11"]');
  if (!shellRead('readings', 'phone#11').includes('phone#11')) throw new Error('deleted without a yes');
  page.once('dialog', (dialog) => dialog.accept());
  await page.click('button[data-row="phone#11"]');
  await page.waitForFunction(() => document.querySelector('#rows-summary').textContent === '0 rows');
  expect('the shell reads', shellRead('readings', 'phone#11'), '');
});

await check('the schema lab shows advise\'s findings and draws the heatmap', async () => {
  await page.goto(`${url}&lab=events`);
  await page.waitForFunction(() => document.querySelector('#lab-summary').textContent.includes('rows sampled'));
  const text = await page.textContent('#findings .finding[data-rule="key-starts-with-timestamp"]');
  if (!text.includes('promote')) throw new Error(`the finding has no fix: ${text}`);
  // The heatmap: lit cells on the dark ground, in a diagonal band: the
  // first key ranges lit early, the last ones late.
  const lit = await page.$eval('#heatmap', (canvas) => {
    const {data, width, height} = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    const at = (x, y) => data[(y * width + x) * 4] > 40;
    let count = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] > 40) count++;
    return {count, topLeft: at(2, 2), bottomRight: at(width - 3, height - 3), topRight: at(width - 3, 2)};
  });
  if (lit.count === 0) throw new Error('the heatmap drew nothing');
  expect('a diagonal band', [lit.topLeft, lit.bottomRight, lit.topRight], [true, true, false]);
  await page.hover('#heatmap', {position: {x: 5, y: 5}});
  const tip = await page.textContent('#heatmap-tip');
  if (!tip.includes('cells written')) throw new Error(`the tooltip says: ${tip}`);
  await page.screenshot({path: join(shots, 'lab.png')});
});

await check('an error is one line on the page', async () => {
  await page.click('nav button[data-tab="sql"]');
  await page.fill('#sql-input', 'SELECT nothing FROM nosuch');
  await page.click('#sql-run');
  await page.waitForFunction(() => document.querySelector('#error').textContent !== '');
  const error = await page.textContent('#error');
  if (!error.includes('nosuch') || error.includes('\n')) throw new Error(`error: ${JSON.stringify(error)}`);
});

await check('the page logged no console errors', async () => expect('console errors', problems, []));

await check('a request without the token, or naming another host, is refused', async () => {
  const token = studio.searchParams.get('token');
  const api = {method: 'POST', body: '{"statement": "ls"}'};
  expect('page without token', await status('/'), 403);
  expect('page with a wrong token', await status('/?token=0'), 403);
  expect('API without token', await status('/api/run', api), 403);
  expect('page from a foreign host', await status(`/?token=${token}`, {headers: {Host: `evil.example:${studio.port}`}}), 403);
  expect('API from a foreign host',
         await status('/api/run', {...api, headers: {'X-Lbt-Token': token, Host: `evil.example:${studio.port}`}}), 403);
  expect('API with the token', await status('/api/run', {...api, headers: {'X-Lbt-Token': token}}), 200);
});

await browser.close();
process.exit(failures ? 1 : 0);
