// The sliding puzzle: moves are applied here so play is instant; the server
// issued the puzzle and replays the whole move list when it is solved.
import { post, clock, el } from './api.js';
import { showRecords, reasonText } from './records.js';
import { SOURCE, INVERSE, applyMove, movesToward, mtmCount } from './rules.js';
import * as looks from './looks.js';
import { announce } from './a11y.js';

const $ = (id) => document.getElementById(id);

let s = null; // the game in play
let timer = null;
let solving = false;
// How tiles look: `key` is the menu's value; a picture's cropped image and
// a scheme's colours are kept with the game they were made for.
let look = { key: 'numbers', photo: null, picture: null, colours: null, for: null };

function parse(text) {
  const rows = text.split('/').map((r) => r.trim().split(/\s+/).map(Number));
  return { w: rows[0].length, h: rows.length, tiles: rows.flat() };
}

const format = (tiles, w) => {
  const rows = [];
  for (let i = 0; i < tiles.length; i += w) rows.push(tiles.slice(i, i + w).join(' '));
  return rows.join('/');
};

function blankOf(tiles) { return tiles.indexOf(0); }

// The moves that slide the tile at cell `c` towards the blank.
const movesFor = (c) => movesToward(s.tiles, s.w, c);

function elapsed() { return s ? performance.now() - s.shownAt : 0; }

function tick() {
  if (!s) return;
  const ms = s.finishedMillis ?? elapsed();
  $('slide-time').textContent = clock(ms);
  $('slide-moves').textContent = String(s.moves.length);
  $('slide-mtm').textContent = String(mtmCount(s.moves));
  $('slide-mps').textContent = ms > 0 ? (s.moves.length / (ms / 1000)).toFixed(2) : '0.00';
}

// Records a single-tile move and when it was made (milliseconds since the
// puzzle was shown): the server judges the pace, and the replay shows it.
function record(letter) {
  s.moves.push(letter);
  s.times.push(Math.max(0, Math.round(performance.now() - s.shownAt)));
}

function status(text, kind = '') {
  const p = $('slide-status');
  p.textContent = text;
  p.className = `status ${kind}`;
}

// The height left for the board from where it starts to the window's
// bottom: the CSS sizes cells to fit it as well as the width.
function fitHeight(board) {
  const top = board.getBoundingClientRect().top + window.scrollY;
  board.style.setProperty('--room', `${Math.max(120, window.innerHeight - top - 24)}px`);
}

// Draws the board: one element per tile, positioned by transform so moves
// animate smoothly.
function render() {
  const board = $('slide-board');
  board.style.setProperty('--w', s.w);
  board.style.setProperty('--h', s.h);
  fitHeight(board);
  board.classList.toggle('blind', s.blind && s.moves.length > 0 && !s.solved);
  board.classList.toggle('solved', !!s.solved);
  if (board.dataset.game !== s.game) {
    board.replaceChildren();
    board.dataset.game = s.game;
    s.tiles.forEach((t) => {
      if (t === 0) return;
      board.append(el('div', { class: 'tile', 'data-tile': String(t), 'aria-hidden': 'true', text: String(t) }));
    });
    board.append(readerRows());
    board.setAttribute('aria-label', `sliding puzzle, ${s.w} by ${s.h}`);
  }
  const home = new Map(s.goal.map((t, i) => [t, i]));
  s.tiles.forEach((t, i) => {
    if (t === 0) return;
    const tile = board.querySelector(`[data-tile="${t}"]`);
    tile.style.transform = `translate(${(i % s.w) * 100}%, ${Math.floor(i / s.w) * 100}%)`;
    tile.dataset.cell = String(i);
    tile.classList.toggle('home', home.get(t) === i);
  });
  paintLook(board, home);
  readerCells(board);
  tick();
}

// The board as a screen reader meets it: a grid of rows and cells in
// reading order, each saying its tile and place ("7, row 2, column 3").
// The visible tiles are positioned by transform and hidden from it.
function readerRows() {
  const rows = el('div', { class: 'sr-only', role: 'rowgroup' });
  for (let y = 0; y < s.h; y++) {
    const row = el('div', { role: 'row' });
    for (let x = 0; x < s.w; x++) row.append(el('div', { role: 'gridcell', 'data-place': String(y * s.w + x) }));
    rows.append(row);
  }
  return rows;
}

