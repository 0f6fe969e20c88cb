// The sliding-puzzle board: one component for every page where a player
// moves or watches tiles (the solo page and the daily puzzle, races, time
// attack, the fewest-moves challenge, the replay). It draws a position —
// one element per tile placed by transform, or past 10×10 a canvas
// (board-canvas.js), the screen reader's grid of cells beside either —
// under the player's display type (display.js) and look (looks.js), and
// turns every control into moves: hover (the blank follows the pointer),
// a click or tap (the tiles between the one clicked and the blank slide),
// the keys (keys.js, the player's own four if chosen) and a swipe. The
// control, the display type, the animation and the zoom are chosen once and
// kept on this device; a page that uses the board gets them all. What a
// move means (the rules, the clock, what is sent) stays the page's.
import { el } from './api.js';
import { movesToward, CarriedDisplay, DISPLAYS } from './rules.js';
import * as looks from './looks.js';
import * as keys from './keys.js';
import { CanvasBoard, onCanvas } from './board-canvas.js';

// `1 2/3 0` → { w, h, tiles }.
export function parse(text) {
  const rows = text.split('/').map((r) => r.trim().split(/\s+/).map(Number));
  return { w: rows[0].length, h: rows.length, tiles: rows.flat() };
}

// `tiles` w wide as text, `1 2/3 0`.
export function format(tiles, w) {
  const rows = [];
  for (let i = 0; i < tiles.length; i += w) rows.push(tiles.slice(i, i + w).join(' '));
  return rows.join('/');
}

// --- What the player chose, kept on this device.

// How tiles are moved. With `click` or `keyboard` every way works (clicks,
// keys, taps, swipes); with `hover` the blank follows the mouse and a click
// adds nothing (keys and touch still work).
export const CONTROLS = ['hover', 'click', 'keyboard'];
const KEPT = {
  control: 'tessera-slide-control', display: 'tessera-slide-display',
  animate: 'tessera-slide-animate', zoom: 'tessera-slide-zoom',
};
// Read once and kept in memory (hover reads the control at every pointer
// event); another tab's choice arrives by the `storage` event.
const cache = new Map();
function read(name) {
  if (!cache.has(name)) {
    let value = null;
    try { value = localStorage.getItem(KEPT[name]); } catch { /* storage off */ }
    cache.set(name, value);
  }
  return cache.get(name);
}
function write(name, value) {
  cache.set(name, value);
  try { localStorage.setItem(KEPT[name], value); } catch { /* this visit only */ }
}
window.addEventListener('storage', () => cache.clear());

export const control = () => CONTROLS.find((c) => c === read('control')) ?? 'click';
export function setControl(value) { if (CONTROLS.includes(value)) write('control', value); }
export const display = () => DISPLAYS.find(([d]) => d === read('display'))?.[0] ?? 'standard';
export function setDisplay(value) { if (DISPLAYS.some(([d]) => d === value)) write('display', value); }
// Whether moves slide (off: each shows at once, as under hover).
export const animate = () => read('animate') !== 'off';
export function setAnimate(on) { write('animate', on ? 'on' : 'off'); }

// Fills a Control menu (a <select>) and keeps what is chosen in it;
// `changed()` after a choice (to redraw).
export function controlMenu(select, changed = () => {}) {
  if (!select) return;
  if (select.options.length === 0) for (const c of CONTROLS) select.append(el('option', { value: c, text: c }));
  select.value = control();
  select.addEventListener('change', () => { setControl(select.value); changed(); });
}

// Fills a Display menu (a <select>) with every display type and keeps the
// one chosen on this device, the sliding page's own; `changed()` after a
// choice (to redraw).
export function displayMenu(select, changed = () => {}) {
  if (!select) return;
  if (select.options.length === 0) for (const [value, text] of DISPLAYS) select.append(el('option', { value, text }));
  select.value = display();
  select.addEventListener('change', () => { setDisplay(select.value); changed(); });
}

