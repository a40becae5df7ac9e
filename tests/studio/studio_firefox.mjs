// lbt studio's page in headless Firefox (Debian's firefox-esr, driven by
// puppeteer-core over WebDriver BiDi): the core of studio_browser.mjs,
// which Chromium runs in full, on what that run leaves as it was: the
// explorer, rows under a prefix, the SQL editor's typed grid, a cell set
// from the page and read by the shell, the schema lab's findings and
// heatmap, the live log, and no console errors.
//
// Usage (from the directory where puppeteer-core is installed):
//   node studio_firefox.mjs URL SCREENSHOT_DIR LBT_BINARY DB
// One line per check; exit 1 if one failed.

import {execFileSync} from 'node:child_process';
import {createRequire} from 'node:module';
import {join} from 'node:path';

import {check, expect, failed} from '../client/checks.mjs';

const require = createRequire(join(process.cwd(), 'package.json'));
const puppeteer = require('puppeteer-core');

const [url, , lbt, db] = process.argv.slice(2);
const shell = (...args) => execFileSync(lbt, ['--db', db, ...args]).toString();

const browser = await puppeteer.launch({browser: 'firefox', executablePath: process.env.LBT_BROWSER, headless: true});
const page = await browser.newPage();
await page.setViewport({width: 1200, height: 800});
const problems = [];
page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
page.on('pageerror', (e) => problems.push(e.message));
const grid = (selector) => page.$$eval(`${selector} tr`, (rows) =>
    rows.slice(1).map((r) => [...r.cells].map((c) => c.textContent)));
const text = (selector) => page.$eval(selector, (e) => e.textContent);
const fill = (selector, value) => page.$eval(selector, (e, v) => {
  e.value = v;
  e.dispatchEvent(new Event('input'));
}, value);

await check('the explorer lists the tables and shows a table\'s families and size', async () => {
  await page.goto(url);
  await page.waitForSelector('#tables li[data-table="readings"]');
  expect('tables', await page.$$eval('#tables li', (l) => l.map((e) => e.textContent)), ['events', 'readings', 'users']);
  await page.click('#tables li[data-table="readings"]');
  await page.waitForFunction(() => /rows/.test(document.querySelector('dd[data-fact="size"]')?.textContent));
  expect('families', await grid('#families'), [['cf', 'versions() > 2', 'bytes'], ['stats', 'never', 'bytes']]);
  expect('change stream', await text('dd[data-fact="change stream"]'), 'kept 1d');
});

await check('a deep link opens the rows under a prefix', async () => {
  await page.goto(`${url}&table=readings&prefix=${encodeURIComponent('tablet#1')}`);
  await page.waitForFunction(() => document.querySelector('#rows-summary').textContent !== '');
  const keys = await page.$$eval('#rows-grid button[data-row]', (b) => b.map((e) => e.dataset.row));
  expect('rows', keys, Array.from({length: 10}, (_, i) => `tablet#${10 + i}`));
});

await check('the SQL editor runs a query into its typed grid', async () => {
  const query = "SELECT CAST(cf['os'] AS STRING) AS os, COUNT(*) AS n FROM readings " +
                "WHERE STARTS_WITH(_key, b'tablet') GROUP BY os";
  await page.goto(`${url}&sql=${encodeURIComponent(query)}`);
  await page.waitForSelector('#sql-grid tr:nth-child(2)');
  expect('typed header', await page.$$eval('#sql-grid th', (h) => h.map((e) => [e.dataset.name, e.querySelector('small').textContent])),
         [['os', 'STRING'], ['n', 'INT64']]);
  expect('rows', await grid('#sql-grid'), [['ios', '10']]);
});

await check('a cell set from the page shows in the shell', async () => {
  await page.goto(`${url}&table=users&prefix=fox`);
  await page.waitForFunction(() => document.querySelector('#rows-summary').textContent === '0 rows');
  await fill('#edit-key', 'fox#1');
  await fill('#edit-column', 'profile:name');
  await fill('#edit-value', 'set from firefox');
  await page.click('#edit-go');
  await page.waitForFunction(() => document.querySelector('#rows-grid').textContent.includes('set from firefox'));
  const read = shell('read', 'users', 'prefix=fox');
  if (!read.includes('"set from firefox"')) throw new Error(`the shell reads: ${read}`);
});

await check('the schema lab shows advise\'s findings and draws the heatmap', async () => {
  await page.goto(`${url}&lab=events`);
  await page.waitForFunction(() => document.querySelector('#lab-summary').textContent.includes('rows sampled'));
  await page.waitForSelector('#findings .finding[data-rule="key-starts-with-timestamp"]');
  const lit = await page.$eval('#heatmap', (canvas) => {
    const {data} = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] > 40) count++;
    return count;
  });
  if (lit === 0) throw new Error('the heatmap drew nothing');
});

await check('the live log shows a write made in the shell', async () => {
  await page.goto(`${url}&table=readings`);
  await page.waitForSelector('#table-actions:not([hidden])');
  await page.click('#table-actions button[data-go="live"]');
  await page.waitForFunction(() => /watching readings/.test(document.querySelector('#live-summary').textContent));
  shell('set', 'readings', 'tablet#77', 'cf:os=seen-by-firefox@5000');
  await page.waitForSelector('#live-log div[data-row="tablet#77"]', {timeout: 20000});
  await page.click('#live-stop');
});

await check('the page logged no console errors', async () => expect('console errors', problems, []));

await browser.close();
process.exit(failed() ? 1 : 0);
