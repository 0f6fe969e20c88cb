// The sliding puzzle in a real browser: sign up, solve a 3×3 by clicking
// tiles and see the record appear under the handle; a guest's solve waits
// for its player to sign up.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer, startBrowser, screenshots, holdBack } from './harness.js';
import { SOURCE, INVERSE, step, bfs, readTiles } from './puzzle.js';
import { signUp, signIn, uniqueHandle } from './account.js';

let server, chromium;
before(async () => { server = await startServer(); chromium = await startBrowser(); });
after(async () => { await chromium?.stop(); server?.stop(); });

// The replay page's tiles, cell by cell (0 = blank), read from their
// placement.
async function replayTiles(page) {
  return page.$$eval('#replay-board .tile', (els) => {
    const tiles = Array(els.length + 1).fill(0);
    const w = Math.round(Math.sqrt(els.length + 1));
    for (const e of els) {
      const [x, y] = e.style.transform.match(/-?[\d.]+/g).map(Number).map((v) => Math.round(v / 100));
      tiles[y * w + x] = Number(e.dataset.tile);
    }
    return tiles;
  });
}

// Solves the 3×3 on the page by clicking tiles at a person's pace: a look
// at the puzzle, then about four moves a second. Gives the moves.
async function solveByHand(page) {
  await page.waitForSelector('#slide-board .tile');
  let tiles = await readTiles(page, 9);
  const moves = bfs(tiles, [1, 2, 3, 4, 5, 6, 7, 8, 0]);
  assert.ok(moves.length > 0);
  await page.waitForTimeout(500);
  for (const m of moves) {
    const b = tiles.indexOf(0);
    const [dx, dy] = SOURCE[m];
    const cell = (Math.floor(b / 3) + dy) * 3 + (b % 3) + dx;
    await page.click(`#slide-board .tile[data-cell="${cell}"]`);
    tiles = step(tiles, 3, 3, m);
    await page.waitForTimeout(250);
  }
  return moves;
}

// The row of the player's own record in the best-time table.
const myRecord = (page) => page.locator('#slide-records table.records').first().locator('tr.mine').first();
// The player's latest results, the last table of the records box.
const myResults = (page) => page.locator('#slide-records table.records').last();

let handle; // the account the first test makes

