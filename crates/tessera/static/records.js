// Records tables and personal statistics for one game variant.
import { get, clock, el } from './api.js';

function table(title, rows, columns) {
  const t = el('table', { class: 'records' });
  t.append(el('caption', { text: title }));
  const head = el('tr');
  for (const [name] of columns) head.append(el('th', { text: name }));
  t.append(el('thead', {}, head));
  const body = el('tbody');
  if (rows.length === 0) {
    body.append(el('tr', {}, el('td', { colspan: String(columns.length), text: 'no records yet' })));
  }
  rows.forEach((row, i) => {
    const tr = el('tr', row.mine ? { class: 'mine' } : {});
    for (const [, cell] of columns) tr.append(el('td', { text: String(cell(row, i)) }));
    body.append(tr);
  });
  t.append(body);
  return t;
}

const who = (r) => r.name || 'anonymous';
const when = (r) => new Date(r.finished_at).toISOString().slice(0, 10);

// Fills `box` with the records and the player's statistics for a variant.
export async function showRecords(box, game, variant) {
  let records, stats;
  try {
    [records, stats] = await Promise.all([
      get(`/api/records?game=${encodeURIComponent(game)}&variant=${encodeURIComponent(variant)}`),
      get(`/api/me/stats?game=${encodeURIComponent(game)}&variant=${encodeURIComponent(variant)}`),
    ]);
  } catch (e) {
    box.replaceChildren(el('p', { class: 'error', text: e.message }));
    return;
  }
  const rank = (r, i) => i + 1;
  const time = (r) => clock(r.millis);
  const parts = [el('h3', { text: `Records — ${variant}` })];
  parts.push(table('Best time', records.by_time, [['#', rank], ['name', who], ['time', time], ['moves', (r) => r.moves], ['date', when]]));
  if (game === 'slide') {
    parts.push(table('Fewest moves', records.by_moves, [['#', rank], ['name', who], ['moves', (r) => r.moves], ['time', time], ['date', when]]));
  } else {
    parts.push(table('Best score', records.by_score, [['#', rank], ['name', who], ['score', (r) => r.score], ['time', time], ['date', when]]));
  }
  const fmt = (ms) => (ms == null ? '–' : clock(ms));
  const mine = el('dl', { class: 'personal' });
  for (const [k, v] of [
    ['solved', String(stats.count)],
    ['best', fmt(stats.best_millis)],
    ['fewest moves', stats.best_moves == null ? '–' : String(stats.best_moves)],
    ['average of 5', fmt(stats.ao5)],
    ['average of 12', fmt(stats.ao12)],
  ]) {
    mine.append(el('dt', { text: k }), el('dd', { text: v }));
  }
  parts.push(el('h3', { text: 'Your statistics' }), mine);
  box.replaceChildren(...parts);
}
