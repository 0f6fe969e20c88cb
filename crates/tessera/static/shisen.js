// Shisen-Sho: the server deals, finds paths (and applies gravity), gives
// hints and shuffles; undo and redo walk a local history; the whole action
// list is replayed by the server when the board is cleared.
import { post, clock, el } from './api.js';
import { showRecords, reasonText } from './records.js';
import { face, describe } from './tiles.js';
import { matchClass, score } from './rules.js';

const $ = (id) => document.getElementById(id);

let g = null; // the game in play
let selected = null; // index of the selected cell
let busy = false;

function parseBoard(text) {
  const rows = text.replace(/\n+$/, '').split('\n');
  return { w: [...rows[0]].length, h: rows.length, cells: rows.flatMap((r) => [...r]) };
}

const boardText = (cells, w) => {
  const rows = [];
  for (let i = 0; i < cells.length; i += w) rows.push(cells.slice(i, i + w).join(''));
  return rows.join('\n');
};

const cells = () => g.boards[g.at];
const left = () => cells().filter((c) => c !== '.').length;

// Playing time shown on the clock: since the deal was shown, pauses left out.
function elapsed() {
  if (!g) return 0;
  const now = g.finishedAt ?? performance.now();
  const paused = g.pausedAt ? now - g.pausedAt : 0;
  return now - g.shownAt - g.pausedTotal - paused;
}

// Records a turn (a removal [x1, y1, x2, y2], 'shuffle', 'undo' or 'redo')
// and when it was made, in milliseconds since the deal was shown, pauses
// included: the server replays the turns and judges their pace.
function record(turn) {
  g.turns.push(turn);
  g.times.push(Math.max(0, Math.round(performance.now() - g.shownAt)));
}

// The engine's scoring (shisen::Game::score), shown live; the server's
// figure replaces it when the game is submitted.
function liveScore() {
  const start = g.boards[0].filter((c) => c !== '.').length;
  const help = g.undos + g.hints + g.actions.slice(0, g.at).filter((a) => a === 'shuffle').length;
  return score(start, left(), Math.floor(elapsed() / 1000), help, g.gravity);
}

function tick() {
  if (!g) return;
  $('shisen-time').textContent = clock(elapsed(), false);
  if (!g.boards) return; // paused: the board is with the server
  $('shisen-left').textContent = String(left());
  $('shisen-score').textContent = String(g.finalScore ?? liveScore());
}

function status(text, kind = '') {
  const p = $('shisen-status');
  p.textContent = text;
  p.className = `status ${kind}`;
}

// Tiles are 1.3 times as tall as wide.
const ASPECT = 1.3;

// The tile size that fits the whole board, its ring included, in the
// window without scrolling: across the window's width and down from where
// the board starts to the window's bottom (on a phone held upright the
// floor of 14 px wins and the page scrolls).
function tileSize() {
  const top = $('shisen-board').getBoundingClientRect().top + window.scrollY;
  const across = Math.min(window.innerWidth - 48, 1400) / (g.w + 2);
  const down = (window.innerHeight - top - 12) / ((g.h + 2) * ASPECT);
  const tw = Math.max(14, Math.min(52, Math.floor(Math.min(across, down))));
  return [tw, Math.round(tw * ASPECT)];
}

