// lbt studio's page: the schema lab (advise, stats, hotspots, the zoomable heatmap). Joined into index.html's one script by
// studio/embed_page.cmake, in the order index.html names them.

// --- schema lab ---
async function analyze() {
  if (!currentTable) throw new Error('pick a table first');
  $('lab-summary').textContent = 'analyzing...';
  const [advice] = await run('advise ' + word(currentTable));
  const box = $('findings');
  box.replaceChildren();
  for (const f of advice.findings) {
    const div = document.createElement('div');
    div.className = `finding ${f.severity}`;
    div.dataset.rule = f.rule;
    for (const [label, text] of [[f.severity + ' · ' + f.rule, f.message], ['why', f.why], ['fix', f.fix]]) {
      if (!text) continue;
      const p = document.createElement('p');
      const b = document.createElement('b');
      b.textContent = label + ': ';
      p.append(b, text);
      div.appendChild(p);
    }
    box.appendChild(div);
  }
  if (!advice.findings.length) box.textContent = 'No findings: the sampled keys and cells look sound.';
  const [heat] = await run('keyviz ' + word(currentTable));
  zoom = null;
  drawHeatmap(heat);
  showStats((await run('stats ' + word(currentTable)))[0]);
  showHotspots((await run('hotspots ' + word(currentTable)))[0]);
  $('lab-summary').textContent =
      `${advice.rows_sampled} rows sampled; ${advice.findings.length} finding(s)`;
}

function card(title, lines) {
  const div = document.createElement('div');
  div.className = 'card';
  const b = document.createElement('b');
  b.textContent = title;
  div.appendChild(b);
  for (const line of lines) {
    if (line instanceof Node) { div.appendChild(line); continue; }
    const p = document.createElement('div');
    p.textContent = line;
    div.appendChild(p);
  }
  return div;
}
function histogram(buckets) {
  const bars = document.createElement('div');
  bars.className = 'bars';
  const peak = Math.max(1, ...buckets.map((b) => b.count));
  for (const b of buckets) {
    const bar = document.createElement('span');
    bar.style.height = `${Math.max(2, 58 * b.count / peak)}px`;
    bar.title = `${b.low}..${b.high}: ${b.count}`;
    bars.appendChild(bar);
  }
  return bars;
}
function showStats(stats) {
  const about = stats.exact ? '' : '≈ ';
  $('stats-measure').textContent = stats.exact ? '(every row read)' : `(estimated from ${stats.rows_sampled} sampled rows)`;
  const cards = [card('totals', [`${about}${stats.rows} rows`, `${about}${stats.cells} cells`, `${about}${size(stats.bytes)}`]),
                 card('families', stats.families.map((f) => `${f.family}: ${f.cells} cells, ${size(f.bytes)}`))];
  for (const [name, d] of Object.entries(stats.distributions || {})) {
    cards.push(card(name.replace(/_/g, ' '), [`p50 ${d.p50} · p99 ${d.p99} · max ${d.max}`, histogram(d.histogram || [])]));
  }
  $('stats').replaceChildren(...cards);
}
function showHotspots(spots) {
  $('hotspots-summary').textContent =
      `(${spots.nodes} nodes; the busiest took ${Math.round(spots.peak_node_share * 100)}% of a window's writes)`;
  const color = (node) => `hsl(${(node * 67) % 360}, 60%, 50%)`;
  $('hotspots-legend').replaceChildren('each window\'s writes by node, time across:', ...Array.from({length: spots.nodes}, (_, n) => {
    const span = document.createElement('span');
    span.textContent = `■ node ${n}`;
    span.style.color = color(n);
    return span;
  }));
  const canvas = $('hotspots'), ctx = canvas.getContext('2d');
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const w = canvas.width / Math.max(1, spots.windows.length);
  spots.windows.forEach((win, i) => {
    let y = canvas.height;
    win.node_shares.forEach((share, node) => {
      const h = share * canvas.height;
      ctx.fillStyle = color(node);
      ctx.fillRect(i * w, y - h, Math.max(1, w - 1), h);
      y -= h;
    });
  });
  fill($('tablets'), ['tablet start', 'end', 'node', 'bytes', 'writes'],
       spots.tablets.map((t) => [t.start_key || '(start)', t.end_key || '(end)', t.node, t.bytes, t.writes]));
}

// The heatmap, zoomable: `zoom` is the rows (key ranges) shown, or null.
let heatmap = null, zoom = null, dragFrom = null;
function shownRanges() { return zoom || [0, heatmap.values.length]; }
function drawHeatmap(heat) {
  heatmap = heat;
  const canvas = $('heatmap'), ctx = canvas.getContext('2d');
  ctx.fillStyle = '#0b1020';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  $('heatmap-measure').textContent = heat.measure ? `(${heat.measure}, key ranges down, time across)` : '';
  $('heatmap-reset').hidden = !zoom;
  const [first, last] = shownRanges();
  const rows = last - first, columns = heat.values.length ? heat.values[0].length : 0;
  if (!rows || !columns) return;
  const peak = Math.max(1, ...heat.values.slice(first, last).flat());
  const w = canvas.width / columns, h = canvas.height / rows;
  heat.values.slice(first, last).forEach((line, r) => line.forEach((v, c) => {
    if (!v) return;
    const t = Math.sqrt(v / peak);  // brighter for more writes
    ctx.fillStyle = `hsl(${50 - 50 * t}, 100%, ${15 + 50 * t}%)`;
    ctx.fillRect(c * w, r * h, Math.ceil(w), Math.ceil(h));
  }));
}
function heatmapCell(event) {
  const canvas = $('heatmap'), rect = canvas.getBoundingClientRect();
  const [first, last] = shownRanges();
  const c = Math.floor((event.clientX - rect.left) / rect.width * heatmap.values[0].length);
  const r = first + Math.floor((event.clientY - rect.top) / rect.height * (last - first));
  return {r: Math.min(Math.max(r, first), last - 1), c, rect};
}
function heatmapTip(event) {
  const tip = $('heatmap-tip');
  if (!heatmap || !heatmap.values.length) return;
  const {r, c, rect} = heatmapCell(event);
  const range = heatmap.ranges[r];
  if (!range || c < 0 || c >= heatmap.values[0].length) return;
  tip.textContent = `[${range.start_key || '(start)'}, ${range.end_key || '(end)'}) · ${heatmap.windows[c]} · ` +
                    `${heatmap.values[r][c]} ${heatmap.measure}`;
  tip.style.left = `${event.clientX - rect.left + 12}px`;
  tip.style.top = `${event.clientY - rect.top + 12}px`;
  tip.style.display = 'block';
}
function heatmapZoom(event) {
  if (!heatmap || dragFrom === null || !heatmap.values.length) return;
  const to = heatmapCell(event).r;
  const [a, b] = [Math.min(dragFrom, to), Math.max(dragFrom, to) + 1];
  dragFrom = null;
  if (b - a >= 1 && b - a < shownRanges()[1] - shownRanges()[0]) {
    zoom = [a, b];
    drawHeatmap(heatmap);
  }
}

