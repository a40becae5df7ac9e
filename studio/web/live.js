// lbt studio's page: the live log (watch polled up to now) and the views' states. Joined into index.html's one script by
// studio/embed_page.cmake, in the order index.html names them.

// --- live ---
let liveTimer = null, liveToken = null, liveTable = null;
function stopLive() {
  if (liveTimer) clearTimeout(liveTimer);
  if (liveTimer || $('live-go').disabled) $('live-summary').textContent = `stopped watching ${liveTable}`;
  liveTimer = null;
  $('live-go').disabled = false;
  $('live-stop').disabled = true;
}
function logChange(change) {
  const log = $('live-log');
  for (const m of change.mutations || [{}]) {
    const [kind, body] = Object.entries(m)[0] || ['change', {}];
    const div = document.createElement('div');
    const time = document.createElement('span');
    time.className = 'time';
    time.textContent = change.commit_time + ' ';
    const value = body.value !== undefined || body.value_b64 !== undefined ? readable(body.value, body.value_b64) : '';
    const column = body.family ? ` ${body.family}:${body.qualifier ?? ''}` : '';
    div.append(time, `${readable(change.row_key, change.row_key_b64)} ${kind}${column}` +
                     (value !== '' ? ` = ${value}` : '') + (change.type === 'garbage_collection' ? ' (GC)' : ''));
    div.dataset.row = change.row_key ?? '';
    log.appendChild(div);
  }
  while (log.children.length > 2000) log.firstChild.remove();  // bounded
  log.scrollTop = log.scrollHeight;
}
async function pollLive() {
  liveTimer = null;
  const from = liveToken ? `token=${word(liveToken)}` : 'start=-10m';
  const changes = await run(`watch ${word(liveTable)} ${from} end=now`);
  if (!$('live-go').disabled) return;  // stopped meanwhile
  for (const change of changes) {
    if (change.token) liveToken = change.token;
    if (change.mutations || change.row_key !== undefined) logChange(change);
  }
  $('live-summary').textContent = `watching ${liveTable}: ${$('live-log').children.length} changes shown`;
  liveTimer = setTimeout(() => pollLive().catch(liveFailed), 1000);
  await showViewStates();
}
function liveFailed(error) {
  stopLive();
  showError(error);
  $('live-enable').hidden = !/change stream/.test(String(error.message));
}
async function startLive() {
  if (!currentTable) throw new Error('pick a table first');
  stopLive();
  liveTable = currentTable;
  liveToken = null;
  $('live-log').replaceChildren();
  $('live-go').disabled = true;
  $('live-stop').disabled = false;
  $('live-enable').hidden = true;
  await pollLive().catch(liveFailed);
}
async function showViewStates() {
  const [views] = await run('listmaterializedviews');
  fill($('live-views'), ['materialized view', 'source table', 'state'],
       (views.materialized_views || []).map((v) => [v.materialized_view, v.source_table, v.state]));
}

