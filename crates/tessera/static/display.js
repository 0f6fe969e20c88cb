// Display types (slidysim's): what each tile of the sliding puzzle shows,
// as a rule of the position against its goal and, for a few, of the moves
// that led there. Pure functions; the page draws what they return. The
// same rules are written in Rust (play::display), and a test
// (crates/tessera/tests/it/client_rules.rs) runs these under Node against
// that implementation on many boards, so the two cannot drift apart.
//
// A cell is null for the blank, else { text, hidden, tint, arrow, opacity }:
// `hidden` draws the tile like the blank, `tint` is red/blue/green (RGB),
// `arrow` a step [dx, dy] in cells (y down), `opacity` [left, of] while a
// tile fades.

// Every display, in the order the menu offers them, with its label.
export const DISPLAYS = [
  ['standard', 'standard'], ['minimal', 'minimal'], ['row-minimal', 'row minimal'],
  ['fringe-minimal', 'fringe minimal'], ['inverse-permutation', 'inverse permutation'],
  ['manhattan', 'Manhattan'], ['vectors', 'vectors'], ['incremental-vectors', 'incremental vectors'],
  ['inverse-vectors', 'inverse vectors'], ['rgb', 'RGB'], ['chess', 'chess'],
  ['adjacent-tiles', 'adjacent tiles'], ['adjacent-sum', 'adjacent sum'], ['last-move', 'last move'],
  ['fading-tiles', 'fading tiles'], ['vanish-on-solved', 'vanish on solved'],
  ['minesweeper', 'minesweeper'], ['minimal-unsolved', 'minimal unsolved'],
  ['maximal-unsolved', 'maximal unsolved'], ['rows-and-columns', 'rows and columns'],
];

// The chess pieces: the one whose single move takes a tile home.
export const PIECES = { king: '♚', rook: '♜', bishop: '♝', knight: '♞' };

// Display types other than standard are refused for a blindfold solve,
// which hides every number already (play::display::Display::allowed_with).
export const allowedWith = (display, format) => display === 'standard' || format !== 'bld';

const cell = (text, extra = {}) => ({ text: String(text), hidden: false, tint: null, arrow: null, opacity: null, ...extra });
const HIDDEN = { text: '', hidden: true, tint: null, arrow: null, opacity: null };

// What the moves so far did: how often each tile moved, which were moved
// into their goal cell, and the tile that moved last. `letters` name the
// way a TILE moves (U D L R); an impossible one ends the history there.
export function recentOf(start, goal, w, letters) {
  const tiles = start.slice();
  const moved = new Map();
  const wentHome = new Set();
  let last = null;
  const h = tiles.length / w;
  for (const letter of letters) {
    const blank = tiles.indexOf(0);
    const bx = blank % w, by = Math.floor(blank / w);
    const [fx, fy] = { U: [bx, by + 1], D: [bx, by - 1], L: [bx + 1, by], R: [bx - 1, by] }[letter];
    if (fx < 0 || fy < 0 || fx >= w || fy >= h) break;
    const tile = tiles[fy * w + fx];
    tiles[blank] = tile;
    tiles[fy * w + fx] = 0;
    moved.set(tile, (moved.get(tile) ?? 0) + 1);
    if (goal[blank] === tile) wentHome.add(tile);
    last = tile;
  }
  return { moved, wentHome, last };
}

export const NO_HISTORY = { moved: new Map(), wentHome: new Set(), last: null };

// The moves after which a fading tile is gone: 2N on N×N, 2√(WH) on W×H.
export const fadeLimit = (w, h) => Math.round(2 * Math.sqrt(w * h));

