// Formats in a real browser: a marathon of five 3×3 puzzles and a relay
// from 3×3 to 4×4, played through the page at a person's pace on one
// clock, are ranked for a signed-up account and replay with their splits;
// a blindfold solve shows no number once the first move is made.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startServer, startBrowser, tesseraBin } from './harness.js';
import { SOURCE, step, bfs, readTiles } from './puzzle.js';
import { signUp, uniqueHandle } from './account.js';
import { noViolations } from './axe.js';

let server, chromium, handle;
before(async () => {
  server = await startServer();
  chromium = await startBrowser();
  // One account for every test: pages of the context share its session.
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=3x3`);
  handle = uniqueHandle('Runner');
  await signUp(page, handle);
  await page.close();
});
after(async () => { await chromium?.stop(); server?.stop(); });

const goalOf = (cells) => [...Array(cells - 1).keys()].map((i) => i + 1).concat(0);

// Plays `moves` on the w × h board by clicking tiles, about four a second.
async function clickMoves(page, tiles, w, h, moves) {
  for (const m of moves) {
    const b = tiles.indexOf(0);
    const [dx, dy] = SOURCE[m];
    const cell = (Math.floor(b / w) + dy) * w + (b % w) + dx;
    await page.click(`#slide-board .tile[data-cell="${cell}"]`);
    tiles = step(tiles, w, h, m);
    await page.waitForTimeout(250);
  }
}

// Waits for puzzle `i` (from 0) of the format to be on the board, then
// takes a short look at it.
async function lookAt(page, i) {
  await page.waitForSelector(`#slide-board[data-game$=":${i}"] .tile`);
  await page.waitForTimeout(400);
}

// A solution from the command line (`tessera slide solve --fast`), as
// single-tile letters.
function cliSolution(tiles, w) {
  const rows = [];
  for (let i = 0; i < tiles.length; i += w) rows.push(tiles.slice(i, i + w).join(' '));
  const out = execFileSync(tesseraBin(), ['slide', 'solve', '--fast', rows.join('/')]).toString().trim();
  return out.replace(/([UDLR])(\d+)/g, (_, m, n) => m.repeat(Number(n))).split('');
}

// The replay of the page's last result, opened from the status's link:
// its splits are listed, one per puzzle, and each jumps to its puzzle.
async function checkReplay(page, count, sizes) {
  const link = await page.getAttribute('#slide-status a', 'href');
  const replay = await chromium.context.newPage();
  await replay.goto(new URL(link, server.url).href);
  await replay.waitForSelector('#replay-format:not([hidden]) #replay-splits li');
  const splits = await replay.locator('#replay-splits li').allTextContents();
  assert.equal(splits.length, count);
  splits.forEach((text, i) => assert.match(text, new RegExp(`^${i + 1}\\. ${sizes[i]} · [\\d:.]+s? · split [\\d:.]+s? · \\d+ moves$`), text));
  const data = await replay.evaluate((url) => fetch(url).then((r) => r.json()), `/api/replays/${link.split('/').pop()}`);
  assert.equal(data.ranked, true);
  assert.deepEqual(data.puzzles.map((p) => p.size), sizes);
  // Each split is on the format's clock, after the one before.
  data.puzzles.forEach((p, i) => assert.ok(p.split > (i ? data.puzzles[i - 1].split : 0)));
  // The last split's button shows the last puzzle from its start.
  await replay.locator('#replay-splits button').last().click();
  assert.match(await replay.textContent('#replay-puzzle'), new RegExp(`puzzle ${count} of ${count} \\(${sizes[count - 1]}\\)`));
  assert.equal(await replay.locator('#replay-board .tile').count(), Number(sizes[count - 1][0]) ** 2 - 1);
  // The analysis follows the puzzle on the board: the last one's distance
  // line, one point per position, and its best solution played there.
  await replay.waitForFunction((n) => document.querySelector('#analysis-title').textContent === `Analysis of puzzle ${n}`, count);
  const last = data.puzzles[count - 1];
  const summary = await replay.textContent('#analysis-summary');
  assert.match(summary, new RegExp(`^Puzzle ${count} of ${count} \\(${sizes[count - 1]}\\)\\. Optimal: (at least )?\\d+ moves; played: ${last.moves.length};`), summary);
  const points = (await replay.getAttribute('#replay-distance polyline', 'points')).split(' ');
  assert.equal(points.length, last.moves.length + 1, 'one distance per position of the puzzle');
  await replay.selectOption('#replay-speed', '8');
  await replay.click('#analysis-optimal');
  await replay.waitForSelector('#replay-board.solved', { timeout: 15000 });
  await replay.click('#analysis-yours');
  assert.match(await replay.textContent('#replay-puzzle'), new RegExp(`puzzle ${count} of ${count}`));
  assert.equal(await replay.locator('#replay-board .tile').count(), Number(sizes[count - 1][0]) ** 2 - 1);
  // The splits are for every player: axe-core finds nothing on the page.
  await noViolations(replay, `the replay of ${count} puzzles with its splits`);
  await replay.close();
  return data;
}

// The player's row in the best-time table of the records shown beside
// the board (those of the chosen format).
const myRecord = (page) => page.locator('#slide-records table.records').first().locator('tr.mine').first();

