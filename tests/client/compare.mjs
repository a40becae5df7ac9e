// Compares two results of workload.mjs step by step.
//
//   node compare.mjs REFERENCE.json CANDIDATE.json
//     REFERENCE ran against the official emulator, CANDIDATE against lbt
//     serve. Every step must give the same result, except the declared
//     differences below: there the emulator departs from production, and the
//     candidate is held to production's behaviour instead.
//   node compare.mjs --same FIRST.json SECOND.json
//     Every step of SECOND must equal the same step of FIRST, with no
//     declared difference: the persistence check across a restart of lbt
//     serve (SECOND holds only the steps re-run after it), and a check that
//     the workload is deterministic (two runs against one kind of server).
//
// Prints one line per differing step with the first differing path, then
// "N passed, M failed"; exits 0 only when nothing failed.

import {readFileSync} from 'node:fs';

const INVALID_ARGUMENT = 3;
const NOT_FOUND = 5;
const FAILED_PRECONDITION = 9;
const MAX_ROW_KEY_BYTES = 4096;

// ------------------------------------------------------ declared differences
//
// The only place where the emulator is allowed to differ. Each entry names
// the steps it covers (exact names, or a prefix ending in '*'), says why, and
// gives what production answers, computed from the emulator's result and the
// rest of its run: the candidate must give exactly that.

