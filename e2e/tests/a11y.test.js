// Every player: both games played by keyboard alone and on a phone by
// touch, with what a screen reader hears checked; axe-core finds no WCAG
// 2.2 AA violation on any page in either colour scheme; phones never
// scroll sideways and Shisen-Sho tiles stay at least 32 px wide; the
// theme toggle is remembered; the site can be installed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer, startBrowser, screenshots } from './harness.js';
import { noViolations } from './axe.js';
import { SOURCE, step, bfs, readTiles } from './puzzle.js';
import { signUp, uniqueHandle } from './account.js';

let server, desk;
before(async () => { server = await startServer(); desk = await startBrowser(); });
after(async () => { await desk?.stop(); server?.stop(); });

const PHONES = [[390, 844], [360, 740], [844, 390]];
const phone = ([width, height]) => ({ viewport: { width, height }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });

// The relative luminance of the page's background (0 black, 1 white).
const backgroundLuminance = (page) => page.evaluate(() => {
  const [r, g, b] = getComputedStyle(document.documentElement).backgroundColor.match(/\d+/g).map(Number)
    .map((c) => c / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
});

const said = (page, id) => page.textContent(`#${id}`);

// Presses Tab until `selector` has the focus: every control is reachable.
async function tabTo(page, selector, limit = 60) {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return;
  }
  assert.fail(`${selector} not reached in ${limit} presses of Tab`);
}

const KEY = { U: 'ArrowUp', D: 'ArrowDown', L: 'ArrowLeft', R: 'ArrowRight' };

let slideReplay, shisenReplay; // replays the keyboard tests finish, for axe
let keysHandle; // the account the keyboard test signs up

