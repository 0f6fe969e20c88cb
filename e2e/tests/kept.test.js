// No solve lost: a 4×4 finished as the server dies is kept on the device,
// said to be kept, and sent again until the server, started again on the
// same database, records it, exactly once; the same when the tab is
// closed before the server answers and opened again later.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startServer, restartServer, startBrowser, tesseraBin } from './harness.js';
import { SOURCE, step, readTiles } from './puzzle.js';

let server, chromium;
before(async () => { server = await startServer(); chromium = await startBrowser(); });
after(async () => { await chromium?.stop(); server?.stop(); });

// How long the server stays down.
const DOWN_MS = 10000;

// A solution from the command line, as single-tile letters.
function solution(tiles, w) {
  const rows = [];
  for (let i = 0; i < tiles.length; i += w) rows.push(tiles.slice(i, i + w).join(' '));
  const out = execFileSync(tesseraBin(), ['slide', 'solve', '--fast', rows.join('/')]).toString().trim();
  return out.replace(/([UDLR])(\d+)/g, (_, m, n) => m.repeat(Number(n))).split('');
}

// Solves the 4×4 of `seed` on a new page by clicking its tiles at a
// person's pace; the server dies as the solve is submitted. Gives the page
// (its submission on its way to a dead server) and `sent`, settled once
// the submission has left.
async function solveAsTheServerDies(seed) {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=${seed}`);
  await page.waitForSelector('#slide-board .tile');
  let tiles = await readTiles(page, 16);
  let submitted;
  const sent = new Promise((resolve) => { submitted = resolve; });
  await page.route('**/api/slide/submit', async (route) => {
    await server.kill();
    submitted();
    await route.continue().catch(() => {});
  }, { times: 1 });
  await page.waitForTimeout(400);
  for (const m of solution(tiles, 4)) {
    const b = tiles.indexOf(0);
    const [dx, dy] = SOURCE[m];
    await page.click(`#slide-board .tile[data-cell="${(Math.floor(b / 4) + dy) * 4 + (b % 4) + dx}"]`);
    tiles = step(tiles, 4, 4, m);
    await page.waitForTimeout(120);
  }
  await sent;
  return page;
}

// The player's 4×4 results, as the server counts them.
const results = (page) => page.evaluate(async () => {
  const r = await fetch('/api/me/stats?game=slide&variant=4x4-row-major');
  return (await r.json()).count;
});

test('a 4x4 solved as the server dies is kept, then recorded once when it is back', async () => {
  const page = await solveAsTheServerDies(401);
  await page.waitForSelector('#slide-status:has-text("kept")');
  assert.match(await page.textContent('#slide-status'), /Your 4×4 solve is kept: .* sent again .* until it is recorded/);
  await page.waitForTimeout(DOWN_MS);
  server = await restartServer(server);
  await page.waitForSelector('#slide-status:has-text("solved in")', { timeout: 40000 });
  assert.match(await page.textContent('#outbox'), /Your 4×4 solve, kept on this device, is recorded\. Watch the replay/);
  assert.equal(await results(page), 1);
  await page.close();
});

test('a 4x4 whose tab closed before the server answered is recorded once when the page is back', async () => {
  const page = await solveAsTheServerDies(402);
  await page.close();
  await new Promise((resolve) => setTimeout(resolve, DOWN_MS));
  server = await restartServer(server);
  const again = await chromium.context.newPage();
  await again.goto(`${server.url}#slide`);
  await again.waitForSelector('#outbox:has-text("is recorded")', { timeout: 20000 });
  assert.match(await again.textContent('#outbox'), /Your 4×4 solve, kept on this device, is recorded\. Watch the replay/);
  assert.equal(await results(again), 2);
  // Nothing is left to send: a page opened now sends nothing.
  const third = await chromium.context.newPage();
  let submissions = 0;
  third.on('request', (r) => { if (r.url().endsWith('/api/slide/submit')) submissions += 1; });
  await third.goto(`${server.url}#slide`);
  await third.waitForSelector('#slide-board .tile');
  await third.waitForTimeout(500);
  assert.equal(submissions, 0);
  assert.equal(await results(third), 2);
  await Promise.all([again.close(), third.close()]);
});