// The zoom kept for a `WxH` board (big boards are zoomed, small ones not).
function keptZoom(size) {
  try { return Number(JSON.parse(read('zoom'))?.[size]) || 1; } catch { return 1; }
}
function keepZoom(size, value) {
  let kept = {};
  try { kept = JSON.parse(read('zoom')) ?? {}; } catch { /* none */ }
  if (value === 1) delete kept[size]; else kept[size] = value;
  write('zoom', JSON.stringify(kept));
}

// Every board on the page, so that one key press moves the board in play.
const boards = new Set();

export class SlideBoard {
  // `node` is a `.slide-board` element. Options:
  //   play(letters, input, quiet): the player asked for these moves (tile
  //     directions), by `input` (`h` hover, `m` mouse click, `k` key, `t`
  //     touch); `quiet` for hover moves, drawn but not announced. Without
  //     it the board is only watched (a replay).
  //   playing(): whether moves are taken now (default: always).
  //   keysOn: 'document' (the page's one board in play) or 'board' (only
  //     while it has the focus, for a page of several boards).
  //   undo(input): Backspace takes the last move back, if given.
  //   below: the pixels to keep below the board when it is fitted to the
  //     window's height; fit: false leaves it the CSS's size (a page of
  //     several boards).
  //   label: the board's name to a screen reader.
  //   ownLook: the page chooses the look (setLook); otherwise the look kept
  //     for the board's size is used.
  constructor(node, options = {}) {
    this.node = node;
    this.o = { playing: () => true, keysOn: 'document', below: 24, fit: true, label: 'sliding puzzle', ...options };
    this.scene = null;
    this.tileEls = [];
    this.placeEls = [];
    this.canvas = null;
    this.shown = [];
    this.shownBlind = false;
    this.displayed = null;
    this.carried = null;
    this.look = { key: 'numbers', colours: null, picture: null, for: null };
    this.zoom = 1;
    this.hint = null;
    if (!node.hasAttribute('role')) node.setAttribute('role', 'grid');
    if (this.o.play) this.listen();
    if (boards.size === 0) keys.load();
    boards.add(this);
  }

  // Whether the board is on show and takes moves.
  live() {
    return !!this.scene && !!this.o.play && !this.node.closest('[hidden]') && this.o.playing();
  }

  // Draws `scene`: { key (a new key is a new puzzle), w, h, tiles, goal,
  // start and moves (for a display carried move by move; `played` moves of
  // them if not all), display, blind, solved, numbers }. A `quick` redraw
  // (after moves) touches only the cells that changed, so a 32×32 keeps up
  // with the pointer.
  draw(scene, quick = false) {
    const board = this.node;
    const previous = this.scene;
    this.scene = scene = { display: 'standard', blind: false, solved: false, numbers: true, ...scene };
    const key = String(scene.key);
    if (quick && previous && board.dataset.game === key && !!scene.blind === this.shownBlind) {
      board.classList.toggle('solved', !!scene.solved);
      const moved = this.paintCells(scene.blind);
      const changed = this.paintShown(true);
      this.paintCanvas([...moved, ...changed]);
      return;
    }
    board.classList.add('slide-board');
    board.classList.toggle('instant', !animate() || (control() === 'hover' && !!this.o.play));
    board.style.setProperty('--w', scene.w);
    board.style.setProperty('--h', scene.h);
    board.classList.toggle('blind', !!scene.blind);
    board.classList.toggle('solved', !!scene.solved);
    this.shown = [];
    this.shownBlind = !!scene.blind;
    if (board.dataset.game !== key) this.build(key);
    this.fitHeight();
    this.paintCells(scene.blind);
    this.paintShown();
    this.paintLook();
    this.canvas?.fit();
    this.paintCanvas();
  }