function readerCells(board) {
  for (const cell of board.querySelectorAll('[data-place]')) {
    const i = Number(cell.dataset.place);
    const t = s.tiles[i];
    const where = `row ${Math.floor(i / s.w) + 1}, column ${(i % s.w) + 1}`;
    cell.textContent = `${t === 0 ? 'blank' : t}, ${where}`;
  }
}

const WORDS = { U: 'up', D: 'down', L: 'left', R: 'right' };

// "7 left; 9 of 15 in place": what a move did, for the live region.
function sayMoves(moved, letter) {
  const placed = s.tiles.filter((t, i) => t !== 0 && t === s.goal[i]).length;
  announce('slide-said', `${moved.join(', ')} ${WORDS[letter]}; ${placed} of ${s.tiles.length - 1} in place`);
}

// Shows the current look on the board's tiles: a scheme's colours, or each
// tile's part of the picture (the part at its goal cell).
function paintLook(board, home) {
  const ready = look.for === s.game;
  const scheme = ready && look.colours && look.key.startsWith('scheme:');
  const picture = ready && look.picture && (look.key.startsWith('picture:') || look.key === 'photo');
  board.classList.toggle('look-scheme', !!scheme);
  board.classList.toggle('look-picture', !!picture);
  board.classList.toggle('no-numbers', !$('slide-numbers').checked);
  board.dataset.look = ready ? look.key : 'numbers';
  if (picture) board.style.setProperty('--picture', `url("${look.picture}")`);
  for (const tile of board.querySelectorAll('.tile')) {
    const t = Number(tile.dataset.tile);
    const h = home.get(t);
    tile.style.setProperty('--hx', String(h % s.w));
    tile.style.setProperty('--hy', String(Math.floor(h / s.w)));
    tile.style.setProperty('--fill', scheme ? look.colours.fills[t] : '');
    tile.style.setProperty('--ink', scheme ? look.colours.texts[t] : '');
  }
}

// Makes what the chosen look needs for the game in play (colours from the
// server, a picture cropped to the board), then redraws.
async function prepareLook() {
  if (!s) return;
  const game = s;
  const key = $('slide-look').value;
  look.key = key;
  try {
    if (key.startsWith('scheme:')) {
      look.colours = await looks.colours(game.goalText, key.slice(7));
    } else if (key.startsWith('picture:')) {
      look.picture = await looks.cropped(looks.builtIn(key.slice(8)), game.w, game.h);
    } else if (key === 'photo') {
      if (!look.photo) return;
      look.picture = await looks.cropped(look.photo, game.w, game.h);
    }
  } catch (e) {
    status(`Cannot show that look: ${e.message}`, 'error');
    return;
  }
  if (game !== s || look.key !== key) return;
  look.for = game.game;
  render();
  renderGoal();
}

function renderGoal() {
  const overlay = $('slide-goal-overlay');
  if (look.for === s.game && look.picture && (look.key.startsWith('picture:') || look.key === 'photo')) {
    // A picture puzzle's goal is the whole picture.
    const img = el('img', { class: 'goal-picture', src: look.picture, alt: 'the whole picture' });
    img.style.aspectRatio = `${s.w} / ${s.h}`;
    overlay.replaceChildren(el('div', { class: 'goal-title', text: `Goal: ${s.goalName}` }), img);
    return;
  }
  const grid = el('div', { class: 'goal-grid' });
  grid.style.setProperty('--w', s.w);
  for (const t of s.goal) grid.append(el('div', { class: t === 0 ? 'cell blank' : 'cell', text: t === 0 ? '' : String(t) }));
  overlay.replaceChildren(el('div', { class: 'goal-title', text: `Goal: ${s.goalName}` }), grid);
}

function solvedNow() { return s.tiles.every((t, i) => t === s.goal[i]); }

// Plays moves (tile-direction letters) from the player.
function play(letters) {
  if (!s || s.solved || solving) return;
  const moved = [];
  for (const m of letters) {
    const blank = blankOf(s.tiles);
    if (!applyMove(s.tiles, s.w, s.h, m)) break;
    record(m);
    moved.push(s.tiles[blank]);
  }
  if (moved.length === 0) return;
  render();
  sayMoves(moved, letters[0]);
  if (solvedNow()) finish();
}

