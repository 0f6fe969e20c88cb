// "Play rated" on the sliding puzzle's page, as two signed-in players in
// two browsers press it: both wait in the pool's queue and land on the
// same rated race's page; a guest is told to sign in; the page is clean
// for axe-core while waiting. (The queue's rules: tests/it/quick_match.rs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser } from './harness.js';
import { noViolations } from './axe.js';
import { signUp, uniqueHandle } from './account.js';

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

test('two players pressing Play rated meet in one rated race', async () => {
  const ada = await ready(first, 'qa');
  const bob = await ready(second, 'qb');
  await ada.click('#slide-rated');
  await ada.waitForSelector('#slide-status:has-text("Looking for players rated within")');
  assert.equal(await ada.getAttribute('#slide-rated', 'aria-pressed'), 'true');
  await noViolations(ada, 'the sliding page while waiting for a rated race');
  await bob.click('#slide-rated');
  await Promise.all([ada.waitForURL(/\/race\//), bob.waitForURL(/\/race\//)]);
  assert.equal(new URL(ada.url()).pathname, new URL(bob.url()).pathname);
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
