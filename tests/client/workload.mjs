// One deterministic workload through Google's Node client for Bigtable
// (@google-cloud/bigtable), run against whatever BIGTABLE_EMULATOR_HOST
// names. It prints one JSON line per step, `"step name": result`, inside a
// JSON object, so two runs (the official emulator and lbt serve) can be
// compared step by step by compare.mjs.
//
// Usage (from the directory where the client package is installed, since
// the package is resolved from the current directory):
//   BIGTABLE_EMULATOR_HOST=127.0.0.1:PORT node workload.mjs
//       [--project P] [--instance I] [--prefix TABLE_PREFIX] [--only STEP_PREFIX]
// --only runs just the steps whose names start with STEP_PREFIX (the
// persistence check re-runs the read-only "persist." steps after a restart).
//
// Results are normalized so that equal behaviour prints equal JSON: keys,
// qualifiers and values in base64, timestamps as decimal strings, errors as
// their gRPC code. Rows, families, columns and cells are kept in the order
// they came in, since the order is part of what Bigtable promises (but for
// families, whose order it leaves open: compare.mjs sorts those).

import {createHash} from 'node:crypto';
import {createRequire} from 'node:module';
import {join} from 'node:path';

// Without credentials, Google's auth library would probe for the GCE
// metadata server (a link-local address and a DNS name): tell it there is
// none, so that the test talks to nothing but the server under test.
process.env.METADATA_SERVER_DETECTION = 'none';

// The client package lives in the build tree, not beside this file.
const require = createRequire(join(process.cwd(), 'package.json'));
const {Bigtable} = require('@google-cloud/bigtable');

const args = parseArgs(process.argv.slice(2));
const PROJECT = args.project ?? 'p';
const INSTANCE = args.instance ?? 'i';
const PREFIX = args.prefix ?? 'node-';
const STEP_TIMEOUT_MS = 20000;

// Client-side metrics would export to Cloud Monitoring: off, for the same
// reason.
const bigtable = new Bigtable({projectId: PROJECT, metricsEnabled: false});
const instance = bigtable.instance(INSTANCE);

// A server that answers a retryable code should not make the test crawl
// through the library's ten retries with backoff.
const MAX_RETRIES = 2;
function table(name) {
  const t = instance.table(PREFIX + name);
  t.maxRetries = MAX_RETRIES;
  return t;
}

function parseArgs(argv) {
  const known = ['--project', '--instance', '--prefix', '--only'];
  const out = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!known.includes(argv[i]) || argv[i + 1] === undefined) {
      console.error(`usage: workload.mjs [${known.map(k => `${k} VALUE`).join('] [')}]`);
      process.exit(2);
    }
    out[argv[i].slice(2)] = argv[i + 1];
  }
  return out;
}

// ---------------------------------------------------------------- results

const GRPC_CODE_NAMES = [
  'OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND',
  'ALREADY_EXISTS', 'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION',
  'ABORTED', 'OUT_OF_RANGE', 'UNIMPLEMENTED', 'INTERNAL', 'UNAVAILABLE', 'DATA_LOSS',
  'UNAUTHENTICATED',
];

function codeResult(code) {
  return {code, name: GRPC_CODE_NAMES[code] ?? String(code)};
}

// Errors compare by code only: the servers word their messages differently.
// A MutateRows call that fails per entry comes back as the library's
// PartialFailureError: each failed entry's index and code.
function errorResult(err, entries) {
  if (err?.name === 'PartialFailureError') {
    const failed = err.errors.map(e => ({
      entry: entries ? entries.indexOf(e.entry) : null,
      ...codeResult(e.code),
    }));
    failed.sort((a, b) => a.entry - b.entry);
    return {error: {partial: failed}};
  }
  if (typeof err?.code === 'number') return {error: codeResult(err.code)};
  // Not a gRPC status: a library-side error (a row the library did not find).
  return {error: {library: err?.name ?? 'Error', message: String(err?.message ?? err)}};
}

const b64 = bytes => Buffer.from(bytes).toString('base64');

// Short values print whole; long ones as length and digest.
function valueResult(value) {
  // The library turns 8-byte values into numbers when they fit.
  if (typeof value === 'number') return {int64: value};
  const buf = Buffer.isBuffer(value) ? value : Buffer.from(value ?? '');
  if (buf.length <= 48) return b64(buf);
  return {length: buf.length, sha256: createHash('sha256').update(buf).digest('hex')};
}

// ReadModifyWrite stamps cells with the server's clock: such a timestamp
// prints as "server-now" when it is a whole millisecond within ten minutes
// of this process's clock, else as itself so that the comparison shows it.
const TEN_MINUTES_US = 600n * 1000n * 1000n;
function serverTimestamp(ts) {
  const micros = BigInt(String(ts));
  const now = BigInt(Date.now()) * 1000n;
  const near = micros > now - TEN_MINUTES_US && micros < now + TEN_MINUTES_US;
  return near && micros % 1000n === 0n ? 'server-now' : String(ts);
}

