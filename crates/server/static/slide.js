// The sliding puzzle: moves are applied here so play is instant; the server
// issued the puzzle and replays the whole move list when it is solved.
import { post, clock, el, asking } from './api.js';
import { showRecords, reasonText } from './records.js';
import { SOURCE, INVERSE, applyMove, mtmCount, DISPLAYS, allowedWith, aboutDisplay } from './rules.js';
import * as looks from './looks.js';
import { announce } from './a11y.js';
import { submit } from './outbox.js';
import * as keys from './keys.js';
import * as slideBoard from './slide-board.js';
import { SlideBoard, parse, format } from './slide-board.js';
import {
  formatMenu, formatName, phases, showSplits, played, sizeMenu, chooseSize, SMALLEST, LARGEST, RELAY_LAST,
} from './slide-formats.js';

const $ = (id) => document.getElementById(id);

let s = null; // the game in play
let solving = false;
// The board, drawn and played by slide-board.js: the control (hover,
// click, keys), display type, animation and zoom are the player's, kept on
// this device.
let board = null;
// What the tiles show (the Display menu; display.js); a game keeps the one
// it was dealt with, standard in bld.
let display = 'standard';
// The player's photo for the Photo look, an object URL (it never leaves
// this page).
let photo = null;

function blankOf(tiles) { return tiles.indexOf(0); }

// The speedsolver's clock (play::stopwatch): it starts at the first move,
// so looking at the scramble first is free, and runs on through a
// format's puzzles; a blindfold solve's memorising counts, so its clock
// starts when the puzzle appears.
function clockStart(game) {
  if (game.format === 'bld') return 0;
  return [...game.done, game].find((p) => p.times.length)?.times[0];
}

function elapsed() {
  const start = s && clockStart(s);
  return start === undefined ? 0 : performance.now() - s.shownAt - start;
}

// A solved game's time on that clock: to its last move.
function solveMillis(game) {
  const times = [...game.done, game].flatMap((p) => p.times);
  return times.length ? times[times.length - 1] - clockStart(game) : 0;
}

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

// Draws the board (slide-board.js) and the counters. A `quick` redraw
// (after moves) touches only the cells that changed.
function render(quick = false) {
  board.draw({
    key: s.key, w: s.w, h: s.h, tiles: s.tiles, goal: s.goal, start: s.start, moves: s.moves, display: s.display,
    blind: s.blind && s.moves.length > 0 && !s.solved, solved: !!s.solved, numbers: $('slide-numbers').checked,
  }, quick);
  tick();
}

const WORDS = keys.WORDS;

// "7 left; 9 of 15 in place": what a move did, for the live region.
function sayMoves(moved, letter) {
  if ((s.blind || s.display !== 'standard') && !s.solved) moved = moved.map(() => 'tile');
  const placed = s.tiles.filter((t, i) => t !== 0 && t === s.goal[i]).length;
  announce('slide-said', `${moved.join(', ')} ${WORDS[letter]}; ${placed} of ${s.tiles.length - 1} in place`);
}

