// The few engine rules the page applies itself, so that play answers at
// once: a slide move, the tiles a click slides, the multi-tile count, the
// move notation players type (the fewest-moves challenge's box), the
// Shisen-Sho score shown while playing, which tiles match, and what each
// tile shows under a display type (display.js). The server
// stays the judge — it replays every submission with the engines — and a
// test (crates/tessera/tests/it/client_rules.rs) runs these functions under
// Node on cases the engines computed, so the two cannot drift apart.

import { DISPLAYS, DISPLAY_WORDS } from './display.js';

export { DISPLAYS, DISPLAY_WORDS, PIECES, allowedWith, recentOf, shownCells, fadeLimit, CarriedDisplay } from './display.js';

// Fills `line` with what a tile shows under `display`, a line beside the
// menu that chooses it; hidden for the standard display.
export function aboutDisplay(line, display) {
  const label = DISPLAYS.find(([d]) => d === display)?.[1] ?? display;
  line.textContent = `Display ${label}: each tile shows ${DISPLAY_WORDS[display] ?? 'its number'}.`;
  line.hidden = display === 'standard';
}

// Letters name the direction the TILE moves; the tile that moves into the
// blank comes from the opposite side: [dx, dy] from the blank to that tile.
export const SOURCE = { U: [0, 1], D: [0, -1], L: [1, 0], R: [-1, 0] };
export const INVERSE = { U: 'D', D: 'U', L: 'R', R: 'L' };

// Applies one move to `tiles` (row-major, 0 = blank) in place; false if
// no tile can move that way (slide::Position::apply).
export function applyMove(tiles, w, h, letter) {
  const b = tiles.indexOf(0);
  const [dx, dy] = SOURCE[letter];
  const x = (b % w) + dx, y = Math.floor(b / w) + dy;
  if (x < 0 || y < 0 || x >= w || y >= h) return false;
  const from = y * w + x;
  tiles[b] = tiles[from];
  tiles[from] = 0;
  return true;
}

// The moves that slide the tile at cell `c` (and those between it and the
// blank) into the blank; [] if it is not in the blank's row or column
// (slide::Position::slide_to).
export function movesToward(tiles, w, c) {
  const b = tiles.indexOf(0);
  const [bx, by, x, y] = [b % w, Math.floor(b / w), c % w, Math.floor(c / w)];
  if (y === by && x !== bx) return Array(Math.abs(x - bx)).fill(x < bx ? 'R' : 'L');
  if (x === bx && y !== by) return Array(Math.abs(y - by)).fill(y < by ? 'D' : 'U');
  return [];
}

// A move list in the command line's notation (slide::Moves::from_str):
// U D L R in either case, a count after a letter repeating it, spaces and
// commas ignored. { letters } or { error } saying where it went wrong;
// at most `most` moves (play::fmc::MOST_MOVES).
export function readMoves(text, most = 2000) {
  const letters = [];
  const re = /[\s,]*(?:([UDLRudlr])(\d*)|(.))/gy;
  let m;
  while (re.lastIndex < text.length && (m = re.exec(text)) !== null) {
    if (m[3] !== undefined) {
      if (/\s|,/.test(m[3])) continue;
      return { error: /\d/.test(m[3]) ? `count at position ${m.index} has no move before it` : `character "${m[3]}" is not a move (use U, D, L, R, optionally followed by a count)` };
    }
    if (m[1] === undefined) break;
    const count = m[2] === '' ? 1 : Number(m[2]);
    if (letters.length + count > most) return { error: `more than ${most} single-tile moves` };
    for (let i = 0; i < count; i += 1) letters.push(m[1].toUpperCase());
  }
  return { letters };
}

// Moves in the multi-tile metric: a run of one letter is one move
// (slide::Moves::mtm_len).
export function mtmCount(letters) {
  let runs = 0;
  for (let i = 0; i < letters.length; i += 1) if (i === 0 || letters[i] !== letters[i - 1]) runs += 1;
  return runs;
}

// The Shisen-Sho score (shisen::Game::score): removed tiles earn points,
// faster play earns more, each undo, hint or shuffle costs a tile's worth,
// and gravity doubles it.
export function score(startTiles, tilesLeft, elapsedSecs, help, gravity) {
  const removed = startTiles - tilesLeft;
  const pace = Math.floor((10 * startTiles) / Math.max(1, Math.floor(startTiles / 2) + elapsedSecs));
  const points = Math.max(0, removed * (10 + pace) - help * (10 + pace));
  return gravity ? 2 * points : points;
}

// The matching class of a tile's kind (shisen::Matching::class): with
// Chinese rules any flower matches any flower, any season any season.
export function matchClass(kind, chinese) {
  if (chinese && kind >= 's' && kind <= 'v') return 's';
  if (chinese && kind >= 'w' && kind <= 'z') return 'w';
  return kind;
}
