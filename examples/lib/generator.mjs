// Shared helpers for the lessons' data generators: argument handling, a
// seeded random source, time formatting for row keys, and a writer of the
// JSON-lines rows that `lbt import` reads.
//
// Every generator is deterministic: the same row count gives byte-identical
// files, so a lesson's output (and the test that checks it) never changes
// from one run to the next.

import fs from 'node:fs';
import path from 'node:path';

// Reads `node generate.mjs [ROWS] [OUT_DIR]`. ROWS is the size of the
// lesson's main table (each generator says how it maps ROWS to its data);
// OUT_DIR defaults to the current directory.
export function parseArgs(defaultRows, usage) {
  const args = process.argv.slice(2);
  if (args.includes('-h') || args.includes('--help')) {
    process.stdout.write(`usage: node generate.mjs [ROWS] [OUT_DIR]\n${usage}\n(default ROWS: ${defaultRows})\n`);
    process.exit(0);
  }
  if (args.length > 2) fail('too many arguments; usage: node generate.mjs [ROWS] [OUT_DIR]');
  let rows = defaultRows;
  if (args.length >= 1) {
    if (!/^[1-9][0-9]*$/.test(args[0])) fail(`ROWS must be a positive integer, not '${args[0]}'`);
    rows = Number(args[0]);
    if (rows > 5_000_000) fail('ROWS above 5,000,000 would take minutes; the lessons need far fewer');
  }
  const outDir = args.length >= 2 ? args[1] : '.';
  fs.mkdirSync(outDir, { recursive: true });
  return { rows, outDir };
}

export function fail(message) {
  process.stderr.write(`generate: ${message}\n`);
  process.exit(2);
}

// A small, fast, seeded generator (mulberry32). Math.random cannot be
// seeded, and the lessons need the same data on every run.
export class Random {
  constructor(seed) {
    this.state = seed >>> 0;
  }

  // A float in [0, 1).
  next() {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  // An integer in [0, n).
  int(n) {
    return Math.floor(this.next() * n);
  }

  // An integer in [lo, hi].
  between(lo, hi) {
    return lo + this.int(hi - lo + 1);
  }

  chance(p) {
    return this.next() < p;
  }

  pick(items) {
    return items[this.int(items.length)];
  }

  // A normally distributed value (Box-Muller), for sensor noise.
  normal(mean = 0, stddev = 1) {
    const u = 1 - this.next();
    const v = this.next();
    return mean + stddev * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  // `digits` lowercase hex characters, like the device ids in the seeds.
  hex(digits) {
    let out = '';
    for (let i = 0; i < digits; i++) out += '0123456789abcdef'[this.int(16)];
    return out;
  }

  // Fisher-Yates, in place.
  shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
}

// Distinct random hex ids, with `fixed` ids first (the seeds' example
// devices, so that a lesson's script can name them).
export function distinctHexIds(random, count, digits, fixed = []) {
  const seen = new Set(fixed);
  const ids = [...fixed].slice(0, count);
  while (ids.length < count) {
    const id = random.hex(digits);
    if (!seen.has(id)) {
      seen.add(id);
      ids.push(id);
    }
  }
  return ids;
}

// Picks an index in [0, n) with Zipf-like weights (index 0 the most
// popular): real traffic is skewed, a few pages or users take most of it.
export class ZipfPicker {
  constructor(n, exponent = 1.0) {
    this.cumulative = new Float64Array(n);
    let total = 0;
    for (let i = 0; i < n; i++) {
      total += 1 / Math.pow(i + 1, exponent);
      this.cumulative[i] = total;
    }
    this.total = total;
  }

  pick(random) {
    const target = random.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

const pad = (n, width = 2) => String(n).padStart(width, '0');

// 20190501: a day, sortable as text.
export function dayStamp(ms) {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
}

// 202103051204: a minute, sortable as text.
export function minuteStamp(ms) {
  const d = new Date(ms);
  return `${dayStamp(ms)}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}`;
}

// 20150301124501002: a millisecond, sortable as text (the seeds' form).
export function millisStamp(ms) {
  const d = new Date(ms);
  return `${minuteStamp(ms)}${pad(d.getUTCSeconds())}${pad(d.getUTCMilliseconds(), 3)}`;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

// Bigtable cell timestamps are microseconds with millisecond granularity.
export const micros = (ms) => ms * 1000;

// Java's Long.MAX_VALUE: a reversed timestamp is this minus the
// timestamp, so later events get smaller numbers and sort first. BigInt,
// because it is beyond a double's exact range.
export const LONG_MAX = 9223372036854775807n;
export const reversedMillis = (ms) => (LONG_MAX - BigInt(ms)).toString();

// FNV-1a over a string's UTF-16 units: a cheap, stable hash for salting.
export function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

// Writes lines to a file through a large buffer: one write call per
// megabyte keeps generation of 50,000 rows well under a second.
export class LineWriter {
  constructor(outDir, name) {
    this.name = name;
    this.path = path.join(outDir, name);
    this.fd = fs.openSync(this.path, 'w');
    this.buffer = [];
    this.bufferedChars = 0;
    this.lines = 0;
  }

  line(text) {
    this.buffer.push(text, '\n');
    this.bufferedChars += text.length + 1;
    this.lines++;
    if (this.bufferedChars > 1 << 20) this.flush();
  }

  flush() {
    if (this.buffer.length === 0) return;
    fs.writeSync(this.fd, this.buffer.join(''));
    this.buffer = [];
    this.bufferedChars = 0;
  }

  close() {
    this.flush();
    fs.closeSync(this.fd);
  }
}

// The row objects of `lbt --format jsonl`, which `lbt import` reads back:
// {"key": ..., "cells": [{"family", "qualifier", "timestamp", "value"}]}.
// Lines with the same key add cells to one row, so a file can carry a
// row's versions in the order they were written.
export class JsonlRowWriter {
  constructor(outDir, name) {
    this.out = new LineWriter(outDir, name);
    this.keys = new Set();
    this.cells = 0;
  }

  // cells: [family, qualifier, timestampMicros, value] tuples.
  row(key, cells) {
    const objects = cells.map(([family, qualifier, timestamp, value]) => ({
      family,
      qualifier,
      timestamp,
      value: String(value),
    }));
    this.out.line(JSON.stringify({ key, cells: objects }));
    this.keys.add(key);
    this.cells += cells.length;
  }

  close() {
    this.out.close();
    return { file: this.out.name, rows: this.keys.size, cells: this.cells };
  }
}

// Prints what a generator wrote, one line per file, so that a run shows
// the sizes the lesson's counts should match.
export function report(outputs) {
  for (const o of outputs) {
    const parts = [`${o.rows} rows`];
    if (o.cells !== undefined) parts.push(`${o.cells} cells`);
    if (o.commands !== undefined) parts.push(`${o.commands} commands`);
    process.stderr.write(`generate: wrote ${o.file}: ${parts.join(', ')}\n`);
  }
}
