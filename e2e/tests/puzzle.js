// Sliding-puzzle helpers the browser tests share: moves on a tile array,
// an independent breadth-first solver, and the page's board read back.

// Letters name the direction the tile moves; [dx, dy] from the blank to the
// tile that moves.
export const SOURCE = { U: [0, 1], D: [0, -1], L: [1, 0], R: [-1, 0] };
export const INVERSE = { U: 'D', D: 'U', L: 'R', R: 'L' };

// The tiles after `letter` on a w × h board, or null if no tile can move so.
export function step(tiles, w, h, letter) {
  const b = tiles.indexOf(0);
  const [dx, dy] = SOURCE[letter];
  const x = (b % w) + dx, y = Math.floor(b / w) + dy;
  if (x < 0 || y < 0 || x >= w || y >= h) return null;
  const next = tiles.slice();
  next[b] = next[y * w + x];
  next[y * w + x] = 0;
  return next;
}

// Breadth-first search: a shortest solution, independent of the server
// (small boards only).
export function bfs(start, goal, w = 3, h = 3) {
  const key = (t) => t.join(',');
  const seen = new Map([[key(start), null]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const t = queue[i];
    if (key(t) === key(goal)) {
      const moves = [];
      for (let k = key(t); seen.get(k); k = seen.get(k).from) moves.unshift(seen.get(k).move);
      return moves;
    }
    for (const m of 'UDLR') {
      const n = step(t, w, h, m);
      if (n && !seen.has(key(n))) { seen.set(key(n), { from: key(t), move: m }); queue.push(n); }
    }
  }
  throw new Error('unsolvable');
}

// The page's board, cell by cell (0 = blank).
export async function readTiles(page, cells) {
  const placed = await page.$$eval('#slide-board .tile', (els) => els.map((e) => [Number(e.dataset.tile), Number(e.dataset.cell)]));
  // A big board is drawn on a canvas: its screen reader's cells say the
  // tiles ("7, row 2, column 3", "blank, row 1, column 1").
  if (placed.length === 0 && await page.$('#slide-board canvas')) {
    return page.$$eval('#slide-board [data-place]', (els) => els.map((e) => {
      const said = e.textContent.split(',')[0];
      return said === 'blank' ? 0 : Number(said);
    }));
  }
  const tiles = Array(cells).fill(0);
  for (const [t, c] of placed) tiles[c] = t;
  return tiles;
}