function cellResult(cell, options = {}) {
  return {
    ts: options.serverTime ? serverTimestamp(cell.timestamp) : String(cell.timestamp),
    value: valueResult(cell.value),
    labels: [...(cell.labels ?? [])],
  };
}

// A row as the library assembled it (decode: false, so keys and values are
// Buffers; qualifiers are object keys, hence strings decoded as UTF-8).
function libraryRow(row, options) {
  return {
    key: b64(row.id),
    families: Object.entries(row.data).map(([name, columns]) => ({
      name,
      columns: Object.entries(columns).map(([qualifier, cells]) => ({
        qualifier: b64(Buffer.from(qualifier)),
        cells: cells.map(c => cellResult(c, options)),
      })),
    })),
  };
}

// A Row message as the generated client decoded it (ReadModifyWrite's answer).
function protoRow(row, options) {
  return {
    key: b64(row.key),
    families: row.families.map(f => ({
      name: f.name,
      columns: f.columns.map(c => ({
        qualifier: b64(c.qualifier),
        cells: c.cells.map(cell => cellResult({...cell, timestamp: cell.timestampMicros}, options)),
      })),
    })),
  };
}

// ---------------------------------------------------------------- steps

const results = {};
const onlyPrefix = args.only;

// Runs one step, records its normalized result or error code. A step that
// throws is a result too (the comparison decides whether it was expected).
async function step(name, fn) {
  if (onlyPrefix && !name.startsWith(onlyPrefix)) return;
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`step timed out after ${STEP_TIMEOUT_MS} ms`)),
                       STEP_TIMEOUT_MS);
  });
  try {
    results[name] = await Promise.race([fn(), timeout]);
  } catch (err) {
    results[name] = errorResult(err, err?.entriesForResult);
  } finally {
    clearTimeout(timer);
  }
  if (results[name] === undefined) results[name] = null;
}

// Reads through the library's ReadRows stream (its chunk assembler,
// resumption and de-duplication included).
async function readRows(t, options = {}, rowOptions = {}) {
  const [rows] = await t.getRows({decode: false, ...options});
  return rows.map(r => libraryRow(r, rowOptions));
}

// Inserts through MutateRows; on a partial failure, keeps the entries so the
// error can name which one failed.
async function insert(t, entries) {
  try {
    await t.insert(entries);
    return 'ok';
  } catch (err) {
    err.entriesForResult = entries;
    throw err;
  }
}

async function mutate(t, entries) {
  try {
    await t.mutate(entries);
    return 'ok';
  } catch (err) {
    err.entriesForResult = entries;
    throw err;
  }
}

// ReadRows straight through the generated client, for what the handwritten
// surface cannot express or would hide: reversed scans (its de-duplication
// drops every row after the first one of a descending stream) and exact
// binary qualifiers (it turns them into object keys). Cells are assembled
// from the chunks here, keeping the server's order exactly: a family or
// column that comes back twice shows twice.
function rawReadRows(t, request) {
  return new Promise((resolve, reject) => {
    const assembler = new ChunkAssembler();
    const stream = bigtable.request({
      client: 'BigtableClient',
      method: 'readRows',
      reqOpts: {tableName: t.name, ...request},
      gaxOpts: {},
    });
    stream.on('error', reject);
    stream.on('data', response => {
      try {
        for (const chunk of response.chunks ?? []) assembler.add(chunk);
      } catch (err) {
        stream.destroy(err);
      }
    });
    stream.on('end', () => {
      if (assembler.row) reject(new Error('the stream ended inside a row'));
      else resolve(assembler.rows);
    });
  });
}

// Turns ReadRows chunks into rows, refusing what the protocol does not allow
// (a new row before the last one committed, a first cell without family or
// qualifier): those come back as an error result naming the fault.
class ChunkAssembler {
  rows = [];
  row = null;   // the row being assembled
  cell = null;  // family and qualifier in force, and the cell being assembled

