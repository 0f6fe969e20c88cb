// The sliding puzzle: moves are applied here so play is instant; the server
// issued the puzzle and replays the whole move list when it is solved.
import { post, clock, el, asking } from './api.js';
import { showRecords, reasonText } from './records.js';
import { SOURCE, INVERSE, applyMove, movesToward, mtmCount, DISPLAYS, allowedWith, CarriedDisplay } from './rules.js';
import * as looks from './looks.js';
import { announce } from './a11y.js';
import * as keys from './keys.js';
import { CanvasBoard, onCanvas } from './board-canvas.js';
import { onSwipe } from './slide-board.js';
import { formatMenu, formatName, phases, showSplits, played } from './slide-formats.js';

const $ = (id) => document.getElementById(id);

let s = null; // the game in play
let solving = false;
// How the player moves tiles (the Control menu). With `click` or
// `keyboard` every way works as it always has (clicks, keys, swipes); with
// `hover` the blank follows the pointer and a click adds nothing.
let control = 'click';
const CONTROLS = ['hover', 'click', 'keyboard'];
// What the tiles show (the Display menu; display.js); a game keeps the one
// it was dealt with, standard in bld.
let display = 'standard';
// The board's tile elements by tile number, for the game on show.
let tileEls = [];
let placeEls = []; // and the screen reader's cells by place
// A big board is drawn on a canvas instead (board-canvas.js).
let canvas = null;
// What the display type shows in each cell as last drawn, null if none.
let displayed = null;
// The tile in each cell as last drawn, and whether it was drawn blind.
let shown = [];
let shownBlind = false;
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
// puzzle, or the format, was shown) and how (`k` key, `m` mouse click,
// `h` hover, `t` touch): the server judges the pace and files the result
// by control, and the replay shows it.
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
  // On the box around the board, which scrolls within it when zoomed.
  board.parentElement.style.setProperty('--room', `${Math.max(120, window.innerHeight - top - 24)}px`);
}

// Draws the board: one element per tile, positioned by transform so moves
// animate smoothly (but for hover, where each move shows at once), or past
// 10×10 a canvas (board-canvas.js). A `quick` redraw (after moves) touches
// only the cells that changed, so that a 32×32 keeps up with the pointer.
function render(quick = false) {
  const board = $('slide-board');
  const blind = s.blind && s.moves.length > 0 && !s.solved;
  if (quick && board.dataset.game === s.key && blind === shownBlind) {
    const moved = paintCells(board, blind, homes());
    const changed = paintShown(board, blind, true);
    paintCanvas([...moved, ...changed]);
    tick();
    return;
  }
  board.classList.toggle('instant', control === 'hover');
  board.style.setProperty('--w', s.w);
  board.style.setProperty('--h', s.h);
  fitHeight(board);
  board.classList.toggle('blind', blind);
  board.classList.toggle('solved', !!s.solved);
  shown = [];
  shownBlind = blind;
  if (board.dataset.game !== s.key) {
    board.replaceChildren();
    board.dataset.game = s.key;
    tileEls = [];
    s.tiles.forEach((t) => {
      if (t === 0 || onCanvas(s.w, s.h)) return;
      tileEls[t] = el('div', { class: 'tile', 'data-tile': String(t), 'aria-hidden': 'true', text: String(t) });
      board.append(tileEls[t]);
    });
    board.append(readerRows());
    placeEls = [...board.querySelectorAll('[data-place]')];
    board.setAttribute('aria-label', `sliding puzzle, ${s.w} by ${s.h}`);
    canvas = onCanvas(s.w, s.h) ? new CanvasBoard(board, s.w, s.h) : null;
  }
  const home = homes();
  paintCells(board, blind, home);
  paintShown(board, blind);
  paintLook(board, home);
  canvas?.fit();
  paintCanvas();
  tick();
}

// Each tile's goal cell, for the game in play.
function homes() {
  if (s.homes?.key !== s.key) s.homes = { key: s.key, cells: new Map(s.goal.map((t, i) => [t, i])) };
  return s.homes.cells;
}

// Draws the cells listed in `only`, or all, on a big board's canvas.
function paintCanvas(only = null) {
  if (!canvas) return;
  const { scheme, picture } = lookShown();
  canvas.paint({
    tiles: s.tiles, home: homes(), cells: displayed, blind: shownBlind, numbers: $('slide-numbers').checked,
    colours: scheme ? look.colours : null, picture: picture ? look.picture : null, hint: s.hint ?? null,
  }, only);
}