async function finish() {
  s.solved = true;
  const game = s;
  render();
  status('Solved! Checking with the server…');
  try {
    const r = await post('/api/slide/submit', { game: game.game, moves: game.moves.join(''), times: game.times });
    if (game !== s) return;
    game.finishedMillis = r.millis;
    tick();
    if (!r.solved) {
      status('The server does not see this as solved.', 'error');
      return;
    }
    const tps = (r.stm / Math.max(0.001, r.millis / 1000)).toFixed(2);
    const verdict = r.ranked ? 'ranked' : `not ranked — ${reasonText(r.reason)}`;
    status(`Solved in ${clock(r.millis)}: ${r.stm} moves (${r.mtm} MTM), ${tps} TPS — ${verdict}. `, r.ranked ? 'good' : 'warn');
    $('slide-status').append(el('a', { href: `/replay/${r.game}`, text: 'Watch the replay' }));
    refreshRecords();
  } catch (e) {
    status(`Could not record: ${e.message}`, 'error');
  }
}

function refreshRecords() {
  if (s) showRecords($('slide-records'), 'slide', s.variant);
}

// The look, for links: a player's own photo stays on their machine.
function lookParam() {
  const key = $('slide-look').value;
  return key === 'numbers' || key === 'photo' ? '' : `&look=${encodeURIComponent(key)}`;
}

function shareLink(seed) {
  const params = new URLSearchParams({ size: `${s.w}x${s.h}`, goal: $('slide-goal').value, seed: String(seed) });
  return `${location.origin}${location.pathname}#slide&${params}${lookParam()}`;
}

// Starts a game from the page's controls, or from `params` (a share link).
export async function start(params = new URLSearchParams()) {
  if (params.has('size')) $('slide-size').value = params.get('size');
  if (params.has('goal')) $('slide-goal').value = params.get('goal');
  if (params.has('look') && [...$('slide-look').options].some((o) => o.value === params.get('look'))) {
    $('slide-look').value = params.get('look');
  }
  const body = { size: $('slide-size').value, goal: $('slide-goal').value };
  if (params.has('daily')) body.daily = true;
  else if (params.has('seed')) body.seed = Number(params.get('seed'));
  solving = false;
  try {
    const r = await post('/api/slide/new', body);
    const p = parse(r.position);
    s = {
      game: r.game, seed: r.seed, variant: r.variant, w: p.w, h: p.h,
      start: p.tiles.slice(), tiles: p.tiles, goal: parse(r.goal_position).tiles,
      goalName: r.goal, goalText: r.goal_position, moves: [], times: [], solved: false,
      blind: $('slide-blind').checked, shownAt: performance.now(), daily: r.daily,
    };
    history.replaceState(null, '', r.daily ? `#slide&daily${lookParam()}` : shareLink(r.seed));
    status(r.daily ? `Daily puzzle ${r.seed}` : `Seed ${r.seed}`);
    render();
    renderGoal();
    prepareLook();
    refreshRecords();
    // The keys work at once; a phone would only show a focus ring.
    if (!matchMedia('(pointer: coarse)').matches) $('slide-board').focus();
  } catch (e) {
    status(e.message, 'error');
  }
}

async function hint() {
  if (!s || s.solved) return;
  try {
    const metric = $('slide-mtm-hints').checked ? 'mtm' : 'stm';
    const r = await post('/api/slide/hint', { position: format(s.tiles, s.w), goal: s.goalText, game: s.game, metric });
    if (!r.move) return;
    const b = blankOf(s.tiles);
    const [dx, dy] = SOURCE[r.move];
    const cell = (Math.floor(b / s.w) + dy) * s.w + (b % s.w) + dx;
    const tile = $('slide-board').querySelector(`[data-cell="${cell}"]`);
    if (tile) {
      tile.classList.add('hinted');
      setTimeout(() => tile.classList.remove('hinted'), 900);
    }
    const unit = metric === 'mtm' ? 'MTM moves' : 'moves';
    status(`Hint: slide ${r.run} (${r.remaining} ${unit} to go${r.optimal ? ', optimal' : ''})`);
  } catch (e) {
    status(e.message, 'error');
  }
}

async function solve() {
  if (!s || s.solved || solving) return;
  const game = s;
  try {
    status('Solving…');
    const metric = $('slide-mtm-hints').checked ? 'mtm' : 'stm';
    const r = await post('/api/slide/solve', { position: format(s.tiles, s.w), goal: s.goalText, game: s.game, metric });
    if (game !== s) return;
    const shortest = r.optimal ? ` (shortest in ${metric.toUpperCase()})` : '';
    status(`Solution: ${r.length} moves, ${r.mtm} MTM${shortest}`);
    solving = true;
    for (const m of r.moves) {
      await new Promise((done) => setTimeout(done, 140));
      if (game !== s || !solving) return;
      applyMove(s.tiles, s.w, s.h, m);
      record(m);
      render();
    }
    solving = false;
    if (solvedNow()) finish();
  } catch (e) {
    solving = false;
    status(e.message, 'error');
  }
}

