// One site: every page has the same header (both games, records, rankings,
// fewest moves, time attack, arenas, and the account area), logs no console
// error for a guest or a signed-in player, and nothing on the page moves
// (no layout shift) when the player signs in, queues or reads a message.
// The sliding puzzle's settings deal at once; Space deals a new scramble.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser } from './harness.js';
import { enter, signUp, uniqueHandle } from './account.js';
import { SOURCE, step, bfs, readTiles } from './puzzle.js';
import { noViolations } from './axe.js';

let server, desk;
before(async () => { server = await startServer(); desk = await startBrowser(); });
after(async () => { await desk?.stop(); server?.stop(); });

const LINKS = ['Sliding puzzle', 'Shisen-Sho', 'Records', 'Rankings', 'Fewest moves', 'Time attack', 'Arenas'];

// The page's console errors and uncaught exceptions, as they come.
function errorsOf(page) {
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  return errors;
}

// Sums every layout shift from now on (with recent input or not).
const watchShifts = (page) => page.evaluate(() => {
  window.shifted = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.shifted.push(`${e.value.toFixed(4)} ${e.sources.map((s) => s.node?.id || s.node?.className || s.node?.nodeName).join(',')}`);
    }
  }).observe({ type: 'layout-shift' });
});
const shifts = (page) => page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(() => ok(window.shifted), 50))));

async function pages(page, handle) {
  const race = await page.evaluate(async () => (await (await fetch('/api/races', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: 'slide', size: '3x3', goal: 'row-major' }),
  })).json()).url);
  return ['/', '/#shisen', '/#records', '/rankings', '/fmc', '/time-attack', '/arenas', `/u/${handle}`, new URL(race, server.url).pathname];
}

// The header's links and account area on a page, once it has asked who is
// signed in.
async function header(page) {
  await page.waitForSelector('#account-guest:not([hidden]), #account-user:not([hidden])');
  return page.evaluate(() => ({
    links: [...document.querySelectorAll('header nav a')].map((a) => a.textContent),
    current: [...document.querySelectorAll('header nav a[aria-current="page"]')].map((a) => a.textContent),
    guest: !document.getElementById('account-guest').hidden,
    name: document.getElementById('account-user').hidden ? null : document.getElementById('account-name').textContent,
  }));
}

// The first test: the site has no records yet.
test('with no records, the records page offers no empty menus', async () => {
  const page = await desk.context.newPage();
  await page.goto(`${server.url}#records`);
  await page.waitForSelector('#records-body:has-text("No records yet")');
  for (const id of ['records-variant', 'records-format', 'records-display']) {
    assert.equal(await page.isVisible(`#${id}`), false, id);
  }
  await page.close();
});