test('a marathon of five 3x3 puzzles on one clock is ranked and replays with its splits', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=424242&format=marathon-5`);
  await page.waitForSelector('#account-user:not([hidden])');
  assert.equal(await page.inputValue('#slide-format'), 'marathon-5');
  const started = Date.now();
  for (let i = 0; i < 5; i++) {
    await lookAt(page, i);
    if (i > 0) assert.match(await page.textContent('#slide-said'), new RegExp(`puzzle ${i + 1} of 5, 3 by 3`));
    const tiles = await readTiles(page, 9);
    await clickMoves(page, tiles, 3, 3, bfs(tiles, goalOf(9)));
  }
  await page.waitForSelector('#slide-status.good', { timeout: 10000 });
  const status = await page.textContent('#slide-status');
  assert.match(status, /^marathon of 5 solved in [\d:.]+s?: \d+ moves .* — ranked\./);
  // The splits: five, each when its puzzle was solved on the one clock.
  assert.equal(await page.locator('#slide-status ol.splits li').count(), 5);
  // One clock from the first move to the last: every later puzzle's look
  // included, the first look not.
  const data = await checkReplay(page, 5, Array(5).fill('3x3'));
  assert.equal(data.format, 'marathon-5');
  assert.ok(data.millis <= Date.now() - started);
  assert.equal(data.millis, data.puzzles[4].split - data.times[0]);
  assert.equal(data.puzzles[0].shown, data.times[0], 'the first puzzle is timed from its first move');
  // Ranked among the marathons (records for the chosen format), by mouse.
  const row = myRecord(page);
  await row.waitFor();
  assert.ok((await row.textContent()).includes(handle));
  const records = await page.evaluate(() => fetch('/api/records?game=slide&variant=3x3-row-major&format=marathon-5&control=mouse').then((r) => r.json()));
  assert.ok(records.by_time.some((r) => r.game_id === data.game));
  // The records page picks the format and the control: by mouse the
  // marathon is there, by keyboard it is not.
  await page.goto(`${server.url}#records`);
  await page.selectOption('#records-game', 'slide');
  await page.waitForSelector('#records-variant option[value="3x3-row-major"]', { state: 'attached' });
  await page.selectOption('#records-variant', '3x3-row-major');
  await page.selectOption('#records-format', 'marathon-5');
  await page.selectOption('#records-control', 'mouse');
  await page.waitForSelector('#records-body h3:has-text("marathon-5, click")');
  assert.ok(await page.locator(`#records-body a[href="/replay/${data.game}"]`).count() > 0);
  assert.equal(await page.locator('#records-body caption:has-text("Best average of 100")').count(), 1);
  await page.selectOption('#records-control', 'keyboard');
  await page.waitForSelector('#records-body h3:has-text("marathon-5, keyboard")');
  assert.equal(await page.locator('#records-body table.records').first().locator('tr.mine').count(), 0);
  // The daily board of the same variant and format: today's, then the
  // day before through its link, and back.
  const today = await page.evaluate(() => fetch('/api/daily?game=slide&variant=3x3-row-major').then((r) => r.json()).then((b) => b.date));
  await page.waitForFunction((d) => document.getElementById('daily-date').value === d, today);
  assert.ok(await page.isDisabled('#daily-next'));
  assert.match(await page.textContent('#daily-body'), /\(today\) — 3x3-row-major, marathon-5/);
  await page.click('#daily-previous');
  await page.waitForFunction((d) => { const v = document.getElementById('daily-date').value; return v && v < d; }, today);
  assert.match(await page.textContent('#daily-body'), /no one played this day/);
  await page.click('#daily-next');
  await page.waitForFunction((d) => document.getElementById('daily-date').value === d, today);
  await page.close();
});

test('a relay from 3x3 to 4x4 is ranked and replays each size with its split', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=777&format=relay-4`);
  await page.waitForSelector('#account-user:not([hidden])');
  await lookAt(page, 0);
  let tiles = await readTiles(page, 9);
  await clickMoves(page, tiles, 3, 3, bfs(tiles, goalOf(9)));
  await lookAt(page, 1);
  assert.match(await page.textContent('#slide-said'), /puzzle 2 of 2, 4 by 4/);
  tiles = await readTiles(page, 16);
  const moves = cliSolution(tiles, 4);
  assert.ok(moves.length > 0);
  await clickMoves(page, tiles, 4, 4, moves);
  await page.waitForSelector('#slide-status.good', { timeout: 10000 });
  assert.match(await page.textContent('#slide-status'), /^relay to 4×4 solved in .* — ranked\./);
  assert.equal(await page.locator('#slide-status ol.splits li').count(), 2);
  const data = await checkReplay(page, 2, ['3x3', '4x4']);
  assert.equal(data.format, 'relay-4');
  assert.equal(data.puzzles[1].stm, moves.length);
  // A relay counts under its last size.
  assert.equal(data.variant, '4x4-row-major');
  const row = myRecord(page);
  await row.waitFor();
  assert.ok((await row.textContent()).includes(handle));
  await page.close();
});

test('blindfold: the numbers are shown until the first move, then no tile has one until solved', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=31337&format=bld`);
  await lookAt(page, 0);
  const numbers = () => page.$$eval('#slide-board .tile', (els) => els.map((e) => e.textContent));
  assert.deepEqual((await numbers()).sort(), ['1', '2', '3', '4', '5', '6', '7', '8']);
  let tiles = await readTiles(page, 9);
  const moves = bfs(tiles, goalOf(9));
  await clickMoves(page, tiles, 3, 3, moves.slice(0, 1));
  assert.deepEqual(await numbers(), Array(8).fill(''));
  tiles = await readTiles(page, 9);
  await clickMoves(page, tiles, 3, 3, moves.slice(1));
  await page.waitForSelector('#slide-status.good', { timeout: 10000 });
  // Both phases are timed: the look, then the solve blind.
  assert.match(await page.textContent('#slide-status'), /^blindfold solved in [\d:.]+s? \(memorised in [\d:.]+s?, solved blind in [\d:.]+s?\)/);
  assert.deepEqual((await numbers()).sort(), ['1', '2', '3', '4', '5', '6', '7', '8']);
  await page.close();
});