test('a 3x3 solved with the keyboard alone, every move announced', async () => {
  const page = await desk.context.newPage();
  await page.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=4242`);
  await page.waitForSelector('#slide-board .tile');
  keysHandle = uniqueHandle('Keys');
  await signUp(page, keysHandle); // a ranked record, for the records and profile pages
  await page.locator('body').click({ position: { x: 5, y: 5 } }); // the focus leaves the board
  await tabTo(page, '#slide-board');
  const ring = await page.$eval('#slide-board', (b) => getComputedStyle(b).outlineStyle);
  assert.notEqual(ring, 'none', 'the focused board shows a focus ring');
  // A screen reader reads the board as a grid of cells with tile and place.
  const cells = await page.$$eval('#slide-board [role="gridcell"]', (els) => els.map((e) => e.textContent));
  assert.equal(cells.length, 9);
  let tiles = await readTiles(page, 9);
  assert.equal(cells[0], `${tiles[0] === 0 ? 'blank' : tiles[0]}, row 1, column 1`);
  const moves = bfs(tiles, [1, 2, 3, 4, 5, 6, 7, 8, 0]);
  await page.waitForTimeout(400);
  for (const [k, m] of moves.entries()) {
    const blank = tiles.indexOf(0);
    const [dx, dy] = SOURCE[m];
    const moved = tiles[(Math.floor(blank / 3) + dy) * 3 + (blank % 3) + dx];
    await page.keyboard.press(KEY[m]);
    tiles = step(tiles, 3, 3, m);
    if (k === 0) {
      const placed = tiles.filter((t, i) => t !== 0 && t === i + 1).length;
      const word = { U: 'up', D: 'down', L: 'left', R: 'right' }[m];
      await page.waitForFunction((text) => document.querySelector('#slide-said').textContent === text,
        `${moved} ${word}; ${placed} of 8 in place`);
    }
    await page.waitForTimeout(220);
  }
  await page.waitForSelector('#slide-status a[href^="/replay/"]');
  assert.match(await page.textContent('#slide-status'), /^Solved in/);
  slideReplay = await page.getAttribute('#slide-status a', 'href');
  // The replay's analysis: the distance line, what was lost, and the
  // player's own solution shortened, played to the goal on the same board.
  await page.click('#slide-status a');
  await page.waitForSelector('#replay-distance polyline');
  const summary = await page.textContent('#analysis-summary');
  assert.match(summary, new RegExp(`^Optimal: ${moves.length} moves; played: ${moves.length}; 0 moves lost\\.$`));
  const points = (await page.getAttribute('#replay-distance polyline', 'points')).split(' ');
  assert.equal(points.length, moves.length + 1, 'one distance per position');
  await page.selectOption('#replay-speed', '8');
  await page.click('#analysis-shortened');
  await page.waitForSelector('#replay-board.solved', { timeout: 15000 });
  assert.match(await page.textContent('#replay-status'), /Solved|shortened/);
  await page.close();
});

// The cell the keyboard's cursor is on.
const focusedCell = (page) => page.evaluate(() => {
  const e = document.activeElement;
  return Number(e?.dataset.cell ?? e?.dataset.gap ?? -1);
});

// Walks the cursor to `target` with the arrow keys (the board is upright on
// a desk), then presses Enter.
async function choose(page, w, target) {
  let at = await focusedCell(page);
  assert.ok(at >= 0, 'the cursor is on the board');
  const [dx, dy] = [(target % w) - (at % w), Math.floor(target / w) - Math.floor(at / w)];
  for (let i = 0; i < Math.abs(dx); i++) await page.keyboard.press(dx > 0 ? 'ArrowRight' : 'ArrowLeft');
  for (let i = 0; i < Math.abs(dy); i++) await page.keyboard.press(dy > 0 ? 'ArrowDown' : 'ArrowUp');
  at = await focusedCell(page);
  assert.equal(at, target, 'the arrows walked the cursor to the tile');
  await page.keyboard.press('Enter');
}

test('a Shisen-Sho deal cleared with the keyboard alone, and what a screen reader hears', async () => {
  const page = await desk.context.newPage();
  await page.goto(`${server.url}#shisen&size=6x4&gravity=0&chinese=0&seed=3`);
  await page.waitForSelector('#shisen-board .stile');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await tabTo(page, '#shisen-board [tabindex="0"]');
  const label = await page.evaluate(() => document.activeElement.querySelector('.sr-only').textContent);
  assert.match(label, /^(empty|[a-z ]+), column \d+, row \d+$/, 'a tile says its name and place');
  // P reads out the pairs that connect now.
  await page.keyboard.press('p');
  await page.waitForFunction(() => /pairs? connects?:/.test(document.querySelector('#shisen-said').textContent));
  let first = true;
  for (let round = 0; round < 40; round++) {
    const left = Number(await page.textContent('#shisen-left'));
    if (left === 0) break;
    await page.keyboard.press('h');
    await page.waitForFunction(() => document.querySelectorAll('.stile.hinted').length === 2);
    const [a, b] = (await page.$$eval('.stile.hinted', (els) => els.map((e) => Number(e.dataset.cell))));
    await page.focus('#shisen-board [tabindex="0"]');
    await choose(page, 6, a);
    assert.equal(await page.getAttribute(`.stile[data-cell="${a}"]`, 'aria-pressed'), 'true');
    if (first) {
      await page.waitForFunction(() => / selected, column \d+, row \d+$/.test(document.querySelector('#shisen-said').textContent));
    }
    await choose(page, 6, b);
    await page.waitForFunction((n) => Number(document.querySelector('#shisen-left').textContent) === n, left - 2);
    if (first) {
      await page.waitForFunction((n) => new RegExp(`^removed .*; ${n} tiles left`).test(document.querySelector('#shisen-said').textContent), left - 2);
      first = false;
    }
  }
  await page.waitForSelector('#shisen-status a[href^="/replay/"]');
  shisenReplay = await page.getAttribute('#shisen-status a', 'href');
  await page.close();
});

