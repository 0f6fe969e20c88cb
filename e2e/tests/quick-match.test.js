// "Play rated" on the sliding puzzle's page, as two signed-in players in
// two browsers press it: both wait in the pool's queue, land on the same
// rated race's page, race it and see their new ratings; a guest is told
// to sign in; the page is clean for axe-core while waiting. (The queue's
// rules: tests/it/quick_match.rs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser } from './harness.js';
import { noViolations } from './axe.js';
import { signUp, uniqueHandle } from './account.js';
import { bfs } from './puzzle.js';
import { myTiles, click, hears, takeSeat } from './racing.js';

const GOAL = [1, 2, 3, 4, 5, 6, 7, 8, 0];

let server, first, second;
before(async () => {
  server = await startServer();
  first = await startBrowser();
  second = await startBrowser();
});
after(async () => { await first?.stop(); await second?.stop(); server?.stop(); });

async function ready(desk, prefix) {
  const page = await desk.context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('#slide-rated');
  if (prefix) await signUp(page, uniqueHandle(prefix));
  await page.selectOption('#slide-size', '3x3');
  await page.selectOption('#slide-goal', 'row-major');
  return page;
}

async function solveByHand(page) {
  let tiles = await myTiles(page);
  await page.waitForTimeout(400);
  for (const m of bfs(tiles, GOAL)) {
    tiles = await click(page, tiles, m);
    await page.waitForTimeout(250);
  }
  assert.deepEqual(tiles, GOAL);
}

test('two players pressing Play rated meet in one rated race, race it and see their new ratings', async () => {
  const ada = await ready(first, 'qa');
  const bob = await ready(second, 'qb');
  await ada.click('#slide-rated');
  await ada.waitForSelector('#slide-status:has-text("Looking for players rated within")');
  assert.equal(await ada.getAttribute('#slide-rated', 'aria-pressed'), 'true');
  await noViolations(ada, 'the sliding page while waiting for a rated race');
  await bob.click('#slide-rated');
  await Promise.all([ada.waitForURL(/\/race\//), bob.waitForURL(/\/race\//)]);
  assert.equal(new URL(ada.url()).pathname, new URL(bob.url()).pathname);

  await takeSeat(ada, 'Ada');
  await takeSeat(bob, 'Bob');
  await ada.waitForSelector('#race-players li[data-player="2"]');
  for (const page of [ada, bob]) await page.click('#race-ready');
  for (const page of [ada, bob]) await page.waitForSelector('#race-board .tile', { timeout: 8000 });
  for (const page of [ada, bob]) await hears(page, /^Go!$/);
  await solveByHand(ada);
  await solveByHand(bob);
  for (const page of [ada, bob]) await page.waitForSelector('#race-rating:not([hidden])', { timeout: 15000 });
  assert.match(await ada.textContent('#race-rating'), /^Your Sliding 3x3 rating: \d+\? \(\+\d+\)$/);
  assert.match(await bob.textContent('#race-rating'), /^Your Sliding 3x3 rating: \d+\? \(−\d+\)$/);
  await ada.close();
  await bob.close();
});

test('pressed again, Play rated cancels; a guest is asked to sign in', async () => {
  const desk = await startBrowser();
  const ada = await ready(desk, 'qc');
  await ada.click('#slide-rated');
  await ada.waitForSelector('#slide-status:has-text("Looking for players")');
  await ada.click('#slide-rated');
  await ada.waitForSelector('#slide-status:has-text("No longer waiting")');
  const state = await ada.evaluate(async () => (await fetch('/api/seeks')).status);
  assert.equal(state, 404);
  await desk.stop();

  const guestDesk = await startBrowser();
  const guest = await ready(guestDesk, null);
  await guest.click('#slide-rated');
  await guest.waitForSelector('#slide-status:has-text("Sign in to play rated")');
  await guestDesk.stop();
});