// Makes what the chosen look needs for the game in play (colours from the
// server, a picture cropped to the board), then redraws.
async function prepareLook() {
  if (!s) return;
  const game = s;
  const key = $('slide-look').value;
  try {
    if (!(await board.setLook(key, photo))) return;
  } catch (e) {
    status(`Cannot show that look: ${e.message}`, 'error');
    if (key.startsWith('scheme:grids:')) $('slide-look').querySelector(`option[value="${key}"]`)?.remove();
    return;
  }
  if (game !== s) return;
  looks.keepLook(`${game.w}x${game.h}`, key);
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
  const picture = board.picture();
  if (picture) {
    // A picture puzzle's goal is the whole picture.
    const img = el('img', { class: 'goal-picture', src: picture, alt: 'the whole picture' });
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

async function finish() {
  s.solved = true;
  const game = s;
  render();
  game.finishedMillis = solveMillis(game);
  status('Solved! Checking with the server…');
  // Kept on this device until the server answers (outbox.js).
  const named = `${game.format === 'single' ? `${game.w}×${game.h}` : formatName(game.format)} solve`;
  const onKept = (text) => game === s && (status(text, 'warn'), true);
  try {
    const r = await submit('/api/slide/submit', submission(game), { what: named, onKept });
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
  return `${look}&control=${slideBoard.control()}${display === 'standard' ? '' : `&display=${display}`}`;
}

// Chooses how tiles are moved, remembered on this device.
function setControl(value) {
  if (!slideBoard.CONTROLS.includes(value)) return;
  slideBoard.setControl(value);
  $('slide-control').value = value;
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
  if (DISPLAYS.some(([d]) => d === params.get('display'))) {
    $('slide-display').value = display = params.get('display');
    slideBoard.setDisplay(display);
  }
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
      display: allowedWith(display, r.format ?? 'single') ? display : 'standard', menu: menus(),
    };
    history.replaceState(null, '', r.daily ? `#slide&daily${lookParam()}` : shareLink(r.seed));
    aboutDisplay($('slide-display-about'), s.display);
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
    board.flash(cell);
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

// The deal's settings in the menus, to put back when the player keeps the
// game in play.
const menus = () => ({
  size: $('slide-size').value, goal: $('slide-goal').value, format: $('slide-format').value, display,
});

// A new puzzle from the menus, dealt at once when a setting changes or on
// the new-scramble key: a solve in progress is only left when the player
// says so (it ends unsubmitted); kept, the menus show its settings again.
function redeal() {
  const inProgress = s && !s.solved && !solving && (s.moves.length > 0 || s.done.length > 0);
  const chosen = $('slide-display').value;
  const asked = menus();
  const [w, h] = asked.size.split('x');
  if (inProgress && !confirm(`Deal a new ${w}×${h} puzzle? The solve in progress ends, unsubmitted.`)) {
    $('slide-size').value = s.menu.size;
    $('slide-custom').hidden = true;
    $('slide-goal').value = s.menu.goal;
    $('slide-format').value = s.menu.format;
    $('slide-display').value = display;
    return;
  }
  display = chosen;
  slideBoard.setDisplay(display);
  start();
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
  board = new SlideBoard($('slide-board'), {
    play, undo, ownLook: true, label: 'sliding puzzle', playing: () => !!s && !s.solved && !solving,
  });
  const sizes = $('slide-size');
  sizeMenu();
  sizes.addEventListener('change', () => {
    $('slide-custom').hidden = sizes.value !== 'custom';
    if (sizes.value === 'custom') $('slide-custom').focus(); else redeal();
  });
  $('slide-custom').addEventListener('change', () => {
    if (chooseSize($('slide-custom').value)) redeal();
    else status(`A size is WxH, each side ${SMALLEST} to ${LARGEST}, e.g. 12x5`, 'error');
  });
  formatMenu(RELAY_LAST);
  for (const id of ['slide-goal', 'slide-format']) $(id).addEventListener('change', redeal);
  const lookMenu = $('slide-look');
  for (const [value, text] of looks.options()) lookMenu.append(el('option', { value, text }));
  lookMenu.addEventListener('change', () => {
    if (lookMenu.value === 'photo' && !photo) { $('slide-photo').click(); return; }
    if (lookMenu.value === 'layers') {
      const layers = prompt('Grid layers, outermost first, e.g. 20x10,10x10,10x5,5x5');
      if (!chooseLook(layers ? `scheme:grids:${layers.replace(/\s+/g, '')}` : board.look.key)) return;
    }
    if (s) history.replaceState(null, '', s.daily ? `#slide&daily${lookParam()}` : shareLink(s.seed));
    prepareLook();
  });
  $('slide-photo').addEventListener('change', () => {
    const file = $('slide-photo').files[0];
    if (!file) return;
    if (photo) URL.revokeObjectURL(photo);
    // An object URL: the photo is read by this page only, never sent.
    photo = URL.createObjectURL(file);
    lookMenu.value = 'photo';
    prepareLook();
  });
  $('slide-numbers').addEventListener('change', () => { if (s) render(); });
  $('slide-animate').checked = slideBoard.animate();
  $('slide-animate').addEventListener('change', () => {
    slideBoard.setAnimate($('slide-animate').checked);
    if (s) render();
  });
  keys.load();
  $('slide-keys').addEventListener('click', () => keys.choose(status));
  // The keys being chosen; the board (slide-board.js) takes the others.
  document.addEventListener('keydown', (e) => {
    if ($('page-slide').hidden || !keys.choosing()) return;
    e.stopImmediatePropagation();
    keys.take(e, status);
  }, { capture: true });
  // The new-scramble key (Space unless the player chose another), wherever
  // the focus is but in a field or on a button.
  document.addEventListener('keydown', (e) => {
    if ($('page-slide').hidden || keys.choosing() || !keys.scrambles(e.key) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'A', 'SUMMARY'].includes(e.target.tagName)) return;
    e.preventDefault();
    redeal();
  });
  const displays = $('slide-display');
  for (const [value, text] of DISPLAYS) displays.append(el('option', { value, text }));
  // A display is a category of its own: changing it deals a new puzzle.
  display = displays.value = slideBoard.display();
  displays.addEventListener('change', redeal);
  const chooser = $('slide-control');
  chooser.value = slideBoard.control();
  chooser.addEventListener('change', () => {
    setControl(chooser.value);
    if (s) {
      history.replaceState(null, '', s.daily ? `#slide&daily${lookParam()}` : shareLink(s.seed));
      render();
    }
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
  setInterval(tick, 100);
}
