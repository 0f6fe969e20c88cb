// The hover control as speedsolvers play it: the blank follows the pointer,
// Ctrl or a held button lets the pointer move alone, and a link carries
// the control.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser } from './harness.js';
import { SOURCE, readTiles } from './puzzle.js';
import { signUp, uniqueHandle } from './account.js';
import { noViolations } from './axe.js';

let server, chromium;
before(async () => { server = await startServer(); chromium = await startBrowser(); });
after(async () => { await chromium?.stop(); server?.stop(); });

// The middle of cell `c` of the w × h board on the page, in page pixels.
async function centre(page, c, w, h) {
  const box = await page.locator('#slide-board').boundingBox();
  const pad = await page.$eval('#slide-board', (b) => b.clientLeft + parseFloat(getComputedStyle(b).paddingLeft));
  const size = (box.width - 2 * pad) / w;
  assert.ok(Math.abs((box.height - 2 * pad) / h - size) < 1, 'square cells');
  return [box.x + pad + (c % w + 0.5) * size, box.y + pad + (Math.floor(c / w) + 0.5) * size];
}

const text = (tiles, w) => Array.from({ length: tiles.length / w }, (_, y) => tiles.slice(y * w, y * w + w).join(' ')).join('/');

// A shortest solution from the server's solver, asked as another player
// (no cookie of the page's): help asked by the page would unrank the solve.
async function solution(tiles, goal, w) {
  const r = await fetch(`${server.url}api/slide/solve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ position: text(tiles, w), goal: text(goal, w) }),
  });
  assert.equal(r.status, 200, await r.clone().text());
  return [...(await r.json()).moves];
}

test('a 4x4 solved by moving the pointer alone is ranked, filed under hover', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=5150&control=hover`);
  const handle = uniqueHandle('Hover');
  await signUp(page, handle);
  await page.waitForSelector('#slide-board .tile');
  assert.equal(await page.inputValue('#slide-control'), 'hover');
  let tiles = await readTiles(page, 16);
  const goal = [...Array(15).keys()].map((i) => i + 1).concat(0);
  const moves = await solution(tiles, goal, 4);
  assert.ok(moves.length > 10);
  // The pointer goes to the blank first (nothing moves), then to each
  // tile the solution slides, which leaves the blank under it.
  await page.mouse.move(...await centre(page, tiles.indexOf(0), 4, 4));
  await page.waitForTimeout(400);
  // A person's pointer passes through every point between two cells; the
  // test's jumps do not, and a busy browser coalesces two of them into one
  // that may cut a corner. So each move is seen before the next.
  for (const [i, m] of moves.entries()) {
    const b = tiles.indexOf(0);
    const [dx, dy] = SOURCE[m];
    const cell = (Math.floor(b / 4) + dy) * 4 + (b % 4) + dx;
    await page.mouse.move(...await centre(page, cell, 4, 4));
    [tiles[b], tiles[cell]] = [tiles[cell], 0];
    await page.waitForFunction((n) => document.getElementById('slide-moves').textContent === String(n), i + 1);
  }
  await page.waitForSelector('#slide-status:has-text("Solved in")');
  assert.match(await page.textContent('#slide-status'), new RegExp(`: ${moves.length} moves .* — ranked`));
  assert.deepEqual(await readTiles(page, 16), goal);

  // The records page's Control chooser finds it under hover, not keyboard.
  await page.goto(`${server.url}#records`);
  await page.waitForSelector('#records-variant option[value="4x4-row-major"]', { state: 'attached' });
  await page.selectOption('#records-variant', '4x4-row-major');
  const mine = page.locator('#records-body table.records').first().locator(`tr:has-text("${handle}")`);
  await page.selectOption('#records-control', 'hover');
  await mine.first().waitFor();
  await page.selectOption('#records-control', 'keyboard');
  await page.waitForFunction(() => /keyboard/.test(document.querySelector('#records-body h3')?.textContent || ''));
  assert.equal(await mine.count(), 0);
  assert.deepEqual(await page.$$eval('#records-control option', (os) => os.map((o) => o.textContent)),
    ['any', 'hover', 'click', 'keyboard', 'touch', 'mixed']);
});