test('a 3x3 solved by clicking tiles at a human pace becomes a record', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=20261121`);
  // A handle with markup is refused, and the error is shown as text.
  await page.click('#account-open');
  await page.fill('#account-handle', 'Tess <b>&amp;</b>');
  await page.fill('#account-password', 'correct horse battery staple 42');
  await page.click('#account-signup');
  await page.waitForSelector('#account-message.error');
  assert.match(await page.textContent('#account-message'), /handle|character/i);
  assert.equal(await page.locator('#account b').count(), 0);
  assert.equal(await page.locator('#account-user[hidden]').count(), 1);
  handle = uniqueHandle('Tess');
  await signUp(page, handle);
  const moves = await solveByHand(page);
  await page.waitForSelector('#slide-status.good');
  const status = await page.textContent('#slide-status');
  assert.match(status, new RegExp(`: ${moves.length} moves \\(\\d+ MTM\\), [\\d.]+ TPS — ranked`));
  assert.equal(await page.textContent('#slide-moves'), String(moves.length));
  // The record table lists the result under the handle.
  const row = myRecord(page);
  await row.waitFor();
  assert.ok((await row.textContent()).includes(handle));
  await page.waitForTimeout(300); // let animations settle
  await page.screenshot({ path: join(screenshots, 'slide-solved.png') });

  // The record links to its replay, which plays the solve back to the goal.
  await row.locator('a.replay-link').click();
  await page.waitForURL(/\/replay\/[0-9a-f]{32}$/);
  await page.waitForSelector('#replay-board .tile');
  assert.equal(await page.textContent('#replay-total'), String(moves.length));
  assert.match(await page.textContent('#replay-info'), /ranked/);
  await page.selectOption('#replay-speed', '8');
  await page.click('#replay-play');
  await page.waitForSelector('#replay-board.solved', { timeout: 15000 });
  assert.equal(await page.textContent('#replay-move'), String(moves.length));
  assert.deepEqual(await replayTiles(page), [1, 2, 3, 4, 5, 6, 7, 8, 0]);
  // Step back and forth.
  await page.click('#replay-back');
  assert.equal(await page.textContent('#replay-move'), String(moves.length - 1));
  assert.equal(await page.locator('#replay-board.solved').count(), 0);
  assert.deepEqual(await replayTiles(page), step([1, 2, 3, 4, 5, 6, 7, 8, 0], 3, 3, INVERSE[moves[moves.length - 1]]));
  await page.click('#replay-forward');
  await page.waitForSelector('#replay-board.solved');
  // The scrubber goes anywhere; the start is the dealt position.
  await page.click('#replay-start');
  assert.equal(await page.textContent('#replay-move'), '0');
  await page.locator('#replay-scrub').fill(String(Math.floor(moves.length / 2)));
  assert.equal(await page.textContent('#replay-move'), String(Math.floor(moves.length / 2)));
  assert.ok(await page.locator('#replay-tps polyline').count() === 1, 'a TPS graph');
  const text = await page.evaluate(async () => {
    const id = location.pathname.split('/').pop();
    return (await (await fetch(`/api/replays/${id}`)).json()).moves;
  });
  assert.equal(text, moves.join(''));
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(screenshots, 'replay.png') });
});

test('a guest\'s solve is unranked until the guest signs up; then it is a record under the handle', async () => {
  const guest = await startBrowser();
  try {
    const page = await guest.context.newPage();
    await page.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=31415`);
    const moves = await solveByHand(page);
    await page.waitForSelector('#slide-status.warn:has-text("Solved")');
    assert.match(await page.textContent('#slide-status'), new RegExp(`: ${moves.length} moves .* not ranked — guest: sign in to be ranked`));
    await page.waitForFunction(() => /guest: sign in to be ranked/.test(
      [...document.querySelectorAll('#slide-records table.records')].pop()?.textContent || ''));
    assert.equal(await myRecord(page).count(), 0, 'no record for a guest');
    // Signing up in the same browser moves the result to the account,
    // where it counts: the records now show it under the handle.
    const mine = uniqueHandle('Guest');
    await page.click('#account-open');
    await page.fill('#account-handle', mine);
    await page.screenshot({ path: join(screenshots, 'account.png') });
    await signUp(page, mine);
    await myRecord(page).waitFor();
    assert.ok((await myRecord(page).textContent()).includes(mine));
    assert.match(await myResults(page).textContent(), /ranked/);
    assert.doesNotMatch(await myResults(page).textContent(), /guest/);
    const history = await myResults(page).textContent();

    // Another browser, signed in to the same account, shows the same history.
    const other = await startBrowser();
    try {
      const there = await other.context.newPage();
      await there.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=31415`);
      await there.waitForSelector('#slide-records table.records');
      assert.equal(await myRecord(there).count(), 0, 'a stranger owns no record');
      await signIn(there, mine);
      await myRecord(there).waitFor();
      assert.ok((await myRecord(there).textContent()).includes(mine));
      assert.equal(await myResults(there).textContent(), history);
      // The same profile: the name in the records and the header lead to
      // /u/{handle}, with the solve, its plot and its replay.
      assert.equal(await myRecord(there).locator(`a[href="/u/${mine}"]`).count(), 1);
      await there.click('#account-profile');
      await there.waitForURL(new RegExp(`/u/${mine}$`));
      await there.waitForSelector('.profile-variant');
      assert.equal(await there.textContent('#profile-title'), mine);
      assert.match(await there.textContent('#profile-info'), /^1 solve · playing since \d{4}-\d\d-\d\d$/);
      assert.match(await there.textContent('.profile-variant'), /3x3-row-major.*solves1 \(1 ranked\)/);
      assert.match(await there.getAttribute('.profile-plot svg', 'aria-label'), /^times of the last 1 solves of 3x3-row-major/);
      await there.click('#profile-recent a.replay-link');
      await there.waitForSelector('#replay-board .tile');
      assert.equal(await there.textContent('#replay-total'), String(moves.length));
      await there.goBack();
      await there.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=31415`);
      await there.waitForSelector('#account-user:not([hidden])');
      // Signing out leaves a guest again, whose results these are not.
      await there.click('#account-logout');
      await there.waitForSelector('#account-guest:not([hidden])');
      await there.waitForFunction(() => !document.querySelector('#slide-records table.records tr.mine'));
    } finally {
      await other.stop();
    }
  } finally {
    await guest.stop();
  }
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
  // Undo makes the opposite move: the position goes back, and it counts.
  const count = Number(await page.textContent('#slide-moves'));
  const beforeUndo = await readTiles(page, 16);
  await page.click('#slide-undo');
  assert.equal(await page.textContent('#slide-moves'), String(count + 1));
  assert.notDeepEqual(await readTiles(page, 16), beforeUndo);
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
  await page.waitForSelector('#slide-status:has-text("Solved")', { timeout: 20000 });
  assert.match(await page.textContent('#slide-status'), /not ranked — assisted/);
  const records = page.locator('#slide-records table.records').first();
  assert.match(await records.textContent(), /no records yet/);
});

