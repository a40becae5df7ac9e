// The SQL corpus (queries.sql beside this file, over the data seeds.cbt
// loads) run through one surface, its rows compared with the expected ones.
//
//   node corpus.mjs shell LBT_BINARY
//       Loads seeds.cbt into a fresh local database and runs each query as
//       `lbt --format jsonl "sql ..."`.
//   node corpus.mjs client
//       Runs each query through Google's Node client (prepareStatement, then
//       executeQuery) against BIGTABLE_EMULATOR_HOST, where seeds.cbt has
//       been loaded. Run from the directory the client is installed in.
//
// queries.sql holds cases separated by blank lines:
//   -- name: what the case shows
//   -- params: @device=b'phone#4c410523' @n=2     (optional; the shell's syntax)
//   -- error: text the error must contain         (optional)
//   SELECT ...                                    (until a line ending in ';')
//   {"column": "value"}                           (each expected row, in order)
// A row is the shell's jsonl object: INT64 and FLOAT as numbers, BYTES as a
// string when UTF-8 and otherwise `<column>_b64`, MAP and STRUCT as objects,
// ARRAY as a list, TIMESTAMP as RFC 3339 with microseconds, a FLOAT's NaN
// and infinities as "nan", "inf" and "-inf". Lines starting
// with '#' outside a case are comments.

import {execFileSync, spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {isDeepStrictEqual} from 'node:util';
import {fileURLToPath} from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const SEEDS = join(here, 'corpus', 'seeds.cbt');
const QUERIES = join(here, 'corpus', 'queries.sql');

export function parseCorpus(text) {
  const cases = [];
  let current = null;
  let inQuery = false;
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const where = `queries.sql:${index + 1}`;
    if (current === null) {
      if (line.trim() === '' || line.startsWith('#')) return;
      const name = line.match(/^-- name: (.+)$/);
      if (!name) throw new Error(`${where}: expected "-- name: ..." to start a case`);
      current = {name: name[1], line: index + 1, params: '', error: null, query: '', rows: []};
      inQuery = true;
      return;
    }
    if (line.trim() === '') {
      if (inQuery) throw new Error(`${where}: the query of "${current.name}" has no ';'`);
      cases.push(current);
      current = null;
      return;
    }
    if (inQuery) {
      const header = line.match(/^-- (params|error): (.+)$/);
      if (header && current.query === '') {
        current[header[1]] = header[2];
        return;
      }
      current.query += (current.query ? '\n' : '') + line;
      if (line.trimEnd().endsWith(';')) inQuery = false;
      return;
    }
    try {
      current.rows.push(JSON.parse(line));
    } catch (e) {
      throw new Error(`${where}: an expected row is not JSON: ${e.message}`);
    }
  });
  if (current !== null) {
    if (inQuery) throw new Error(`the query of "${current.name}" has no ';'`);
    cases.push(current);
  }
  return cases;
}

// ---------------------------------------------------------------- the shell