  add(chunk) {
    // A row key on a chunk starts a row, or repeats the current one.
    const key = chunk.rowKey?.length ? Buffer.from(chunk.rowKey) : null;
    if (!this.row) {
      if (!key) throw new Error('a row began without a row key');
      this.row = {key, cells: []};
    } else if (key && !key.equals(this.row.key)) {
      throw new Error(`row ${b64(key)} began before row ${b64(this.row.key)} was committed`);
    }
    if (chunk.resetRow) {
      this.row = null;
      this.cell = null;
      return;
    }
    if (chunk.familyName) this.cell = {...this.cell, family: chunk.familyName.value};
    if (chunk.qualifier) this.cell = {...this.cell, qualifier: Buffer.from(chunk.qualifier.value)};
    if (this.cell?.family === undefined || this.cell?.qualifier === undefined) {
      throw new Error(`a cell of row ${b64(this.row.key)} came without family or qualifier`);
    }
    if (!this.cell.value) {
      // The first chunk of a cell carries its timestamp and labels.
      this.cell = {...this.cell, timestamp: chunk.timestampMicros, labels: chunk.labels ?? [], value: []};
    }
    this.cell.value.push(Buffer.from(chunk.value ?? []));
    if (!chunk.valueSize) {
      // The cell's last chunk.
      this.row.cells.push({...this.cell, value: Buffer.concat(this.cell.value)});
      this.cell = {family: this.cell.family, qualifier: this.cell.qualifier};
    }
    if (chunk.commitRow) {
      this.rows.push(groupCells(this.row));
      this.row = null;
      this.cell = null;
    }
  }
}

// Groups a row's cells into runs of the same family, then of the same
// column, in the order they came.
function groupCells(row) {
  const families = [];
  for (const cell of row.cells) {
    let family = families.at(-1);
    if (family?.name !== cell.family) families.push(family = {name: cell.family, columns: []});
    let column = family.columns.at(-1);
    const qualifier = b64(cell.qualifier);
    if (column?.qualifier !== qualifier) family.columns.push(column = {qualifier, cells: []});
    column.cells.push(cellResult(cell));
  }
  return {key: b64(row.key), families};
}

// MutateRow (single row) through the generated client: the handwritten
// surface only uses MutateRows, and only takes UTF-8 qualifiers.
function rawMutateRow(t, rowKey, mutations) {
  return new Promise((resolve, reject) => {
    bigtable.request({
      client: 'BigtableClient',
      method: 'mutateRow',
      reqOpts: {tableName: t.name, rowKey, mutations},
      gaxOpts: {},
    }, err => (err ? reject(err) : resolve('ok')));
  });
}

// ---------------------------------------------------------------- admin

// The parts of a Table both servers can be held to: families (a map, so
// sorted here) with their GC rules as the library decoded them, and the
// timestamp granularity.
function tableResult(metadata) {
  const families = Object.keys(metadata.columnFamilies ?? {}).sort().map(name => ({
    name,
    gcRule: stripNulls(metadata.columnFamilies[name].gcRule),
  }));
  return {
    name: metadata.name.split('/').pop(),
    granularity: metadata.granularity,
    families,
  };
}

function stripNulls(value) {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(stripNulls);
  if (typeof value !== 'object') return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    if (v !== null && v !== undefined) out[k] = stripNulls(v);
  }
  return out;
}

// ListTables promises no order (the emulator's changes from run to run).
async function listOurTables() {
  const [tables] = await instance.getTables();
  return tables.map(t => t.id).filter(id => id.startsWith(PREFIX)).sort();
}

// GC rules in the library's notation, one per kind and nesting.
const GC_FAMILIES = [
  {name: 'versions1', rule: {versions: 1}},
  {name: 'age1h', rule: {age: {seconds: 3600}}},
  {name: 'union', rule: {union: true, versions: 2, age: {seconds: 86400}}},
  {name: 'intersection', rule: {versions: 5, age: {seconds: 7200, nanos: 500000000}}},
  {name: 'nested', rule: {union: true, versions: 10, rule: {versions: 1, age: {seconds: 60}}}},
  'plain',
];

async function adminSteps() {
  await step('admin.create.data', async () => {
    const [, metadata] = await instance.createTable(PREFIX + 'data', {families: ['cf1', 'cf2', 'bin']});
    return tableResult(metadata);
  });
  await step('admin.create.gc', async () => {
    const [, metadata] = await instance.createTable(PREFIX + 'gc', {families: GC_FAMILIES});
    return tableResult(metadata);
  });
  for (const name of ['bulk', 'big', 'rmw', 'err', 'scratch', 'drop']) {
    await step(`admin.create.${name}`, async () => {
      const [, metadata] = await instance.createTable(PREFIX + name, {families: ['f', 'c']});
      return tableResult(metadata);
    });
  }
  await step('admin.create.already-exists', async () => {
    await instance.createTable(PREFIX + 'data', {families: ['cf1']});
    return 'created';
  });
  await step('admin.create.bad-id', async () => {
    await instance.createTable('bad id!', {families: ['f']});
    return 'created';
  });
  await step('admin.list', listOurTables);
  await step('admin.get.gc', async () => tableResult((await table('gc').getMetadata())[0]));
  await step('admin.get.missing', async () => tableResult((await table('missing').getMetadata())[0]));
  await step('admin.exists', async () => ({
    data: (await table('data').exists())[0],
    missing: (await table('missing').exists())[0],
  }));
  await step('admin.families.data', async () => {
    const [families] = await table('data').getFamilies();
    return families.map(f => f.id).sort();
  });
  await step('admin.family.create', async () => {
    const [, response] = await table('gc').createFamily('extra', {rule: {versions: 4}});
    return tableResult(response);
  });
  await step('admin.family.create.already-exists', async () => {
    await table('gc').createFamily('extra');
    return 'created';
  });
  await step('admin.family.modify', async () => {
    const [, response] = await table('gc').family('extra').setMetadata({rule: {age: {seconds: 120}, versions: 2, union: true}});
    return tableResult(response);
  });
  await step('admin.family.modify.missing', async () => {
    await table('gc').family('nope').setMetadata({rule: {versions: 1}});
    return 'modified';
  });
  await step('admin.family.delete', async () => {
    await table('gc').family('extra').delete();
    return tableResult((await table('gc').getMetadata())[0]);
  });
  await step('admin.family.delete.missing', async () => {
    await table('gc').family('extra').delete();
    return 'deleted';
  });
  await step('admin.family.create.missing-table', async () => {
    await table('missing').createFamily('f');
    return 'created';
  });
  await step('admin.delete', async () => {
    await table('scratch').delete();
    return listOurTables();
  });
  await step('admin.delete.missing', async () => {
    await table('scratch').delete();
    return 'deleted';
  });
}

