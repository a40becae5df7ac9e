// lbt studio's page in headless Chromium (Debian's, driven by
// playwright-core): the explorer lists tables and views and shows a
// table's families, change stream, row-key schema, size and authorized
// views; rows by prefix (a deep link), range and regex, in pages, all
// versions or the newest, values as text, hex or integers, exported as
// CSV; the SQL editor completes names, runs a query into a typed grid,
// draws EXPLAIN's tree, saves a logical view and keeps a history; a cell
// set and a row deleted from the page show in the shell; the schema lab
// shows advise's findings for a timestamp-first table, stats, hotspots and
// a zoomable heatmap; the live log shows a write made in the shell; Stop
// ends a query held by lbt serve; no console errors. And the server's
// guards: a request without the token, or naming another host, is refused.
//
// Usage (from the directory where playwright-core is installed):
//   node studio_browser.mjs URL SCREENSHOT_DIR LBT_BINARY DB SERVED_URL SERVED_HOST
// SERVED_URL is a studio over lbt serve at SERVED_HOST.
// One line per check; exit 1 if one failed.

import {execFileSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {request} from 'node:http';
import {createRequire} from 'node:module';
import {join} from 'node:path';

import {check, expect, failed} from '../client/checks.mjs';

const require = createRequire(join(process.cwd(), 'package.json'));
const {chromium} = require('playwright-core');

const [url, shots, lbt, db, servedUrl, servedHost] = process.argv.slice(2);
// What the shell reads of `table` under `prefix`, beside the studio.
const shellRead = (table, prefix) => execFileSync(lbt, ['--db', db, 'read', table, `prefix=${prefix}`]).toString();
const shell = (...args) => execFileSync(lbt, ['--db', db, ...args]).toString();
// The served database's fault rules, through the shell's `faults`.
const faults = (...args) => execFileSync(lbt, ['-project', 'p', '-instance', 'i', '--format', 'json', 'faults', ...args],
                                         {env: {...process.env, BIGTABLE_EMULATOR_HOST: servedHost}}).toString();
const studio = new URL(url);

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
  executablePath: process.env.LBT_BROWSER || '/usr/bin/chromium',
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
  await page.waitForFunction(() => /rows/.test(document.querySelector('dd[data-fact="size"]').textContent));
  const fact = (name) => page.textContent(`dd[data-fact="${name}"]`);
  const size = await fact('size');
  if (!size.startsWith('30 rows, 33 cells')) throw new Error(`size: ${size}`);
  expect('change stream', await fact('change stream'), 'kept 1d');
  expect('row-key schema', await fact('row-key schema'), 'none (the key is _key, bytes)');
  expect('authorized views', await grid('#authorized-views'), [['phones', 'phone#', 'cf:os']]);
  expect('logical views', await page.$$eval('#logical-views li', (l) => l.map((e) => e.textContent)), ['by_os']);
  expect('materialized views', await page.$$eval('#materialized-views li', (l) => l.map((e) => e.textContent)),
         ['os_counts']);
  if (!(await page.$$('#instances li')).length) throw new Error('no instance listed');
  await page.screenshot({path: join(shots, 'explorer.png')});
  await page.click('#materialized-views li[data-view="os_counts"]');
  await page.waitForFunction(() => document.querySelector('#table-name').textContent === 'materialized view os_counts');
  expect('source table', await fact('source table'), 'readings');
});

// The keys of the rows on screen, from their delete buttons.
const shownKeys = () => page.$$eval('#rows-grid button[data-row]', (b) => b.map((e) => e.dataset.row));

await check('a deep link opens the rows under a prefix', async () => {
  await page.goto(`${url}&table=readings&prefix=${encodeURIComponent('phone#')}`);
  await page.waitForFunction(() => document.querySelector('#rows-summary').textContent !== '');
  const rows = await grid('#rows-grid');
  expect('rows', (await shownKeys()).length, 20);
  if (!rows.every(([key]) => key.startsWith('phone#'))) throw new Error(`a row outside the prefix: ${rows}`);
  expect('first cell', [rows[0][1], rows[0][3]], ['cf:os', 'android']);
  await page.screenshot({path: join(shots, 'rows.png')});
});

