// Display types (slidysim's): what each tile of the sliding puzzle shows,
// as a rule of the position against its goal and, for a few, of the moves
// that led there. Pure functions; the page draws what they return. The
// same rules are written in Rust (play::display), and a test
// (crates/tessera/tests/it/client_rules.rs) runs these under Node against
// that implementation on many boards, so the two cannot drift apart.
//
// While a game is played the page carries a display forward move by move
// (CarriedDisplay, at the end) rather than work out every cell again.
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

// What a tile shows under each display, in a line for the player
// (docs/playing.md has the same table).
export const DISPLAY_WORDS = {
  standard: 'its number',
  minimal: 'its number in the top-left cell only; elsewhere nothing',
  'row-minimal': 'its number in the top row only; elsewhere nothing',
  'fringe-minimal': 'its number in the top row and left column only; elsewhere nothing',
  'inverse-permutation': 'the inverse scramble: in the goal cell of the tile now in a cell, the goal’s tile of that cell',
  manhattan: 'how many moves it is from its goal cell',
  vectors: 'an arrow to its goal cell',
  'incremental-vectors': 'an arrow to the next tile by number (the last tile is hidden)',
  'inverse-vectors': 'an arrow to where the tile that belongs in its cell is now',
  rgb: 'red in its goal row, blue in its goal column, green home',
  chess: '♚ home, ♜ in its goal row or column, ♝ on a diagonal through its goal cell, ♞ a knight’s move from it',
  'adjacent-tiles': 'its number only beside the blank',
  'adjacent-sum': 'the sum of the numbers of the tiles beside it',
  'last-move': 'its number only if it moved last',
  'fading-tiles': 'its number, fading with each of its own moves until it is gone',
  'vanish-on-solved': 'its number until a move takes it home',
  minesweeper: 'how many tiles beside it are home',
  'minimal-unsolved': 'its number only if it is the smallest tile not home',
  'maximal-unsolved': 'its number only if it is the largest tile not home',
  'rows-and-columns': 'how many other tiles in its row and column are home (0 until some are)',
};

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

// What the rules read of a position, indexed so that each cell's rule
// costs O(1) (a 32×32 has 1,024 cells): where each tile is and belongs,
// how many tiles are home in each row and column, the least and most
// unsolved tile, and the next tile by number. `move` keeps it up to date.
function survey(tiles, goal, w) {
  const h = tiles.length / w;
  const numbers = tiles.filter((t) => t !== 0).sort((a, b) => a - b);
  const at = {
    tiles: tiles.slice(), goal, w, h,
    goalCell: new Map(goal.map((t, i) => [t, i])),
    nowCell: new Map(tiles.map((t, i) => [t, i])),
    next: new Map(numbers.map((t, k) => [t, numbers[k + 1]])),
    before: new Map(numbers.map((t, k) => [t, numbers[k - 1]])),
    rowHome: new Array(h).fill(0),
    colHome: new Array(w).fill(0),
    least: Infinity,
    most: -Infinity,
  };
  at.tiles.forEach((t, i) => {
    if (isHome(at, i)) { at.rowHome[Math.floor(i / w)] += 1; at.colHome[i % w] += 1; }
  });
  unsolvedBounds(at);
  return at;
}

const isHome = (at, i) => at.tiles[i] !== 0 && at.goalCell.get(at.tiles[i]) === i;

function unsolvedBounds(at) {
  at.least = Infinity;
  at.most = -Infinity;
  at.tiles.forEach((t, i) => {
    if (t === 0 || at.goalCell.get(t) === i) return;
    if (t < at.least) at.least = t;
    if (t > at.most) at.most = t;
  });
}