function render() {
  const board = $('shisen-board');
  if (!g.boards) {
    board.replaceChildren();
    return;
  }
  const [tw, th] = tileSize();
  board.style.width = `${(g.w + 2) * tw}px`;
  board.style.height = `${(g.h + 2) * th}px`;
  const nodes = [];
  cells().forEach((kind, i) => {
    if (kind === '.') return;
    const x = i % g.w, y = Math.floor(i / g.w);
    const tile = el('button', {
      class: 'stile', 'data-cell': String(i), 'data-kind': kind,
      title: describe(kind), 'aria-label': describe(kind),
    });
    tile.style.left = `${(x + 1) * tw}px`;
    tile.style.top = `${(y + 1) * th}px`;
    tile.style.width = `${tw}px`;
    tile.style.height = `${th}px`;
    tile.innerHTML = face(kind); // generated SVG, no user text
    if (i === selected) tile.classList.add('selected');
    if (g.highlight && matchClass(kind, g.chinese) === g.highlight) tile.classList.add('same');
    nodes.push(tile);
  });
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'paths');
  svg.setAttribute('width', String((g.w + 2) * tw));
  svg.setAttribute('height', String((g.h + 2) * th));
  nodes.push(svg);
  board.replaceChildren(...nodes);
  tick();
  const step = g.at;
  $('shisen-undo').disabled = step === 0;
  $('shisen-redo').disabled = step >= g.actions.length;
}

function drawPath(points) {
  const [tw, th] = tileSize();
  const svg = $('shisen-board').querySelector('svg.paths');
  const line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
  line.setAttribute('points', points.map(([x, y]) => `${(x + 1.5) * tw},${(y + 1.5) * th}`).join(' '));
  svg.append(line);
}

const tileAt = (i) => $('shisen-board').querySelector(`[data-cell="${i}"]`);

function shake(...indices) {
  for (const i of indices) {
    const t = tileAt(i);
    if (!t) continue;
    t.classList.remove('shake');
    void t.offsetWidth; // restart the animation
    t.classList.add('shake');
  }
}

// Adds a board reached by `action` to the history, dropping redoable steps.
function push(action, next) {
  g.boards.length = g.at + 1;
  g.actions.length = g.at;
  g.boards.push(next);
  g.actions.push(action);
  g.at += 1;
  record(action);
}

async function pick(i) {
  if (!g || busy || g.finished || g.pausedAt) return;
  if (selected === null) {
    selected = i;
    render();
    return;
  }
  if (selected === i) {
    selected = null;
    render();
    return;
  }
  const a = selected;
  selected = null;
  const from = [a % g.w, Math.floor(a / g.w)];
  const to = [i % g.w, Math.floor(i / g.w)];
  busy = true;
  try {
    const r = await post('/api/shisen/path', { board: boardText(cells(), g.w), from, to, gravity: g.gravity, chinese: g.chinese });
    if (!r.path) {
      render();
      shake(a, i);
      status(r.reason || 'These tiles do not connect.');
      return;
    }
    tileAt(a)?.classList.add('selected');
    drawPath(r.path);
    await new Promise((done) => setTimeout(done, 260));
    push([from[0], from[1], to[0], to[1]], parseBoard(r.board).cells);
    status('');
    render();
    if (r.won) await finish();
    else if (r.stuck) status('No moves left from here: shuffle or undo.', 'warn');
    else checkSolvable();
  } catch (e) {
    render();
    status(e.message, 'error');
  } finally {
    busy = false;
  }
}

// Asks the solver whether the board can still be cleared, and warns if not.
async function checkSolvable() {
  const game = g, step = g.at;
  try {
    const r = await post('/api/shisen/check', { board: boardText(cells(), g.w), gravity: g.gravity, chinese: g.chinese });
    if (game !== g || step !== g.at) return;
    if (r.solvable === false) status('No solution from here: undo, or shuffle.', 'warn');
  } catch { /* the warning is a courtesy; play goes on */ }
}

async function finish() {
  g.finished = true;
  g.finishedAt = performance.now();
  const game = g;
  status('Cleared! Checking with the server…');
  try {
    const r = await post('/api/shisen/submit', { game: game.game, turns: game.turns, times: game.times });
    if (game !== g) return;
    game.finalScore = r.score;
    tick();
    if (!r.solved) {
      status('The server does not see this board as cleared.', 'error');
      return;
    }
    const verdict = r.ranked ? 'ranked' : `not ranked — ${reasonText(r.reason)}`;
    status(`Cleared in ${clock(r.millis, false)} — score ${r.score}, ${verdict}. `, r.ranked ? 'good' : 'warn');
    $('shisen-status').append(el('a', { href: `/replay/${r.game}`, text: 'Watch the replay' }));
    showRecords($('shisen-records'), 'shisen', game.variant);
  } catch (e) {
    status(`Could not record: ${e.message}`, 'error');
  }
}