test('MTM hints name a whole run and MTM solve plays a solution shortest in MTM', async () => {
  const page = await chromium.context.newPage();
  // Seed 99's spiral 3x3, as above, now in the multi-tile metric.
  await page.goto(`${server.url}#slide&size=3x3&goal=spiral&seed=99`);
  await page.waitForSelector('#slide-board .tile');
  await page.check('#slide-mtm-hints');
  await page.click('#slide-hint');
  await page.waitForFunction(() => /Hint: slide [UDLR]\d* \(\d+ MTM moves to go, optimal\)/.test(document.querySelector('#slide-status').textContent));
  const hinted = Number((await page.textContent('#slide-status')).match(/\((\d+) MTM/)[1]);
  await page.click('#slide-solve');
  await page.waitForSelector('#slide-status:has-text("Solved")', { timeout: 20000 });
  // The moves the page made count as many MTM moves as the hint promised.
  assert.equal(Number(await page.textContent('#slide-mtm')), hinted);
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

// Answers can come back out of order: the records of the format chosen
// last stay on the page when an older choice's answer arrives after them.
test('the records page keeps the latest choice when an older answer comes back last', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#records`);
  await page.selectOption('#records-game', 'slide');
  await page.waitForSelector('#records-variant option[value="3x3-row-major"]', { state: 'attached' });
  // Hold back the history of the plain 3x3 records (no format, no control).
  const plain = /\/api\/records\/history\?game=slide&variant=3x3-row-major$/;
  const release = await holdBack(page, plain, (r) => plain.test(r.url()));
  await page.selectOption('#records-variant', '3x3-row-major');
  await page.selectOption('#records-format', 'marathon-5');
  await page.waitForSelector('#records-body h3:has-text("3x3-row-major, marathon-5")');
  await release();
  assert.equal(await page.textContent('#records-body h3'), 'Records — 3x3-row-major, marathon-5');
  await page.close();
});

// Answers can come back out of order: the game asked for last is the one
// on the board when an earlier game's answer arrives after it.
test('a new game asked for last is the one played when an earlier answer comes back last', async () => {
  const page = await chromium.context.newPage();
  // Hold back the first deal, the one the address asks for (seed 4711).
  const first = (r) => r.url().endsWith('/api/slide/new') && JSON.parse(r.postData() || '{}').seed === 4711;
  const release = await holdBack(page, '**/api/slide/new', first);
  await page.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=4711`);
  await page.waitForSelector('#slide-new');
  const dealt = page.waitForResponse((r) => r.url().endsWith('/api/slide/new') && !first(r.request()));
  await page.click('#slide-new');
  const seed = (await (await dealt).json()).seed;
  await page.waitForSelector(`#slide-status:has-text("Seed ${seed}")`);
  await release();
  assert.match(await page.textContent('#slide-status'), new RegExp(`^Seed ${seed}\\b`));
  assert.ok(!page.url().includes('seed=4711'), page.url());
  await page.close();
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