// The rule of `display`: what the tile in cell i shows.
function ruleOf(display, at, recent) {
  const { tiles, goal, w, h, goalCell, nowCell } = at;
  const xy = (i) => [i % w, Math.floor(i / w)];
  const step = (from, to) => [xy(to)[0] - xy(from)[0], xy(to)[1] - xy(from)[1]];
  const toHome = (i) => step(i, goalCell.get(tiles[i]));
  const home = (i) => isHome(at, i);
  const number = (i, seen) => (seen ? cell(tiles[i]) : HIDDEN);
  const arrow = (d) => cell('', { arrow: d });
  const limit = fadeLimit(w, h);
  const rules = {
    standard: (i) => cell(tiles[i]),
    minimal: (i) => number(i, i === 0),
    'row-minimal': (i) => number(i, i < w),
    'fringe-minimal': (i) => number(i, i < w || i % w === 0),
    // The inverse permutation: in the goal cell of the tile that is in
    // cell j, the number that belongs in cell j.
    'inverse-permutation': (i) => {
      const inverse = goal[nowCell.get(goal[i])];
      return cell(inverse === 0 ? '' : inverse);
    },
    manhattan: (i) => cell(Math.abs(toHome(i)[0]) + Math.abs(toHome(i)[1])),
    vectors: (i) => arrow(toHome(i)),
    'incremental-vectors': (i) => {
      const next = at.next.get(tiles[i]);
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
    'adjacent-tiles': (i) => number(i, neighbours(at, i).some((j) => tiles[j] === 0)),
    'adjacent-sum': (i) => cell(neighbours(at, i).reduce((sum, j) => sum + tiles[j], 0)),
    'last-move': (i) => number(i, tiles[i] === recent.last),
    'fading-tiles': (i) => {
      const left = limit - (recent.moved.get(tiles[i]) ?? 0);
      return left <= 0 ? HIDDEN : cell(tiles[i], { opacity: [left, limit] });
    },
    'vanish-on-solved': (i) => number(i, !recent.wentHome.has(tiles[i])),
    minesweeper: (i) => cell(neighbours(at, i).filter(home).length),
    'minimal-unsolved': (i) => number(i, tiles[i] === at.least),
    'maximal-unsolved': (i) => number(i, tiles[i] === at.most),
    // The home tiles in the cell's row and column, itself not counted.
    'rows-and-columns': (i) => {
      const [x, y] = xy(i);
      return cell(at.rowHome[y] + at.colHome[x] - (home(i) ? 2 : 0));
    },
  };
  return rules[display] ?? rules.standard;
}

function neighbours(at, i) {
  const { w, h } = at;
  const x = i % w, y = Math.floor(i / w);
  const out = [];
  if (y > 0) out.push(i - w);
  if (y < h - 1) out.push(i + w);
  if (x > 0) out.push(i - 1);
  if (x < w - 1) out.push(i + 1);
  return out;
}

// What every cell shows under `display` (see the top of this file).
export function shownCells(display, tiles, goal, w, recent = NO_HISTORY) {
  const at = survey(tiles, goal, w);
  const rule = ruleOf(display, at, recent);
  return tiles.map((t, i) => (t === 0 ? null : rule(i)));
}

// A display carried forward move by move, as a game is played: after a
// move only the cells it can change are worked out again, not the board
// (which on a 32×32 would be 1,024 rules a move, and a replay of the whole
// history). A move of the tile t from cell `from` into the blank at `to`
// changes those two cells under every display; a rule that reads more than
// its own tile changes more cells (see `touched`).
export class CarriedDisplay {
  constructor(display, start, goal, w) {
    this.display = display;
    this.at = survey(start, goal, w);
    this.recent = { moved: new Map(), wentHome: new Set(), last: null };
    this.rule = ruleOf(display, this.at, this.recent);
    this.played = 0; // moves carried so far
    this.cells = this.at.tiles.map((t, i) => (t === 0 ? null : this.rule(i)));
  }

  // Plays one move (a letter naming the way the TILE moves); the cells
  // whose display changed, or null if no tile can move that way.
  move(letter) {
    const { at, recent } = this;
    const { tiles, w, h } = at;
    const to = tiles.indexOf(0);
    const x = to % w, y = Math.floor(to / w);
    const [fx, fy] = { U: [x, y + 1], D: [x, y - 1], L: [x + 1, y], R: [x - 1, y] }[letter];
    if (fx < 0 || fy < 0 || fx >= w || fy >= h) return null;
    const from = fy * w + fx;
    const t = tiles[from];
    const before = this.touched(t, from, to);
    this.countHome(from, -1);
    this.countHome(to, -1);
    tiles[to] = t;
    tiles[from] = 0;
    at.nowCell.set(t, to);
    at.nowCell.set(0, from);
    this.countHome(from, 1);
    this.countHome(to, 1);
    recent.moved.set(t, (recent.moved.get(t) ?? 0) + 1);
    if (at.goalCell.get(t) === to) recent.wentHome.add(t);
    recent.last = t;
    if (this.display === 'minimal-unsolved' || this.display === 'maximal-unsolved') unsolvedBounds(at);
    const changed = new Set([...before, ...this.touched(t, from, to)]);
    for (const i of changed) this.cells[i] = tiles[i] === 0 ? null : this.rule(i);
    this.played += 1;
    return changed;
  }

  // Counts cell i's tile in (sign 1) or out of (-1) its row's and column's
  // home tiles.
  countHome(i, sign) {
    if (!isHome(this.at, i)) return;
    this.at.rowHome[Math.floor(i / this.at.w)] += sign;
    this.at.colHome[i % this.at.w] += sign;
  }

  // The cells whose display a move of tile t between `from` and `to` may
  // change, besides those two; asked before and after the move, so that a
  // cell that stops showing something is redrawn too. Displays that read
  // only their own tile (standard, the minimals, Manhattan, vectors, RGB,
  // chess, fading tiles, vanish on solved) need no more.
  touched(t, from, to) {
    const { at, recent } = this;
    const cells = [from, to];
    const inGoalOf = (tile) => at.goalCell.get(tile);
    switch (this.display) {
      case 'inverse-permutation':
      case 'inverse-vectors':
        // Cells whose goal tile is the one that moved, or the blank.
        cells.push(inGoalOf(t), inGoalOf(0));
        break;
      case 'incremental-vectors': {
        // The tile before t by number points at t.
        const before = at.before.get(t);
        if (before !== undefined) cells.push(at.nowCell.get(before));
        break;
      }
      case 'adjacent-tiles':
      case 'adjacent-sum':
      case 'minesweeper':
        cells.push(...neighbours(at, from), ...neighbours(at, to));
        break;
      case 'last-move':
        if (recent.last !== null) cells.push(at.nowCell.get(recent.last));
        break;
      case 'minimal-unsolved':
      case 'maximal-unsolved':
        for (const u of [at.least, at.most]) if (at.nowCell.has(u)) cells.push(at.nowCell.get(u));
        break;
      case 'rows-and-columns':
        for (const i of [from, to]) {
          const x = i % at.w, y = Math.floor(i / at.w);
          for (let k = 0; k < at.w; k++) cells.push(y * at.w + k);
          for (let k = 0; k < at.h; k++) cells.push(k * at.w + x);
        }
        break;
      default:
    }
    return cells.filter((i) => i !== undefined);
  }
}