// ---------------------------------------------------------------- writes

// Row keys in Bigtable's byte order, with NUL and high bytes on purpose.
const KEYS = {
  nul: Buffer.from([0x00]),
  nulOne: Buffer.from([0x00, 0x01]),
  a: Buffer.from('a'),
  aNulB: Buffer.from('a\x00b'),
  ab: Buffer.from('ab'),
  b: Buffer.from('b'),
  user1: Buffer.from('user#001'),
  user2: Buffer.from('user#002'),
  user3: Buffer.from('user#003'),
  high: Buffer.from([0xfe, 0xff]),
  ff: Buffer.from([0xff]),
  ffff: Buffer.from([0xff, 0xff]),
};
const FRUITS = ['apple', 'banana', 'cherry', 'date', 'elder', 'fig'];

// A small binary value that differs per row, column and version, with a NUL
// and bytes that are not UTF-8.
function binaryValue(row, column, ts) {
  return Buffer.from([row, column, 0x00, 0xff, 0xc3, ts / 1000]);
}

// Every row gets: cf1:fruit (text, 2 versions), cf1:"q\0x" (binary),
// cf2:q1 and cf2:q2 (3 versions each), bin:"é€" (binary, UTF-8 qualifier).
function dataEntries() {
  return Object.values(KEYS).map((key, i) => ({
    key,
    data: {
      cf1: {
        fruit: {value: FRUITS[i % FRUITS.length], timestamp: 2000},
        'q\x00x': {value: binaryValue(i, 0, 3000), timestamp: 3000},
      },
      cf2: {
        q1: {value: binaryValue(i, 1, 1000), timestamp: 1000},
        q2: {value: binaryValue(i, 2, 1000), timestamp: 1000},
      },
      bin: {'é€': {value: binaryValue(i, 3, 5000), timestamp: 5000}},
    },
  }));
}

// More versions of existing columns, in later calls, so that cells of one
// column arrive newest first whatever order they were written in.
function versionEntries() {
  return Object.values(KEYS).flatMap((key, i) => [2000, 3000].map(ts => ({
    key,
    data: {
      cf1: ts === 3000 ? {fruit: {value: FRUITS[(i + 1) % FRUITS.length], timestamp: 1000}} : {},
      cf2: {
        q1: {value: binaryValue(i, 1, ts), timestamp: ts},
        q2: {value: binaryValue(i, 2, ts), timestamp: ts},
      },
    },
  })));
}