test('every page has the one header, and logs no error, signed in and as a guest', async () => {
  const page = await desk.context.newPage();
  const errors = errorsOf(page);
  await page.goto(`${server.url}rankings`);
  const handle = uniqueHandle('Site');
  await signUp(page, handle);
  const all = await pages(page, handle);
  for (const path of all) {
    await page.goto(new URL(path, server.url).href);
    const h = await header(page);
    assert.deepEqual(h.links, LINKS, path);
    assert.equal(h.name, handle, path);
  }
  assert.deepEqual((await page.goto(`${server.url}fmc`), await header(page)).current, ['Fewest moves']);
  await page.click('#account-logout');
  await page.waitForSelector('#account-guest:not([hidden])');
  for (const path of all) {
    await page.goto(new URL(path, server.url).href);
    assert.ok((await header(page)).guest, `${path}: a guest is offered to sign in`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('signed in, the header is one row at 1280 px; signing in, queueing and messages move nothing', async () => {
  const page = await desk.context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=5`);
  await page.waitForSelector('#slide-board .tile');
  await header(page);
  await watchShifts(page);
  // A failed sign-in's message, then a sign-up.
  await page.click('#account-open');
  const form = await page.locator('#account-form').boundingBox();
  for (const id of ['#slide-control', '#slide-display']) {
    const menu = await page.locator(id).boundingBox();
    const apart = menu.x + menu.width <= form.x || form.x + form.width <= menu.x
      || menu.y + menu.height <= form.y || form.y + form.height <= menu.y;
    assert.ok(apart, `the sign-in box covers ${id}`);
  }
  await page.fill('#account-handle', 'x');
  await page.fill('#account-password', 'short');
  await page.click('#account-login');
  await page.waitForSelector('#account-message.error');
  await signUp(page, uniqueHandle('RowOf1280'));
  // One row: every part of the header overlaps every other's height.
  const oneRow = await page.$$eval('header.site-header > *', (els) => {
    const boxes = els.map((e) => e.getBoundingClientRect()).filter((b) => b.height > 0);
    return Math.max(...boxes.map((b) => b.top)) < Math.min(...boxes.map((b) => b.bottom));
  });
  assert.ok(oneRow, 'the header is one row');
  const daily = await page.locator('#slide-daily').boundingBox();
  await page.click('#slide-rated');
  await page.waitForFunction(() => document.getElementById('slide-rated').textContent === 'Cancel rated');
  assert.equal((await page.locator('#slide-daily').boundingBox()).y, daily.y, '"Daily puzzle" stays on its line');
  await page.click('#slide-rated');
  await page.waitForFunction(() => document.getElementById('slide-rated').textContent === 'Play rated');
  assert.deepEqual(await shifts(page), []);
  await page.click('#account-logout');
  await page.waitForSelector('#account-guest:not([hidden])');
  await page.close();
});

test('on Shisen-Sho and at 390 px too, signing in, out and their messages move nothing', async () => {
  const page = await desk.context.newPage();
  const handle = uniqueHandle('NoShift');
  for (const [width, height, url, ready] of [
    [1280, 800, '#shisen&size=8x4&gravity=0&chinese=0&seed=5', '#shisen-board .stile'],
    [390, 844, '#slide&size=4x4&goal=row-major&seed=3', '#slide-board .tile'],
    [390, 844, '#shisen&size=8x4&gravity=0&chinese=0&seed=5', '#shisen-board .stile'],
  ]) {
    await page.setViewportSize({ width, height });
    await page.goto('about:blank');
    await page.goto(`${server.url}${url}`);
    await page.waitForSelector(ready);
    await header(page);
    await watchShifts(page);
    await page.click('#account-open');
    await page.fill('#account-handle', 'x');
    await page.fill('#account-password', 'short');
    await page.click('#account-login');
    await page.waitForSelector('#account-message.error');
    await enter(page, handle, width === 1280 ? 'signup' : 'login');
    await page.click('#account-logout');
    await page.waitForSelector('#account-said:not(:empty)');
    await page.waitForSelector('#account-guest:not([hidden])');
    assert.deepEqual(await shifts(page), [], `${width} px, ${url}`);
  }
  await page.close();
});

test('the settings deal at once, asking during a solve; Space deals a new scramble', async () => {
  const page = await desk.context.newPage();
  await page.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=9`);
  await page.waitForFunction(() => document.querySelectorAll('#slide-board .tile').length === 15);
  await page.selectOption('#slide-size', '5x5');
  await page.waitForFunction(() => document.querySelectorAll('#slide-board .tile').length === 24);
  assert.match(page.url(), /size=5x5/);
  // A move made: leaving the solve is asked first; kept, the menus say so.
  await page.focus('#slide-board');
  for (const key of ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']) await page.keyboard.press(key);
  page.once('dialog', (d) => d.dismiss());
  await page.selectOption('#slide-goal', 'snake');
  assert.equal(await page.inputValue('#slide-goal'), 'row-major');
  const seed = new URL(page.url().replace('#', '?')).searchParams.get('seed');
  page.once('dialog', (d) => d.accept());
  await page.focus('#slide-board');
  await page.keyboard.press(' ');
  await page.waitForFunction((was) => !location.hash.includes(`seed=${was}&`) && !location.hash.endsWith(`seed=${was}`), seed);
  assert.equal(await page.$$eval('#slide-board .tile', (t) => t.length), 24);
  assert.equal(await page.textContent('#keys-slide-new'), 'Space');
  await page.close();
});

const KEY = { U: 'ArrowUp', D: 'ArrowDown', L: 'ArrowLeft', R: 'ArrowRight' };

// Each records table shows every column whole: no cell cut, no table
// wider than its box.
const cutTables = (page) => page.$$eval('#slide-records .records-scroll', (boxes) => boxes.flatMap((b) => {
  const cut = [...b.querySelectorAll('td, th')].filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent);
  const wide = b.scrollWidth > b.clientWidth + 1 ? [`${b.scrollWidth} > ${b.clientWidth}`] : [];
  return [...wide, ...cut].map((what) => `${b.querySelector('caption')?.textContent}: ${what}`);
}));

test('records tables fit at 1280 and 390 px, and a lone record is called the record', async () => {
  const page = await desk.context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=4242`);
  await page.waitForSelector('#slide-board .tile');
  await signUp(page, uniqueHandle('Tables'));
  let tiles = await readTiles(page, 9);
  await page.focus('#slide-board');
  await page.waitForTimeout(400);
  for (const m of bfs(tiles, [1, 2, 3, 4, 5, 6, 7, 8, 0])) {
    await page.keyboard.press(KEY[m]);
    tiles = step(tiles, 3, 3, m);
    await page.waitForTimeout(220);
  }
  await page.waitForSelector('#slide-status a[href^="/replay/"]');
  await page.waitForSelector('#slide-records td:has-text("the record")');
  assert.equal(await page.locator('#slide-records td:has-text("alpha")').count(), 0);
  assert.deepEqual(await cutTables(page), []);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(100);
  assert.deepEqual(await cutTables(page), []);
  // The solve's replay has the header too, and logs no error.
  const errors = errorsOf(page);
  await page.goto(new URL(await page.getAttribute('#slide-status a[href^="/replay/"]', 'href'), server.url).href);
  assert.deepEqual((await header(page)).links, LINKS);
  await page.waitForSelector('#replay-board .tile, #replay-board canvas');
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a phone the board is at the top with its figures in view, the header one row; a 32x32 fills a big screen and pans zoomed', async () => {
  const page = await desk.context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=3`);
  await page.waitForSelector('#slide-board .tile');
  const board = await page.locator('#slide-board').boundingBox();
  assert.ok(board.y <= 120, `the board starts at ${board.y}`);
  for (const id of ['#slide-moves', '#slide-time']) {
    const box = await page.locator(id).boundingBox();
    assert.ok(box.y + box.height <= 844, `${id} ends at ${box.y + box.height}`);
  }
  // Shisen-Sho too: its clock, then the board, the settings below.
  await page.goto(`${server.url}#shisen&size=8x4&gravity=0&chinese=0&seed=5`);
  await page.waitForSelector('#shisen-board .stile');
  const deal = await page.locator('#shisen-board').boundingBox();
  assert.ok(deal.y <= 250 && deal.y + deal.height <= 844, `the Shisen-Sho board is at ${deal.y}–${deal.y + deal.height}`);
  assert.ok((await page.locator('#shisen-time').boundingBox()).y < deal.y);
  await page.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=3`);
  await page.waitForSelector('#slide-board .tile');
  // The header's pages are in its menu, opened over the page and closed.
  assert.equal(await page.isVisible('header nav a[href="/fmc"]'), false);
  await page.click('#site-menu-open');
  await page.waitForSelector('header nav a[href="/fmc"]', { state: 'visible' });
  assert.equal((await page.locator('#slide-board').boundingBox()).y, board.y, 'the open menu moves nothing');
  await noViolations(page, 'the header\'s menu on a phone');
  await page.keyboard.press('Escape');
  await page.waitForSelector('header nav a[href="/fmc"]', { state: 'hidden' });
  assert.equal(await page.getAttribute('#site-menu-open', 'aria-expanded'), 'false');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto(`${server.url}#slide&size=32x32&goal=row-major&seed=3`);
  await page.waitForSelector('#slide-board canvas');
  await page.waitForTimeout(200);
  const big = await page.locator('#slide-board canvas').boundingBox();
  assert.ok(big.width / 32 >= 28, `32x32 tiles are ${big.width / 32} px`);
  assert.ok(big.y + big.height <= 1080, 'the board is in the window');
  // Full screen: the board and its figures alone.
  await page.click('#slide-full');
  await page.waitForFunction(() => document.fullscreenElement?.id === 'page-slide');
  assert.equal(await page.getAttribute('#slide-full', 'aria-pressed'), 'true');
  assert.equal(await page.isVisible('#slide-size'), false);
  await page.click('#slide-full');
  await page.waitForFunction(() => document.fullscreenElement === null);
  // At 1280×800, zoomed in, a 32x32's last column and row are panned into
  // view and played: the tile at the end of the blank's row is clicked.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('about:blank');
  await page.goto(`${server.url}#slide&size=32x32&goal=row-major&seed=3`);
  await page.waitForSelector('#slide-board canvas');
  await page.focus('#slide-board');
  for (let i = 0; i < 5; i++) await page.keyboard.press('+');
  const blank = (await readTiles(page, 1024)).indexOf(0);
  const cell = blank % 32 !== 31 ? blank - (blank % 32) + 31 : blank === 1023 ? 1022 : 1023;
  const at = await page.evaluate((i) => {
    const wrap = document.getElementById('slide-board').parentElement;
    const canvas = document.querySelector('#slide-board canvas').getBoundingClientRect();
    const size = canvas.width / 32;
    const [x, y] = [(i % 32 + 0.5) * size, (Math.floor(i / 32) + 0.5) * size];
    wrap.scrollBy(canvas.left + x - wrap.getBoundingClientRect().left - wrap.clientWidth / 2,
      canvas.top + y - wrap.getBoundingClientRect().top - wrap.clientHeight / 2);
    const moved = document.querySelector('#slide-board canvas').getBoundingClientRect();
    return { x: moved.left + x, y: moved.top + y, zoomed: wrap.scrollWidth > wrap.clientWidth, size };
  }, cell);
  assert.ok(at.zoomed && at.size > 30, `zoomed in, cells of ${at.size} px pan in their box`);
  assert.ok(at.x > 0 && at.x < 1280 && at.y > 0 && at.y < 800, `cell ${cell} is at ${at.x},${at.y}`);
  await page.mouse.click(at.x, at.y);
  await page.waitForFunction(() => document.getElementById('slide-moves').textContent !== '0');
  await page.keyboard.press('End');
  await page.close();
});

test("the words are the player's: display types, tile names, a hint's cost, the rankings' source", async () => {
  const page = await desk.context.newPage();
  await page.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=3&display=rows-and-columns`);
  await page.waitForSelector('#slide-display-about:not([hidden])');
  assert.match(await page.textContent('#slide-display-about'), /rows and columns: each tile shows how many other tiles in its row and column are home/);
  await page.goto(`${server.url}#shisen&size=8x4&gravity=0&chinese=0&seed=5`);
  await page.waitForSelector('#shisen-board .stile');
  const pair = await page.$$eval('#shisen-board .stile', (els) => {
    const a = els[0];
    const b = els.find((e) => e.dataset.kind !== a.dataset.kind);
    return [a.dataset.cell, b.dataset.cell, a.title, b.title];
  });
  await page.click(`.stile[data-cell="${pair[0]}"]`);
  await page.click(`.stile[data-cell="${pair[1]}"]`);
  await page.waitForSelector('#shisen-status:has-text("do not match")');
  const said = await page.textContent('#shisen-status');
  assert.ok(said.toLowerCase().includes(pair[2].toLowerCase()) && said.includes(pair[3]), said);
  await page.click('#shisen-hint');
  await page.waitForSelector('#shisen-status:has-text("A hint costs one pair")');
  await page.goto(`${server.url}rankings`);
  await page.waitForSelector('#rankings-source:not(:empty)');
  const source = await page.textContent('#rankings-source');
  assert.doesNotMatch(source, /scripts\/|\.js|`/);
  assert.match(source, /Open Slidysim/);
  await page.close();
});
