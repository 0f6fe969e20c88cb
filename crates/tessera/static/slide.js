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
  // A format counts the moves of the puzzles already solved too.
  const stm = s.moves.length + s.done.reduce((n, p) => n + p.moves.length, 0);
  const mtm = mtmCount(s.moves) + s.done.reduce((n, p) => n + mtmCount([...p.moves]), 0);
  $('slide-time').textContent = clock(ms);
  $('slide-moves').textContent = String(stm);
  $('slide-mtm').textContent = String(mtm);
  $('slide-mps').textContent = ms > 0 ? (stm / (ms / 1000)).toFixed(2) : '0.00';
}

// Records a single-tile move, when it was made (milliseconds since the
// puzzle, or the format, was shown) and how (`k` key, `m` mouse, `t`
// touch): the server judges the pace and files the result by control, and
// the replay shows it.
function record(letter, input) {
  s.moves.push(letter);
  s.times.push(Math.max(0, Math.round(performance.now() - s.shownAt)));
  s.inputs.push(input);
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
  const blind = s.blind && s.moves.length > 0 && !s.solved;
  board.classList.toggle('blind', blind);
  board.classList.toggle('solved', !!s.solved);
  if (board.dataset.game !== s.key) {
    board.replaceChildren();
    board.dataset.game = s.key;
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
    // Blindfolded, the numbers are gone from the page, not only unseen.
    tile.textContent = blind ? '' : String(t);
  });
  paintLook(board, home);
  readerCells(board, blind);
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

function readerCells(board, blind) {
  for (const cell of board.querySelectorAll('[data-place]')) {
    const i = Number(cell.dataset.place);
    const t = s.tiles[i];
    const where = `row ${Math.floor(i / s.w) + 1}, column ${(i % s.w) + 1}`;
    const tile = blind ? 'tile' : t;
    cell.textContent = `${t === 0 ? 'blank' : tile}, ${where}`;
  }
}

const WORDS = { U: 'up', D: 'down', L: 'left', R: 'right' };

// "7 left; 9 of 15 in place": what a move did, for the live region.
function sayMoves(moved, letter) {
  if (s.blind && !s.solved) moved = moved.map(() => 'tile');
  const placed = s.tiles.filter((t, i) => t !== 0 && t === s.goal[i]).length;
  announce('slide-said', `${moved.join(', ')} ${WORDS[letter]}; ${placed} of ${s.tiles.length - 1} in place`);
}

// Shows the current look on the board's tiles: a scheme's colours, or each
// tile's part of the picture (the part at its goal cell).
function paintLook(board, home) {
  const ready = look.for === s.key;
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
  look.for = game.key;
  render();
  renderGoal();
}