const DECLARED = [
  {
    steps: ['admin.create.bad-id'],
    why: 'the emulator accepts any table id; production refuses ids outside [_a-zA-Z0-9][-_.a-zA-Z0-9]*',
    expect: () => rpcError(INVALID_ARGUMENT),
  },
  {
    steps: ['admin.family.modify.missing', 'admin.family.delete.missing'],
    why: 'the emulator answers UNKNOWN for a family the table lacks; production NOT_FOUND',
    expect: () => rpcError(NOT_FOUND),
  },
  {
    steps: ['error.insert.unknown-family', 'error.mutaterow.unknown-family',
            'check-and-mutate.unknown-family', 'read-modify-write.unknown-family'],
    // Production: NOT_FOUND "Requested column family not found" (the message
    // in reports of production writes, e.g. GoogleCloudPlatform/
    // cloud-bigtable-examples#290; the code a maintainer recorded for a read
    // naming a missing family, googleapis/java-bigtable#32).
    why: 'the emulator answers INTERNAL or UNKNOWN for a mutation of a family the table lacks; ' +
         'production NOT_FOUND (for MutateRows, in that entry\'s status)',
    expect: ref => withCode(ref, NOT_FOUND),
  },
  {
    steps: ['error.insert.timestamp-not-millis', 'error.mutaterow.timestamp-not-millis'],
    why: 'the emulator answers INTERNAL or UNKNOWN for a timestamp that is not a whole millisecond; ' +
         'production INVALID_ARGUMENT',
    expect: ref => withCode(ref, INVALID_ARGUMENT),
  },
  {
    steps: ['error.insert.key-too-long'],
    why: 'the emulator accepts row keys over 4 KiB; production refuses them with INVALID_ARGUMENT',
    expect: () => entryError(0, INVALID_ARGUMENT),
  },
  {
    steps: ['error.mutaterow.key-too-long'],
    why: 'the emulator accepts row keys over 4 KiB; production refuses them with INVALID_ARGUMENT',
    expect: () => rpcError(INVALID_ARGUMENT),
  },
  {
    steps: ['error.table-after'],
    why: 'the emulator stored the rows whose keys are over 4 KiB; production stores nothing of a refused write',
    expect: ref => ref.filter(row => Buffer.from(row.key, 'base64').length <= MAX_ROW_KEY_BYTES),
  },
  {
    steps: ['error.read.inverted-range', 'error.read.raw.inverted-range'],
    why: 'older emulators answer an inverted row range with no rows; production refuses it with ' +
         'INVALID_ARGUMENT ("start_key must be less than end_key"-like)',
    expect: () => rpcError(INVALID_ARGUMENT),
  },
  {
    steps: ['gc.read'],
    why: 'the emulator collects garbage only now and then, so its reads still show cells that the GC ' +
         'rules condemn; production removes them when it collects, lbt at once: a read shows only ' +
         'the cells that survive their family\'s rule',
    expect: (ref, name, all) => survivingCells(ref, all['persist.schema.gc'], Date.now()),
  },
  {
    steps: ['read-modify-write.increment.not-a-counter'],
    why: 'the emulator answers UNKNOWN for incrementing a value that is not 8 bytes; production ' +
         'FAILED_PRECONDITION ("can only be performed on 64-bit values")',
    expect: () => rpcError(FAILED_PRECONDITION),
  },
  {
    steps: ['read.raw.reversed.*'],
    why: 'the emulator does not implement reversed scans (UNIMPLEMENTED); production returns the rows ' +
         'of the forward scan in descending key order, each row\'s cells in their usual order',
    expect: (ref, name, all) => reversedOf(name, all),
  },
  {
    steps: ['*'],
    why: 'in the emulator\'s Table, a family without a GC rule has no gc_rule; production gives it an empty GcRule',
    transform: value => mapTables(value, table => ({
      ...table,
      families: table.families.map(f => ({...f, gcRule: f.gcRule ?? {}})),
    })),
  },
  {
    steps: ['admin.get.*', 'admin.family.delete', 'persist.schema.*'],
    why: 'the emulator\'s GetTable answers TIMESTAMP_GRANULARITY_UNSPECIFIED; production gives the table\'s ' +
         'granularity, MILLIS, as CreateTable does',
    transform: value => mapTables(value, table => ({
      ...table,
      granularity: table.granularity === 'TIMESTAMP_GRANULARITY_UNSPECIFIED' ? 'MILLIS' : table.granularity,
    })),
  },
  {
    steps: ['order.cells-per-row-limit', 'order.cells-per-row-offset', 'persist.order.cells-per-row-limit'],
    // googleapis/java-bigtable#154, by a Bigtable maintainer:
    // "cells_per_row_limit_filter and cells_per_row_offset_filter are
    // executed on the server side using the family creation order".
    why: 'the emulator sends a row\'s families in creation order but counts cells_per_row_limit and ' +
         'cells_per_row_offset in name order; production counts them in creation order',
    expect: (ref, step, reference) => {
      const [row] = reference['order.read'];  // the row as sent: families in creation order
      const cells = row.families.flatMap(f => f.columns.map(c => ({name: f.name, column: c})));
      const kept = step.endsWith('offset') ? cells.slice(1) : cells.slice(0, 1);
      return [{key: row.key, families: kept.map(k => ({name: k.name, columns: [k.column]}))}];
    },
  },
];

function rpcError(code) {
  return {error: {code, name: CODE_NAMES[code]}};
}

function entryError(entry, code) {
  return {error: {partial: [{entry, code, name: CODE_NAMES[code]}]}};
}

// The reference's error, with production's code in place of the emulator's.
function withCode(ref, code) {
  if (ref?.error?.partial) {
    return {error: {partial: ref.error.partial.map(e => ({...e, code, name: CODE_NAMES[code]}))}};
  }
  return rpcError(code);
}

// What a reversed scan returns: its forward twin's rows, last first; a row
// limit counts from the end (the twin of "limit" is the unlimited scan).
function reversedOf(name, all) {
  const suffix = name.slice('read.raw.reversed.'.length);
  if (suffix === 'limit') return [...all['read.raw.forward.all']].reverse().slice(0, 3);
  const forward = all[`read.raw.forward.${suffix}`];
  return Array.isArray(forward) ? [...forward].reverse() : forward;
}

