// How sliding-puzzle tiles look in a real browser: colour schemes from the
// server, built-in pictures, and a photo from the file picker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, startBrowser, screenshots, tesseraBin } from './harness.js';
import { SOURCE, step, bfs, readTiles } from './puzzle.js';
import { signUp, uniqueHandle } from './account.js';

let server, chromium;
before(async () => { server = await startServer(); chromium = await startBrowser(); });
after(async () => { await chromium?.stop(); server?.stop(); });

// Every tile's number, look properties and painted background (its
// ::before, where the face is drawn).
function tileLooks(page) {
  return page.$$eval('#slide-board .tile', (els) => els.map((e) => {
    const face = getComputedStyle(e, '::before');
    return {
      tile: Number(e.dataset.tile),
      hx: Number(e.style.getPropertyValue('--hx')),
      hy: Number(e.style.getPropertyValue('--hy')),
      colour: face.backgroundColor,
      image: face.backgroundImage,
      position: face.backgroundPosition,
      ink: getComputedStyle(e).color,
    };
  }));
}

const rgb = (hex) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

test('colour schemes paint each tile by its goal cell, as the server says', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=4x4&goal=snake&seed=11`);
  await page.waitForSelector('#slide-board .tile');
  const goal = await page.evaluate(async () => {
    const r = await fetch('/api/slide/new', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ size: '4x4', goal: 'snake', seed: 11 }) });
    return (await r.json()).goal_position;
  });
  for (const scheme of ['rows', 'columns', 'fringe', 'gradient']) {
    await page.selectOption('#slide-look', `scheme:${scheme}`);
    await page.waitForSelector(`#slide-board[data-look="scheme:${scheme}"]`);
    const want = await page.evaluate(async ([g, s]) => {
      const r = await fetch('/api/slide/colours', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ goal: g, scheme: s }) });
      return r.json();
    }, [goal, scheme]);
    const tiles = await tileLooks(page);
    assert.equal(tiles.length, 15);
    for (const t of tiles) {
      assert.equal(t.colour, rgb(want.fills[t.tile]), `${scheme}: tile ${t.tile}`);
      assert.equal(t.ink, rgb(want.texts[t.tile]), `${scheme}: tile ${t.tile}'s number`);
    }
    if (scheme === 'rows') {
      // Tiles whose goal row is the same share a colour, and rows differ.
      const byRow = new Map();
      for (const t of tiles) byRow.set(t.hy, [...(byRow.get(t.hy) || []), t.colour]);
      for (const colours of byRow.values()) assert.equal(new Set(colours).size, 1);
      assert.equal(new Set([...byRow.values()].map((c) => c[0])).size, 4);
    }
  }
  await page.screenshot({ path: join(screenshots, 'slide-scheme.png') });
  // Back to numbers: the plain tiles again.
  await page.selectOption('#slide-look', 'numbers');
  await page.waitForSelector('#slide-board[data-look="numbers"]');
  assert.equal(await page.locator('#slide-board.look-scheme').count(), 0);
});

test('a 3x3 solved in picture mode with a built-in picture; the link keeps the picture', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=5`);
  await page.waitForSelector('#slide-board .tile');
  // Records need an account.
  await signUp(page, uniqueHandle('Pic'));
  await page.selectOption('#slide-look', 'picture:mosaic');
  await page.waitForSelector('#slide-board.look-picture[data-look="picture:mosaic"]');
  // Each tile shows the part of the picture at its goal cell.
  const cell = await page.$eval('#slide-board .tile', (e) => e.getBoundingClientRect().width);
  for (const t of await tileLooks(page)) {
    assert.match(t.image, /^url\("data:image\/png;base64,/);
    assert.equal(t.hx, (t.tile - 1) % 3);
    assert.equal(t.hy, Math.floor((t.tile - 1) / 3));
    const [x, y] = t.position.split(' ').map(parseFloat);
    assert.ok(Math.abs(x - (-3 - t.hx * cell)) < 1 && Math.abs(y - (-3 - t.hy * cell)) < 1, `tile ${t.tile}: ${t.position}`);
  }
  // Numbers off and on.
  await page.uncheck('#slide-numbers');
  assert.equal(await page.locator('#slide-board.no-numbers').count(), 1);
  await page.check('#slide-numbers');
  // Show goal shows the whole picture.
  await page.click('#slide-show-goal');
  assert.match(await page.getAttribute('#slide-goal-overlay img.goal-picture', 'src'), /^data:image\/png/);
  await page.click('#slide-show-goal');
  // The share link carries the picture.
  assert.match(page.url(), /look=picture%3Amosaic/);
  // Solve it by clicking, at a person's pace.
  let tiles = await readTiles(page, 9);
  const moves = bfs(tiles, [1, 2, 3, 4, 5, 6, 7, 8, 0]);
  await page.waitForTimeout(400);
  for (const m of moves) {
    const b = tiles.indexOf(0);
    const [dx, dy] = SOURCE[m];
    await page.click(`#slide-board .tile[data-cell="${(Math.floor(b / 3) + dy) * 3 + (b % 3) + dx}"]`);
    tiles = step(tiles, 3, 3, m);
    await page.waitForTimeout(250);
  }
  await page.waitForSelector('#slide-status.good');
  assert.match(await page.textContent('#slide-status'), /ranked/);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(screenshots, 'slide-picture.png') });
  // A fresh page opened from the link plays the same puzzle with the picture.
  const link = page.url();
  const other = await chromium.context.newPage();
  await other.goto(link);
  await other.waitForSelector('#slide-board.look-picture[data-look="picture:mosaic"]');
  assert.equal(await other.inputValue('#slide-look'), 'picture:mosaic');
  // And the daily puzzle keeps the look in its address.
  await other.click('#slide-daily');
  await other.waitForFunction(() => location.hash.startsWith('#slide&daily&look=picture'));
});

