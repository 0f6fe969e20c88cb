// A sliding-puzzle board as the race and time-attack pages draw it: one
// element per tile placed by transform (so moves animate), the tiles home
// marked, a screen reader's grid of cells beside them; and the ways to
// play it: a click slides the tiles between the one clicked and the blank,
// the arrow keys or WASD slide one, a swipe on a touch screen too. The
// rules themselves are rules.js's.
import { el } from './api.js';
import { movesToward } from './rules.js';

// `1 2/3 0` → { w, h, tiles }.
export function parse(text) {
  const rows = text.split('/').map((r) => r.trim().split(/\s+/).map(Number));
  return { w: rows[0].length, h: rows.length, tiles: rows.flat() };
}

// The keys that slide a tile: the tile moves the way the key points.
export const KEYS = {
  ArrowUp: 'U', ArrowDown: 'D', ArrowLeft: 'L', ArrowRight: 'R',
  w: 'U', s: 'D', a: 'L', d: 'R', W: 'U', S: 'D', A: 'L', D: 'R',
};

// The height left for the board from where it starts to the window's
// bottom, less `below` pixels for what follows it, as the sliding
// puzzle's page sizes its board.
export function fitHeight(board, below = 90) {
  const top = board.getBoundingClientRect().top + window.scrollY;
  board.style.setProperty('--room', `${Math.max(120, window.innerHeight - top - below)}px`);
}

// Draws `tiles` (w × h) on `board`, a `.slide-board`; a new `key` (a new
// puzzle) builds its tile elements afresh. `label` names the board to a
// screen reader.
export function draw(board, { key, w, h, tiles, goal, label, solved = false, below = 90 }) {
  board.style.setProperty('--w', w);
  board.style.setProperty('--h', h);
  fitHeight(board, below);
  if (board.dataset.game !== String(key)) {
    board.replaceChildren();
    board.dataset.game = String(key);
    for (const t of tiles) if (t !== 0) board.append(el('div', { class: 'tile', 'data-tile': String(t), 'aria-hidden': 'true', text: String(t) }));
    const rows = el('div', { class: 'sr-only', role: 'rowgroup' });
    for (let y = 0; y < h; y++) {
      const row = el('div', { role: 'row' });
      for (let x = 0; x < w; x++) row.append(el('div', { role: 'gridcell', 'data-place': String(y * w + x) }));
      rows.append(row);
    }
    board.append(rows);
    board.setAttribute('aria-label', `${label}, ${w} by ${h}`);
  }
  const home = new Map(goal.map((t, i) => [t, i]));
  tiles.forEach((t, i) => {
    if (t === 0) return;
    const tile = board.querySelector(`[data-tile="${t}"]`);
    tile.style.transform = `translate(${(i % w) * 100}%, ${Math.floor(i / w) * 100}%)`;
    tile.dataset.cell = String(i);
    tile.classList.toggle('home', home.get(t) === i);
  });
  for (const cell of board.querySelectorAll('[data-place]')) {
    const i = Number(cell.dataset.place);
    const t = tiles[i];
    cell.textContent = `${t === 0 ? 'blank' : t}, row ${Math.floor(i / w) + 1}, column ${(i % w) + 1}`;
  }
  board.classList.toggle('solved', solved);
}

// Plays `board` while `playing()`: `play(letters)` gets the moves a click
// (toward the blank from the tile or cell clicked, on `tiles()` w wide), a
// key or a swipe asks for.
export function listen(board, { playing, tiles, w, play }) {
  board.addEventListener('click', (e) => {
    if (!playing()) return;
    const tile = e.target.closest('.tile');
    const cell = e.target.closest('[data-place]');
    const at = tile ? Number(tile.dataset.cell) : cell ? Number(cell.dataset.place) : -1;
    if (at >= 0) play(movesToward(tiles(), w(), at));
  });
  document.addEventListener('keydown', (e) => {
    if (['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(e.target.tagName) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key in KEYS && playing()) { e.preventDefault(); play([KEYS[e.key]]); }
  });
  onSwipe(board, (letter) => play([letter]));
}

// Calls `slide(letter)` for a swipe across `board` (the sliding puzzle's
// page's too): the tile slides the way the finger went. A tap is left to
// the click handler.
export function onSwipe(board, slide) {
  let touch = null;
  board.addEventListener('touchstart', (e) => { touch = e.touches[0]; }, { passive: true });
  board.addEventListener('touchend', (e) => {
    if (!touch) return;
    const t = e.changedTouches[0];
    const [dx, dy] = [t.clientX - touch.clientX, t.clientY - touch.clientY];
    touch = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return; // a tap: the click plays it
    e.preventDefault();
    slide(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'R' : 'L') : (dy > 0 ? 'D' : 'U'));
  });
}