// The rows `rows` less the cells that their family's GC rule (from the
// table result `table`) condemns at `nowMs`, and less what that empties.
function survivingCells(rows, table, nowMs) {
  if (!Array.isArray(rows) || !table?.families) return rows;
  const rules = Object.fromEntries(table.families.map(f => [f.name, f.gcRule ?? {}]));
  const nowMicros = BigInt(nowMs) * 1000n;
  return rows.map(row => ({
    ...row,
    families: row.families.map(family => ({
      ...family,
      columns: family.columns.map(column => ({
        ...column,
        cells: column.cells.filter((cell, index) => !condemned(rules[family.name], index, BigInt(cell.ts), nowMicros)),
      })).filter(column => column.cells.length > 0),
    })).filter(family => family.columns.length > 0),
  })).filter(row => row.families.length > 0);
}

// Whether GC rule `rule` collects the cell at `index` (0: newest) of its
// column, written at `ts` (micros).
function condemned(rule, index, ts, nowMicros) {
  if (rule.maxNumVersions !== undefined) return index >= rule.maxNumVersions;
  if (rule.maxAge !== undefined) {
    const ageMicros = BigInt(rule.maxAge.seconds ?? 0) * 1000000n + BigInt(rule.maxAge.nanos ?? 0) / 1000n;
    return ts < nowMicros - ageMicros;
  }
  if (rule.union) return rule.union.rules.some(r => condemned(r, index, ts, nowMicros));
  if (rule.intersection) return rule.intersection.rules.every(r => condemned(r, index, ts, nowMicros));
  return false;  // no rule: nothing is collected
}

const CODE_NAMES = [
  'OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND',
  'ALREADY_EXISTS', 'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION',
  'ABORTED', 'OUT_OF_RANGE', 'UNIMPLEMENTED', 'INTERNAL', 'UNAVAILABLE', 'DATA_LOSS',
  'UNAUTHENTICATED',
];

function covers(entry, step) {
  return entry.steps.some(pattern =>
    pattern.endsWith('*') ? step.startsWith(pattern.slice(0, -1)) : step === pattern);
}

// Applies fn to every table-metadata result ({name, granularity, families}).
function mapTables(value, fn) {
  if (Array.isArray(value)) return value.map(v => mapTables(v, fn));
  if (value && typeof value === 'object') {
    if (typeof value.granularity === 'string' && Array.isArray(value.families)) return fn(value);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapTables(v, fn)]));
  }
  return value;
}

// ------------------------------------------------------ normalization
//
// Applied to both sides: what Bigtable leaves unspecified.

// data.proto: "The mutual ordering of column families is not specified."
// Production and the emulator send a row's families in creation order, but
// the order of the families created together by one CreateTable (a proto
// map) is each service's own. Families of a row are therefore sorted by name
// (stably, so runs of one family keep their order), except in the steps
// whose tables got their families one call at a time ("order." steps):
// there the order is compared as sent. Columns and cells keep the server's
// order, which is specified.
function keepsFamilyOrder(step) {
  return step.startsWith('order.') || step.startsWith('persist.order.');
}

function normalizeFor(step) {
  return keepsFamilyOrder(step) ? value => value : normalize;
}

function normalize(value) {
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') {
    const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]));
    if (typeof out.key === 'string' && Array.isArray(out.families)) {
      out.families = [...out.families].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
    return out;
  }
  return value;
}

// ------------------------------------------------------ comparison

