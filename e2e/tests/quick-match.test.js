// "Play rated" on the sliding puzzle's page, as two signed-in players in
// two browsers press it: both wait in the pool's queue, land on the same
// rated race's board in its countdown without another click (a pairing
// is a game), race it and see both new ratings; a guest is told
// to sign in; the page is clean for axe-core while waiting. (The queue's
// rules: tests/it/quick_match.rs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser } from './harness.js';
import { noViolations } from './axe.js';
import { signUp, uniqueHandle } from './account.js';
import { bfs } from './puzzle.js';
import { myTiles, click, hears } from './racing.js';

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

test('two players pressing Play rated land in one rated race counting down, race it and see both new ratings', async () => {
  const ada = await ready(first, 'qa');
  const bob = await ready(second, 'qb');
  await ada.click('#slide-rated');
  await ada.waitForSelector('#slide-status:has-text("Looking for players rated within")');
  assert.equal(await ada.getAttribute('#slide-rated', 'aria-pressed'), 'true');
  await noViolations(ada, 'the sliding page while waiting for a rated race');
  await bob.click('#slide-rated');
  await Promise.all([ada.waitForURL(/\/race\//), bob.waitForURL(/\/race\//)]);
  assert.equal(new URL(ada.url()).pathname, new URL(bob.url()).pathname);

  // Paired is racing: no name, no "ready"; the countdown names the puzzle.
  await Promise.all([ada, bob].map((page) => page.waitForFunction(
    () => /^Get ready: 3×3 sliding puzzle, row-major goal/.test(document.querySelector('#race-status').textContent))));
  for (const page of [ada, bob]) {
    assert.ok(await page.isHidden('#race-join'), 'nobody is asked for a name');
    assert.ok(await page.isHidden('#race-ready'), 'nobody is asked to get ready');
  }
  for (const page of [ada, bob]) await page.waitForSelector('#race-board .tile', { timeout: 8000 });
  for (const page of [ada, bob]) await hears(page, /^Go!$/);
  // Bob makes his first move at once (a paired racer who makes none in
  // 15 seconds aborts the race), then Ada solves first.
  const bobs = await myTiles(bob);
  await click(bob, bobs, bfs(bobs, GOAL)[0]);
  await solveByHand(ada);
  await solveByHand(bob);
  for (const page of [ada, bob]) await page.waitForSelector('#race-rating:not([hidden])', { timeout: 15000 });
  assert.match(await ada.textContent('#race-rating'), /^Sliding 3x3 ratings: you \(\S+\) \d+\? \(\+\d+\); \S+ \d+\? \(−\d+\)$/);
  assert.match(await bob.textContent('#race-rating'), /^Sliding 3x3 ratings: you \(\S+\) \d+\? \(−\d+\); \S+ \d+\? \(\+\d+\)$/);
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