async function browse(settings) {
  for (const [id, value] of Object.entries(settings)) {
    if (id === 'rows-mode' || id === 'rows-versions' || id === 'rows-show') await page.selectOption(`#${id}`, value);
    else await page.fill(`#${id}`, value);
  }
  await page.$eval('#rows-summary', (e) => { e.textContent = ''; });
  await page.click('#rows-go');
  await page.waitForFunction(() => document.querySelector('#rows-summary').textContent !== '');
}
async function nextPage() {
  await page.$eval('#rows-summary', (e) => { e.textContent = ''; });
  await page.click('#rows-next');
  await page.waitForFunction(() => document.querySelector('#rows-summary').textContent !== '');
}

await check('rows come in pages, by range and by key regex', async () => {
  await page.goto(`${url}&table=readings&prefix=${encodeURIComponent('phone#')}`);
  await page.waitForFunction(() => document.querySelector('#rows-summary').textContent !== '');
  await browse({'rows-count': '8'});
  const keys = (from, to) => Array.from({length: to - from + 1}, (_, i) => `phone#${from + i}`);
  expect('page 1', await shownKeys(), keys(10, 17));
  await nextPage();
  expect('page 2', await shownKeys(), keys(18, 25));
  await nextPage();
  expect('page 3', await shownKeys(), keys(26, 29));
  if (!(await page.$eval('#rows-next', (b) => b.disabled))) throw new Error('a next page after the last');
  // A last page that is just full has no next page either.
  await browse({'rows-count': '10'});
  await nextPage();
  expect('a full last page', await shownKeys(), keys(20, 29));
  if (!(await page.$eval('#rows-next', (b) => b.disabled))) throw new Error('a next page after a full last page');
  await browse({'rows-mode': 'range', 'rows-start': 'tablet#12', 'rows-end': 'tablet#15', 'rows-count': '50'});
  expect('range', await shownKeys(), ['tablet#12', 'tablet#13', 'tablet#14']);
  await browse({'rows-mode': 'regex', 'rows-regex': 'tablet#1[05]'});
  expect('regex', await shownKeys(), ['tablet#10', 'tablet#15']);
});

await check('rows show every version or the newest, and values as text, hex or integers', async () => {
  await page.goto(`${url}&table=readings&prefix=${encodeURIComponent('phone#12')}`);
  await page.waitForFunction(() => document.querySelector('#rows-summary').textContent !== '');
  const battery = async () => (await grid('#rows-grid')).filter((r) => r[1] === 'stats:battery').map((r) => r[3]);
  expect('newest', await battery(), ['80']);
  await browse({'rows-versions': 'all'});
  expect('all versions', await battery(), ['80', '90']);
  await browse({'rows-prefix': 'tablet#10', 'rows-versions': 'newest', 'rows-show': 'int64'});
  const bin = async () => (await grid('#rows-grid')).find((r) => r[1] === 'stats:bin')[3];
  expect('as an integer', await bin(), '256');
  await browse({'rows-show': 'hex'});
  expect('as hex', await bin(), '00 00 00 00 00 00 01 00');
  await browse({'rows-show': 'text'});
  expect('as text', await bin(), '\\x00\\x00\\x00\\x00\\x00\\x00\\x01\\x00');
});

await check('values decode as a schema bundle\'s protobuf message', async () => {
  await page.goto(`${url}&table=users&prefix=${encodeURIComponent('u#')}`);
  await page.waitForFunction(() => document.querySelector('#rows-summary').textContent !== '');
  await browse({'rows-show': 'proto:cards.demo.Card'});
  const values = Object.fromEntries((await grid('#rows-grid')).map((r) => [r[1], r[3]]));
  expect('decoded', values, {'profile:card': '{"name":"Ada","age":36}', 'profile:name': 'ada (not a cards.demo.Card)'});
});

await check('what is shown exports as CSV and as JSON lines', async () => {
  await page.goto(`${url}&table=readings&prefix=${encodeURIComponent('phone#1')}`);
  await page.waitForFunction(() => document.querySelector('#rows-summary').textContent !== '');
  await browse({'rows-prefix': 'phone#1', 'rows-count': '3'});
  const saved = async (button) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
    return readFileSync(await download.path(), 'utf8');
  };
  expect('csv', await saved('#rows-csv'),
         'row_key,family,qualifier,timestamp,value\nphone#10,cf,os,1000,android\nphone#11,cf,os,1000,android\n' +
         'phone#12,cf,os,1000,android\nphone#12,stats,battery,2000,80\n');
  const lines = (await saved('#rows-jsonl')).trim().split('\n').map((l) => JSON.parse(l));
  expect('jsonl keys', lines.map((r) => r.key), ['phone#10', 'phone#11', 'phone#12']);
});

