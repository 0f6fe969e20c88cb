// One board everywhere: on every page where a player moves tiles (the
// sliding puzzle's page and its daily puzzle, a race, a rated race, an
// arena's race, time attack, the fewest-moves challenge) each control moves them, driven as a
// person drives it: a mouse click, a key, the mouse moved over the tiles
// with the control set to hover (chosen on the page, kept on the device),
// and on a touch screen a tap and a swipe. axe finds nothing on the boards.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser } from './harness.js';
import { noViolations } from './axe.js';
import { hears, takeSeat } from './racing.js';
import { signUp, uniqueHandle } from './account.js';

let server, desk, phone;
before(async () => {
  server = await startServer();
  desk = await startBrowser();
  phone = await startBrowser({ hasTouch: true });
});
after(async () => {
  await desk?.stop();
  await phone?.stop();
  server?.stop();
});

// The board `sel` as drawn: its size, puzzle and tiles cell by cell (0 the
// blank).
const boardOf = (page, sel) => page.$eval(sel, (b) => {
  const w = Number(b.style.getPropertyValue('--w'));
  const h = Number(b.style.getPropertyValue('--h'));
  const tiles = Array(w * h).fill(0);
  for (const t of b.querySelectorAll('.tile')) tiles[Number(t.dataset.cell)] = Number(t.dataset.tile);
  return { w, h, tiles, blank: tiles.indexOf(0), game: b.dataset.game };
});

// The middle of cell `c`, in the viewport's pixels.
async function centre(page, sel, c) {
  const { w } = await boardOf(page, sel);
  await page.locator(sel).scrollIntoViewIfNeeded();
  const box = await page.locator(sel).boundingBox();
  const pad = await page.$eval(sel, (b) => b.clientLeft + parseFloat(getComputedStyle(b).paddingLeft));
  const size = (box.width - 2 * pad) / w;
  return [box.x + pad + (c % w + 0.5) * size, box.y + pad + (Math.floor(c / w) + 0.5) * size];
}

// Waits until the blank is in `cell` (a tile slid), or a new puzzle is on
// show (time attack's next, if the move solved one).
const blankReaches = (page, sel, board, cell) => page.waitForFunction(([s, game, c]) => {
  const b = document.querySelector(s);
  return b.dataset.game !== game || !b.querySelector(`.tile[data-cell="${c}"]`);
}, [sel, board.game, cell], { timeout: 5000 });

// A cell beside the blank: in its row, or in its column.
const inRow = ({ blank, w }) => (blank % w < w - 1 ? blank + 1 : blank - 1);
const inColumn = ({ blank, w }) => (blank >= w ? blank - w : blank + w);

// The mouse and the keys on a desk: a click (control `click`), a key, then
// the pointer over the tiles (control `hover`), the control chosen in the
// page's menu `chooser`.
async function deskControls(page, sel, chooser) {
  await page.selectOption(chooser, 'click');
  let board = await boardOf(page, sel);
  let to = inRow(board);
  await page.mouse.click(...await centre(page, sel, to));
  await blankReaches(page, sel, board, to);

  // The click left the board focused: a key slides the tile beside the blank.
  board = await boardOf(page, sel);
  const [key, next] = board.blank % board.w < board.w - 1 ? ['ArrowLeft', board.blank + 1] : ['ArrowRight', board.blank - 1];
  await page.keyboard.press(key);
  await blankReaches(page, sel, board, next);

  await page.selectOption(chooser, 'hover');
  board = await boardOf(page, sel);
  to = inColumn(board);
  await page.mouse.move(...await centre(page, sel, board.blank));
  await page.mouse.move(...await centre(page, sel, to));
  await blankReaches(page, sel, board, to);
  await page.selectOption(chooser, 'click');
}

// A touch screen: a tap on a tile beside the blank, then a swipe that
// slides the one beside it in its column the way the finger goes.
async function touchControls(page, sel) {
  let board = await boardOf(page, sel);
  const to = inRow(board);
  await page.touchscreen.tap(...await centre(page, sel, to));
  await blankReaches(page, sel, board, to);

  board = await boardOf(page, sel);
  const from = inColumn(board);
  const [x, y] = await centre(page, sel, from);
  const dy = from < board.blank ? 60 : -60;
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points });
  await touch('touchStart', [{ x, y }]);
  await touch('touchMove', [{ x, y: y + dy / 2 }]);
  await touch('touchMove', [{ x, y: y + dy }]);
  await touch('touchEnd', []);
  await cdp.detach();
  await blankReaches(page, sel, board, from);
}