test('holding Ctrl or a mouse button moves the pointer without moving tiles', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=77&control=hover`);
  await page.waitForSelector('#slide-board .tile');
  const tiles = await readTiles(page, 9);
  const b = tiles.indexOf(0);
  // A tile in the blank's row, and one neither in its row nor its column.
  const inRow = Math.floor(b / 3) * 3 + ((b % 3) + 1) % 3;
  const elsewhere = (Math.floor(b / 3) + 1) % 3 * 3 + ((b % 3) + 1) % 3;
  await page.mouse.move(...await centre(page, elsewhere, 3, 3));
  await page.waitForTimeout(100);
  assert.deepEqual(await readTiles(page, 9), tiles, 'a tile off the blank\'s lines does not move');
  await page.keyboard.down('Control');
  await page.mouse.move(...await centre(page, inRow, 3, 3));
  await page.waitForTimeout(100);
  assert.deepEqual(await readTiles(page, 9), tiles, 'Ctrl held');
  await page.keyboard.up('Control');
  await page.mouse.move(...await centre(page, b, 3, 3));
  await page.mouse.down();
  await page.mouse.move(...await centre(page, inRow, 3, 3));
  await page.waitForTimeout(100);
  assert.deepEqual(await readTiles(page, 9), tiles, 'a button held');
  await page.mouse.up();
  assert.equal(await page.textContent('#slide-moves'), '0');
  // Free again, the blank comes to the pointer.
  const [x, y] = await centre(page, inRow, 3, 3);
  await page.mouse.move(x + 2, y + 1);
  await page.waitForFunction(() => document.getElementById('slide-moves').textContent !== '0');
  assert.equal((await readTiles(page, 9))[inRow], 0);
});

test('a link with a size and a control opens that board that way, and axe finds nothing', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=20x20&control=hover`);
  // Past 10x10 the board is drawn on a canvas, beside the screen reader's grid.
  await page.waitForSelector('#slide-board canvas');
  assert.equal(await page.locator('#slide-board .tile').count(), 0);
  assert.equal(await page.locator('#slide-board [role="gridcell"]').count(), 400);
  assert.deepEqual((await readTiles(page, 400)).sort((a, b) => a - b), [...Array(400).keys()]);
  assert.equal(await page.inputValue('#slide-control'), 'hover');
  assert.match(page.url(), /size=20x20.*control=hover/);
  await noViolations(page, 'the sliding puzzle with hover');
});