  // A new puzzle: its tile elements (or canvas) and reader's grid afresh.
  build(key) {
    const { w, h, tiles } = this.scene;
    const board = this.node;
    board.replaceChildren();
    board.dataset.game = key;
    this.tileEls = [];
    this.carried = null;
    this.homes = new Map(this.scene.goal.map((t, i) => [t, i]));
    const big = onCanvas(w, h);
    if (!big) {
      for (const t of tiles) {
        if (t === 0) continue;
        this.tileEls[t] = el('div', { class: 'tile', 'data-tile': String(t), 'aria-hidden': 'true', text: String(t) });
        board.append(this.tileEls[t]);
      }
    }
    const rows = el('div', { class: 'sr-only', role: 'rowgroup' });
    for (let y = 0; y < h; y++) {
      const row = el('div', { role: 'row' });
      for (let x = 0; x < w; x++) row.append(el('div', { role: 'gridcell', 'data-place': String(y * w + x) }));
      rows.append(row);
    }
    board.append(rows);
    this.placeEls = [...board.querySelectorAll('[data-place]')];
    board.setAttribute('aria-label', `${this.o.label}, ${w} by ${h}`);
    this.canvas = big ? new CanvasBoard(board, w, h) : null;
    this.setZoom(keptZoom(`${w}x${h}`), false);
    if (!this.o.ownLook) {
      // The look kept for the size, once the board is drawn.
      this.look.key = 'numbers';
      const kept = looks.keptLook(`${w}x${h}`);
      if (kept && kept !== 'numbers') queueMicrotask(() => this.setLook(kept).catch(() => {}));
    }
  }

  // Empties the board (a race over, another game on show).
  clear() {
    this.node.replaceChildren();
    delete this.node.dataset.game;
    this.scene = null;
    this.canvas = null;
    this.tileEls = [];
    this.placeEls = [];
  }

  // The height left for the board from where it starts to the window's
  // bottom: the CSS sizes cells to fit it as well as the width. On the box
  // around the board, which scrolls within it when zoomed.
  fitHeight() {
    if (!this.o.fit) return;
    const top = this.node.getBoundingClientRect().top + window.scrollY;
    const room = `${Math.max(120, window.innerHeight - top - this.o.below)}px`;
    (this.node.parentElement ?? this.node).style.setProperty('--room', room);
  }

  // Places the tiles of the cells that changed since the last redraw, and
  // says them to screen readers; the cells that changed.
  paintCells(blind) {
    const { tiles, w } = this.scene;
    const changed = [];
    tiles.forEach((t, i) => {
      if (this.shown[i] === t) return;
      this.shown[i] = t;
      changed.push(i);
      this.readerCell(i, blind);
      const tile = this.tileEls[t];
      if (t === 0 || !tile) return;
      tile.style.transform = `translate(${(i % w) * 100}%, ${Math.floor(i / w) * 100}%)`;
      tile.dataset.cell = String(i);
      tile.classList.toggle('home', this.homes.get(t) === i);
      // Blindfolded, the numbers are gone from the page, not only unseen.
      tile.textContent = blind ? '' : String(t);
    });
    return changed;
  }

  readerCell(i, blind) {
    const { tiles, w } = this.scene;
    const t = tiles[i];
    const where = `row ${Math.floor(i / w) + 1}, column ${(i % w) + 1}`;
    this.placeEls[i].textContent = `${t === 0 ? 'blank' : blind ? 'tile' : t}, ${where}`;
  }

  // What the tiles show under the display type; back to numbers when the
  // display is standard again or the board is blind. The cells whose
  // display changed.
  paintShown(quick = false) {
    const scene = this.scene;
    const board = this.node;
    const on = scene.display !== 'standard' && !scene.blind;
    this.displayed = null;
    if (!on && !board.classList.contains('displayed')) return [];
    board.classList.toggle('displayed', on);
    board.dataset.display = on ? scene.display : 'standard';
    const { cells, changed, fresh } = this.carry(board.dataset.display);
    looks.paintDisplay(scene.tiles, cells, this.tileEls, this.placeEls, scene.w, quick && !fresh ? changed : null);
    if (on) this.displayed = cells;
    else { this.shown = []; this.paintCells(scene.blind); }
    return fresh ? [...cells.keys()] : changed;
  }