test('the sliding puzzle\'s page and the daily puzzle: every control', async () => {
  const page = await desk.context.newPage();
  await page.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=404`);
  await page.waitForSelector('#slide-board .tile');
  await deskControls(page, '#slide-board', '#slide-control');
  assert.equal(await page.textContent('#slide-moves'), String(1 + 1 + 1));
  await noViolations(page, 'the sliding puzzle\'s board');
  await page.click('#slide-daily');
  await page.waitForSelector('#slide-status:has-text("Daily puzzle")');
  await deskControls(page, '#slide-board', '#slide-control');
  await page.close();

  const touch = await phone.context.newPage();
  await touch.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=405`);
  await touch.waitForSelector('#slide-board .tile');
  await touchControls(touch, '#slide-board');
  await touch.goto(`${server.url}#slide&daily`);
  await touch.waitForSelector('#slide-status:has-text("Daily puzzle")');
  await touchControls(touch, '#slide-board');
  await touch.close();
});

// Takes a seat in the race on show and gets ready, where the room asks.
async function seatAndReady(page, name) {
  await page.waitForSelector('#race-join-button:visible, #race-ready:visible, #race-board .tile');
  if (await page.isVisible('#race-join-button')) await takeSeat(page, name);
  if (await page.isVisible('#race-ready')) await page.click('#race-ready');
}

// A race of 4x4 between the desk and the phone: opened from the sliding
// puzzle's page (`how`: its button, rated or not) and joined by the link,
// or an arena's made on the desk and joined on both, which pairs them.
async function race(how, a, b) {
  if (how === 'arena') {
    await a.goto(`${server.url}arenas`);
    await a.selectOption('#arena-pool', 'slide-4x4');
    await a.fill('#arena-minutes', '15');
    await a.click('#arena-form button[type=submit]');
    await a.waitForURL(/\/arena\/[^/]+$/);
    await a.click('#arena-join');
    await b.goto(a.url());
    await b.click('#arena-join');
    for (const page of [a, b]) await page.waitForURL(/\/race\/.+\?arena=/);
  } else {
    await a.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=9`);
    await a.waitForSelector('#slide-board .tile');
    await a.click(how);
    await a.waitForURL(/\/race\/[0-9a-f]+$/);
    await b.goto(a.url());
  }
  await seatAndReady(a, 'Ada');
  await seatAndReady(b, 'Ben');
  for (const page of [a, b]) await page.waitForSelector('#race-board .tile', { timeout: 8000 });
  for (const page of [a, b]) await hears(page, /^Go!$/);
}

test('a race, a rated race and an arena\'s race: every control on the racer\'s board, and its display menu', async () => {
  const a = await desk.context.newPage();
  const b = await phone.context.newPage();
  await a.goto(server.url);
  await signUp(a, uniqueHandle('ada'));
  await b.goto(server.url);
  await signUp(b, uniqueHandle('ben'));
  for (const how of ['#slide-race', '#slide-race-rated', 'arena']) {
    await race(how, a, b);
    assert.match(await a.textContent('#race-help'), /Hover .* click or tap .* keys .* swipe/);
    await deskControls(a, '#race-board', '#race-control');
    await touchControls(b, '#race-board');
    // The moves reached the other's page.
    await a.waitForFunction(() => document.querySelector('.racer[data-player="2"] [data-stat="moves"]').textContent === '2');
    await b.waitForFunction(() => document.querySelector('.racer[data-player="1"] [data-stat="moves"]').textContent === '3');
  }
  await noViolations(a, 'a rated race\'s board');
  // The racer's Display menu, the sliding page's choice, kept on the device.
  assert.equal(await a.inputValue('#race-display'), 'standard');
  await a.selectOption('#race-display', 'chess');
  await a.waitForSelector('#race-board[data-display="chess"]');
  assert.equal(await a.evaluate(() => localStorage.getItem('tessera-slide-display')), 'chess');
  await a.evaluate(() => localStorage.removeItem('tessera-slide-display'));
  await a.close();
  await b.close();
});

test('time attack: every control on the run\'s board, in the display type and look chosen', async () => {
  for (const [browser, drive] of [[desk, (p) => deskControls(p, '#ta-board', '#ta-control')], [phone, (p) => touchControls(p, '#ta-board')]]) {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}time-attack`);
    // Chosen on the sliding puzzle's page before: a display type, and a
    // colour scheme for the 4x4.
    if (browser === desk) {
      await page.evaluate(() => {
        localStorage.setItem('tessera-slide-display', 'manhattan');
        localStorage.setItem('tessera-slide-looks', JSON.stringify({ '4x4': 'scheme:fringe' }));
      });
      await page.reload();
    }
    await page.click('#ta-start');
    await page.waitForSelector('#ta-board .tile');
    await drive(page);
    if (browser === desk) {
      await page.waitForSelector('#ta-board[data-display="manhattan"][data-look="scheme:fringe"]');
      assert.equal(await page.inputValue('#ta-display'), 'manhattan');
      await page.selectOption('#ta-display', 'rgb');
      await page.waitForSelector('#ta-board[data-display="rgb"]');
      await noViolations(page, 'the time-attack board');
      await page.evaluate(() => localStorage.clear());
    }
    await page.close();
  }
});