async function writeSteps() {
  const data = table('data');
  await step('write.insert', () => insert(data, dataEntries()));
  await step('write.insert.versions', () => insert(data, versionEntries()));
  await step('write.read-back', () => readRows(data));
  // Overwrites one cell (same column and timestamp): the new value replaces it.
  await step('write.overwrite', async () => {
    await insert(data, [{key: KEYS.a, data: {cf2: {q1: {value: Buffer.from('new'), timestamp: 2000}}}}]);
    return readRows(data, {keys: [KEYS.a], filter: {family: 'cf2'}});
  });
  await step('write.mutaterow.binary-qualifier', async () => {
    const setCell = (qualifier, ts) => ({setCell: {
      familyName: 'bin', columnQualifier: qualifier, timestampMicros: ts, value: Buffer.from([0xff, 0x00, 0x80]),
    }});
    await rawMutateRow(data, KEYS.ff, [
      setCell(Buffer.from([0xff, 0x00]), 7000),
      setCell(Buffer.from([0x80]), 7000),
      setCell(Buffer.from([0x00]), 6000),
    ]);
    return rawReadRows(data, {rows: {rowKeys: [KEYS.ff]}, filter: {familyNameRegexFilter: 'bin'}});
  });
  await step('write.delete.column-time-range', async () => {
    await mutate(data, {key: KEYS.b, method: 'delete', data: [{column: 'cf2:q1', time: {start: new Date(2), end: new Date(3)}}]});
    return readRows(data, {keys: [KEYS.b]});
  });
  await step('write.delete.column', async () => {
    await data.row(KEYS.b).deleteCells(['cf2:q2']);
    return readRows(data, {keys: [KEYS.b]});
  });
  await step('write.delete.family', async () => {
    await data.row(KEYS.ab).deleteCells(['cf2']);
    return readRows(data, {keys: [KEYS.ab]});
  });
  await step('write.delete.row', async () => {
    await data.row(KEYS.user3).delete();
    return readRows(data, {keys: [KEYS.user3, KEYS.user2]});
  });
  // Deleting what is not there is not an error.
  await step('write.delete.absent', async () => {
    await mutate(data, [
      {key: Buffer.from('nothing'), method: 'delete'},
      {key: KEYS.a, method: 'delete', data: ['cf1:absent']},
    ]);
    return readRows(data, {keys: [KEYS.a]});
  });
  await step('write.bulk', async () => {
    // 600 rows sent in a scrambled order in one MutateRows.
    const entries = [];
    for (let i = 0; i < 600; i++) {
      const n = (i * 389) % 600;
      entries.push({key: `row${String(n).padStart(4, '0')}`, data: {f: {v: {value: `value-${n}`.repeat(1 + (n % 7)), timestamp: 1000 * (1 + (n % 5))}}}});
    }
    return insert(table('bulk'), entries);
  });
  await step('write.bulk.read', () => readRows(table('bulk')));
  await step('write.bulk.read.limit', () => readRows(table('bulk'), {limit: 7}));
}

// ---------------------------------------------------------------- garbage

// Cells of 1970 are older than every maxAge rule; cells of 2100 younger.
const ANCIENT = [1000, 2000, 3000];
const FUTURE = [4102444800000000, 4102444800001000];

async function gcSteps() {
  const gc = table('gc');
  await step('gc.write', () => {
    const families = GC_FAMILIES.map(f => f.name ?? f);
    const cells = (row, names, stamps) => names.flatMap(family => stamps.map(ts => ({
      key: row, data: {[family]: {q: {value: `${family}@${ts}`, timestamp: ts}}},
    })));
    return insert(gc, [
      ...cells('r1', families, [...ANCIENT, ...FUTURE]),
      // Every cell of r2 is past its maxAge but the one in 'plain'; r3 has
      // nothing that survives.
      ...cells('r2', ['age1h', 'plain'], ANCIENT),
      ...cells('r3', ['age1h'], ANCIENT),
    ]);
  });
  await step('gc.read', () => readRows(gc));
}

// ---------------------------------------------------------------- reads

async function readSteps() {
  const data = table('data');
  const read = options => () => readRows(data, options);
  await step('read.all', read({}));
  await step('read.keys', read({keys: [KEYS.b, KEYS.nul, Buffer.from('missing'), KEYS.ffff]}));
  await step('read.range.closed-open', read({start: KEYS.a, end: KEYS.b}));
  await step('read.range.open-closed', read({ranges: [{start: {value: KEYS.a, inclusive: false}, end: {value: KEYS.b, inclusive: true}}]}));
  await step('read.range.closed-closed', read({ranges: [{start: {value: KEYS.aNulB, inclusive: true}, end: {value: KEYS.user2, inclusive: true}}]}));
  await step('read.range.open-open', read({ranges: [{start: {value: KEYS.nul, inclusive: false}, end: {value: KEYS.ab, inclusive: false}}]}));
  await step('read.range.start-only', read({start: KEYS.high}));
  await step('read.range.end-only', read({ranges: [{end: {value: KEYS.nulOne, inclusive: true}}]}));
  await step('read.range.several', read({ranges: [{start: KEYS.nul, end: KEYS.a}, {start: KEYS.user1, end: KEYS.high}]}));
  await step('read.range.binary', read({ranges: [{start: {value: Buffer.from([0xfe]), inclusive: true}, end: {value: KEYS.ffff, inclusive: true}}]}));
  await step('read.range.empty', read({ranges: [{start: Buffer.from('c'), end: Buffer.from('d')}]}));
  await step('read.prefix', read({prefix: 'user#'}));
  await step('read.prefixes', read({prefixes: ['a', 'user#00']}));
  await step('read.limit', read({limit: 3}));
  await step('read.limit.range', read({start: KEYS.a, limit: 2}));
  await step('read.keys-and-range', read({keys: [KEYS.nul], ranges: [{start: KEYS.user1}]}));
  await step('read.row.get', async () => {
    const [rowData] = await data.row(KEYS.a).get(['cf1:fruit', 'cf2:q2']);
    return libraryRow({id: KEYS.a, data: rowData});
  });
  await step('read.row.get.missing', async () => {
    await data.row(Buffer.from('missing')).get();
    return 'found';
  });
  await step('read.row.exists', async () => ({
    a: (await data.row(KEYS.a).exists())[0],
    missing: (await data.row(Buffer.from('missing')).exists())[0],
  }));
  // Reversed scans, through the generated client (see rawReadRows). Each
  // one has a forward twin, so that a server without reversed scans (the
  // emulator) still tells what a reversed one must return.
  const rawReads = {
    'all': {},
    'limit': {rowsLimit: 3},
    'range': {rows: {rowRanges: [{startKeyOpen: KEYS.a, endKeyClosed: KEYS.user2}]}},
    'keys': {rows: {rowKeys: [KEYS.a, KEYS.ff, KEYS.nul]}},
    'filter': {filter: {chain: {filters: [{familyNameRegexFilter: 'cf2'}, {cellsPerColumnLimitFilter: 1}]}}},
  };
  for (const [name, request] of Object.entries(rawReads)) {
    await step(`read.raw.forward.${name}`, () => rawReadRows(data, request));
    await step(`read.raw.reversed.${name}`, () => rawReadRows(data, {...request, reversed: true}));
  }
}

