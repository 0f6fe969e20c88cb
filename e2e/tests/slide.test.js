// The sliding puzzle in a real browser: solve a 3×3 by clicking tiles and
// see the record appear.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer, startBrowser, screenshots } from './harness.js';

let server, chromium;
before(async () => { server = await startServer(); chromium = await startBrowser(); });
after(async () => { await chromium?.stop(); server?.stop(); });

// Letters name the direction the tile moves; [dx, dy] from the blank to the
// tile that moves.
const SOURCE = { U: [0, 1], D: [0, -1], L: [1, 0], R: [-1, 0] };

function step(tiles, w, h, letter) {
  const b = tiles.indexOf(0);
  const [dx, dy] = SOURCE[letter];
  const x = (b % w) + dx, y = Math.floor(b / w) + dy;
  if (x < 0 || y < 0 || x >= w || y >= h) return null;
  const next = tiles.slice();
  next[b] = next[y * w + x];
  next[y * w + x] = 0;
  return next;
}

// Breadth-first search: an independent shortest solution for a 3×3.
function bfs(start, goal) {
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
      const n = step(t, 3, 3, m);
      if (n && !seen.has(key(n))) { seen.set(key(n), { from: key(t), move: m }); queue.push(n); }
    }
  }
  throw new Error('unsolvable');
}

async function readTiles(page, cells) {
  const placed = await page.$$eval('#slide-board .tile', (els) => els.map((e) => [Number(e.dataset.tile), Number(e.dataset.cell)]));
  const tiles = Array(cells).fill(0);
  for (const [t, c] of placed) tiles[c] = t;
  return tiles;
}

test('a 3x3 solved by clicking tiles becomes a record', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=20261121`);
  const name = 'Tess <b>&amp;</b>';
  await page.fill('#player-name', name);
  await page.dispatchEvent('#player-name', 'change');
  await page.waitForSelector('#slide-board .tile');
  let tiles = await readTiles(page, 9);
  const moves = bfs(tiles, [1, 2, 3, 4, 5, 6, 7, 8, 0]);
  assert.ok(moves.length > 0);
  for (const m of moves) {
    const b = tiles.indexOf(0);
    const [dx, dy] = SOURCE[m];
    const cell = (Math.floor(b / 3) + dy) * 3 + (b % 3) + dx;
    await page.click(`#slide-board .tile[data-cell="${cell}"]`);
    tiles = step(tiles, 3, 3, m);
  }
  await page.waitForSelector('#slide-status.good');
  const status = await page.textContent('#slide-status');
  assert.match(status, new RegExp(`Solved in ${moves.length} moves`));
  assert.equal(await page.textContent('#slide-moves'), String(moves.length));
  // The record table lists the result under the name, shown as text.
  const row = page.locator('#slide-records table.records tr.mine').first();
  await row.waitFor();
  assert.ok((await row.textContent()).includes(name));
  assert.equal(await page.locator('#slide-records b').count(), 0);
  await page.waitForTimeout(300); // let animations settle
  await page.screenshot({ path: join(screenshots, 'slide-solved.png') });
});

test('arrow keys and WASD move tiles; undo takes a move back; the goal overlay shows', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=7`);
  await page.waitForSelector('#slide-board .tile');
  const before = await readTiles(page, 16);
  let expected = before;
  for (const [key, letter] of [['ArrowLeft', 'L'], ['ArrowUp', 'U'], ['d', 'R'], ['s', 'D'], ['ArrowLeft', 'L']]) {
    await page.keyboard.press(key);
    expected = step(expected, 4, 4, letter) ?? expected;
  }
  assert.deepEqual(await readTiles(page, 16), expected);
  const count = Number(await page.textContent('#slide-moves'));
  await page.click('#slide-undo');
  assert.equal(await page.textContent('#slide-moves'), String(count - 1));
  await page.waitForTimeout(300); // let animations settle
  await page.screenshot({ path: join(screenshots, 'slide.png') });
  await page.click('#slide-show-goal');
  await page.waitForSelector('#slide-goal-overlay:not([hidden])');
  await page.waitForTimeout(300); // let animations settle
  await page.screenshot({ path: join(screenshots, 'slide-goal.png') });
});

test('hint names a move and solve plays an optimal solution that is not ranked', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=3x3&goal=spiral&seed=99`);
  await page.waitForSelector('#slide-board .tile');
  await page.click('#slide-hint');
  await page.waitForFunction(() => /Hint: slide [UDLR] \(\d+ moves to go, optimal\)/.test(document.querySelector('#slide-status').textContent));
  await page.click('#slide-solve');
  await page.waitForSelector('#slide-status.good', { timeout: 20000 });
  assert.match(await page.textContent('#slide-status'), /with the solver: not a record/);
  const records = page.locator('#slide-records table.records').first();
  assert.match(await records.textContent(), /no records yet/);
});

test('the records page lists results and links the CSV export', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#records`);
  await page.selectOption('#records-game', 'slide');
  await page.waitForSelector('#records-variant option[value="3x3-row-major"]', { state: 'attached' });
  await page.selectOption('#records-variant', '3x3-row-major');
  await page.waitForSelector('#records-body table.records tr.mine');
  const csv = await page.evaluate(async () => (await fetch('/api/me/export.csv')).text());
  assert.match(csv, /^game,variant,/);
  assert.match(csv, /\nslide,3x3-row-major,/);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(screenshots, 'records.png') });
});

test('a swipe on a touch screen slides a tile', async () => {
  const page = await chromium.context.newPage();
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=8`);
  await page.waitForSelector('#slide-board .tile');
  const before = await readTiles(page, 16);
  const letter = before.indexOf(0) % 4 < 3 ? 'L' : 'R';
  await page.evaluate((dx) => {
    const board = document.getElementById('slide-board');
    const r = board.getBoundingClientRect();
    const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
    const touch = (cx) => new Touch({ identifier: 1, target: board, clientX: cx, clientY: y });
    board.dispatchEvent(new TouchEvent('touchstart', { touches: [touch(x)], changedTouches: [touch(x)], bubbles: true }));
    board.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: [touch(x + dx)], bubbles: true, cancelable: true }));
  }, letter === 'L' ? -80 : 80);
  assert.equal(await page.textContent('#slide-moves'), '1');
  assert.deepEqual(await readTiles(page, 16), step(before, 4, 4, letter));
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(screenshots, 'slide-phone.png'), fullPage: true });
});