// Takes the last move back by making the opposite move: it counts, as it
// would on a real puzzle, and the replay shows it.
function undo() {
  if (!s || s.solved || solving || s.moves.length === 0) return;
  play([INVERSE[s.moves[s.moves.length - 1]]]);
}

function restart() {
  if (!s || s.solved) return;
  solving = false;
  s.tiles = s.start.slice();
  s.moves = [];
  s.times = [];
  render();
}

const KEYS = {
  ArrowUp: 'U', ArrowDown: 'D', ArrowLeft: 'L', ArrowRight: 'R',
  w: 'U', s: 'D', a: 'L', d: 'R', W: 'U', S: 'D', A: 'L', D: 'R',
};

export function init() {
  window.addEventListener('resize', () => fitHeight($('slide-board')));
  const sizes = $('slide-size');
  for (let h = 3; h <= 10; h++) {
    for (let w = 3; w <= 10; w++) {
      if (Math.abs(w - h) > 2) continue;
      sizes.append(el('option', { value: `${w}x${h}`, text: `${w}×${h}` }));
    }
  }
  sizes.value = '4x4';
  const lookMenu = $('slide-look');
  for (const [value, text] of looks.options()) lookMenu.append(el('option', { value, text }));
  lookMenu.addEventListener('change', () => {
    if (lookMenu.value === 'photo' && !look.photo) { $('slide-photo').click(); return; }
    if (s) history.replaceState(null, '', s.daily ? `#slide&daily${lookParam()}` : shareLink(s.seed));
    prepareLook();
  });
  $('slide-photo').addEventListener('change', () => {
    const file = $('slide-photo').files[0];
    if (!file) return;
    if (look.photo) URL.revokeObjectURL(look.photo);
    // An object URL: the photo is read by this page only, never sent.
    look.photo = URL.createObjectURL(file);
    lookMenu.value = 'photo';
    prepareLook();
  });
  $('slide-numbers').addEventListener('change', () => { if (s) render(); });
  const board = $('slide-board');
  board.addEventListener('click', (e) => {
    // A tile on screen, or a screen reader's cell (activated by Enter).
    const tile = e.target.closest('.tile');
    const cell = e.target.closest('[data-place]');
    if (tile) play(movesFor(Number(tile.dataset.cell)));
    else if (cell) play(movesFor(Number(cell.dataset.place)));
  });
  document.addEventListener('keydown', (e) => {
    if ($('page-slide').hidden || e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
    if (e.key in KEYS) { e.preventDefault(); play([KEYS[e.key]]); }
    if (e.key === 'Backspace') { e.preventDefault(); undo(); }
  });
  let touch = null;
  board.addEventListener('touchstart', (e) => { touch = e.touches[0]; }, { passive: true });
  board.addEventListener('touchend', (e) => {
    if (!touch) return;
    const t = e.changedTouches[0];
    const [dx, dy] = [t.clientX - touch.clientX, t.clientY - touch.clientY];
    touch = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return; // a tap: the click handler plays it
    e.preventDefault();
    play([Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'R' : 'L') : (dy > 0 ? 'D' : 'U')]);
  });
  $('slide-new').addEventListener('click', () => start());
  $('slide-daily').addEventListener('click', () => start(new URLSearchParams('daily')));
  $('slide-undo').addEventListener('click', undo);
  $('slide-hint').addEventListener('click', hint);
  $('slide-solve').addEventListener('click', solve);
  $('slide-restart').addEventListener('click', restart);
  $('slide-blind').addEventListener('change', () => { if (s) { s.blind = $('slide-blind').checked; render(); } });
  $('slide-show-goal').addEventListener('click', () => {
    const o = $('slide-goal-overlay');
    o.hidden = !o.hidden;
    $('slide-show-goal').textContent = o.hidden ? 'Show goal' : 'Hide goal';
  });
  $('slide-share').addEventListener('click', async () => {
    if (!s) return;
    const link = shareLink(s.seed);
    try { await navigator.clipboard.writeText(link); status(`Link copied: ${link}`); } catch { status(link); }
  });
  // A sign-in or sign-out changes whose results and records are "mine".
  window.addEventListener('tessera:account', refreshRecords);
  timer = setInterval(tick, 100);
}
