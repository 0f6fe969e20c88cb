// The speedsolver's clock: a sliding solve is timed from its first move to
// its last, as slidysim times it, however long the scramble was read
// first; the result, its TPS, the record and the replay say the same time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser } from './harness.js';
import { bfs, readTiles } from './puzzle.js';
import { signUp, uniqueHandle } from './account.js';

let server, chromium;
before(async () => { server = await startServer(); chromium = await startBrowser(); });
after(async () => { await chromium?.stop(); server?.stop(); });

// The arrow key that slides a tile each way.
const KEY = { U: 'ArrowUp', D: 'ArrowDown', L: 'ArrowLeft', R: 'ArrowRight' };

// The page's own clock format (api.js `clock`), for times under a minute.
const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;

test('a 3x3 read for 3 s is timed from its first move to its last, in the result, its record and its replay', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=20261207`);
  await signUp(page, uniqueHandle('Clock'));
  await page.waitForSelector('#slide-board .tile');
  const tiles = await readTiles(page, 9);
  const moves = bfs(tiles, [1, 2, 3, 4, 5, 6, 7, 8, 0]);
  assert.ok(moves.length >= 8, `a scramble worth timing (${moves.length} moves)`);
  // Reading the scramble: the clock has not started.
  await page.waitForTimeout(3000);
  assert.equal(await page.textContent('#slide-time'), '0.0s');
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/slide/submit'));
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/slide/submit'));
  for (const m of moves) {
    await page.keyboard.press(KEY[m]);
    await page.waitForTimeout(120);
  }
  const { times } = JSON.parse((await sent).postData());
  const result = await (await answered).json();
  const solve = times[times.length - 1] - times[0];
  assert.ok(times[0] >= 3000, `the first move after the read (${times[0]} ms)`);
  assert.equal(result.millis, solve, 'the time runs from the first move to the last');
  assert.equal(result.reading_ms, times[0], 'the read is kept apart');
  assert.equal(result.ranked, true, result.reason ?? '');

  // The page says that time and its TPS, and its clock stopped there.
  await page.waitForSelector('#slide-status.good');
  const tps = (moves.length / (solve / 1000)).toFixed(2);
  const status = await page.textContent('#slide-status');
  assert.ok(status.includes(`in ${seconds(solve)}`), status);
  assert.ok(status.includes(`${tps} TPS`), status);
  assert.equal(await page.textContent('#slide-time'), seconds(solve));

  // The record shows the same time.
  const row = page.locator('#slide-records table.records').first().locator('tr.mine').first();
  await row.waitFor();
  assert.ok((await row.textContent()).includes(seconds(solve)), await row.textContent());

  // The replay: the same time and TPS, the read named, and its clock and
  // graph run from the first move, not from the deal.
  await row.locator('a.replay-link').click();
  await page.waitForSelector('#replay-board .tile');
  const info = await page.textContent('#replay-info');
  assert.ok(info.includes(seconds(solve)), info);
  assert.ok(info.includes(`${tps} TPS`), info);
  assert.ok(info.includes(`read for ${seconds(times[0])} first`), info);
  assert.match(await page.textContent('#replay-graph-caption'), new RegExp(`over the ${seconds(solve).replace('.', '\\.')} of play`));
  await page.locator('#replay-scrub').fill('1');
  assert.equal(await page.textContent('#replay-clock'), '0.0s', 'the first move at the clock\'s start');
  await page.close();
});