// What every cell shows under `display` (see the top of this file).
export function shownCells(display, tiles, goal, w, recent = NO_HISTORY) {
  const h = tiles.length / w;
  const n = tiles.length;
  const goalCell = new Map(goal.map((t, i) => [t, i]));
  const nowCell = new Map(tiles.map((t, i) => [t, i]));
  const xy = (i) => [i % w, Math.floor(i / w)];
  const step = (from, to) => [xy(to)[0] - xy(from)[0], xy(to)[1] - xy(from)[1]];
  const toHome = (i) => step(i, goalCell.get(tiles[i]));
  const home = (i) => tiles[i] !== 0 && goalCell.get(tiles[i]) === i;
  const neighbours = (i) => {
    const [x, y] = xy(i);
    return [[x, y - 1], [x, y + 1], [x - 1, y], [x + 1, y]]
      .filter(([a, b]) => a >= 0 && b >= 0 && a < w && b < h).map(([a, b]) => b * w + a);
  };
  const number = (i, seen) => (seen ? cell(tiles[i]) : HIDDEN);
  const arrow = (d) => cell('', { arrow: d });
  const unsolved = tiles.filter((t, i) => t !== 0 && goalCell.get(t) !== i);
  const least = Math.min(...unsolved), most = Math.max(...unsolved);
  const sorted = tiles.filter((t) => t !== 0).sort((a, b) => a - b);
  const inverse = new Array(n).fill(0);
  tiles.forEach((t, i) => { inverse[goalCell.get(t)] = goal[i]; });
  const limit = fadeLimit(w, h);

  const rules = {
    standard: (i) => cell(tiles[i]),
    minimal: (i) => number(i, i === 0),
    'row-minimal': (i) => number(i, i < w),
    'fringe-minimal': (i) => number(i, i < w || i % w === 0),
    'inverse-permutation': (i) => cell(inverse[i] === 0 ? '' : inverse[i]),
    manhattan: (i) => cell(Math.abs(toHome(i)[0]) + Math.abs(toHome(i)[1])),
    vectors: (i) => arrow(toHome(i)),
    'incremental-vectors': (i) => {
      const next = sorted[sorted.indexOf(tiles[i]) + 1];
      return next === undefined ? HIDDEN : arrow(step(i, nowCell.get(next)));
    },
    'inverse-vectors': (i) => arrow(step(i, nowCell.get(goal[i]))),
    rgb: (i) => {
      const [dx, dy] = toHome(i);
      const tint = dx === 0 && dy === 0 ? 'green' : dy === 0 ? 'red' : dx === 0 ? 'blue' : null;
      return cell('', { tint });
    },
    chess: (i) => {
      const [dx, dy] = toHome(i).map(Math.abs);
      if (dx === 0 && dy === 0) return cell(PIECES.king);
      if (dx === 0 || dy === 0) return cell(PIECES.rook);
      if (dx === dy) return cell(PIECES.bishop);
      return cell(dx + dy === 3 ? PIECES.knight : '');
    },
    'adjacent-tiles': (i) => number(i, neighbours(i).some((j) => tiles[j] === 0)),
    'adjacent-sum': (i) => cell(neighbours(i).reduce((sum, j) => sum + tiles[j], 0)),
    'last-move': (i) => number(i, tiles[i] === recent.last),
    'fading-tiles': (i) => {
      const left = limit - (recent.moved.get(tiles[i]) ?? 0);
      return left <= 0 ? HIDDEN : cell(tiles[i], { opacity: [left, limit] });
    },
    'vanish-on-solved': (i) => number(i, !recent.wentHome.has(tiles[i])),
    minesweeper: (i) => cell(neighbours(i).filter(home).length),
    'minimal-unsolved': (i) => number(i, tiles[i] === least),
    'maximal-unsolved': (i) => number(i, tiles[i] === most),
    'rows-and-columns': (i) => {
      const [x, y] = xy(i);
      return cell(tiles.filter((_, j) => j !== i && home(j) && (j % w === x || Math.floor(j / w) === y)).length);
    },
  };
  const rule = rules[display] ?? rules.standard;
  return tiles.map((t, i) => (t === 0 ? null : rule(i)));
}