  // The display carried forward to the position shown, and the cells the
  // moves since the last redraw changed; a new puzzle, display or move list
  // (a restart), or fewer moves (a replay stepped back), starts it again
  // from the puzzle's start. Without a move list, worked out afresh.
  carry(display) {
    const scene = this.scene;
    const moves = scene.moves ?? [];
    const played = scene.played ?? moves.length;
    let view = this.carried;
    const start = scene.start ?? scene.tiles;
    const fresh = !view || view.display !== display || view.moves !== moves || view.played > played || !scene.moves;
    if (fresh) view = this.carried = Object.assign(new CarriedDisplay(display, start, scene.goal, scene.w), { moves });
    const changed = new Set();
    while (view.played < played) {
      const cells = view.move(moves[view.played]);
      if (!cells) break;
      for (const i of cells) changed.add(i);
    }
    return { cells: view.cells, changed, fresh };
  }

  // Draws the cells listed in `only`, or all, on a big board's canvas.
  paintCanvas(only = null) {
    if (!this.canvas) return;
    const { scheme, picture } = this.lookShown();
    const s = this.scene;
    this.canvas.paint({
      tiles: s.tiles, home: this.homes, cells: this.displayed, blind: this.shownBlind, numbers: s.numbers,
      colours: scheme ? this.look.colours : null, picture: picture ? this.look.picture : null, hint: this.hint,
    }, only);
  }

  // --- Looks: numbers, a colour scheme, a picture (looks.js).

  // Whether the look made for the puzzle on show is shown, and which.
  lookShown() {
    const look = this.look;
    const ready = !!this.scene && look.for === this.node.dataset.game;
    const scheme = ready && !!look.colours && look.key.startsWith('scheme:');
    const picture = ready && !!look.picture && (look.key.startsWith('picture:') || look.key === 'photo');
    return { ready, scheme, picture };
  }

  // The picture the tiles show, if any (a goal overlay shows it whole).
  picture() {
    return this.lookShown().picture ? this.look.picture : null;
  }

  // Shows the current look on the board's tiles: a scheme's colours, or
  // each tile's part of the picture (the part at its goal cell).
  paintLook() {
    const board = this.node;
    const { w } = this.scene;
    const { ready, scheme, picture } = this.lookShown();
    board.classList.toggle('look-scheme', scheme);
    board.classList.toggle('look-picture', picture);
    board.classList.toggle('no-numbers', !this.scene.numbers);
    board.dataset.look = ready ? this.look.key : 'numbers';
    if (picture) board.style.setProperty('--picture', `url("${this.look.picture}")`);
    for (const tile of this.tileEls) {
      if (!tile) continue;
      const t = Number(tile.dataset.tile);
      const home = this.homes.get(t);
      tile.style.setProperty('--hx', String(home % w));
      tile.style.setProperty('--hy', String(Math.floor(home / w)));
      tile.style.setProperty('--fill', scheme ? this.look.colours.fills[t] : '');
      tile.style.setProperty('--ink', scheme ? this.look.colours.texts[t] : '');
    }
  }

  // Makes what look `key` needs for the puzzle on show (colours from the
  // server, a picture cropped to the board; `photo` the player's own
  // image), then redraws; true once shown, false if it could not be
  // (the error thrown) or another puzzle or look came first.
  async setLook(key, photo = null) {
    if (!this.scene) return false;
    const game = this.node.dataset.game;
    const { w, h, goal } = this.scene;
    this.look.key = key;
    if (key.startsWith('scheme:')) {
      this.look.colours = await looks.colours(format(goal, w), key.slice(7));
    } else if (key.startsWith('picture:')) {
      this.look.picture = await looks.cropped(looks.builtIn(key.slice(8)), w, h);
    } else if (key === 'photo') {
      if (!photo) return false;
      this.look.picture = await looks.cropped(photo, w, h);
    }
    if (game !== this.node.dataset.game || this.look.key !== key) return false;
    this.look.for = game;
    this.draw(this.scene);
    return true;
  }