test('a photo picked from the device becomes the picture, cropped to the board', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-photo-'));
  // A wide image (a 6x3 board drawn by the CLI): the page must crop it.
  const photo = join(dir, 'photo.png');
  execFileSync(tesseraBin(), ['slide', 'render', '--size', '6x3', '1 2 3 4 5 6/7 8 9 10 11 12/13 14 15 16 17 0', '--scheme', 'gradient', '-o', photo]);
  const page = await chromium.context.newPage();
  const sent = [];
  page.on('request', (r) => sent.push(r.postData() || ''));
  await page.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=9`);
  await page.waitForSelector('#slide-board .tile');
  await page.setInputFiles('#slide-photo', photo);
  await page.waitForSelector('#slide-board.look-picture[data-look="photo"]');
  assert.equal(await page.inputValue('#slide-look'), 'photo');
  // The picture the tiles share has the board's shape (square here).
  const [w, h] = await page.$eval('#slide-board', async (board) => {
    const src = getComputedStyle(board).getPropertyValue('--picture').trim().replace(/^url\("?|"?\)$/g, '');
    const img = new Image();
    img.src = src;
    await img.decode();
    return [img.naturalWidth, img.naturalHeight];
  });
  assert.equal(w, h);
  // Nothing was uploaded: no request carried more than a small JSON body.
  assert.ok(sent.every((body) => body.length < 2000 && !body.includes('PNG')), 'the photo stays in the browser');
  assert.doesNotMatch(page.url(), /photo/);
  await page.screenshot({ path: join(screenshots, 'slide-photo.png') });
  rmSync(dir, { recursive: true, force: true });
});

test('grids: the default and a player\'s own layers, each look kept for its board size', async () => {
  const open = async (size) => {
    const page = await chromium.context.newPage();
    await page.goto(`${server.url}#slide&size=${size}&goal=row-major&seed=3`);
    await page.waitForSelector('#slide-board .tile');
    return page;
  };
  let page = await open('8x8');
  await page.selectOption('#slide-look', 'scheme:grids');
  await page.waitForSelector('#slide-board[data-look="scheme:grids"]');
  // Four 4x4 blocks, each in its colour and a paler shade: eight fills.
  const fills = new Set((await tileLooks(page)).map((t) => t.colour));
  assert.equal(fills.size, 8, [...fills].join(' '));
  await page.close();
  // A 4x4 keeps its own look (none chosen yet: numbers); the 8x8 its grids.
  page = await open('4x4');
  assert.equal(await page.inputValue('#slide-look'), 'numbers');
  await page.selectOption('#slide-look', 'scheme:rows');
  await page.waitForSelector('#slide-board[data-look="scheme:rows"]');
  await page.close();
  page = await open('8x8');
  await page.waitForSelector('#slide-board[data-look="scheme:grids"]');
  // Layers that do not nest are refused by the server, naming the layer.
  page.once('dialog', (d) => d.accept('8x4,3x4'));
  await page.selectOption('#slide-look', 'layers');
  await page.waitForSelector('#slide-status.error');
  assert.match(await page.textContent('#slide-status'), /grids layer 2 \(3x4\) does not nest/);
  // Layers of one's own join the menu and are kept for the size.
  page.once('dialog', (d) => d.accept('8x4, 4x4,4x2'));
  await page.selectOption('#slide-look', 'layers');
  await page.waitForSelector('#slide-board[data-look="scheme:grids:8x4,4x4,4x2"]');
  await page.close();
  page = await open('8x8');
  await page.waitForSelector('#slide-board[data-look="scheme:grids:8x4,4x4,4x2"]');
  assert.equal(await page.inputValue('#slide-look'), 'scheme:grids:8x4,4x4,4x2');
  await page.close();
  page = await open('4x4');
  await page.waitForSelector('#slide-board[data-look="scheme:rows"]');
  await page.close();
});