async function hint() {
  if (!g || g.finished || g.pausedAt) return;
  try {
    const r = await post('/api/shisen/hint', { board: boardText(cells(), g.w), gravity: g.gravity, chinese: g.chinese, game: g.game });
    if (!r.move) {
      status('No moves left from here: shuffle or undo.', 'warn');
      return;
    }
    g.hints += 1;
    const [x1, y1, x2, y2] = r.move;
    for (const i of [y1 * g.w + x1, y2 * g.w + x2]) tileAt(i)?.classList.add('hinted');
    status(r.safe ? 'Hint: a safe pair (the board stays solvable).'
      : r.solvable === false ? 'Hint: a pair that connects — but no solution from here: undo, or shuffle.'
      : 'Hint: a pair that connects.', r.solvable === false ? 'warn' : '');
  } catch (e) {
    status(e.message, 'error');
  }
}

async function shuffle() {
  if (!g || g.finished || g.pausedAt || left() === 0) return;
  try {
    const r = await post('/api/shisen/shuffle', { game: g.game, board: boardText(cells(), g.w), step: g.at });
    push('shuffle', parseBoard(r.board).cells);
    selected = null;
    render();
    status(r.stuck ? 'Still no moves after shuffling: undo or shuffle again.' : 'Shuffled.', r.stuck ? 'warn' : '');
  } catch (e) {
    status(e.message, 'error');
  }
}

function undo() {
  if (!g || g.finished || g.pausedAt || g.at === 0) return;
  g.at -= 1;
  g.undos += 1;
  record('undo');
  selected = null;
  status('');
  render();
}

function redo() {
  if (!g || g.finished || g.pausedAt || g.at >= g.actions.length) return;
  g.at += 1;
  record('redo');
  selected = null;
  render();
}

function restart() {
  if (!g || g.finished || g.pausedAt) return;
  g.undos += g.at;
  for (; g.at > 0; g.at -= 1) record('undo');
  selected = null;
  render();
}

// Pausing hands the turns so far to the server and drops the board, so a
// pause cannot be used to study it; resuming gets the boards back.
async function pause() {
  if (!g || g.finished) return;
  const pausing = !g.pausedAt;
  try {
    if (pausing) {
      await post('/api/shisen/pause', { game: g.game, turns: g.turns, times: g.times });
      g.pausedAt = performance.now();
      g.boards = null;
      selected = null;
    } else {
      const r = await post('/api/shisen/resume', { game: g.game });
      g.boards = r.boards.map((text) => parseBoard(text).cells);
      g.at = r.at;
      g.pausedTotal += performance.now() - g.pausedAt;
      g.pausedAt = null;
    }
  } catch (e) {
    status(e.message, 'error');
    return;
  }
  $('shisen-board').classList.toggle('hidden-board', pausing);
  $('shisen-paused').hidden = !pausing;
  $('shisen-pause').textContent = pausing ? 'Resume' : 'Pause';
  render();
}

function sizeChoice() {
  const preset = $('shisen-preset').value;
  return preset === 'custom' ? { size: $('shisen-custom').value.trim() } : { preset };
}

function shareLink(seed) {
  const params = new URLSearchParams({
    ...sizeChoice(), gravity: g.gravity ? '1' : '0', chinese: g.chinese ? '1' : '0',
    solvable: $('shisen-solvable').checked ? '1' : '0', seed: String(seed),
  });
  return `${location.origin}${location.pathname}#shisen&${params}`;
}

