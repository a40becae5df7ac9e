// Change streams through a Node client against `lbt serve`. The Node
// Bigtable library has no change stream API, so the streams are read with
// @grpc/grpc-js over bigtable.proto (from the pinned google-proto-files the
// build fetched), as a Beam-like consumer reads them; the writes go
// through the library's handwritten API. The emulator has no change
// streams: the expected answers are bigtable.proto's ReadChangeStream
// contract.
//
// Usage (from the directory where the client package is installed):
//   BIGTABLE_EMULATOR_HOST=h:p node change_stream.mjs write-and-read PROTOS STATE START_MICROS IMPORTED
//   BIGTABLE_EMULATOR_HOST=h:p node change_stream.mjs resume PROTOS STATE
// `write-and-read` runs a mixed workload on table `t` of projects/lbt/
// instances/local (which the shell filled with IMPORTED rows first), reads
// every partition from START_MICROS and checks that each change came once,
// each row's in order; it then reads half of one partition and keeps its
// last token in STATE. The server is killed with SIGKILL and started
// again; `resume` writes more, resumes that partition from the token and
// checks that the two halves are that partition's changes exactly, then
// that an idle stream sends heartbeats. One line per check; exit 1 if one
// failed.

import {readFileSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {join} from 'node:path';

import {check, expect, fail, failed} from './checks.mjs';

process.env.METADATA_SERVER_DETECTION = 'none';
const require = createRequire(join(process.cwd(), 'package.json'));
const {Bigtable} = require('@google-cloud/bigtable');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const [phase, protos, statePath] = process.argv.slice(2);
const TABLE = 'projects/lbt/instances/local/tables/t';
const host = process.env.BIGTABLE_EMULATOR_HOST;
const definition = protoLoader.loadSync('google/bigtable/v2/bigtable.proto', {
  includeDirs: [protos],
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
});
const v2 = grpc.loadPackageDefinition(definition).google.bigtable.v2;
const raw = new v2.Bigtable(host, grpc.credentials.createInsecure(), {
  'grpc.max_receive_message_length': 64 << 20,
});
const table = new Bigtable({projectId: 'lbt', metricsEnabled: false}).instance('local').table('t');

const nowMicros = () => BigInt(Date.now()) * 1000n;
const timestamp = micros => ({seconds: String(micros / 1000000n), nanos: Number(micros % 1000000n) * 1000});

// A mutation as these checks compare it: kind, family, qualifier, and
// the value of a plain set.
function mutationText(m) {
  switch (m.mutation) {
    case 'setCell':
      return `set ${m.setCell.familyName}:${m.setCell.columnQualifier.toString()}=${m.setCell.value.toString()}`;
    case 'deleteFromColumn':
      return `delcol ${m.deleteFromColumn.familyName}:${m.deleteFromColumn.columnQualifier.toString()}`;
    case 'deleteFromFamily': return `delfam ${m.deleteFromFamily.familyName}`;
    default: return m.mutation;
  }
}

// Reads one ReadChangeStream call: its changes (row, text, token) in order,
// its heartbeats, and how it ended. Stops after `stopAfter` changes if set.
function readStream(request, {deadlineMs = 60000, stopAfter = 0} = {}) {
  return new Promise(resolve => {
    const result = {changes: [], heartbeats: [], closed: false, code: 0};
    const call = raw.ReadChangeStream(request, {deadline: Date.now() + deadlineMs});
    let pending = null;
    call.on('data', r => {
      if (r.streamRecord === 'heartbeat') {
        result.heartbeats.push(
            {token: r.heartbeat.continuationToken.token, watermark: BigInt(r.heartbeat.estimatedLowWatermark.seconds)});
      } else if (r.streamRecord === 'closeStream') {
        result.closed = true;
      } else {
        const d = r.dataChange;
        if (d.type !== 'CONTINUATION') pending = {row: d.rowKey.toString(), type: d.type, muts: []};
        for (const chunk of d.chunks) {
          if (chunk.chunkInfo && chunk.chunkInfo.chunkedValueOffset > 0) {
            pending.muts[pending.muts.length - 1].setCell.value =
                Buffer.concat([pending.muts[pending.muts.length - 1].setCell.value, chunk.mutation.setCell.value]);
          } else {
            pending.muts.push(chunk.mutation);
          }
        }
        if (d.done) {
          result.changes.push(
              {row: pending.row, type: pending.type, text: pending.muts.map(mutationText).join(' '), token: d.token});
          pending = null;
          if (stopAfter && result.changes.length === stopAfter) call.cancel();
        }
      }
    });
    call.on('error', e => {
      result.code = e.code;
    });
    call.on('end', () => {});
    call.on('status', () => resolve(result));
  });
}

function partitions() {
  return new Promise((resolve, reject) => {
    const out = [];
    const call = raw.GenerateInitialChangeStreamPartitions({tableName: TABLE});
    call.on('data', r => out.push(r.partition));
    call.on('error', reject);
    call.on('end', () => resolve(out));
  });
}

// Whether a row key falls in a partition's [start, end).
function inPartition(row, p) {
  const range = p.rowRange || {};
  const start = range.startKeyClosed ? range.startKeyClosed.toString() : '';
  const end = range.endKeyOpen ? range.endKeyOpen.toString() : '';
  return row >= start && (end === '' || row < end);
}

// Each change once, each row's in order: the changes grouped by row equal
// what was expected, and none is left over.
function checkExactlyOnce(changes, expected) {
  const got = {};
  for (const c of changes) (got[c.row] ??= []).push(c.text);
  for (const [row, list] of Object.entries(expected)) expect(`row ${row}`, got[row] ?? [], list);
  const total = Object.values(expected).reduce((n, l) => n + l.length, 0);
  expect('changes in all', changes.length, total);
}

// The workload: each kind of write through the handwritten API, with the
// change each should record (a row deletion records each family's).
async function workload(expected) {
  const add = (row, text) => (expected[row] ??= []).push(text);
  await table.insert([{key: 'w1', data: {cf: {a: 'one'}, other: {b: 'two'}}}]);
  add('w1', 'set cf:a=one set other:b=two');
  await table.insert([{key: 'w2', data: {cf: {a: 'x'}}}, {key: 'w3', data: {cf: {a: 'y'}}}]);
  add('w2', 'set cf:a=x');
  add('w3', 'set cf:a=y');
  await table.row('w1').deleteCells(['cf:a']);
  add('w1', 'delcol cf:a');
  await table.row('w1').deleteCells(['other']);
  add('w1', 'delfam other');
  await table.row('w2').delete();
  add('w2', 'delfam cf delfam other');
  await table.row('w4').increment('cf:n', 5);
  add('w4', `set cf:n=${Buffer.from([0, 0, 0, 0, 0, 0, 0, 5]).toString()}`);  // 5 as 8 big-endian bytes
  await table.row('w4').createRules([{column: 'cf:s', append: 'ab'}]);
  add('w4', 'set cf:s=ab');
  const [matched] = await table.row('w3').filter([{column: 'a'}], {
    onMatch: [{method: 'insert', data: {cf: {m: 'hit'}}}],
    onNoMatch: [{method: 'insert', data: {cf: {m: 'miss'}}}],
  });
  expect('check-and-mutate matched', matched, true);
  add('w3', 'set cf:m=hit');
}

async function writeAndRead(start, imported) {
  const expected = {};
  for (let i = 0; i < imported; i++) {
    const row = `imp#${String(i).padStart(5, '0')}`;
    expected[row] = [`set cf:a=${String.fromCharCode(97 + (i % 26)).repeat(4000)}`];
  }
  await check('a mixed workload through the handwritten API', () => workload(expected));
  const end = nowMicros();
  let parts = [];
  await check('GenerateInitialChangeStreamPartitions gives at least two partitions', async () => {
    parts = await partitions();
    if (parts.length < 2) throw new Error(`${parts.length} partition(s)`);
  });
  const all = [];
  await check('every partition read from the start to the end, each change once and each row in order', async () => {
    for (const p of parts) {
      const r =
          await readStream({tableName: TABLE, partition: p, startTime: timestamp(start), endTime: timestamp(end)});
      if (r.code !== 0) throw new Error(`a stream ended with code ${r.code}`);
      if (!r.closed) throw new Error('a stream past its end time did not send CloseStream');
      for (const c of r.changes) {
        if (!inPartition(c.row, p)) throw new Error(`row ${c.row} outside its partition`);
        all.push(c);
      }
    }
    checkExactlyOnce(all, expected);
  });
  // Half of the first partition (the imported rows), and its last token.
  const p = parts[0];
  const mine = all.filter(c => inPartition(c.row, p));
  const half = Math.floor(mine.length / 2);
  await check('half of a partition, then the token of its last change', async () => {
    const r = await readStream({tableName: TABLE, partition: p, startTime: timestamp(start)}, {stopAfter: half});
    expect('changes read', r.changes.length, half);
    writeFileSync(statePath, JSON.stringify({
      partition: p,
      token: r.changes[half - 1].token,
      first: r.changes.map(c => [c.row, c.text]),
      all: mine.map(c => [c.row, c.text]),
    }));
  });
}

async function resume() {
  const state = JSON.parse(
      readFileSync(statePath, 'utf8'),
      (k, v) => v && v.type === 'Buffer' && Array.isArray(v.data) ? Buffer.from(v.data) : v);
  await check('a write after the restart', async () => {
    await table.insert([{key: 'after-restart', data: {cf: {a: 'late'}}}]);
  });
  await check('the partition resumed from the token after SIGKILL: the rest, once', async () => {
    const r = await readStream({
      tableName: TABLE,
      partition: state.partition,
      continuationTokens: {tokens: [{partition: state.partition, token: state.token}]},
      endTime: timestamp(nowMicros()),
    });
    if (r.code !== 0) throw new Error(`the stream ended with code ${r.code}`);
    const got = state.first.concat(r.changes.map(c => [c.row, c.text]));
    const want =
        state.all.concat(inPartition('after-restart', state.partition) ? [['after-restart', 'set cf:a=late']] : []);
    expect('the partition\'s changes', got.map(c => c.join(': ')), want.map(c => c.join(': ')));
  });
  await check('an idle stream sends heartbeats with tokens', async () => {
    const r = await readStream(
        {tableName: TABLE, partition: {}, heartbeatDuration: {seconds: 0, nanos: 200e6}}, {deadlineMs: 1500});
    expect('deadline', r.code, grpc.status.DEADLINE_EXCEEDED);
    if (r.heartbeats.length < 3) throw new Error(`${r.heartbeats.length} heartbeats in 1.5 s`);
    if (!r.heartbeats.every(h => h.token.startsWith('lbt1:'))) throw new Error('a heartbeat without a token');
  });
  await check('a table without a change stream is FAILED_PRECONDITION', async () => {
    const r = await readStream({tableName: 'projects/lbt/instances/local/tables/plain', partition: {}});
    expect('code', r.code, grpc.status.FAILED_PRECONDITION);
  });
}

if (phase === 'write-and-read') {
  await writeAndRead(BigInt(process.argv[5]), Number(process.argv[6]));
} else if (phase === 'resume') {
  await resume();
} else {
  fail(`unknown phase '${phase}'`);
}
raw.close();
process.exit(failed() ? 1 : 0);
