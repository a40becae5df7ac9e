// Reads a screenshot of a keyviz SVG (PNG, as Chromium writes it) and
// prints the heatmap's shape as JSON: for each key range (row of cells),
// the window (column) where it is brightest and the share of its cells that
// are lit. The layout is keyviz_page.cc's: cells start at x=220, y=40.
//
//   node keyviz_shape.mjs SHOT.png RANGES WINDOWS CELL_WIDTH CELL_HEIGHT

import {readFileSync} from 'node:fs';
import {inflateSync} from 'node:zlib';

function decodePng(bytes) {
  let offset = 8;
  let width = 0, height = 0, colorType = 0;
  const idat = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('ascii', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8) throw new Error('only 8-bit PNGs are read');
      colorType = data[9];
    } else if (type === 'IDAT') {
      idat.push(data);
    }
    offset += 12 + length;
  }
  const channels = {2: 3, 6: 4}[colorType];
  if (!channels) throw new Error(`PNG colour type ${colorType} is not read`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? pixels[y * stride + x - channels] : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const upLeft = y > 0 && x >= channels ? pixels[(y - 1) * stride + x - channels] : 0;
      let v = line[x];
      if (filter === 1) v += left;
      else if (filter === 2) v += up;
      else if (filter === 3) v += (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left), pb = Math.abs(p - up), pc = Math.abs(p - upLeft);
        v += pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      pixels[y * stride + x] = v & 0xff;
    }
  }
  return {width, height, channels, pixels};
}

const [shot, ranges, windows, cellWidth, cellHeight] = process.argv.slice(2);
const png = decodePng(readFileSync(shot));
const brightness = (x, y) => {
  const i = (y * png.width + x) * png.channels;
  return (png.pixels[i] + png.pixels[i + 1] + png.pixels[i + 2]) / 3;
};
// An empty cell is the darkest colour of the scale; a lit one is brighter.
const lit = 40;
const rows = [];
for (let r = 0; r < Number(ranges); r++) {
  const y = 40 + r * Number(cellHeight) + Math.floor(Number(cellHeight) / 2);
  let brightest = -1, best = -1, count = 0;
  for (let w = 0; w < Number(windows); w++) {
    const x = 220 + w * Number(cellWidth) + Math.floor(Number(cellWidth) / 2);
    const b = brightness(x, y);
    if (b > lit) count++;
    if (b > best) best = b, brightest = w;
  }
  rows.push({brightest_window: brightest, lit_share: count / Number(windows)});
}
console.log(JSON.stringify({width: png.width, height: png.height, rows}));