export async function start(params = new URLSearchParams()) {
  if (params.has('preset')) $('shisen-preset').value = params.get('preset');
  if (params.has('size')) { $('shisen-preset').value = 'custom'; $('shisen-custom').value = params.get('size'); }
  $('shisen-custom').hidden = $('shisen-preset').value !== 'custom';
  if (params.has('gravity')) $('shisen-gravity').checked = params.get('gravity') === '1';
  if (params.has('chinese')) $('shisen-chinese').checked = params.get('chinese') === '1';
  const body = { ...sizeChoice(), gravity: $('shisen-gravity').checked, chinese: $('shisen-chinese').checked };
  body.solvable = params.has('solvable') ? params.get('solvable') === '1' : $('shisen-solvable').checked;
  $('shisen-solvable').checked = body.solvable;
  if (params.has('daily')) body.daily = true;
  else if (params.has('seed')) body.seed = Number(params.get('seed'));
  try {
    const r = await post('/api/shisen/new', body);
    const b = parseBoard(r.board);
    g = {
      game: r.game, seed: r.seed, variant: r.variant, w: b.w, h: b.h,
      gravity: r.gravity, chinese: r.chinese, boards: [b.cells], actions: [], at: 0,
      turns: [], times: [], shownAt: performance.now(), pausedTotal: 0, pausedAt: null, hints: 0, undos: 0,
      finished: false, finalScore: null, highlight: null,
    };
    selected = null;
    $('shisen-board').classList.remove('hidden-board');
    $('shisen-paused').hidden = true;
    $('shisen-pause').textContent = 'Pause';
    history.replaceState(null, '', r.daily ? '#shisen&daily' : shareLink(r.seed));
    status(`${r.daily ? 'Daily deal' : 'Seed'} ${r.seed}${r.solvable ? ' — solvable' : ' — any deal: it may have no solution'}`);
    render();
    showRecords($('shisen-records'), 'shisen', g.variant);
  } catch (e) {
    status(e.message, 'error');
  }
}

export function init() {
  const board = $('shisen-board');
  board.addEventListener('click', (e) => {
    const t = e.target.closest('.stile');
    if (t) pick(Number(t.dataset.cell));
  });
  const highlight = (t) => {
    const cls = matchClass(t.dataset.kind, g.chinese);
    g.highlight = g.highlight === cls ? null : cls;
    render();
  };
  board.addEventListener('contextmenu', (e) => {
    const t = e.target.closest('.stile');
    if (!t || !g) return;
    e.preventDefault();
    highlight(t);
  });
  let press = null;
  board.addEventListener('touchstart', (e) => {
    const t = e.target.closest('.stile');
    if (!t || !g) return;
    press = setTimeout(() => { press = 'done'; highlight(t); }, 500);
  }, { passive: true });
  board.addEventListener('touchend', (e) => {
    if (press === 'done') e.preventDefault(); // a long press is not a click
    else clearTimeout(press);
    press = null;
  });
  $('shisen-preset').addEventListener('change', () => { $('shisen-custom').hidden = $('shisen-preset').value !== 'custom'; });
  $('shisen-new').addEventListener('click', () => start());
  $('shisen-daily').addEventListener('click', () => start(new URLSearchParams('daily')));
  $('shisen-hint').addEventListener('click', hint);
  $('shisen-undo').addEventListener('click', undo);
  $('shisen-redo').addEventListener('click', redo);
  $('shisen-shuffle').addEventListener('click', shuffle);
  $('shisen-restart').addEventListener('click', restart);
  $('shisen-pause').addEventListener('click', pause);
  $('shisen-share').addEventListener('click', async () => {
    if (!g) return;
    const link = shareLink(g.seed);
    try { await navigator.clipboard.writeText(link); status(`Link copied: ${link}`); } catch { status(link); }
  });
  window.addEventListener('resize', () => { if (g) render(); });
  // A sign-in or sign-out changes whose results and records are "mine".
  window.addEventListener('tessera:account', () => { if (g) showRecords($('shisen-records'), 'shisen', g.variant); });
  setInterval(tick, 250);
}