await check('the SQL editor runs a query into its grid', async () => {
  await page.goto(url);
  await page.click('nav button[data-tab="sql"]');
  await page.fill('#sql-input',
                  "SELECT CAST(cf['os'] AS STRING) AS os, COUNT(*) AS n FROM readings GROUP BY os ORDER BY os");
  await page.click('#sql-run');
  await page.waitForSelector('#sql-grid tr:nth-child(2)');
  expect('typed header', await page.$$eval('#sql-grid th', (h) => h.map((e) => [e.dataset.name, e.querySelector('small').textContent])),
         [['os', 'STRING'], ['n', 'INT64']]);
  expect('rows', await grid('#sql-grid'), [['android', '20'], ['ios', '10']]);
  await page.screenshot({path: join(shots, 'sql.png')});
});

await check('the SQL editor completes tables, families and functions', async () => {
  const offered = async (text) => {
    await page.fill('#sql-input', text);
    await page.waitForSelector('#completion:not([hidden])');
    return page.$$eval('#completion div', (d) => d.map((e) => e.textContent));
  };
  if (!(await offered('SELECT COUN')).includes('COUNT(')) throw new Error('COUNT( not offered');
  await page.keyboard.press('End');
  await page.keyboard.press('Tab');
  expect('accepted', await page.inputValue('#sql-input'), 'SELECT COUNT(');
  expect('tables', await offered('SELECT * FROM rea'), ['readings']);
  const families = await offered('SELECT st');
  if (!families.includes('stats')) throw new Error(`the family stats is not offered: ${families}`);
});

await check('EXPLAIN draws the operator tree with row counts', async () => {
  await page.fill('#sql-input', "SELECT cf['os'] AS os, COUNT(*) AS n FROM readings GROUP BY os");
  await page.click('#sql-explain');
  await page.waitForSelector('.node[data-operator="SCAN"]');
  // SCAN feeds AGGREGATE: it is drawn inside it, with the rows it read.
  const scan = await page.textContent('.node[data-operator="AGGREGATE"] + ul .node[data-operator="SCAN"] .count');
  expect('rows scanned', scan, '30 rows');
  await page.screenshot({path: join(shots, 'explain.png')});
});