const PAGES = () => [
  ['the sliding puzzle', `${server.url}#slide&size=4x4&goal=row-major&seed=7`, '#slide-board .tile'],
  ['Shisen-Sho', `${server.url}#shisen&preset=18x8&gravity=0&chinese=0&seed=7`, '#shisen-board .stile'],
  ['the records', `${server.url}#records`, '#records-body table.records'],
  ['a sliding replay', `${server.url.replace(/\/$/, '')}${slideReplay}`, '#replay-distance polyline'],
  ['a Shisen-Sho replay', `${server.url.replace(/\/$/, '')}${shisenReplay}`, '#replay-board .stile'],
  ['a profile', `${server.url}u/${keysHandle}`, '.profile-plot svg'],
  ['the rankings', `${server.url}rankings`, '#rankings-source:not(:empty)'],
  ['the fewest-moves page', `${server.url}fmc`, '#fmc-4x4-moves'],
  ['the time-attack page', `${server.url}time-attack`, '#ta-bests:not(:empty)'],
  ['the arenas', `${server.url}arenas`, '#arena-list table'],
  ['a race\'s lobby', raceRoom, '#race-players li'],
];

// A race room to check, opened as the page's button opens one.
let raceRoom;
async function openRace(page) {
  await page.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=7`);
  await page.waitForSelector('#slide-board .tile');
  await page.click('#slide-race');
  await page.waitForURL(/\/race\/[0-9a-f]+$/);
  return page.url();
}

for (const scheme of ['light', 'dark']) {
  test(`axe-core finds no violation on any page, ${scheme} scheme`, async () => {
    assert.ok(slideReplay && shisenReplay, 'the keyboard tests left replays');
    const page = await desk.context.newPage();
    await page.emulateMedia({ colorScheme: scheme });
    raceRoom = await openRace(page); // a fresh room: one left empty expires in a minute
    for (const [what, url, ready] of PAGES()) {
      await page.goto('about:blank');
      await page.goto(url);
      await page.waitForSelector(ready);
      const luminance = await backgroundLuminance(page);
      assert.ok(scheme === 'dark' ? luminance < 0.05 : luminance > 0.8, `${what}: background luminance ${luminance}`);
      await noViolations(page, `${what} (${scheme})`);
    }
    // The open sign-in form, the keys dialog and a colour scheme look.
    await page.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=7`);
    await page.waitForSelector('#slide-board .tile');
    await page.waitForSelector('#account-guest:not([hidden]), #account-user:not([hidden])');
    if (await page.isVisible('#account-logout')) await page.click('#account-logout');
    await page.click('#account-open');
    await noViolations(page, `the sign-in form (${scheme})`);
    await page.keyboard.press('Escape');
    await page.click('#slide-board');
    await page.keyboard.press('?');
    await page.waitForSelector('#keys[open]');
    await noViolations(page, `the keys dialog (${scheme})`);
    await page.click('#keys-close');
    for (const look of ['scheme:fringe', 'scheme:rows', 'scheme:columns', 'scheme:gradient']) {
      await page.selectOption('#slide-look', look);
      await page.waitForSelector(`#slide-board[data-look="${look}"]`);
      await noViolations(page, `the sliding puzzle in ${look} (${scheme})`);
    }
    await page.close();
  });
}

test('the theme toggle is remembered, and motion stops for those who asked', async () => {
  const page = await desk.context.newPage();
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await page.goto(`${server.url}#slide&size=3x3&seed=1`);
  await page.waitForSelector('#slide-board .tile');
  assert.ok(await backgroundLuminance(page) > 0.8);
  assert.equal(await page.getAttribute('#theme-toggle', 'aria-pressed'), 'false');
  await page.click('#theme-toggle');
  assert.equal(await page.getAttribute('#theme-toggle', 'aria-pressed'), 'true');
  await page.reload();
  await page.waitForSelector('#slide-board .tile');
  assert.ok(await backgroundLuminance(page) < 0.05, 'dark after a reload');
  assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
  const motion = await page.$eval('#slide-board .tile', (t) => getComputedStyle(t).transitionDuration);
  assert.equal(motion, '0s');
  await page.click('#theme-toggle');
  await page.evaluate(() => localStorage.removeItem('tessera-theme'));
  await page.close();
});