// Places the tiles of the cells that changed since the last redraw, and
// says them to screen readers; the cells that changed.
function paintCells(board, blind, home) {
  const changed = [];
  s.tiles.forEach((t, i) => {
    if (shown[i] === t) return;
    shown[i] = t;
    changed.push(i);
    readerCell(placeEls[i], i, blind);
    const tile = tileEls[t];
    if (t === 0 || !tile) return;
    tile.style.transform = `translate(${(i % s.w) * 100}%, ${Math.floor(i / s.w) * 100}%)`;
    tile.dataset.cell = String(i);
    tile.classList.toggle('home', home.get(t) === i);
    // Blindfolded, the numbers are gone from the page, not only unseen.
    tile.textContent = blind ? '' : String(t);
  });
  return changed;
}

// What the tiles show under the display type; back to numbers when the
// display is standard again or the board is blind. The cells whose display
// changed.
function paintShown(board, blind, quick = false) {
  const on = s.display !== 'standard' && !blind;
  displayed = null;
  if (!on && !board.classList.contains('displayed')) return [];
  board.classList.toggle('displayed', on);
  board.dataset.display = on ? s.display : 'standard';
  const { cells, changed } = carried(board.dataset.display);
  looks.paintDisplay(s.tiles, cells, tileEls, placeEls, s.w, quick ? changed : null);
  if (on) displayed = cells;
  else { shown = []; paintCells(board, blind, homes()); }
  return changed;
}