// ---------------------------------------------------------------- filters

// Every filter the library's filter notation can express (but sampling,
// which is random), alone and combined.
const FILTERS = {
  'family': {family: 'cf2'},
  'family.regex': {family: /cf\d/},
  'column': {column: 'fruit'},
  'column.regex': {column: /q\d/},
  'column.binary-regex': {column: Buffer.from('q\x00x')},
  'column.range': {column: {family: 'cf2', start: 'q1', end: {value: 'q2', inclusive: true}}},
  'column.range.open': {column: {family: 'cf1', start: {value: 'fruit', inclusive: false}}},
  'column.cell-limit': {column: {cellLimit: 1}},
  // Value and row key regexes must match the whole value or key.
  'value.regex': {value: '.*an.*'},
  'value.regex.partial': {value: 'an'},
  'value.binary': {value: binaryValue(0, 0, 3000)},
  'value.range': {value: {start: 'b', end: 'e'}},
  'value.range.open-closed': {value: {start: {value: 'banana', inclusive: false}, end: {value: 'date', inclusive: true}}},
  'value.strip': {value: {strip: true}},
  'time': {time: {start: new Date(2), end: new Date(3)}},
  'time.start-only': {time: {start: new Date(3)}},
  'row.regex': {row: 'user#00[12]'},
  'row.regex.binary': {row: /\x00.*/},
  // Per-row limits count cells in the row's order, and Bigtable leaves the
  // order of families unspecified: a family filter first keeps them
  // comparable between servers.
  'row.cell-limit': [{family: 'cf2'}, {row: {cellLimit: 2}}],
  'row.cell-offset': [{family: 'cf2'}, {row: {cellOffset: 2}}],
  'label': [{family: 'cf1'}, {label: 'fam-one'}],
  'all.pass': {all: true},
  'all.block': {all: false},
  'chain': [{family: 'cf2'}, {column: 'q1'}, {column: {cellLimit: 2}}, {value: {strip: true}}],
  'interleave': {interleave: [
    [{family: 'cf1'}, {label: 'one'}],
    [{column: 'q2'}, {column: {cellLimit: 1}}, {label: 'two'}],
    [{family: 'cf1'}, {column: 'fruit'}],
  ]},
  'condition.pass': {condition: {test: [{column: 'fruit'}, {value: 'apple'}], pass: [{family: 'cf1'}], fail: [{family: 'bin'}]}},
  'condition.no-fail': {condition: {test: [{value: 'banana'}], pass: [{label: 'banana'}]}},
  'sink': {interleave: [[{family: 'bin'}], [{family: 'cf1'}, {label: 'sunk'}, {sink: true}]]},
  'limit-with-filter': [{family: 'cf1'}, {row: {cellLimit: 1}}],
  'bad.regex': {row: '('},
  'bad.column-regex': {column: 'a)'},
};

async function filterSteps() {
  const data = table('data');
  for (const [name, filter] of Object.entries(FILTERS)) {
    const options = name === 'limit-with-filter' ? {filter, limit: 4} : {filter};
    await step(`filter.${name}`, () => readRows(data, options));
  }
}

// ---------------------------------------------------------------- atomic