test('keys of the player\'s own move the tiles and deal a new scramble, remembered on the device', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=91&control=keyboard`);
  await page.waitForSelector('#slide-board .tile');
  await page.click('#slide-keys');
  for (const key of ['i', 'k', 'j', 'l', 'n']) await page.keyboard.press(key);
  await page.waitForSelector('#slide-status:has-text("Keys: up I, down K, left J, right L, new scramble N")');
  await page.locator('#slide-board').focus();
  const tiles = await readTiles(page, 9);
  const b = tiles.indexOf(0);
  // A move the blank allows, by its chosen key; the arrow no longer moves.
  const [m, key, arrow] = b % 3 < 2 ? ['L', 'j', 'ArrowLeft'] : ['R', 'l', 'ArrowRight'];
  await page.keyboard.press(arrow);
  assert.equal(await page.textContent('#slide-moves'), '0');
  await page.keyboard.press(key);
  assert.equal(await page.textContent('#slide-moves'), '1');
  const [dx, dy] = SOURCE[m];
  assert.equal((await readTiles(page, 9))[b + dy * 3 + dx], 0);
  await page.reload();
  await page.waitForSelector('#slide-board .tile');
  assert.equal(await page.textContent('#keys-slide-moves'), 'I K J L (up, down, left, right)');
  assert.equal(await page.textContent('#keys-slide-new'), 'N');
  // N deals a new scramble now; Space no longer does.
  const seed = () => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('seed'));
  const first = await seed();
  await page.locator('#slide-board').focus();
  await page.keyboard.press(' ');
  assert.equal(await seed(), first);
  await page.keyboard.press('n');
  await page.waitForFunction((was) => new URLSearchParams(location.hash.slice(1)).get('seed') !== was, first);
  await page.evaluate(() => localStorage.clear());
});

// Deals `size` with hover and slides the tiles of the blank's row towards
// the far end: the blank ends under the pointer, at once.
async function sweep(page, w, h) {
  // Tile elements up to 10x10, a canvas past it.
  const canvas = w * h > 100;
  await page.waitForSelector(canvas ? '#slide-board canvas' : '#slide-board .tile');
  assert.equal(await page.locator('#slide-board .tile').count(), canvas ? 0 : w * h - 1);
  const tiles = await readTiles(page, w * h);
  assert.deepEqual(tiles.toSorted((a, b) => a - b), [...Array(w * h).keys()], 'every tile once');
  const b = tiles.indexOf(0);
  const far = Math.floor(b / w) * w + (b % w < w / 2 ? w - 1 : 0);
  await page.mouse.move(...await centre(page, b, w, h));
  await page.mouse.move(...await centre(page, far, w, h));
  await page.waitForFunction((n) => document.getElementById('slide-moves').textContent === String(n), Math.abs(far - b));
  assert.equal((await readTiles(page, w * h))[far], 0);
}

test('a 2x2, a 10x3 and a 32x32 are dealt and played by hover', async () => {
  const page = await chromium.context.newPage();
  for (const [w, h] of [[2, 2], [10, 3], [32, 32]]) {
    await page.goto(`${server.url}#slide&size=${w}x${h}&goal=row-major&seed=${w * 100 + h}&control=hover`);
    // How fast a sweep is shown is measured by scripts/bench-page, not here:
    // a timed assertion fails on a busy machine.
    await sweep(page, w, h);
    assert.equal(await page.inputValue('#slide-size'), `${w}x${h}`);
  }
  // A hint on the 32x32 comes from the fast solver.
  await page.click('#slide-hint');
  await page.waitForSelector('#slide-status:has-text("Hint: slide")', { timeout: 20000 });
  // Zoomed in, the board is larger than its box, which scrolls; End fits it again.
  const fitted = (await page.locator('#slide-board').boundingBox()).width;
  await page.locator('#slide-board').focus();
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  assert.ok((await page.locator('#slide-board').boundingBox()).width > fitted * 1.4);
  assert.ok(await page.$eval('.board-wrap', (w) => w.scrollWidth > w.clientWidth || w.scrollHeight > w.clientHeight));
  await page.keyboard.press('End');
  assert.ok(Math.abs((await page.locator('#slide-board').boundingBox()).width - fitted) < 1);
});

test('a board on a canvas takes clicks, and shows a display type', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=12x12&goal=row-major&seed=12&control=click&display=manhattan`);
  await page.waitForSelector('#slide-board canvas');
  const tiles = await readTiles(page, 144);
  const b = tiles.indexOf(0);
  // The far end of the blank's row: that tile and those between slide.
  const far = Math.floor(b / 12) * 12 + (b % 12 < 6 ? 11 : 0);
  await page.mouse.click(...await centre(page, far, 12, 12));
  await page.waitForFunction((n) => document.getElementById('slide-moves').textContent === String(n), Math.abs(far - b));
  assert.equal((await readTiles(page, 144))[far], 0, 'the screen reader\'s cells follow');
  // Under a display the cells say what it shows: Manhattan distances.
  const said = await page.$$eval('#slide-board [data-place]', (els) => els.map((e) => e.textContent.split(',')[0]));
  assert.ok(said.every((t) => t === 'blank' || /^\d+$/.test(t)), said.join(' '));
  assert.equal(await page.$eval('#slide-board', (b) => b.dataset.display), 'manhattan');
  await noViolations(page, 'a board on a canvas under a display');
  await page.close();
});

test('a size outside 2 to 32 is refused, naming the field', async () => {
  for (const size of ['1x1', '33x4', '4x40']) {
    const r = await fetch(`${server.url}api/slide/new`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ size }),
    });
    assert.ok(r.status >= 400 && r.status < 500, `${size}: ${r.status}`);
    const body = await r.json();
    assert.equal(body.pointer, '/size', JSON.stringify(body));
    assert.match(body.error, /2 to 32/);
  }
});