// The display carried forward to the position in play, and the cells the
// moves since the last redraw changed; a new puzzle, display or move list
// (a restart) starts it again from the puzzle's start.
function carried(display) {
  let view = s.carried;
  if (!view || view.key !== s.key || view.display !== display || view.moves !== s.moves) {
    view = s.carried = Object.assign(new CarriedDisplay(display, s.start, s.goal, s.w), { key: s.key, moves: s.moves });
  }
  const changed = new Set();
  while (view.played < s.moves.length) for (const i of view.move(s.moves[view.played])) changed.add(i);
  return { cells: view.cells, changed };
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

function readerCell(cell, i, blind) {
  const t = s.tiles[i];
  const where = `row ${Math.floor(i / s.w) + 1}, column ${(i % s.w) + 1}`;
  const tile = blind ? 'tile' : t;
  cell.textContent = `${t === 0 ? 'blank' : tile}, ${where}`;
}

const WORDS = keys.WORDS;

// "7 left; 9 of 15 in place": what a move did, for the live region.
function sayMoves(moved, letter) {
  if ((s.blind || s.display !== 'standard') && !s.solved) moved = moved.map(() => 'tile');
  const placed = s.tiles.filter((t, i) => t !== 0 && t === s.goal[i]).length;
  announce('slide-said', `${moved.join(', ')} ${WORDS[letter]}; ${placed} of ${s.tiles.length - 1} in place`);
}

// Shows the current look on the board's tiles: a scheme's colours, or each
// tile's part of the picture (the part at its goal cell).
function paintLook(board, home) {
  const { ready, scheme, picture } = lookShown();
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

// Whether the look made for the game in play is shown, and which.
function lookShown() {
  const ready = look.for === s.key;
  const scheme = ready && !!look.colours && look.key.startsWith('scheme:');
  const picture = ready && !!look.picture && (look.key.startsWith('picture:') || look.key === 'photo');
  return { ready, scheme, picture };
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
    if (key.startsWith('scheme:grids:')) $('slide-look').querySelector(`option[value="${key}"]`)?.remove();
    return;
  }
  if (game !== s || look.key !== key) return;
  look.for = game.key;
  looks.keepLook(`${game.w}x${game.h}`, key);
  render();
  renderGoal();
}

// Puts `key` in the look menu (a player's own grid layers get an entry of
// their own; the server judges them when it colours the board).
function chooseLook(key) {
  const menu = $('slide-look');
  if (!key || key === 'layers') return false;
  const listed = () => [...menu.options].some((o) => o.value === key);
  if (key.startsWith('scheme:grids:') && !listed()) {
    const [value, text] = looks.ownLayers(key);
    menu.querySelector('option[value="layers"]').before(el('option', { value, text }));
  }
  if (!listed()) return false;
  menu.value = key;
  return true;
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
// (`k` keyboard, `m` mouse click, `h` hover, `t` touch). Moves by hover
// are drawn at once (only the cells they change) and not announced one by
// one: the next frame shows them.
function play(letters, input, quiet = false) {
  if (!s || s.solved || solving) return;
  const moved = [];
  for (const m of letters) {
    const blank = blankOf(s.tiles);
    if (!applyMove(s.tiles, s.w, s.h, m)) break;
    record(m, input);
    moved.push(s.tiles[blank]);
  }
  if (moved.length === 0) return;
  if (solvedNow()) {
    render();
    sayMoves(moved, letters[0]);
    solvedPuzzle();
  } else if (quiet) {
    render(true);
  } else {
    render(true);
    sayMoves(moved, letters[0]);
  }
}

// The cell of the board under a point of the screen, or null off the
// board's cells.
function cellAt(board, x, y) {
  const r = board.getBoundingClientRect();
  const pad = (r.width - board.clientWidth) / 2 + parseFloat(getComputedStyle(board).paddingLeft);
  const size = (r.width - 2 * pad) / s.w;
  const cx = Math.floor((x - r.left - pad) / size);
  const cy = Math.floor((y - r.top - pad) / size);
  return cx < 0 || cy < 0 || cx >= s.w || cy >= s.h ? null : cy * s.w + cx;
}

// Hover: the blank follows the pointer. Where the pointer is over a tile
// in the blank's row or column, that tile and those between slide so the
// blank ends under the pointer; elsewhere nothing moves until the pointer
// reaches the blank's row or column. Ctrl or a held button lets the
// pointer move without moving tiles (to place it before a solve). Every
// point the pointer passed through since the last event counts, so a fast
// sweep moves what a slow one would.
function hovered(e) {
  if (control !== 'hover' || !s || s.solved || solving || e.pointerType === 'touch') return;
  if (e.ctrlKey || e.buttons) return;
  const board = $('slide-board');
  const points = e.getCoalescedEvents?.() ?? [];
  for (const p of points.length ? points : [e]) {
    const c = cellAt(board, p.clientX, p.clientY);
    if (c === null) continue;
    const moves = movesFor(c);
    if (moves.length) play(moves, 'h', true);
  }
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
  if (s) showRecords($('slide-records'), 'slide', s.variant, s.format, null, s.display);
}

// The look and the control, for links: a player's own photo stays on
// their machine.
function lookParam() {
  const key = $('slide-look').value;
  const look = key === 'numbers' || key === 'photo' ? '' : `&look=${encodeURIComponent(key)}`;
  return `${look}&control=${control}${display === 'standard' ? '' : `&display=${display}`}`;
}

// Chooses how tiles are moved, remembered on this device.
function setControl(value) {
  if (!CONTROLS.includes(value)) return;
  control = value;
  $('slide-control').value = value;
  try { localStorage.setItem('tessera-slide-control', value); } catch { /* this visit only */ }
}

function shareLink(seed) {
  const params = new URLSearchParams({ size: s.size, goal: $('slide-goal').value, seed: String(seed) });
  if (s.format !== 'single') params.set('format', s.format);
  return `${location.origin}${location.pathname}#slide&${params}${lookParam()}`;
}

// Starts a game from the page's controls, or from `params` (a share link).
export async function start(params = new URLSearchParams()) {
  if (params.has('size') && !chooseSize(params.get('size'))) {
    status(`No such size: ${params.get('size')} (WxH, each side ${SMALLEST} to ${LARGEST})`, 'error');
    return;
  }
  if ($('slide-size').value === 'custom' && !chooseSize($('slide-custom').value)) {
    status(`A size is WxH, each side ${SMALLEST} to ${LARGEST}, e.g. 12x5`, 'error');
    return;
  }
  if (params.has('goal')) $('slide-goal').value = params.get('goal');
  if ([...$('slide-format').options].some((o) => o.value === params.get('format'))) $('slide-format').value = params.get('format');
  if (params.has('control')) setControl(params.get('control'));
  if (DISPLAYS.some(([d]) => d === params.get('display'))) $('slide-display').value = display = params.get('display');
  if (params.has('look')) chooseLook(params.get('look'));
  const body = { size: $('slide-size').value, goal: $('slide-goal').value };
  // The daily puzzle is a single solve.
  if (params.has('daily')) body.daily = true;
  else {
    body.format = $('slide-format').value;
    if (params.has('seed')) body.seed = Number(params.get('seed'));
  }
  solving = false;
  const latest = asking('slide-new');
  try {
    const r = await post('/api/slide/new', body);
    // A game asked for after this one is the one played.
    if (!latest()) return;
    const p = parse(r.position);
    s = {
      game: r.game, key: `${r.game}:0`, seed: r.seed, variant: r.variant, w: p.w, h: p.h, size: body.size,
      start: p.tiles.slice(), tiles: p.tiles, goal: parse(r.goal_position).tiles,
      goalName: r.goal, goalText: r.goal_position, moves: [], times: [], inputs: [], solved: false,
      blind: $('slide-blind').checked || r.format === 'bld', shownAt: performance.now(), daily: r.daily,
      format: r.format ?? 'single', puzzles: r.puzzles ?? [], index: 0, done: [],
      display: allowedWith(display, r.format ?? 'single') ? display : 'standard',
    };
    history.replaceState(null, '', r.daily ? `#slide&daily${lookParam()}` : shareLink(r.seed));
    const count = s.puzzles.length > 1 ? ` — ${formatName(s.format)}: puzzle 1 of ${s.puzzles.length}` : '';
    status(r.daily ? `Daily puzzle ${r.seed}` : `Seed ${r.seed}${count}`);
    if (!params.has('look')) chooseLook(looks.keptLook(`${p.w}x${p.h}`));
    render();
    renderGoal();
    prepareLook();
    refreshRecords();
    // The keys work at once; a phone would only show a focus ring.
    if (!matchMedia('(pointer: coarse)').matches) $('slide-board').focus();
  } catch (e) {
    if (latest()) status(e.message, 'error');
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
    if (canvas) flashOnCanvas(cell);
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

// A hinted tile on a canvas, lit as the tile elements are (app.css).
function flashOnCanvas(cell) {
  const game = s;
  s.hint = cell;
  paintCanvas([cell]);
  setTimeout(() => {
    if (game !== s || s.hint !== cell) return;
    s.hint = null;
    paintCanvas([cell]);
  }, 900);
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

// The sides the page deals (play::limits::WEB_SLIDE_SIDES), and the last
// size of a relay (play::limits::RELAY_LAST_SIDE).
const SMALLEST = 2;
const LARGEST = 32;
const RELAY_LAST = 10;
// Long boards the Size menu offers besides the squares and near-squares.
const LONG = ['10x3', '20x2', '16x4', '32x8', '20x10'];

// A size as the page takes it, `WxH` with sides SMALLEST to LARGEST, or null.
function sizeOf(text) {
  const m = /^(\d+)x(\d+)$/.exec(text.trim());
  const fits = (n) => n >= SMALLEST && n <= LARGEST;
  return m && fits(Number(m[1])) && fits(Number(m[2])) ? `${Number(m[1])}x${Number(m[2])}` : null;
}

// Chooses `size` in the Size menu, adding it when the menu lacks it (a
// link's or a custom size); false if it is no size the page deals.
function chooseSize(text) {
  const size = sizeOf(text);
  if (!size) return false;
  const menu = $('slide-size');
  if (![...menu.options].some((o) => o.value === size)) {
    const [w, h] = size.split('x');
    menu.insertBefore(el('option', { value: size, text: `${w}×${h}` }), menu.querySelector('option[value="custom"]'));
  }
  menu.value = size;
  $('slide-custom').hidden = true;
  return true;
}

// Zoom: + and - make the board's cells larger or smaller than fit, End
// fits it to the window again. Zoomed in, the board scrolls in its box and
// a drag pans it.
let zoom = 1;
function setZoom(value) {
  zoom = Math.min(8, Math.max(0.5, value));
  const board = $('slide-board');
  board.style.setProperty('--zoom', String(zoom));
  board.parentElement.classList.toggle('zoomed', zoom > 1);
  if (canvas?.fit()) paintCanvas();
}

function pannable(board) {
  let from = null;
  let dragged = false;
  board.addEventListener('pointerdown', (e) => {
    dragged = false;
    from = zoom > 1 && e.pointerType === 'mouse' ? { x: e.clientX, y: e.clientY } : null;
  });
  board.addEventListener('pointermove', (e) => {
    if (!from || !e.buttons) return;
    const wrap = board.parentElement;
    wrap.scrollBy(from.x - e.clientX, from.y - e.clientY);
    dragged ||= Math.abs(from.x - e.clientX) + Math.abs(from.y - e.clientY) > 4;
    from = { x: e.clientX, y: e.clientY };
  });
  board.addEventListener('pointerup', () => { from = null; });
  // A drag is no click on the tile it ends on.
  board.addEventListener('click', (e) => {
    if (dragged) { e.stopImmediatePropagation(); dragged = false; }
  }, { capture: true });
}

// --- Formats: marathons and relays on one clock, blindfold solves.

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

// What to submit: one puzzle's moves, or every puzzle of a format in order.
function submission(game) {
  if (game.puzzles.length <= 1) return { game: game.game, display: game.display, ...played(game) };
  return { game: game.game, puzzles: [...game.done, played(game)], display: game.display };
}

export function init() {
  window.addEventListener('resize', () => {
    fitHeight($('slide-board'));
    if (canvas?.fit()) paintCanvas();
  });
  const sizes = $('slide-size');
  sizes.append(el('option', { value: '2x2', text: '2×2' }));
  for (let h = 3; h <= 10; h++) {
    for (let w = 3; w <= 10; w++) {
      if (Math.abs(w - h) > 2) continue;
      sizes.append(el('option', { value: `${w}x${h}`, text: `${w}×${h}` }));
    }
  }
  for (const n of [12, 16, 20, 24, 32]) sizes.append(el('option', { value: `${n}x${n}`, text: `${n}×${n}` }));
  for (const size of LONG) sizes.append(el('option', { value: size, text: size.replace('x', '×') }));
  sizes.append(el('option', { value: 'custom', text: 'custom…' }));
  sizes.value = '4x4';
  sizes.addEventListener('change', () => {
    $('slide-custom').hidden = sizes.value !== 'custom';
    if (sizes.value === 'custom') $('slide-custom').focus();
  });
  $('slide-custom').addEventListener('change', () => {
    if (!chooseSize($('slide-custom').value)) {
      status(`A size is WxH, each side ${SMALLEST} to ${LARGEST}, e.g. 12x5`, 'error');
    }
  });
  formatMenu(RELAY_LAST);
  pannable($('slide-board'));
  const lookMenu = $('slide-look');
  for (const [value, text] of looks.options()) lookMenu.append(el('option', { value, text }));
  lookMenu.addEventListener('change', () => {
    if (lookMenu.value === 'photo' && !look.photo) { $('slide-photo').click(); return; }
    if (lookMenu.value === 'layers') {
      const layers = prompt('Grid layers, outermost first, e.g. 20x10,10x10,10x5,5x5');
      if (!chooseLook(layers ? `scheme:grids:${layers.replace(/\s+/g, '')}` : look.key)) return;
    }
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
    // With hover the pointer has moved the tiles already.
    if (control === 'hover' && input === 'm') return;
    if (tile) play(movesFor(Number(tile.dataset.cell)), input);
    else if (cell) play(movesFor(Number(cell.dataset.place)), input);
    else if (canvas && e.target === canvas.canvas) {
      const at = cellAt(board, e.clientX, e.clientY);
      if (at !== null) play(movesFor(at), input);
    }
  });
  keys.load();
  $('slide-keys').addEventListener('click', () => keys.choose(status));
  document.addEventListener('keydown', (e) => {
    if ($('page-slide').hidden) return;
    if (keys.choosing()) { keys.take(e, status); return; }
    if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
    const move = keys.move(e.key);
    if (move && !e.ctrlKey && !e.metaKey && !e.altKey) { e.preventDefault(); play([move], 'k'); return; }
    if (e.key === 'Backspace') { e.preventDefault(); undo('k'); }
    if (e.key === '+' || e.key === '=') { e.preventDefault(); setZoom(zoom * 1.25); }
    if (e.key === '-') { e.preventDefault(); setZoom(zoom / 1.25); }
    if (e.key === 'End') { e.preventDefault(); setZoom(1); }
  });
  // Hover reads the pointer as each movement arrives (`pointerrawupdate`,
  // where the browser has it), not when the next frame dispatches
  // `pointermove`: the move is drawn before that frame, so it shows in it.
  // Once raw updates arrive, `pointermove` replaying the same path would
  // move the blank back along it, so it is left to them.
  let raw = false;
  board.addEventListener('pointerrawupdate', (e) => { raw = true; hovered(e); });
  board.addEventListener('pointermove', (e) => { if (!raw) hovered(e); });
  const displays = $('slide-display');
  for (const [value, text] of DISPLAYS) displays.append(el('option', { value, text }));
  // A display is a category of its own: changing it deals a new puzzle.
  displays.addEventListener('change', () => { display = displays.value; start(); });
  const chooser = $('slide-control');
  try { control = CONTROLS.find((c) => c === localStorage.getItem('tessera-slide-control')) ?? control; } catch { /* none kept */ }
  chooser.value = control;
  chooser.addEventListener('change', () => {
    setControl(chooser.value);
    if (s) {
      history.replaceState(null, '', s.daily ? `#slide&daily${lookParam()}` : shareLink(s.seed));
      render();
    }
  });
  onSwipe(board, (letter) => play([letter], 't'));
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
  setInterval(tick, 100);
}
