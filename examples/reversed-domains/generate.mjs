// Pages fetched by a web crawler, keyed by host and path, written two ways
// with the same pages:
//
//   pages_plain_domain.jsonl     maps.google.com/place/1042
//   pages_reversed_domain.jsonl  com.google.maps/place/1042
//
//   node generate.mjs [ROWS] [OUT_DIR]
//
// ROWS pages in all, over a few well-known sites with many subdomains and a
// few hundred small sites, fetched over two days from 2023-10-02 00:00 UTC
// in the crawler's order (hosts interleaved). Big sites have far more
// pages than small ones.

import {
  JsonlRowWriter,
  Random,
  ZipfPicker,
  DAY_MS,
  micros,
  parseArgs,
  report,
} from '../lib/generator.mjs';

const START_MS = Date.UTC(2023, 9, 2);
const CRAWL_MS = 2 * DAY_MS;

const { rows, outDir } = parseArgs(20000, 'ROWS crawled pages over well-known and small sites.');
const random = new Random(20231002);

// Well-known sites, each with several hosts ('' is the bare domain).
const BIG_SITES = [
  ['google.com', ['', 'www', 'maps', 'mail', 'drive', 'docs', 'news', 'play', 'scholar']],
  ['wikipedia.org', ['', 'en', 'de', 'fr', 'ja', 'es', 'it', 'pt']],
  ['github.com', ['', 'docs', 'gist', 'status']],
  ['bbc.co.uk', ['www', 'news', 'weather']],
  ['apache.org', ['', 'www', 'hbase', 'kafka', 'spark', 'lucene']],
  ['mozilla.org', ['www', 'developer', 'addons', 'support']],
];
const WORDS_A = ['quiet', 'bright', 'little', 'north', 'silver', 'open', 'green', 'swift', 'red', 'lucky', 'urban', 'happy'];
const WORDS_B = ['harbor', 'garden', 'pixel', 'river', 'forge', 'bakery', 'atlas', 'studio', 'cycle', 'kitchen', 'lab', 'press'];
const TLDS = ['com', 'com', 'com', 'net', 'org', 'io', 'dev', 'co.uk', 'de', 'fr'];
const SMALL_HOSTS = ['', 'www', 'blog', 'shop', 'docs', 'status'];

const hosts = [];
for (const [domain, subdomains] of BIG_SITES) {
  for (const sub of subdomains) hosts.push({ host: sub ? `${sub}.${domain}` : domain, kind: sub || 'home' });
}
const smallDomains = new Set();
while (smallDomains.size < 300) {
  smallDomains.add(`${random.pick(WORDS_A)}${random.pick(WORDS_B)}.${random.pick(TLDS)}`);
}
for (const domain of smallDomains) {
  const subs = random.shuffle([...SMALL_HOSTS]).slice(0, random.between(1, 3));
  for (const sub of subs) hosts.push({ host: sub ? `${sub}.${domain}` : domain, kind: sub || 'home' });
}
// Popularity follows the list order: the well-known hosts come first.
const popularity = new ZipfPicker(hosts.length, 0.9);

const TITLE_WORDS = ['Alpine', 'Lake', 'History', 'Guide', 'Release', 'Notes', 'Recipe', 'Map', 'Station', 'Bridge', 'Theory', 'Garden'];
const pagesPerHost = new Map();

// A believable path for the n-th page of a host.
function pathFor(entry, n) {
  if (n === 0) return '/';
  switch (entry.kind) {
    case 'maps':
      return `/place/${1000 + n}`;
    case 'news':
      return `/articles/2023/10/${String(n).padStart(5, '0')}`;
    case 'docs':
    case 'developer':
      return `/guide/section-${Math.ceil(n / 20)}/page-${n}`;
    case 'shop':
      return `/products/${10000 + n}`;
    case 'blog':
      return `/posts/${n}-${random.pick(TITLE_WORDS).toLowerCase()}`;
    default:
      if (entry.host.endsWith('wikipedia.org')) return `/wiki/${random.pick(TITLE_WORDS)}_${n}`;
      return `/p/${n}`;
  }
}

// The reversed form of a host name: labels in the opposite order, so that
// a domain's hosts share a prefix (com.google.maps, com.google.mail).
const reverseHost = (host) => host.split('.').reverse().join('.');

const pages = [];
for (let i = 0; i < rows; i++) {
  const entry = hosts[popularity.pick(random)];
  const n = pagesPerHost.get(entry.host) ?? 0;
  pagesPerHost.set(entry.host, n + 1);
  const path = pathFor(entry, n);
  pages.push({ ms: START_MS + random.int(CRAWL_MS), host: entry.host, path });
}
pages.sort((a, b) => a.ms - b.ms);

const plain = new JsonlRowWriter(outDir, 'pages_plain_domain.jsonl');
const reversed = new JsonlRowWriter(outDir, 'pages_reversed_domain.jsonl');
for (const p of pages) {
  const ts = micros(p.ms);
  const roll = random.next();
  const status = roll < 0.9 ? 200 : roll < 0.96 ? 301 : 404;
  const cells = [
    ['page', 'status', ts, status],
    ['page', 'content_type', ts, 'text/html; charset=utf-8'],
    ['page', 'length', ts, status === 200 ? random.between(2_000, 180_000) : random.between(150, 600)],
  ];
  if (status === 200) cells.push(['page', 'title', ts, `${random.pick(TITLE_WORDS)} ${random.pick(TITLE_WORDS)}`]);
  plain.row(`${p.host}${p.path}`, cells);
  reversed.row(`${reverseHost(p.host)}${p.path}`, cells);
}
report([plain.close(), reversed.close()]);
