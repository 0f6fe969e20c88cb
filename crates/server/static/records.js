// Records tables and personal statistics for one game variant. Every row
// links to its replay.
import { get, clock, el, asking } from './api.js';

// A table: `columns` are [heading, cell, detail] where a cell gives text or
// a node; a detail column is left out on a phone's narrow screen, so that
// the others fit.
function table(title, rows, columns, empty = 'no records yet') {
  const t = el('table', { class: 'records' });
  t.append(el('caption', { text: title }));
  const head = el('tr');
  for (const [name, , detail] of columns) head.append(el('th', { text: name, ...(detail ? { class: 'detail' } : {}) }));
  t.append(el('thead', {}, head));
  const body = el('tbody');
  if (rows.length === 0) {
    body.append(el('tr', {}, el('td', { colspan: String(columns.length), text: empty })));
  }
  rows.forEach((row, i) => {
    const tr = el('tr', row.mine ? { class: 'mine' } : {});
    for (const [, cell, detail] of columns) {
      const value = cell(row, i);
      const attrs = detail ? { class: 'detail' } : {};
      tr.append(value instanceof Node ? el('td', attrs, value) : el('td', { ...attrs, text: String(value) }));
    }
    body.append(tr);
  });
  t.append(body);
  // On a narrow screen a wide table scrolls in its box, not the page.
  return el('div', { class: 'records-scroll' }, t);
}

// A country's flag from its ISO 3166-1 alpha-2 code: the two regional
// indicator letters, which systems draw as the flag. Its accessible name
// is the code.
export function flag(code) {
  const letters = [...code].map((c) => String.fromCodePoint(0x1f1e6 + c.charCodeAt(0) - 65)).join('');
  return el('span', { class: 'flag', role: 'img', 'aria-label': code, title: code, text: letters });
}

// An account's name links to its profile, after its country's flag if it
// gave one; a guest's is plain text.
const who = (r) => {
  if (!r.handle) return r.name || 'anonymous';
  const link = el('a', { href: `/u/${encodeURIComponent(r.handle)}`, text: r.name || r.handle });
  return r.country ? el('span', {}, flag(r.country), ' ', link) : link;
};
// How far a best is from the record: the record's time over this one, as a
// percentage, and the tier that percentage reaches (alpha from 90 %, …
// kappa); the record itself is the record, not a tier.
const percent = (r) => {
  if (r.percent >= 100) return 'the record';
  const of = `${r.percent.toFixed(1)} %`;
  return r.tier ? `${of}, ${r.tier} tier` : of;
};
const when = (r) => new Date(r.finished_at).toISOString().slice(0, 10);
const rank = (r, i) => i + 1;
const time = (r) => clock(r.millis);
// A replay link: on a phone the triangle alone shows ("replay" is still
// its name for a screen reader).
const replayLink = (id, word = 'replay') => el('a', { href: `/replay/${id}`, class: 'replay-link' }, '▶', el('span', { class: 'replay-word', text: ` ${word}` }));
const replay = (r) => replayLink(r.game_id);
const tps = (r) => (r.stm / Math.max(0.001, r.millis / 1000)).toFixed(2);
const verdict = (r) => (r.ranked ? 'ranked' : reasonText(r.reason) || 'not ranked');

// Each account's best average of consecutive results: the mean without
// the best and the worst, and the latest of the results it is over.
function averageTable(title, rows) {
  const latest = (r) => replayLink(r.game_ids[0], 'latest');
  return table(title, rows, [['#', rank], ['name', who], ['average', (r) => clock(r.millis)], ['% of record', percent], ['date', when, true], ['replay', latest]]);
}

// Each time the record fell, oldest first: when, the time, who, by how
// much it beat the one before, and its replay.
function historyList(title, rows) {
  const section = el('section', { class: 'record-history' });
  section.append(el('h4', { text: title }));
  if (rows.length === 0) {
    section.append(el('p', { text: 'no record yet' }));
    return section;
  }
  const list = el('ol');
  for (const r of rows) {
    const by = r.improvement == null ? 'the first record' : `beat the record by ${clock(r.improvement)}`;
    const moves = r.moves == null ? '' : `, ${r.moves} moves`;
    const replay = el('a', { href: `/replay/${r.game_ids[0]}`, class: 'replay-link', text: '▶ replay' });
    list.append(el('li', {}, `${when(r)}: ${clock(r.millis)}${moves} by `, who(r), ` — ${by} `, replay));
  }
  section.append(list);
  return section;
}

// Why a result is not ranked, in words; a guest is invited to sign in.
export function reasonText(reason) {
  return reason === 'guest' ? 'guest: sign in to be ranked' : reason;
}

// The averages the sliding puzzle ranks, each a table of its own.
const AVERAGES = [5, 12, 50, 100];

