// The daily fewest-moves challenge, /fmc (or /fmc#YYYY-MM-DD for a past
// day): the day's two scrambles from GET /api/fmc/{day}; today, a board to
// play with any control (slide-board.js: hover, a click or tap, the keys
// while it has the focus, a swipe) and a moves box checked as it is typed,
// then POST /api/fmc/{day}/{size}; a past day, every entry ranked beside
// the optimum. The moves are applied with rules.js; the server replays the
// entry in any case.
import { get, el } from './api.js';
import * as a11y from './a11y.js';
import { applyMove, mtmCount, readMoves } from './rules.js';
import { SlideBoard, display, controlMenu, displayMenu } from './slide-board.js';
import { submit } from './outbox.js';

const $ = (id) => document.getElementById(id);

const parse = (text) => text.split('/').map((row) => row.trim().split(/\s+/).map(Number));

// Replays `letters` from `start`: where it fails, or the tiles reached.
function replay(start, w, h, letters) {
  const tiles = start.slice();
  for (let i = 0; i < letters.length; i += 1) {
    if (!applyMove(tiles, w, h, letters[i])) return { illegal: i, tiles };
  }
  return { tiles };
}

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

// Runs of one letter written with a count: R R R D -> R3 D.
function compact(letters) {
  const out = [];
  for (let i = 0; i < letters.length;) {
    let j = i;
    while (j < letters.length && letters[j] === letters[i]) j += 1;
    out.push(j - i > 1 ? `${letters[i]}${j - i}` : letters[i]);
    i = j;
  }
  return out.join(' ');
}

// Today's board on one size: a grid to click, the moves box, submit.
function playable(day, b) {
  const rows = parse(b.position);
  const [h, w] = [rows.length, rows[0].length];
  const start = rows.flat();
  const goal = parse(b.goal).flat();
  const id = `fmc-${b.size}`;
  const section = el('section', { class: 'fmc-board', 'aria-labelledby': `${id}-title` });
  section.append(el('h3', { id: `${id}-title`, text: `${b.size}: ${b.entries} ${b.entries === 1 ? 'entry' : 'entries'} so far` }));
  section.append(el('p', { text: `Seed ${b.seed} (tessera slide new --size ${b.size} --seed ${b.seed}). Scramble: ${b.position}` }));
  if (b.mine) {
    section.append(el('p', { class: 'status good', text: `Your entry: ${b.mine.stm} moves (${b.mine.mtm} MTM): ${b.mine.moves}. Everyone's are shown when the day is over.` }));
    return section;
  }
  const node = el('div', { class: 'slide-board', tabindex: '0', role: 'grid', 'aria-describedby': 'fmc-help' });
  const box = el('input', {
    id: `${id}-moves`, class: 'fmc-moves', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'characters',
    'aria-describedby': `${id}-check`,
  });
  const check = el('p', { id: `${id}-check`, class: 'status', role: 'status' });
  const send = el('button', { type: 'button', text: `Send my ${b.size} solution` });
  const reset = el('button', { type: 'button', text: 'Back to the scramble' });
  let letters = [];
  const board = new SlideBoard(node, {
    play, keysOn: 'board', fit: false, label: `${b.size} board`,
  });

  function draw(tiles, played) {
    board.draw({ key: id, w, h, tiles, goal, start, moves: letters, played, display: display() });
  }

  // Reads the box, says what the moves come to, and draws where they lead.
  function validate() {
    const read = readMoves(box.value);
    if (read.error) {
      check.textContent = read.error; check.className = 'status error';
      send.disabled = true;
      return;
    }
    letters = read.letters;
    const r = replay(start, w, h, letters);
    draw(r.tiles, r.illegal ?? letters.length);
    if (r.illegal !== undefined) {
      check.textContent = `Move ${r.illegal + 1} (${letters[r.illegal]}) is illegal: no tile can slide that way.`;
      check.className = 'status error';
      send.disabled = true;
    } else if (same(r.tiles, goal) && letters.length > 0) {
      check.textContent = `Solved: ${letters.length} moves, ${mtmCount(letters)} MTM.`;
      check.className = 'status good';
      send.disabled = false;
    } else {
      check.textContent = `${letters.length} moves, not solved yet.`;
      check.className = 'status';
      send.disabled = true;
    }
  }

  // Moves from the board, where the box's moves lead: those that can be
  // made are written in the box.
  function play(moves) {
    const tiles = replay(start, w, h, letters).tiles;
    const made = [];
    for (const m of moves) if (applyMove(tiles, w, h, m)) made.push(m); else break;
    if (made.length === 0) return;
    box.value = compact(letters.concat(made));
    validate();
  }

  box.addEventListener('input', validate);
  reset.addEventListener('click', () => { box.value = ''; validate(); });
  send.addEventListener('click', async () => {
    send.disabled = true;
    try {
      // Kept on this device until the server answers (outbox.js).
      const onKept = (text) => { check.textContent = text; check.className = 'status warn'; return true; };
      const what = `${b.size} fewest-moves entry`;
      const entry = await submit(`/api/fmc/${day}/${b.size}`, { moves: box.value }, { what, onKept });
      a11y.announce('fmc-status', `Your ${b.size} entry is in: ${entry.stm} moves.`);
      load();
    } catch (e) {
      check.textContent = e.status === 401 ? 'Sign in on the main page to send a solution.' : e.message;
      check.className = 'status error';
      send.disabled = false;
    }
  });
  const label = el('label', { for: box.id, text: `${b.size} moves (U D L R for the way a tile slides, a count after a letter repeats it: R2 D L3)` });
  section.append(el('div', { class: 'board-wrap' }, node), label, box, check,
    el('div', { class: 'fmc-actions' }, send, reset));
  validate();
  return section;
}