await check('a query saves as a logical view and stays in the history', async () => {
  await page.fill('#sql-input', "SELECT _key FROM readings WHERE cf['os'] = b'ios'");
  await page.click('#sql-run');
  await page.waitForFunction(() => /rows in/.test(document.querySelector('#sql-summary').textContent));
  page.once('dialog', (dialog) => dialog.accept('ios_rows'));
  await page.click('#sql-save');
  await page.waitForSelector('#logical-views li[data-view="ios_rows"]');
  const saved = shell('getlogicalview', 'ios_rows');
  if (!saved.includes("cf['os'] = b'ios'")) throw new Error(`the shell reads: ${saved}`);
  const history = await page.$$eval('#history option', (o) => o.map((e) => e.value));
  if (!history.includes("SELECT _key FROM readings WHERE cf['os'] = b'ios'")) throw new Error(`history: ${history}`);
  await page.reload();  // kept by the browser across visits
  await page.waitForSelector('#tables li');
  expect('history after a reload', (await page.$$eval('#history option', (o) => o.map((e) => e.value)))[1],
         "SELECT _key FROM readings WHERE cf['os'] = b'ios'");
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

await check('a value ending in @digits is stored as typed', async () => {
  await page.fill('#edit-key', 'phone#10');
  await page.fill('#edit-column', 'stats:order');
  await page.fill('#edit-value', 'order@5000');
  await page.click('#edit-go');
  await page.waitForFunction(() => document.querySelector('#rows-grid').textContent.includes('order@5000'));
  if (!shellRead('readings', 'phone#10').includes('"order@5000"')) throw new Error('the value lost its @5000');
});

await check('a table made from the explorer, its id with a dash, queries in SQL', async () => {
  await page.goto(url);
  await page.waitForSelector('#tables li');
  await page.fill('#new-table', 'sensor-log');
  await page.fill('#new-families', 'f,g:maxversions=1');
  await page.click('#new-go');
  await page.waitForFunction(() => document.querySelector('#table-name').textContent === 'sensor-log');
  await page.click('#table-actions button[data-go="sql"]');
  await page.waitForFunction(() => /rows in/.test(document.querySelector('#sql-summary').textContent));
  expect('query', await page.inputValue('#sql-input'), 'SELECT * FROM `sensor-log` LIMIT 100');
  expect('columns of no rows', await page.$$eval('#sql-grid th', (h) => h.map((e) => e.dataset.name)), ['_key', 'f', 'g']);
  if (!shell('ls', 'sensor-log').includes('versions() > 1')) throw new Error('the shell does not see its families');
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
  // stats and hotspots beside it
  await page.waitForSelector('#stats .card');
  const totals = await page.textContent('#stats .card');
  if (!totals.includes('600 rows')) throw new Error(`stats: ${totals}`);
  if (!(await grid('#tablets')).length) throw new Error('no tablets in hotspots');
  // Dragging over key ranges zooms in; "Whole table" zooms out.
  const box = await page.$eval('#heatmap', (c) => { const r = c.getBoundingClientRect(); return {x: r.x, y: r.y}; });
  await page.mouse.move(box.x + 5, box.y + 5);
  await page.mouse.down();
  await page.mouse.move(box.x + 5, box.y + 40);
  await page.mouse.up();
  if (await page.$eval('#heatmap-reset', (b) => b.hidden)) throw new Error('no zoom');
  await page.hover('#heatmap', {position: {x: 5, y: 300}});
  const zoomedTip = await page.textContent('#heatmap-tip');
  if (zoomedTip === tip) throw new Error('the zoomed heatmap shows the same ranges');
  await page.screenshot({path: join(shots, 'lab.png'), fullPage: true});
  await page.click('#heatmap-reset');
  if (!(await page.$eval('#heatmap-reset', (b) => b.hidden))) throw new Error('no zoom out');
});

await check('the live log shows a write made in the shell', async () => {
  await page.goto(`${url}&table=readings`);
  await page.waitForSelector('#table-actions:not([hidden])');
  await page.click('#table-actions button[data-go="live"]');
  await page.waitForFunction(() => /watching readings/.test(document.querySelector('#live-summary').textContent));
  shell('set', 'readings', 'phone#99', 'cf:os=written-live@5000');
  await page.waitForSelector('#live-log div[data-row="phone#99"]', {timeout: 20000});
  const line = await page.textContent('#live-log div[data-row="phone#99"]');
  if (!line.includes('cf:os = written-live')) throw new Error(`the log says: ${line}`);
  expect('views', (await grid('#live-views')).map((r) => r[0]), ['os_counts']);
  await page.screenshot({path: join(shots, 'live.png')});
  await page.click('#live-stop');
});

await check('Stop ends a query that lbt serve holds', async () => {
  faults('add', '{"rpc": "ExecuteQuery", "latency_ms": 86400000}');
  await page.goto(`${servedUrl}&sql=${encodeURIComponent('SELECT COUNT(*) AS n FROM slow')}`);
  // Once the server holds the query (its rule fired), the page stops it.
  for (let i = 0; JSON.parse(faults()).fault_rules[0].fired === 0; i++) {
    if (i === 200) throw new Error('the query never reached the server');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await page.click('#sql-stop');
  await page.waitForFunction(() => document.querySelector('#error').textContent !== '');
  expect('error', await page.textContent('#error'), 'stopped');
  faults('clear');
  await page.click('#sql-run');
  await page.waitForSelector('#sql-grid tr:nth-child(2)');
  expect('the next query runs', await grid('#sql-grid'), [['0']]);
});

await check('the explorer switches instances', async () => {
  await page.goto(url);
  await page.waitForSelector('#instances li[data-instance="second-inst"]');
  expect('where', await page.textContent('#where'), "lbt/local · database 'db'");
  await page.click('#instances li[data-instance="second-inst"]');
  await page.waitForFunction(() => document.querySelector('#where').textContent.startsWith('lbt/second-inst'));
  await page.waitForSelector('#tables li[data-table="archive"]');
  expect('its tables', await page.$$eval('#tables li', (l) => l.map((e) => e.textContent)), ['archive']);
  await page.click('#instances li[data-instance="local"]');
  await page.waitForSelector('#tables li[data-table="readings"]');
  expect('back', await page.textContent('#where'), "lbt/local · database 'db'");
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
process.exit(failed() ? 1 : 0);