test('the site installs: a manifest with icons, and a notice when the server is gone', async () => {
  const page = await desk.context.newPage();
  await page.goto(`${server.url}#slide&size=3x3&seed=1`);
  await page.waitForSelector('#slide-board .tile');
  const href = await page.getAttribute('link[rel="manifest"]', 'href');
  const manifest = await page.evaluate(async (h) => (await fetch(h)).json(), href);
  assert.equal(manifest.display, 'standalone');
  assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/);
  assert.equal(manifest.start_url, '/');
  for (const size of [192, 512]) {
    const icon = manifest.icons.find((i) => i.sizes === `${size}x${size}` && i.purpose === 'any');
    assert.ok(icon, `an icon of ${size}`);
    const natural = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    }, icon.src);
    assert.deepEqual(natural, [size, size]);
  }
  assert.ok(manifest.icons.some((i) => i.purpose === 'maskable'));
  // Offline: the page says so instead of failing in silence.
  assert.equal(await page.isHidden('#offline'), true);
  await desk.context.setOffline(true);
  await page.click('#slide-new');
  await page.waitForSelector('#offline:not([hidden])');
  assert.match(await page.textContent('#slide-status'), /cannot be reached/);
  await desk.context.setOffline(false);
  await page.click('#slide-new');
  await page.waitForSelector('#offline[hidden]', { state: 'attached' });
  await page.close();
});

// How far the page reaches beyond the screen's width. A phone browser
// widens its layout to fit content that overflows (and then shows it
// zoomed out), so the page's width is compared with the device's, not
// with innerWidth.
const sideways = (page) => page.evaluate(() => Math.max(document.documentElement.scrollWidth, window.innerWidth) - screen.width);

for (const size of PHONES) {
  test(`a ${size[0]}x${size[1]} phone: nothing scrolls sideways, Shisen-Sho tiles are at least 32 px`, async () => {
    const browser = await startBrowser(phone(size));
    try {
      const page = await browser.context.newPage();
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto('about:blank');
        await page.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=7`);
        await page.waitForSelector('#slide-records table.records');
        assert.ok(await sideways(page) <= 0, `the sliding puzzle scrolls ${await sideways(page)} px sideways (${scheme})`);
        // Nothing is cut off either: every control lies inside the screen.
        const outside = await page.$$eval('#page-slide button, #page-slide select, #slide-board', (els) =>
          els.filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.left < 0 || r.right > screen.width); })
            .map((e) => e.id || e.textContent));
        assert.deepEqual(outside, [], 'controls beyond the screen\'s edge');
        if (size[0] === 390) await noViolations(page, `the sliding puzzle on a phone (${scheme})`);
        await page.goto('about:blank');
        await page.goto(`${server.url}#shisen&preset=18x8&gravity=0&chinese=0&seed=7`);
        await page.waitForSelector('#shisen-board .stile');
        assert.ok(await sideways(page) <= 0, `Shisen-Sho scrolls ${await sideways(page)} px sideways (${scheme})`);
        const smallest = await page.$$eval('#shisen-board .stile', (els) =>
          Math.min(...els.map((e) => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); })));
        assert.ok(smallest >= 32, `the smallest tile is ${smallest} px`);
        const board = await page.locator('#shisen-board').boundingBox();
        assert.ok(board.x >= 0 && board.x + board.width <= size[0], 'the board is one screen wide');
        if (size[0] === 390) await noViolations(page, `Shisen-Sho on a phone (${scheme})`);
        if (process.env.UPDATE_SCREENSHOTS && size[0] === 390) {
          await page.screenshot({ path: join(screenshots, `phone-shisen-${scheme}.png`) });
          await page.goto('about:blank');
          await page.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=7`);
          await page.waitForSelector('#slide-board .tile');
          await page.screenshot({ path: join(screenshots, `phone-slide-${scheme}.png`) });
        }
        // The largest preset does not fit one screen: it pans in its frame
        // (and pinch-zooms: the page never forbids it), the page does not.
        await page.goto('about:blank');
        await page.goto(`${server.url}#shisen&preset=30x16&gravity=0&chinese=0&seed=7`);
        await page.waitForSelector('#shisen-board .stile');
        assert.ok(await sideways(page) <= 0, `Shisen-Sho 30x16 scrolls the page ${await sideways(page)} px sideways`);
        const frame = await page.$eval('.shisen-wrap', (w) => [w.scrollWidth, w.clientWidth]);
        assert.ok(frame[0] > frame[1], `the 30x16 board pans in its frame (${frame})`);
        assert.doesNotMatch(await page.getAttribute('meta[name="viewport"]', 'content'), /user-scalable=no|maximum-scale=1\b/);
      }
      await page.close();
    } finally {
      await browser.stop();
    }
  });
}