// The first path where a and b differ, or null when they are equal.
function firstDifference(a, b, path = '') {
  if (a === b) return null;
  const kind = v => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
  if (kind(a) !== kind(b) || kind(a) !== 'array' && kind(a) !== 'object') {
    return {path: path || '(whole result)', a, b};
  }
  if (kind(a) === 'array') {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) {
        return {path: `${path}[${i}]`, a: i < a.length ? a[i] : '(absent)', b: i < b.length ? b[i] : '(absent)'};
      }
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = firstDifference(k in a ? a[k] : '(absent)', k in b ? b[k] : '(absent)', `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

function show(value) {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 300 ? `${text.slice(0, 300)}... (${text.length} chars)` : text;
}

function readResults(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    console.error(`cannot read results ${file}: ${err.message}`);
    process.exit(2);
  }
}

// What the candidate must give for one step, and the declared differences
// that shaped it.
function expectation(step, reference) {
  let expected = reference[step];
  const applied = [];
  for (const entry of DECLARED) {
    if (!covers(entry, step)) continue;
    const before = JSON.stringify(expected);
    expected = entry.expect ? entry.expect(expected, step, reference) : entry.transform(expected);
    if (JSON.stringify(expected) !== before) applied.push(entry.why);
  }
  return {expected, applied};
}

// What production is known to answer, checked on the candidate whatever the
// emulator gave: the family created first comes first, and a cells-per-row
// limit of 1 keeps its cell (googleapis/java-bigtable#154).
const PRODUCTION_FACTS = [
  {step: 'order.read', holds: rows => rows[0]?.families.map(f => f.name).join() === 'zeta,alpha'},
  {step: 'order.cells-per-row-limit', holds: rows => rows[0]?.families.map(f => f.name).join() === 'zeta'},
  {step: 'order.cells-per-row-offset', holds: rows => rows[0]?.families.map(f => f.name).join() === 'alpha'},
];

function checkProductionFacts(candidate) {
  let failed = 0;
  for (const fact of PRODUCTION_FACTS) {
    if (fact.holds(candidate[fact.step])) continue;
    console.log(`FAIL ${fact.step}: not production's answer: ${show(candidate[fact.step])}`);
    failed++;
  }
  return failed;
}

function compareWithReference(reference, candidate) {
  let passed = 0;
  let failed = checkProductionFacts(candidate);
  for (const step of Object.keys(reference)) {
    const {expected, applied} = expectation(step, reference);
    if (!(step in candidate)) {
      console.log(`FAIL ${step}: missing from the lbt run`);
      failed++;
      continue;
    }
    const d = firstDifference(normalizeFor(step)(expected), normalizeFor(step)(candidate[step]));
    if (!d) {
      passed++;
      continue;
    }
    failed++;
    console.log(`FAIL ${step}: differs at ${d.path}`);
    console.log(`  ${applied.length ? 'production (from the emulator)' : 'emulator'}: ${show(d.a)}`);
    console.log(`  lbt serve: ${show(d.b)}`);
    for (const why of applied) console.log(`  declared difference: ${why}`);
  }
  for (const step of Object.keys(candidate)) {
    if (!(step in reference)) {
      console.log(`FAIL ${step}: only in the lbt run`);
      failed++;
    }
  }
  return {passed, failed};
}

function compareSame(first, second) {
  let passed = 0;
  let failed = 0;
  for (const step of Object.keys(second)) {
    const d = step in first
      ? firstDifference(normalizeFor(step)(first[step]), normalizeFor(step)(second[step]))
      : {path: '(whole result)', a: '(absent)', b: second[step]};
    if (!d) {
      passed++;
      continue;
    }
    failed++;
    console.log(`FAIL ${step}: differs at ${d.path}`);
    console.log(`  first run: ${show(d.a)}`);
    console.log(`  second run: ${show(d.b)}`);
  }
  if (passed + failed === 0) {
    console.log('FAIL: the second run has no step');
    failed++;
  }
  return {passed, failed};
}

function main(argv) {
  const same = argv[0] === '--same';
  const files = same ? argv.slice(1) : argv;
  if (files.length !== 2) {
    console.error('usage: compare.mjs [--same] REFERENCE.json CANDIDATE.json');
    process.exit(2);
  }
  const [a, b] = files.map(readResults);
  const {passed, failed} = same ? compareSame(a, b) : compareWithReference(a, b);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main(process.argv.slice(2));