function renderGoal() {
  const overlay = $('slide-goal-overlay');
  if (look.for === s.key && look.picture && (look.key.startsWith('picture:') || look.key === 'photo')) {
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

// Plays moves (tile-direction letters) from the player, made by `input`
// (`k` keyboard, `m` mouse, `t` touch).
function play(letters, input) {
  if (!s || s.solved || solving) return;
  const moved = [];
  for (const m of letters) {
    const blank = blankOf(s.tiles);
    if (!applyMove(s.tiles, s.w, s.h, m)) break;
    record(m, input);
    moved.push(s.tiles[blank]);
  }
  if (moved.length === 0) return;
  render();
  sayMoves(moved, letters[0]);
  if (solvedNow()) solvedPuzzle();
}

async function finish() {
  s.solved = true;
  const game = s;
  render();
  status('Solved! Checking with the server…');
  try {
    const r = await post('/api/slide/submit', submission(game));
    if (game !== s) return;
    game.finishedMillis = r.millis;
    tick();
    if (!r.solved) {
      status('The server does not see this as solved.', 'error');
      return;
    }
    const tps = (r.stm / Math.max(0.001, r.millis / 1000)).toFixed(2);
    const verdict = r.ranked ? 'ranked' : `not ranked — ${reasonText(r.reason)}`;
    const what = game.format === 'single' ? 'Solved' : `${formatName(game.format)} solved`;
    status(`${what} in ${clock(r.millis)}${phases(game)}: ${r.stm} moves (${r.mtm} MTM), ${tps} TPS — ${verdict}. `, r.ranked ? 'good' : 'warn');
    showSplits(game);
    $('slide-status').append(el('a', { href: `/replay/${r.game}`, text: 'Watch the replay' }));
    refreshRecords();
  } catch (e) {
    status(`Could not record: ${e.message}`, 'error');
  }
}

function refreshRecords() {
  if (s) showRecords($('slide-records'), 'slide', s.variant, s.format);
}

// The look, for links: a player's own photo stays on their machine.
function lookParam() {
  const key = $('slide-look').value;
  return key === 'numbers' || key === 'photo' ? '' : `&look=${encodeURIComponent(key)}`;
}

function shareLink(seed) {
  const params = new URLSearchParams({ size: s.size, goal: $('slide-goal').value, seed: String(seed) });
  if (s.format !== 'single') params.set('format', s.format);
  return `${location.origin}${location.pathname}#slide&${params}${lookParam()}`;
}

// Starts a game from the page's controls, or from `params` (a share link).
export async function start(params = new URLSearchParams()) {
  if (params.has('size')) $('slide-size').value = params.get('size');
  if (params.has('goal')) $('slide-goal').value = params.get('goal');
  if ([...$('slide-format').options].some((o) => o.value === params.get('format'))) $('slide-format').value = params.get('format');
  if (params.has('look') && [...$('slide-look').options].some((o) => o.value === params.get('look'))) {
    $('slide-look').value = params.get('look');
  }
  const body = { size: $('slide-size').value, goal: $('slide-goal').value };
  // The daily puzzle is a single solve.
  if (params.has('daily')) body.daily = true;
  else {
    body.format = $('slide-format').value;
    if (params.has('seed')) body.seed = Number(params.get('seed'));
  }
  solving = false;
  try {
    const r = await post('/api/slide/new', body);
    const p = parse(r.position);
    s = {
      game: r.game, key: `${r.game}:0`, seed: r.seed, variant: r.variant, w: p.w, h: p.h, size: body.size,
      start: p.tiles.slice(), tiles: p.tiles, goal: parse(r.goal_position).tiles,
      goalName: r.goal, goalText: r.goal_position, moves: [], times: [], inputs: [], solved: false,
      blind: $('slide-blind').checked || r.format === 'bld', shownAt: performance.now(), daily: r.daily,
      format: r.format ?? 'single', puzzles: r.puzzles ?? [], index: 0, done: [],
    };
    history.replaceState(null, '', r.daily ? `#slide&daily${lookParam()}` : shareLink(r.seed));
    const count = s.puzzles.length > 1 ? ` — ${formatName(s.format)}: puzzle 1 of ${s.puzzles.length}` : '';
    status(r.daily ? `Daily puzzle ${r.seed}` : `Seed ${r.seed}${count}`);
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
      record(m, 'm');
      render();
    }
    solving = false;
    if (solvedNow()) solvedPuzzle();
  } catch (e) {
    solving = false;
    status(e.message, 'error');
  }
}

// Takes the last move back by making the opposite move: it counts, as it
// would on a real puzzle, and the replay shows it.
function undo(input) {
  if (!s || s.solved || solving || s.moves.length === 0) return;
  play([INVERSE[s.moves[s.moves.length - 1]]], input);
}

function restart() {
  if (!s || s.solved) return;
  solving = false;
  s.tiles = s.start.slice();
  s.moves = [];
  s.times = [];
  s.inputs = [];
  render();
}

// The largest side the page deals.
const LARGEST = 10;

const KEYS = {
  ArrowUp: 'U', ArrowDown: 'D', ArrowLeft: 'L', ArrowRight: 'R',
  w: 'U', s: 'D', a: 'L', d: 'R', W: 'U', S: 'D', A: 'L', D: 'R',
};

// --- Formats: marathons and relays on one clock, blindfold solves.

// The Format menu: relays go up to the largest square size the page deals.
function formatMenu(largest) {
  const menu = $('slide-format');
  const formats = ['single', 'marathon-10', 'marathon-42', 'marathon-100'];
  for (let n = 4; n <= largest; n++) formats.push(`relay-${n}`);
  formats.push('bld');
  for (const f of formats) menu.append(el('option', { value: f, text: formatName(f) }));
}

// A format's name in words: "marathon of 10", "relay to 5×5", "blindfold".
function formatName(format) {
  const [kind, n] = format.split('-');
  if (kind === 'marathon') return `marathon of ${n}`;
  if (kind === 'relay') return `relay to ${n}×${n}`;
  return format === 'bld' ? 'blindfold' : format;
}

// One puzzle of the format is solved: the next appears at once, on the
// same clock, or the format is finished.
function solvedPuzzle() {
  if (s.index + 1 < s.puzzles.length) nextPuzzle(); else finish();
}

function nextPuzzle() {
  s.done.push(played(s));
  s.index += 1;
  const puzzle = s.puzzles[s.index];
  const p = parse(puzzle.position);
  Object.assign(s, {
    key: `${s.game}:${s.index}`, w: p.w, h: p.h, start: p.tiles.slice(), tiles: p.tiles,
    goal: parse(puzzle.goal_position).tiles, goalName: puzzle.goal, goalText: puzzle.goal_position,
    moves: [], times: [], inputs: [],
  });
  render();
  renderGoal();
  prepareLook();
  const where = `puzzle ${s.index + 1} of ${s.puzzles.length}, ${p.w} by ${p.h}`;
  status(`${formatName(s.format)}: ${where}`);
  announce('slide-said', `Solved. Next: ${where}`);
}

// The puzzle in play as the server takes it.
function played(game) {
  return { moves: game.moves.join(''), times: game.times, inputs: game.inputs.join('') };
}

// What to submit: one puzzle's moves, or every puzzle of a format in order.
function submission(game) {
  if (game.puzzles.length <= 1) return { game: game.game, ...played(game) };
  return { game: game.game, puzzles: [...game.done, played(game)] };
}

// A blindfold solve's two phases: looking until the first move, then
// solving blind.
function phases(game) {
  if (!game.blind || game.times.length === 0) return '';
  const look = game.times[0];
  const end = game.times[game.times.length - 1];
  return ` (memorised in ${clock(look)}, solved blind in ${clock(end - look)})`;
}

// Each puzzle's time and when it was solved on the format's clock.
function showSplits(game) {
  if (game.puzzles.length <= 1) return;
  const list = el('ol', { class: 'splits', 'aria-label': 'splits' });
  let shown = 0;
  [...game.done, played(game)].forEach((p, i) => {
    const split = p.times[p.times.length - 1] ?? shown;
    list.append(el('li', { text: `${game.puzzles[i].size}: ${clock(split - shown)} (at ${clock(split)})` }));
    shown = split;
  });
  $('slide-status').append(list);
}

export function init() {
  window.addEventListener('resize', () => fitHeight($('slide-board')));
  const sizes = $('slide-size');
  for (let h = 3; h <= LARGEST; h++) {
    for (let w = 3; w <= LARGEST; w++) {
      if (Math.abs(w - h) > 2) continue;
      sizes.append(el('option', { value: `${w}x${h}`, text: `${w}×${h}` }));
    }
  }
  sizes.value = '4x4';
  formatMenu(LARGEST);
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
    // A screen reader's Enter comes as a click from no pointer.
    const input = { mouse: 'm', pen: 'm', touch: 't' }[e.pointerType] ?? 'k';
    if (tile) play(movesFor(Number(tile.dataset.cell)), input);
    else if (cell) play(movesFor(Number(cell.dataset.place)), input);
  });
  document.addEventListener('keydown', (e) => {
    if ($('page-slide').hidden || e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
    if (e.key in KEYS) { e.preventDefault(); play([KEYS[e.key]], 'k'); }
    if (e.key === 'Backspace') { e.preventDefault(); undo('k'); }
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
    play([Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'R' : 'L') : (dy > 0 ? 'D' : 'U')], 't');
  });
  $('slide-new').addEventListener('click', () => start());
  $('slide-daily').addEventListener('click', () => start(new URLSearchParams('daily')));
  $('slide-undo').addEventListener('click', () => undo('m'));
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