test('the fewest-moves challenge: every control on a board, written in the moves box, in the display chosen', async () => {
  const sel = '[aria-labelledby="fmc-4x4-title"] .slide-board';
  for (const [browser, drive] of [[desk, (p) => deskControls(p, sel, '#fmc-control')], [phone, (p) => touchControls(p, sel)]]) {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}fmc`);
    await page.waitForSelector(`${sel} .tile`);
    await drive(page);
    const written = await page.inputValue('#fmc-4x4-moves');
    assert.match(written, /^[UDLR]/, written);
    assert.match(await page.textContent('#fmc-4x4-check'), browser === desk ? /^3 moves/ : /^2 moves/);
    if (browser === desk) {
      await noViolations(page, 'the fewest-moves boards');
      await page.selectOption('#fmc-display', 'vectors');
      await page.waitForSelector(`${sel}[data-display="vectors"]`);
      await page.reload();
      await page.waitForSelector(`${sel}[data-display="vectors"]`);
      assert.equal(await page.inputValue('#fmc-display'), 'vectors');
      await page.evaluate(() => localStorage.removeItem('tessera-slide-display'));
    }
    await page.close();
  }
});

// Walks the keyboard's cursor on a Shisen-Sho board `w` wide to cell `to`
// and picks the tile there with Enter.
async function pickByKeys(page, sel, w, to) {
  const at = Number(await page.$eval(`${sel} [tabindex="0"]`, (e) => e.dataset.cell ?? e.dataset.gap));
  await page.focus(`${sel} [tabindex="0"]`);
  const [dx, dy] = [to % w - at % w, Math.floor(to / w) - Math.floor(at / w)];
  for (let i = 0; i < Math.abs(dx); i++) await page.keyboard.press(dx > 0 ? 'ArrowRight' : 'ArrowLeft');
  for (let i = 0; i < Math.abs(dy); i++) await page.keyboard.press(dy > 0 ? 'ArrowDown' : 'ArrowUp');
  await page.keyboard.press('Enter');
}

test('a Shisen-Sho race: a pair taken by keys on the desk, by taps on the phone', async () => {
  const a = await desk.context.newPage();
  const b = await phone.context.newPage();
  await a.goto(`${server.url}#shisen&size=6x4&gravity=0&chinese=0&seed=3`);
  await a.waitForSelector('#shisen-board .stile');
  await a.click('#shisen-race');
  await a.waitForURL(/\/race\/[0-9a-f]+$/);
  await b.goto(a.url());
  await seatAndReady(a, 'Ada');
  await seatAndReady(b, 'Ben');
  for (const page of [a, b]) await page.waitForSelector('#race-shisen .stile', { timeout: 8000 });
  for (const page of [a, b]) await hears(page, /^Go!$/);
  // A pair that connects, as the server finds them.
  const board = await a.$$eval('#race-shisen .stile', (els) => {
    const cells = Array(24).fill('.');
    for (const e of els) cells[Number(e.dataset.cell)] = e.dataset.kind;
    return [0, 6, 12, 18].map((i) => cells.slice(i, i + 6).join('')).join('\n');
  });
  const { pairs } = await a.evaluate(async (text) => (await fetch('/api/shisen/check', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ board: text, gravity: false, chinese: false }),
  })).json(), board);
  const [x1, y1, x2, y2] = pairs[0];
  await pickByKeys(a, '#race-shisen', 6, y1 * 6 + x1);
  await a.waitForSelector(`#race-shisen .stile[data-cell="${y1 * 6 + x1}"][aria-pressed="true"]`);
  await pickByKeys(a, '#race-shisen', 6, y2 * 6 + x2);
  await a.waitForFunction(() => document.querySelector('#race-left').textContent === '22');
  await b.tap(`#race-shisen .stile[data-cell="${y1 * 6 + x1}"]`);
  await b.tap(`#race-shisen .stile[data-cell="${y2 * 6 + x2}"]`);
  await b.waitForFunction(() => document.querySelector('#race-left').textContent === '22');
  await noViolations(a, 'a Shisen-Sho race\'s board');
  await a.close();
  await b.close();
});