  // Lights the tile in `cell` a moment (a hint).
  flash(cell) {
    const tile = this.node.querySelector(`.tile[data-cell="${cell}"]`);
    if (tile) {
      tile.classList.add('hinted');
      setTimeout(() => tile.classList.remove('hinted'), 900);
    }
    if (!this.canvas) return;
    const game = this.node.dataset.game;
    this.hint = cell;
    this.paintCanvas([cell]);
    setTimeout(() => {
      if (game !== this.node.dataset.game || this.hint !== cell) return;
      this.hint = null;
      this.paintCanvas([cell]);
    }, 900);
  }

  // --- Zoom: + and - make the cells larger or smaller than fit, End fits
  // the board to the window again; kept for the board's size. Zoomed in,
  // the board scrolls in its box and a drag pans it.
  setZoom(value, keep = true) {
    this.zoom = Math.min(8, Math.max(0.5, value));
    this.node.style.setProperty('--zoom', String(this.zoom));
    this.node.parentElement?.classList.toggle('zoomed', this.zoom > 1);
    if (keep && this.scene) keepZoom(`${this.scene.w}x${this.scene.h}`, this.zoom);
    if (this.canvas?.fit()) this.paintCanvas();
  }

  // --- Input: every control turned into moves.

  // The cell of the board under a point of the screen, or null off the
  // board's cells.
  cellAt(x, y) {
    const board = this.node;
    const { w, h } = this.scene;
    const r = board.getBoundingClientRect();
    const pad = (r.width - board.clientWidth) / 2 + parseFloat(getComputedStyle(board).paddingLeft);
    const size = (r.width - 2 * pad) / w;
    const cx = Math.floor((x - r.left - pad) / size);
    const cy = Math.floor((y - r.top - pad) / size);
    return cx < 0 || cy < 0 || cx >= w || cy >= h ? null : cy * w + cx;
  }

  toward(cell) {
    return movesToward(this.scene.tiles, this.scene.w, cell);
  }

  listen() {
    const board = this.node;
    board.addEventListener('click', (e) => {
      if (!this.live()) return;
      // A screen reader's Enter comes as a click from no pointer.
      const input = { mouse: 'm', pen: 'm', touch: 't' }[e.pointerType] ?? 'k';
      // With hover the pointer has moved the tiles already.
      if (control() === 'hover' && input === 'm') return;
      const tile = e.target.closest('.tile');
      const cell = e.target.closest('[data-place]');
      let at = tile ? Number(tile.dataset.cell) : cell ? Number(cell.dataset.place) : null;
      if (at === null && this.canvas && e.target === this.canvas.canvas) at = this.cellAt(e.clientX, e.clientY);
      if (at !== null) this.o.play(this.toward(at), input);
    });
    // Hover reads the pointer as each movement arrives (`pointerrawupdate`,
    // where the browser has it), not when the next frame dispatches
    // `pointermove`: the move is drawn before that frame, so it shows in
    // it. Once raw updates arrive, `pointermove` replaying the same path
    // would move the blank back along it, so it is left to them.
    let raw = false;
    board.addEventListener('pointerrawupdate', (e) => { raw = true; this.hovered(e); });
    board.addEventListener('pointermove', (e) => { if (!raw) this.hovered(e); });
    const target = this.o.keysOn === 'board' ? board : document;
    target.addEventListener('keydown', (e) => this.key(e));
    this.swipes();
    this.pannable();
    window.addEventListener('resize', () => {
      if (!this.scene) return;
      this.fitHeight();
      if (this.canvas?.fit()) this.paintCanvas();
    });
  }