function runShell(lbt) {
  const dir = mkdtempSync(join(tmpdir(), 'lbt-sql-corpus-'));
  try {
    const db = join(dir, 'db');
    execFileSync(lbt, ['--db', db], {input: readFileSync(SEEDS), stdio: ['pipe', 'ignore', 'inherit']});
    return parseCorpus(readFileSync(QUERIES, 'utf8')).map(c => {
      // The query keeps its lines, so that positions in errors are the ones
      // the client's query gets.
      const statement = ['sql', c.params, c.query].filter(part => part !== '').join(' ');
      const r = spawnSync(lbt, ['--db', db, '--format', 'jsonl', statement], {encoding: 'utf8',
                                                                             env: {...process.env, TZ: 'UTC'}});
      if (r.status !== 0) return {c, error: r.stderr.trim(), status: r.status};
      return {c, rows: r.stdout.split('\n').filter(l => l !== '').map(l => JSON.parse(l))};
    });
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

// ---------------------------------------------------------------- the Node client

// The shell's parameter literals as the client's values and types: a
// TIMESTAMP is a PreciseDate, a DATE the client's BigtableDate (`lib`).
function clientParams(text, lib) {
  const {SqlTypes, PreciseDate, BigtableDate} = lib;
  const values = {};
  const types = {};
  const binding = /@(\w+)=(b'[^']*'|'[^']*'|TIMESTAMP '[^']*'|DATE '[^']*'|TRUE|FALSE|-?\d+\.\d+|-?\d+)/gy;
  const source = text.trim();
  let m;
  let end = 0;
  while ((m = binding.exec(source)) !== null) {
    const [, name, literal] = m;
    if (literal.startsWith("b'")) {
      values[name] = Buffer.from(literal.slice(2, -1));
      types[name] = SqlTypes.Bytes();
    } else if (literal.startsWith("'")) {
      values[name] = literal.slice(1, -1);
      types[name] = SqlTypes.String();
    } else if (literal.startsWith('TIMESTAMP')) {
      values[name] = new PreciseDate(literal.slice(11, -1).replace(' ', 'T') + 'Z');
      types[name] = SqlTypes.Timestamp();
    } else if (literal.startsWith('DATE')) {
      const [year, month, day] = literal.slice(6, -1).split('-').map(Number);
      values[name] = new BigtableDate(year, month, day);
      types[name] = SqlTypes.Date();
    } else if (literal === 'TRUE' || literal === 'FALSE') {
      values[name] = literal === 'TRUE';
      types[name] = SqlTypes.Bool();
    } else if (literal.includes('.')) {
      values[name] = Number(literal);
      types[name] = SqlTypes.Float64();
    } else {
      values[name] = BigInt(literal);
      types[name] = SqlTypes.Int64();
    }
    end = binding.lastIndex;
    while (source[end] === ' ') end++;
    binding.lastIndex = end;
  }
  if (end !== source.length) throw new Error(`params the client test cannot read: ${text}`);
  return {values, types};
}

const utf8 = new TextDecoder('utf-8', {fatal: true});
function asUtf8(bytes) {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

function rfc3339(preciseDate) {
  const nanos = BigInt(preciseDate.getFullTimeString());
  const micros = nanos / 1000n;
  const seconds = micros / 1000000n - (micros < 0n && micros % 1000000n !== 0n ? 1n : 0n);
  const fraction = micros - seconds * 1000000n;
  const iso = new Date(Number(seconds) * 1000).toISOString();
  return `${iso.slice(0, 19)}.${String(fraction).padStart(6, '0')}Z`;
}

// A value as the shell's jsonl prints it nested in another.
function nested(value, type) {
  if (value === null || value === undefined) return null;
  switch (type.type) {
    case 'int64': return Number(value);
    case 'float32':
    case 'float64':
      if (Number.isNaN(value)) return 'nan';
      if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
      return value;
    case 'bool':
    case 'string': return value;
    case 'bytes': {
      const text = asUtf8(value);
      return text !== null ? text : {b64: Buffer.from(value).toString('base64')};
    }
    case 'timestamp': return rfc3339(value);
    case 'date': return `${String(value.year).padStart(4, '0')}-${String(value.month).padStart(2, '0')}-${String(value.day).padStart(2, '0')}`;
    case 'array': return value.map(v => nested(v, type.elementType));
    case 'struct': {
      const out = {};
      value.values.forEach((v, i) => {
        out[type.getFieldNameAtIndex(i) || `_${i}`] = nested(v, type.get(i));
      });
      return out;
    }
    case 'map': {
      const out = {};
      for (const [k, v] of value) {
        let key;
        if (typeof k === 'bigint') key = String(k);
        else if (typeof k === 'string') key = k;
        else key = asUtf8(k) ?? `b64:${Buffer.from(k).toString('base64')}`;
        out[key] = nested(v, type.valueType);
      }
      return out;
    }
    default: throw new Error(`a value of unexpected type ${type.type}`);
  }
}

function clientRow(row, metadata) {
  const out = {};
  row.values.forEach((value, i) => {
    const name = metadata.getFieldNameAtIndex(i);
    const type = metadata.get(i);
    if (type.type === 'bytes' && value !== null && asUtf8(value) === null) {
      out[`${name}_b64`] = Buffer.from(value).toString('base64');
    } else {
      out[name] = nested(value, type);
    }
  });
  return out;
}

async function runClientCase(instance, lib, c) {
  try {
    const {values, types} = clientParams(c.params, lib);
    const [statement] = await instance.prepareStatement({query: c.query, parameterTypes: types});
    const stream = instance.createExecuteQueryStream({preparedStatement: statement, parameters: values});
    const rows = [];
    for await (const row of stream) rows.push(clientRow(row, stream.getMetadata()));
    return {c, rows};
  } catch (e) {
    return {c, error: String(e.message ?? e)};
  }
}

async function runClient() {
  // No credentials: tell Google's auth library there is no metadata server.
  process.env.METADATA_SERVER_DETECTION = 'none';
  const require = createRequire(join(process.cwd(), 'package.json'));
  const {Bigtable, SqlTypes} = require('@google-cloud/bigtable');
  const lib = {
    SqlTypes,
    PreciseDate: require('@google-cloud/precise-date').PreciseDate,
    // Not exported by the package's index, but what its DATE parameters take.
    BigtableDate: require('@google-cloud/bigtable/build/src/execute-query/values').BigtableDate,
  };
  const bigtable = new Bigtable({projectId: 'p', metricsEnabled: false});
  const instance = bigtable.instance('i');
  const results = [];
  for (const c of parseCorpus(readFileSync(QUERIES, 'utf8'))) results.push(await runClientCase(instance, lib, c));
  await bigtable.close?.();
  return results;
}

// ---------------------------------------------------------------- checking

function check(results, surface) {
  let failed = 0;
  for (const {c, rows, error} of results) {
    let problem = null;
    if (c.error !== null) {
      if (error === undefined) problem = `expected an error containing "${c.error}", got ${rows.length} rows`;
      else if (!error.includes(c.error)) problem = `expected an error containing "${c.error}", got: ${error}`;
    } else if (error !== undefined) {
      problem = `failed: ${error}`;
    } else if (!isDeepStrictEqual(rows, c.rows)) {
      problem = `rows differ\n  expected: ${c.rows.map(r => JSON.stringify(r)).join('\n            ')}` +
                `\n  got:      ${rows.map(r => JSON.stringify(r)).join('\n            ')}`;
    }
    if (problem === null) {
      console.log(`ok   ${c.name}`);
    } else {
      console.log(`FAIL ${c.name} (queries.sql:${c.line}): ${problem}`);
      failed++;
    }
  }
  console.log(`${surface}: ${results.length - failed} of ${results.length} cases passed`);
  return failed === 0;
}

const [mode, lbt] = process.argv.slice(2);
if (mode === 'shell' && lbt) {
  process.exit(check(runShell(lbt), 'the shell') ? 0 : 1);
} else if (mode === 'client') {
  process.exit(check(await runClient(), 'the Node client') ? 0 : 1);
} else {
  console.error('usage: corpus.mjs shell LBT_BINARY | corpus.mjs client');
  process.exit(2);
}