async function atomicSteps() {
  const data = table('data');
  await step('check-and-mutate.match', async () => {
    const [matched] = await data.row(KEYS.user1).filter([{column: 'fruit'}], {
      onMatch: [{method: 'insert', data: {cf1: {matched: {value: 'yes', timestamp: 9000}}}}],
      onNoMatch: [{method: 'insert', data: {cf1: {matched: {value: 'no', timestamp: 9000}}}}],
    });
    return {matched, row: await readRows(data, {keys: [KEYS.user1], filter: {family: 'cf1'}})};
  });
  await step('check-and-mutate.no-match', async () => {
    const [matched] = await data.row(KEYS.user2).filter([{value: 'no such value'}], {
      onMatch: [{method: 'delete'}],
      onNoMatch: [{method: 'delete', data: ['cf2']}, {method: 'insert', data: {cf1: {matched: {value: 'no', timestamp: 9000}}}}],
    });
    return {matched, row: await readRows(data, {keys: [KEYS.user2]})};
  });
  // No predicate: matches when the row has any cell.
  await step('check-and-mutate.no-filter', async () => {
    const [present] = await data.row(KEYS.a).filter(undefined, {onMatch: [{method: 'delete', data: ['bin']}]});
    const [absent] = await data.row(Buffer.from('nowhere')).filter(undefined, {
      onNoMatch: [{method: 'insert', data: {cf1: {created: {value: 'by check-and-mutate', timestamp: 1000}}}}],
    });
    return {present, absent, rows: await readRows(data, {keys: [KEYS.a, Buffer.from('nowhere')]})};
  });
  await step('check-and-mutate.unknown-family', async () => {
    const [matched] = await data.row(KEYS.a).filter([{family: 'cf1'}], {
      onMatch: [{method: 'insert', data: {nope: {q: {value: 'x', timestamp: 1000}}}}],
    });
    return matched;
  });

  const rmw = table('rmw');
  const serverTime = {serverTime: true};
  await step('read-modify-write.increment.new', async () => {
    const [value] = await rmw.row('counter').increment('c:hits', 5);
    return value;
  });
  await step('read-modify-write.increment.again', async () => {
    const [value] = await rmw.row('counter').increment('c:hits', -7);
    return value;
  });
  await step('read-modify-write.append', async () => {
    const [response] = await rmw.row('counter').createRules([
      {column: 'c:log', append: 'ab'},
      {column: 'c:log', append: Buffer.from([0x00, 0xff])},
      {column: 'f:n', increment: 1},
    ]);
    return protoRow(response.row, serverTime);
  });
  await step('read-modify-write.increment.not-a-counter', async () => {
    const [value] = await rmw.row('counter').increment('c:log', 1);
    return value;
  });
  await step('read-modify-write.unknown-family', async () => {
    const [value] = await rmw.row('counter').increment('nope:x', 1);
    return value;
  });
  await step('read-modify-write.read', () => readRows(rmw, {}, serverTime));
}

// ---------------------------------------------------------------- sizes

// A deterministic 5 MiB value: several ReadRows chunks on any server.
function bigValue() {
  const buf = Buffer.alloc(5 * 1024 * 1024);
  let x = 12345;
  for (let i = 0; i < buf.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    buf[i] = x >>> 24;
  }
  return buf;
}

// SampleRowKeys differs by design between servers: compare its shape.
async function sampleShape(t) {
  const [samples] = await t.sampleRowKeys();
  const keys = samples.map(s => Buffer.from(s.key ?? []));
  const offsets = samples.map(s => BigInt(String(s.offset)));
  const last = keys.length - 1;
  return {
    nonEmpty: samples.length > 0,
    lastKeyIsEnd: last >= 0 && keys[last].length === 0,
    keysAscending: keys.slice(0, last).every((k, i) => i === 0 || Buffer.compare(keys[i - 1], k) < 0),
    offsetsAscending: offsets.every((o, i) => i === 0 || offsets[i - 1] <= o),
  };
}

async function sizeSteps() {
  const big = table('big');
  const value = bigValue();
  await step('big.write', () => insert(big, [
    {key: 'big', data: {f: {v: {value, timestamp: 1000}}}},
    {key: 'small', data: {f: {v: {value: 'x', timestamp: 1000}}}},
  ]));
  await step('big.read', () => readRows(big));
  await step('big.read.strip', () => readRows(big, {filter: {value: {strip: true}}}));
  await step('big.read.raw', () => rawReadRows(big, {rows: {rowKeys: [Buffer.from('big')]}}));
  await step('sample-row-keys.bulk', () => sampleShape(table('bulk')));
  await step('sample-row-keys.big', () => sampleShape(big));
  await step('sample-row-keys.missing', () => sampleShape(table('missing')));
}

// ---------------------------------------------------------------- table ops

