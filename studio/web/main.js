// lbt studio's page: the buttons wired to the parts, and the deep links. Joined into index.html's one script by
// studio/embed_page.cmake, in the order index.html names them.

function goTo(tab) {
  if (tab === 'rows') { showTab('rows'); return browseRows(false); }
  if (tab === 'sql') return openSql(`SELECT * FROM ${sqlName(currentTable)} LIMIT 100`);
  if (tab === 'lab') { showTab('lab'); return analyze(); }
  showTab('live');
  return startLive();
}

for (const b of document.querySelectorAll('nav button')) b.addEventListener('click', () => showTab(b.dataset.tab));
for (const b of document.querySelectorAll('#table-actions button')) b.addEventListener('click', act(() => goTo(b.dataset.go)));
$('rows-mode').addEventListener('change', showRowInputs);
$('new-go').addEventListener('click', act(() => createTable()));
$('rows-go').addEventListener('click', act(() => browseRows(false)));
$('rows-next').addEventListener('click', act(() => browseRows(true)));
$('rows-show').addEventListener('change', act(() => browseRows(false)));
$('rows-csv').addEventListener('click', () => download(`${currentTable}.csv`, rowsAsCsv(), 'text/csv'));
$('rows-jsonl').addEventListener('click', () => download(`${currentTable}.jsonl`, rowsAsJsonl(), 'application/jsonl'));
$('sql-run').addEventListener('click', act(() => runSql()));
$('sql-more').addEventListener('click', showMoreSql);
$('sql-explain').addEventListener('click', act(() => explainSql()));
$('sql-save').addEventListener('click', act(() => saveView()));
$('history').addEventListener('change', () => { if ($('history').value) $('sql-input').value = $('history').value; });
$('edit-go').addEventListener('click', act(() => setCell()));
$('sql-stop').addEventListener('click', act(() => stop()));
$('lab-go').addEventListener('click', act(() => analyze()));
$('heatmap').addEventListener('mousemove', heatmapTip);
$('heatmap').addEventListener('mouseleave', () => { $('heatmap-tip').style.display = 'none'; });
$('heatmap').addEventListener('mousedown', (e) => { if (heatmap && heatmap.values.length) dragFrom = heatmapCell(e).r; });
$('heatmap').addEventListener('mouseup', heatmapZoom);
$('heatmap-reset').addEventListener('click', () => { zoom = null; drawHeatmap(heatmap); });
$('live-go').addEventListener('click', act(() => startLive()));
$('live-stop').addEventListener('click', stopLive);
$('live-enable').addEventListener('click', async () => {
  try { await run(`setchangestream ${word(liveTable)} 1d`); await startLive(); } catch (e) { showError(e); }
});
$('sql-input').addEventListener('keydown', completionKeys);
$('sql-input').addEventListener('input', () => complete(false).catch(showError));
$('sql-input').addEventListener('blur', () => { $('completion').hidden = true; });

// Deep links: ?table=T&prefix=P opens the rows there; ?sql=Q runs Q;
// ?lab=T analyzes T.
(async () => {
  showHistory();
  post('/api/words').then((w) => { functionNames = w.functions; }).catch(showError);
  showWhere(await post('/api/where'));
  await loadSidebar();
  if (params.has('table')) {
    await selectTable(params.get('table'));
    if (params.has('prefix')) {
      $('rows-prefix').value = params.get('prefix');
      showTab('rows');
      await browseRows(false);
    }
  }
  if (params.has('lab')) {
    await selectTable(params.get('lab'));
    showTab('lab');
    await analyze();
  }
  if (params.has('sql')) await openSql(params.get('sql'));
})().catch(showError);