// A finger's swipe across the board: a touch start, a move and an end.
async function swipe(cdp, [x, y], [dx, dy]) {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x + dx / 2, y: y + dy / 2 }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x + dx, y: y + dy }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

test('on a phone: a 3x3 solved by swipes, a Shisen-Sho pair taken by taps, a rotation keeps the game', async () => {
  const browser = await startBrowser(phone([390, 844]));
  try {
    const page = await browser.context.newPage();
    const cdp = await browser.context.newCDPSession(page);
    await page.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=99`);
    await page.waitForSelector('#slide-board .tile');
    let tiles = await readTiles(page, 9);
    const box = await page.locator('#slide-board').boundingBox();
    const middle = [box.x + box.width / 2, box.y + box.height / 2];
    await page.waitForTimeout(400);
    for (const m of bfs(tiles, [1, 2, 3, 4, 5, 6, 7, 8, 0])) {
      const [dx, dy] = { U: [0, -60], D: [0, 60], L: [-60, 0], R: [60, 0] }[m];
      await swipe(cdp, middle, [dx, dy]);
      tiles = step(tiles, 3, 3, m);
      await page.waitForTimeout(220);
    }
    assert.deepEqual(await readTiles(page, 9), [1, 2, 3, 4, 5, 6, 7, 8, 0]);
    await page.waitForSelector('#slide-status a[href^="/replay/"]');

    await page.goto(`${server.url}#shisen&preset=18x8&gravity=0&chinese=0&seed=11`);
    await page.waitForSelector('#shisen-board .stile');
    assert.equal(await page.getAttribute('#shisen-board', 'class'), 'shisen-board turned', 'upright, the board is turned');
    await page.tap('#shisen-hint');
    await page.waitForFunction(() => document.querySelectorAll('.stile.hinted').length === 2);
    const [a, b] = await page.$$eval('.stile.hinted', (els) => els.map((e) => e.dataset.cell));
    const seed = await page.textContent('#shisen-status');
    await page.tap(`.stile[data-cell="${a}"]`);
    assert.equal(await page.getAttribute(`.stile[data-cell="${a}"]`, 'aria-pressed'), 'true');
    // Turned to landscape: the same game, the same selection.
    const clock = await page.textContent('#shisen-time');
    await page.setViewportSize({ width: 844, height: 390 });
    await page.waitForFunction(() => !document.querySelector('#shisen-board').classList.contains('turned'));
    assert.equal(await page.getAttribute(`.stile[data-cell="${a}"]`, 'aria-pressed'), 'true');
    assert.equal(await page.textContent('#shisen-left'), '144');
    assert.ok(!seed.includes('error'));
    await page.waitForFunction((c) => document.querySelector('#shisen-time').textContent !== c, clock, { timeout: 3000 });
    await page.tap(`.stile[data-cell="${b}"]`);
    await page.waitForFunction(() => document.querySelector('#shisen-left').textContent === '142');
    await page.close();
  } finally {
    await browser.stop();
  }
});