async function tableOpSteps() {
  const drop = table('drop');
  await step('drop-row-range.prefix', async () => {
    const keys = ['a1', 'a2', 'b1', 'b2', 'c1'];
    await insert(drop, keys.map(key => ({key, data: {f: {v: {value: key, timestamp: 1000}}}})));
    await drop.deleteRows('b');
    return readRows(drop);
  });
  await step('drop-row-range.all', async () => {
    await drop.truncate();
    return readRows(drop);
  });
  await step('consistency', async () => (await table('data').waitForReplication())[0]);
}

// ---------------------------------------------------------------- errors

const TOO_LONG_KEY = Buffer.alloc(4097, 0x6b);

async function errorSteps() {
  const err = table('err');
  await step('error.read.missing-table', () => readRows(table('missing')));
  await step('error.write.missing-table', () => insert(table('missing'), [{key: 'k', data: {f: {v: 'x'}}}]));
  await step('error.insert.unknown-family', () => insert(err, [
    {key: 'ok', data: {f: {v: {value: 'x', timestamp: 1000}}}},
    {key: 'bad', data: {nope: {v: {value: 'x', timestamp: 1000}}}},
  ]));
  await step('error.mutaterow.unknown-family', () => rawMutateRow(err, Buffer.from('bad2'), [
    {setCell: {familyName: 'nope', columnQualifier: Buffer.from('v'), timestampMicros: 1000, value: Buffer.from('x')}},
  ]));
  await step('error.insert.key-too-long', () => insert(err, [{key: TOO_LONG_KEY, data: {f: {v: {value: 'x', timestamp: 1000}}}}]));
  await step('error.mutaterow.key-too-long', () => rawMutateRow(err, TOO_LONG_KEY, [
    {setCell: {familyName: 'f', columnQualifier: Buffer.from('v'), timestampMicros: 1000, value: Buffer.from('x')}},
  ]));
  await step('error.insert.timestamp-not-millis', () => insert(err, [{key: 'ts', data: {f: {v: {value: 'x', timestamp: 1500}}}}]));
  await step('error.mutaterow.timestamp-not-millis', () => rawMutateRow(err, Buffer.from('ts2'), [
    {setCell: {familyName: 'f', columnQualifier: Buffer.from('v'), timestampMicros: 2500, value: Buffer.from('x')}},
  ]));
  await step('error.read.inverted-range', () => readRows(table('data'), {start: KEYS.b, end: KEYS.a}));
  await step('error.read.raw.inverted-range', () => rawReadRows(table('data'), {rows: {rowRanges: [{startKeyClosed: KEYS.user2, endKeyOpen: KEYS.user1}]}}));
  // What the refused writes left: only the entry that was valid.
  await step('error.table-after', () => readRows(err));
}

// ---------------------------------------------------------------- persistence

// Re-run alone after restarting the server: must give what it gave before.
// A row's families come in creation order, in production (its maintainers,
// googleapis/java-bigtable#154: "row key, family creation order, qualifier,
// reverse timestamp"; cells_per_row filters count in that order) and in the
// emulator. Families created one call at a time, zeta before alpha, so that
// creation order and name order differ.
async function familyOrderSteps() {
  const t = table('order');
  await step('order.create', async () => {
    await t.create();
    await t.createFamily('zeta');
    await t.createFamily('alpha');
    return insert(t, [{key: 'r1', data: {alpha: {a: {value: 'alpha-cell', timestamp: 1000}},
                                         zeta: {z: {value: 'zeta-cell', timestamp: 1000}}}}]);
  });
  await step('order.read', () => readRows(t));
  await step('order.cells-per-row-limit', () => readRows(t, {filter: [{row: {cellLimit: 1}}]}));
  await step('order.cells-per-row-offset', () => readRows(t, {filter: [{row: {cellOffset: 1}}]}));
}

async function persistSteps() {
  await step('persist.list', listOurTables);
  await step('persist.schema.gc', async () => tableResult((await table('gc').getMetadata())[0]));
  await step('persist.data', () => readRows(table('data')));
  await step('persist.bulk', () => readRows(table('bulk')));
  await step('persist.big', () => readRows(table('big')));
  await step('persist.order.read', () => readRows(table('order')));
  await step('persist.order.cells-per-row-limit', () => readRows(table('order'), {filter: [{row: {cellLimit: 1}}]}));
}

async function main() {
  await adminSteps();
  await writeSteps();
  await gcSteps();
  await readSteps();
  await filterSteps();
  await atomicSteps();
  await sizeSteps();
  await tableOpSteps();
  await errorSteps();
  await familyOrderSteps();
  await persistSteps();
  // One step per line: a difference shows as a line in a diff too.
  const lines = Object.entries(results).map(([name, result]) => `${JSON.stringify(name)}: ${JSON.stringify(result)}`);
  process.stdout.write(`{\n${lines.join(',\n')}\n}\n`);
  await bigtable.close();
}

main().catch(err => {
  console.error(`workload failed: ${err?.stack ?? err}`);
  process.exit(1);
});