// Fills `box` with the records and the player's statistics for a variant,
// in a format, a display type and, if one is given, a control.
export async function showRecords(box, game, variant, format = 'single', control = null, display = 'standard') {
  let records, stats, history, averages;
  const query = `game=${encodeURIComponent(game)}&variant=${encodeURIComponent(variant)}`
    + (format === 'single' ? '' : `&format=${encodeURIComponent(format)}`)
    + (control ? `&control=${encodeURIComponent(control)}` : '')
    + (display === 'standard' ? '' : `&display=${encodeURIComponent(display)}`);
  // The sliding puzzle ranks the best averages too: the first query
  // brings the average of 5, one more query each of the others.
  const ranksAverages = game === 'slide';
  const latest = asking(box);
  try {
    [records, stats, history, ...averages] = await Promise.all([
      get(`/api/records?${query}${ranksAverages ? '&by=ao5' : ''}`),
      get(`/api/me/stats?game=${encodeURIComponent(game)}&variant=${encodeURIComponent(variant)}`),
      get(`/api/records/history?${query}`),
      ...(ranksAverages ? AVERAGES.slice(1).map((n) => get(`/api/records?${query}&by=ao${n}`)) : []),
    ]);
  } catch (e) {
    if (latest()) box.replaceChildren(el('p', { class: 'error', text: e.message }));
    return;
  }
  if (!latest()) return;
  // Clicks are filed as `mouse`; the page calls them clicks.
  const controlName = control === 'mouse' ? 'click' : control;
  const named = [format === 'single' ? '' : `, ${format}`, control ? `, ${controlName}` : '',
    display === 'standard' ? '' : `, display ${display}`].join('');
  const parts = [el('h3', { text: `Records — ${variant}${named}` })];
  const byPlayer = game === 'slide'
    ? [['STM', (r) => r.moves], ['MTM', (r) => r.mtm, true], ['TPS', (r) => r.tps.toFixed(2), true]]
    : [];
  parts.push(table('Best time, one per player', records.by_player,
    [['#', rank], ['name', who], ['time', time], ...byPlayer, ['% of record', percent], ['date', when, true], ['replay', replay]]));
  if (game === 'slide') {
    const moves = [['STM', (r) => r.stm], ['MTM', (r) => r.mtm, true]];
    parts.push(
      table('Best time', records.by_time, [['#', rank], ['name', who], ['time', time], ...moves, ['TPS', tps, true], ['date', when, true], ['replay', replay]]),
      table('Fewest moves (STM)', records.by_moves, [['#', rank], ['name', who], ...moves, ['time', time], ['date', when, true], ['replay', replay]]),
      table('Fewest moves (MTM)', records.by_mtm, [['#', rank], ['name', who], ['MTM', (r) => r.mtm], ['STM', (r) => r.stm, true], ['time', time], ['date', when, true], ['replay', replay]]),
      ...[records, ...averages].map((r, i) => averageTable(`Best average of ${AVERAGES[i]}`, r.by_average)),
    );
  } else {
    parts.push(
      table('Best time', records.by_time, [['#', rank], ['name', who], ['time', time], ['score', (r) => r.score], ['date', when, true], ['replay', replay]]),
      table('Best score', records.by_score, [['#', rank], ['name', who], ['score', (r) => r.score], ['time', time], ['date', when, true], ['replay', replay]]),
    );
  }
  parts.push(historyList('Record history (best time)', history.records));
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
  const moves = game === 'slide' ? [['moves', (r) => `${r.stm} (${r.mtm} MTM)`]] : [['score', (r) => r.score]];
  parts.push(table('Your latest results', stats.recent, [['time', time], ...moves, ['verdict', verdict], ['date', when, true], ['replay', replay]], 'none yet'));
  box.replaceChildren(...parts);
  reachable(box);
}

// Fills `box` with a day's board of the daily challenge (today's when
// `date` is null): each player's first attempt, ranked. Gives the board.
export async function showDaily(box, game, variant, format = 'single', date = null) {
  const query = new URLSearchParams({ game, variant });
  if (format !== 'single') query.set('format', format);
  if (date) query.set('date', date);
  let board;
  const latest = asking(box);
  try {
    board = await get(`/api/daily?${query}`);
  } catch (e) {
    if (latest()) box.replaceChildren(el('p', { class: 'error', text: e.message }));
    return null;
  }
  if (!latest()) return null;
  const title = `${board.date}${board.today ? ' (today)' : ''} — ${variant}${format === 'single' ? '' : `, ${format}`}`;
  const empty = board.today ? 'no one yet: be the first' : 'no one played this day';
  const parts = [table(`Fastest, ${title}`, board.by_time, [['#', rank], ['name', who], ['time', time], ['STM', (r) => r.stm], ['replay', replay]], empty)];
  if (board.by_moves) {
    parts.push(table(`Fewest moves, ${title}`, board.by_moves, [['#', rank], ['name', who], ['STM', (r) => r.stm], ['time', time], ['replay', replay]], empty));
  }
  if (board.by_score) {
    parts.push(table(`Best score, ${title}`, board.by_score, [['#', rank], ['name', who], ['score', (r) => r.score], ['time', time], ['replay', replay]], empty));
  }
  box.replaceChildren(...parts);
  reachable(box);
  return board;
}

// A table wider than its box scrolls inside it; the keyboard must reach
// it to scroll it, so such a box takes the focus and names itself.
function reachable(box) {
  for (const scroll of box.querySelectorAll('.records-scroll')) {
    const wide = scroll.scrollWidth > scroll.clientWidth;
    scroll.toggleAttribute('tabindex', wide);
    if (wide) {
      scroll.tabIndex = 0;
      scroll.setAttribute('role', 'region');
      scroll.setAttribute('aria-label', `${scroll.querySelector('caption')?.textContent ?? 'table'}, scrolls sideways`);
    }
  }
}

window.addEventListener('resize', () => {
  for (const box of document.querySelectorAll('.records-box')) reachable(box);
});