  // Hover: the blank follows the pointer. Where the pointer is over a tile
  // in the blank's row or column, that tile and those between slide so the
  // blank ends under the pointer; elsewhere nothing moves until the pointer
  // reaches the blank's row or column. Ctrl or a held button lets the
  // pointer move without moving tiles (to place it before a solve). Every
  // point the pointer passed through since the last event counts, so a
  // fast sweep moves what a slow one would.
  hovered(e) {
    if (control() !== 'hover' || e.pointerType === 'touch' || e.ctrlKey || e.buttons || !this.live()) return;
    const points = e.getCoalescedEvents?.() ?? [];
    for (const p of points.length ? points : [e]) {
      const c = this.cellAt(p.clientX, p.clientY);
      if (c === null) continue;
      const moves = this.toward(c);
      if (moves.length) this.o.play(moves, 'h', true);
    }
  }

  // A key: a move (the arrows and WASD, or the player's own four), Backspace
  // to undo, + - End to zoom. Keys typed in a field are the field's.
  key(e) {
    if (keys.choosing() || !this.live()) return;
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(e.target.tagName)) return;
    // With several boards on a page, the keys move the one focused.
    if (this.o.keysOn === 'document' && [...boards].some((b) => b !== this && b.o.keysOn === 'board' && b.node.contains(e.target))) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const move = keys.move(e.key);
    if (move) { e.preventDefault(); this.o.play([move], 'k'); return; }
    if (e.key === 'Backspace' && this.o.undo) { e.preventDefault(); this.o.undo('k'); }
    if (e.key === '+' || e.key === '=') { e.preventDefault(); this.setZoom(this.zoom * 1.25); }
    if (e.key === '-') { e.preventDefault(); this.setZoom(this.zoom / 1.25); }
    if (e.key === 'End') { e.preventDefault(); this.setZoom(1); }
  }

  // A swipe across the board slides a tile the way the finger went; a tap
  // is left to the click handler.
  swipes() {
    let touch = null;
    const board = this.node;
    board.addEventListener('touchstart', (e) => { touch = e.touches[0]; }, { passive: true });
    // The finger's movement is the swipe's alone: no scroll or fling starts
    // (a fling under way would swallow the next tap).
    board.addEventListener('touchmove', (e) => { if (touch && e.cancelable) e.preventDefault(); }, { passive: false });
    board.addEventListener('touchend', (e) => {
      if (!touch) return;
      const t = e.changedTouches[0];
      const [dx, dy] = [t.clientX - touch.clientX, t.clientY - touch.clientY];
      touch = null;
      if (Math.max(Math.abs(dx), Math.abs(dy)) < 24 || !this.live()) return;
      e.preventDefault();
      this.o.play([Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'R' : 'L') : (dy > 0 ? 'D' : 'U')], 't');
    });
  }

  pannable() {
    const board = this.node;
    let from = null;
    let dragged = false;
    board.addEventListener('pointerdown', (e) => {
      dragged = false;
      from = this.zoom > 1 && e.pointerType === 'mouse' ? { x: e.clientX, y: e.clientY } : null;
    });
    board.addEventListener('pointermove', (e) => {
      if (!from || !e.buttons) return;
      board.parentElement.scrollBy(from.x - e.clientX, from.y - e.clientY);
      dragged ||= Math.abs(from.x - e.clientX) + Math.abs(from.y - e.clientY) > 4;
      from = { x: e.clientX, y: e.clientY };
    });
    board.addEventListener('pointerup', () => { from = null; });
    // A drag is no click on the tile it ends on.
    board.addEventListener('click', (e) => {
      if (dragged) { e.stopImmediatePropagation(); dragged = false; }
    }, { capture: true });
  }
}