// A board of a day: its results if the day is over.
function results(b, closed) {
  const section = el('section', { class: 'fmc-board' });
  section.append(el('h3', { text: `${b.size}: ${b.entries} ${b.entries === 1 ? 'entry' : 'entries'}` }));
  section.append(el('p', { text: `Seed ${b.seed}. Scramble: ${b.position}` }));
  if (!closed) {
    section.append(el('p', { text: b.mine ? `Your entry: ${b.mine.stm} moves (${b.mine.mtm} MTM): ${b.mine.moves}` : 'The entries are shown when the day is over.' }));
    return section;
  }
  const o = b.optimum;
  if (o) section.append(el('p', { text: `${o.proven ? 'Optimum (proven)' : 'Best known'}: ${o.stm} moves (${o.mtm} MTM): ${o.moves}` }));
  const t = el('table', { class: 'records' });
  t.append(el('caption', { text: `${b.size} results, fewest single-tile moves first` }));
  const head = el('tr');
  for (const name of ['#', 'player', 'moves', 'MTM', 'lost', 'solution']) head.append(el('th', { scope: 'col', text: name }));
  t.append(el('thead', {}, head));
  const body = el('tbody');
  for (const e of b.results) {
    const row = el('tr', e.mine ? { class: 'mine' } : {});
    row.append(
      el('td', { text: String(e.rank) }),
      el('td', {}, el('a', { href: `/u/${encodeURIComponent(e.handle)}`, text: e.handle })),
      el('td', { text: String(e.stm) }),
      el('td', { text: String(e.mtm) }),
      el('td', { text: e.lost === 0 ? 'optimal' : `+${e.lost}` }),
      el('td', { class: 'fmc-solution', text: e.moves }),
    );
    body.append(row);
  }
  if (b.results.length === 0) body.append(el('tr', {}, el('td', { colspan: '6', text: 'no entries' })));
  t.append(body);
  section.append(el('div', { class: 'records-scroll' }, t));
  return section;
}

const fetchDay = (day) => get(`/api/fmc/${encodeURIComponent(day)}`);

// The day asked for in the address, else the server's today (this
// device's date may be a day off the server's UTC one: asked first, then
// the day before, then the server's today if it differs).
async function fetchShown(asked) {
  if (asked) return fetchDay(asked);
  const now = Date.now();
  const date = (ms) => new Date(ms).toISOString().slice(0, 10);
  let d;
  try {
    d = await fetchDay(date(now));
  } catch (e) {
    if (e.status !== 400) throw e;
    d = await fetchDay(date(now - 86400000));
  }
  return d.day === d.today ? d : fetchDay(d.today);
}

async function load() {
  const asked = location.hash.slice(1);
  const status = $('fmc-status');
  status.textContent = 'Loading… (a day just over takes a few seconds the first time: its optimum is searched for)';
  status.className = 'status';
  let d;
  try {
    d = await fetchShown(asked);
  } catch (e) {
    status.textContent = e.message; status.className = 'status error';
    return;
  }
  status.textContent = ''; status.className = 'status';
  $('fmc-title').textContent = `Fewest-moves challenge of ${d.day}${d.closed ? '' : ' (open)'}`;
  for (const [link, day] of [[$('fmc-previous'), d.previous], [$('fmc-next'), d.next]]) {
    link.hidden = !day;
    if (day) link.href = `#${day}`;
  }
  const open = d.day === d.today;
  $('fmc-boards').replaceChildren(...d.boards.map((b) => (open ? playable(d.day, b) : results(b, d.closed))));
}

window.addEventListener('hashchange', load);
a11y.init();
controlMenu($('fmc-control'));
// Another display: each board drawn again where its moves box leads.
displayMenu($('fmc-display'), () => {
  for (const box of document.querySelectorAll('.fmc-moves')) box.dispatchEvent(new Event('input'));
});
load();
