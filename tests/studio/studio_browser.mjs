// lbt studio's page in headless Chromium (Debian's, driven by
// playwright-core): the explorer lists the tables and shows a table's
// families; a deep link opens the rows under a prefix; the SQL editor runs
// a query into its grid; no console errors. And the server's guards: a
// request without the token, or naming another host, is refused.
//
// Usage (from the directory where playwright-core is installed):
//   node studio_browser.mjs URL SCREENSHOT_DIR
// One line per check; exit 1 if one failed.

import {request} from 'node:http';
import {createRequire} from 'node:module';
import {join} from 'node:path';

const require = createRequire(join(process.cwd(), 'package.json'));
const {chromium} = require('playwright-core');

const [url, shots] = process.argv.slice(2);
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
  expect('tables', await page.$$eval('#tables li', (l) => l.map((e) => e.textContent)), ['readings', 'users']);
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
  expect('first cell', rows[0].slice(1).concat().filter((_, i) => i !== 1), ['cf:os', 'android']);
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

await check('an error is one line on the page', async () => {
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
